import RowKit

/// The title and style a YAML or JSON listing gives after its rows, guessed from the end of the
/// file, so the rows can be handed out in the first pass with the header they will end up with.
///
/// Tools that sort keys (Python's `yaml.dump` and `json.dumps(sort_keys=True)`, Go's
/// `encoding/json`) write `sections` before `style` and `title`. A guess is only a guess: the
/// reader checks it against the header it reads and reads the rows again when they differ.
struct ListingHints {
    /// How many bytes from the end are looked at.
    static let tailLength = 64 * 1024

    var title: String?
    var style: TableStyle?

    init(tail: [UInt8], format: ListingFormat) {
        let values = format == .json ? Self.jsonValues(tail) : Self.yamlValues(tail)
        title = values["title"]
        style = values["style"].flatMap(TableStyle.init(rawValue:))
    }

    /// The last `title:` and `style:` lines that start a line, values as written (plain or quoted).
    ///
    /// Lines end at CR or LF bytes; only the few that start with one of the keys become strings
    /// (splitting all of the tail's text by characters took about 3 ms at the start of an export).
    private static func yamlValues(_ bytes: [UInt8]) -> [String: String] {
        var values: [String: String] = [:]
        let prefixes = [Array("title:".utf8), Array("style:".utf8)]
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") && bytes[end] != UInt8(ascii: "\r") { end += 1 }
            defer { start = end + 1 }
            guard prefixes.contains(where: { bytes[start..<end].starts(with: $0) }) else { continue }
            let line = Substring(String(decoding: bytes[start..<end], as: UTF8.self))
            for key in ["title", "style"] where line.hasPrefix(key + ":") {
                var value = line.dropFirst(key.count + 1).drop { $0 == " " || $0 == "\t" }
                if let first = value.first, first == "\"" || first == "'" {
                    value = value.dropFirst()
                    guard let close = value.lastIndex(of: first) else { continue }
                    var inner = String(value[..<close])
                    inner =
                        first == "'"
                        ? inner.replacingOccurrences(of: "''", with: "'")
                        : inner.replacingOccurrences(of: "\\\"", with: "\"")
                    values[key] = inner
                } else {
                    if let comment = value.range(of: " #") { value = value[..<comment.lowerBound] }
                    let plain = value.trimmingCharacters(in: [" ", "\t"])
                    if !plain.isEmpty { values[key] = plain }
                }
            }
        }
        return values
    }

    /// The last `"title": "..."` and `"style": "..."` members.
    private static func jsonValues(_ bytes: [UInt8]) -> [String: String] {
        var values: [String: String] = [:]
        for key in ["title", "style"] {
            let pattern = Array("\"\(key)\"".utf8)
            var index = bytes.count - pattern.count
            while index >= 0 {
                defer { index -= 1 }
                guard bytes[index..<(index + pattern.count)].elementsEqual(pattern),
                    index == 0 || bytes[index - 1] != UInt8(ascii: "\\")
                else { continue }
                var cursor = index + pattern.count
                func skipBlanks() {
                    while cursor < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[cursor]) { cursor += 1 }
                }
                skipBlanks()
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else { continue }
                cursor += 1
                skipBlanks()
                guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else { continue }
                cursor += 1
                var value: [UInt8] = []
                while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\"") {
                    if bytes[cursor] == UInt8(ascii: "\\"), cursor + 1 < bytes.count {
                        cursor += 1
                        switch bytes[cursor] {
                        case UInt8(ascii: "n"): value.append(0x0A)
                        case UInt8(ascii: "t"): value.append(0x09)
                        default: value.append(bytes[cursor])
                        }
                    } else {
                        value.append(bytes[cursor])
                    }
                    cursor += 1
                }
                values[key] = String(decoding: value, as: UTF8.self)
                break
            }
        }
        return values
    }
}
