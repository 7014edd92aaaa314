/// One Server-Sent Event of a table's stream: its name, the table revision it leads to (the
/// event's `id`) and one line of JSON.
struct LiveEvent: Sendable, Equatable {
    /// `hello`, `changeset`, `exported`, `reload` or `problems` (docs/live.md).
    var name: String
    /// The table's revision after the event.
    var revision: Int
    /// The event's data: one line of JSON.
    var data: String

    /// The event as it goes on the wire.
    var wire: String { "id: \(revision)\nevent: \(name)\ndata: \(data)\n\n" }

    /// A comment line that keeps the connection open and shows a closed one (a write fails).
    static let heartbeat = ": keep-alive\n\n"
}

/// JSON text for the events, written by hand so that records taken from the site's row files go
/// out byte for byte as the exporter wrote them.
enum JSONText {
    /// `text` as a JSON string literal.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // `<` is escaped so that no `</script>` can appear in a page's copy of the text.
            case "<": out += "\\u003c"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `values` as a JSON array of strings.
    static func strings(_ values: [String]) -> String {
        "[" + values.map(string).joined(separator: ",") + "]"
    }

    /// `values` as a JSON array of numbers.
    static func numbers(_ values: [Int]) -> String {
        "[" + values.map(String.init).joined(separator: ",") + "]"
    }
}

/// An event waiting for its revision: the revision is known only when the site records it.
struct PendingEvent: Sendable {
    var name: String
    var data: @Sendable (Int) -> String

    init(_ name: String, _ data: @escaping @Sendable (Int) -> String) {
        self.name = name
        self.data = data
    }
}
