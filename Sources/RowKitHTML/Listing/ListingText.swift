/// Byte-level checks shared by every reader: UTF-8 validation, BOM stripping and positions.
enum ListingText {
    /// The byte offset of the first ill-formed UTF-8 sequence (RFC 3629), or `nil` if all is valid.
    ///
    /// - Complexity: O(n).
    static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int? {
        var i = 0
        let n = bytes.count
        while i < n {
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard n - i >= length else { return i }
            let second = bytes[i + 1]
            guard second >= low, second <= high else { return i }
            for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    /// The 1-based line and column (in Unicode scalars) of byte `offset`; CR, LF and CRLF end lines.
    ///
    /// - Complexity: O(offset).
    static func position(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        var i = 0
        let end = min(offset, bytes.count)
        while i < end {
            let byte = bytes[i]
            if byte == 0x0A || (byte == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A)) {
                line += 1
                column = 1
            } else if byte != 0x0D && byte & 0xC0 != 0x80 {
                column += 1
            }
            i += 1
        }
        return (line, column)
    }

    /// The bytes without a leading UTF-8 byte order mark.
    static func droppingBOM(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            return bytes[3...]
        }
        return bytes[...]
    }

    /// A printable description of a byte for diagnostics: `'x'` for visible ASCII, else hex.
    static func describe(byte: UInt8) -> String {
        if byte > 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        switch byte {
        case 0x20: return "a space"
        case 0x09: return "a tab"
        case 0x0A, 0x0D: return "a line break"
        default: return hex(byte)
        }
    }

    /// `byte 0xAB` for a byte.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "byte 0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }
}
