import RowKitListing

/// One file of a site.
struct ManifestEntry: Sendable, Equatable {
    var path: String
    /// The hash of the content (``StableHash``).
    var hash: UInt64
    var size: Int
    /// The unit of a page.
    var unit: ManifestUnit?
    /// The key of the sources a page was made from.
    var key: UInt64?
    /// For a list page: the byte ranges of its sections' rows in the file.
    var parts: [Range<Int>] = []

    /// The entry as one line of the manifest (without the separating comma).
    var line: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the entry's line (without the separating comma) to `out`.
    func append(to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        Self.appendJSONString(path, to: &out)
        out.append(contentsOf: ",\"".utf8)
        Self.appendHex(hash, to: &out)
        out.append(contentsOf: "\",".utf8)
        out.append(contentsOf: String(size).utf8)
        if let unit, let key {
            out.append(contentsOf: ",\"\(unit.table)/\(unit.page)\",\"".utf8)
            Self.appendHex(key, to: &out)
            out.append(UInt8(ascii: "\""))
            if !parts.isEmpty {
                out.append(contentsOf: ",[".utf8)
                for (index, part) in parts.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(contentsOf: "[\(part.lowerBound),\(part.count)]".utf8)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out.append(UInt8(ascii: "]"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// 16 lower-case hex digits.
    static func appendHex(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 60, through: 0, by: -4) { out.append(hexDigits[Int((value >> UInt64(shift)) & 0xF)]) }
    }

    static func appendJSONString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func jsonString(_ string: String) -> String {
        var out: [UInt8] = []
        appendJSONString(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
