/// Seeded random listing documents in YAML, JSON and CSV, right and wrong in every way the reader
/// must handle: fields in any order and of any type, unknown and repeated keys, explicit ids that
/// repeat or clash with derived ones, texts whose slugs collide, sections out of order.
struct RandomListing {
    private var random: SeededRandom
    /// Whether the document being made gets wrong values, keys and shapes (about a third do).
    private var wrong = false

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    private mutating func below(_ n: Int) -> Int { Int(random.next() % UInt64(max(n, 1))) }
    private mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    /// A chance that applies only to documents made wrong on purpose.
    private mutating func fault(_ percent: Int) -> Bool { wrong && chance(percent) }
    private mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// A value as the generator means it; each syntax writes it its own way.
    indirect enum Value {
        case string(String)
        case number(String)
        case bool(Bool)
        case null
        case list([Value])
        case map([(String, Value)])
    }

    static let texts = [
        "Wi-Fi", "wi fi", "Wi-Fi!", "Foo", "foo-2", "FOO", "Café", "café", "", "!!!", "yes", "12", "Row 1", "row-1",
        "A \"quote\"", "tab\there", "x: y", "# not a comment", "- dash", "[bracket", "über", "日本語",
    ]
    static let ids = ["wifi", "foo", "foo-2", "row", "row-1", "a.b", "A_b", "x", "bad id", "-lead"]
    static let styles = ["default", "value1", "value2", "subtitle", "valu1", "Value1"]
    static let accessories = [
        "none", "disclosureIndicator", "checkmark", "detailButton", "detailDisclosureButton", "chevron",
    ]
    static let tableStyles = ["plain", "grouped", "insetGrouped", "inset"]

    /// One of `items`; the last `bad` of them only in a document made wrong.
    private mutating func pick(_ items: [String], bad: Int) -> String {
        items[below(wrong ? items.count : items.count - bad)]
    }

    private mutating func scalarText() -> String { pick(Self.texts) }

    /// Mostly the right kind of value for `field`, sometimes another.
    private mutating func value(for field: String) -> Value {
        if fault(12) {
            return pick([
                .null, .number("1"), .bool(true), .list([.string("a")]), .map([("k", .string("v"))]), .number("1e999"),
            ])
        }
        switch field {
        case "style": return .string(pick(Self.styles, bad: 2))
        case "accessory": return .string(pick(Self.accessories, bad: 1))
        case "id": return .string(pick(Self.ids, bad: 2))
        case "link": return .string(pick(["https://example.org", "mailto:a@b.c", "javascript:x", ""], bad: 1))
        case "image": return .string(pick(["icons/none.png", "../out.png", "/abs.png", "http://x/y.png"]))
        case "body": return .string(pick(["Some *body*", "# Title\n\nText", "x"]))
        default: return .string(scalarText())
        }
    }

    private mutating func row() -> Value {
        if fault(8) { return pick([.string("row"), .null, .list([.string("text")])]) }
        var pairs: [(String, Value)] = []
        var fields = ["text", "detail", "id", "style", "accessory", "body", "link"].filter { _ in chance(45) }
        if !fault(15), !fields.contains("text") { fields.append("text") }
        if fault(10) { fields.append(pick(["txt", "detial", "unknown", "image"])) }
        if fault(8), let first = fields.first { fields.append(first) }
        for _ in 0..<fields.count { fields.swapAt(below(fields.count), below(fields.count)) }
        for field in fields { pairs.append((field, value(for: field))) }
        return .map(pairs)
    }

    private mutating func section() -> Value {
        if fault(8) { return pick([.string("section"), .null, .list([])]) }
        var pairs: [(String, Value)] = []
        var fields = ["header", "footer", "index"].filter { _ in chance(35) }
        if chance(90) { fields.append("rows") }
        if fault(8) { fields.append(pick(["row", "foter", "rows"])) }
        for _ in 0..<fields.count { fields.swapAt(below(fields.count), below(fields.count)) }
        for field in fields {
            if field == "rows" || field == "row" {
                if chance(3) {
                    pairs.append((field, .null))
                } else if fault(10) {
                    pairs.append((field, pick([.string("none"), .map([])])))
                } else {
                    pairs.append((field, .list((0..<below(5)).map { _ in row() })))
                }
            } else {
                pairs.append((field, fault(15) ? .list([]) : .string(scalarText())))
            }
        }
        return .map(pairs)
    }

    /// A whole document value.
    mutating func document() -> Value {
        if fault(5) { return pick([.list([]), .string("x"), .null]) }
        var pairs: [(String, Value)] = []
        var fields = ["version", "title", "style"].filter { _ in chance(50) }
        if !fault(15) { fields.append("sections") }
        if fault(8) { fields.append(pick(["titel", "sections", "colour"])) }
        for _ in 0..<fields.count { fields.swapAt(below(fields.count), below(fields.count)) }
        for field in fields {
            switch field {
            case "version":
                pairs.append(
                    (
                        field,
                        fault(40) ? pick([.number("2"), .string("1"), .null]) : pick([.number("1"), .number("1.0")])
                    ))
            case "style": pairs.append((field, .string(pick(Self.tableStyles, bad: 1))))
            case "sections":
                pairs.append(
                    (
                        field,
                        fault(10)
                            ? pick([.null, .list([]), .map([])]) : .list((0..<(1 + below(4))).map { _ in section() })
                    ))
            default: pairs.append((field, .string(scalarText())))
            }
        }
        return .map(pairs)
    }

    // MARK: - Syntaxes

    static func json(_ value: Value) -> String {
        switch value {
        case .string(let text): return jsonString(text)
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .list(let items): return "[" + items.map(json).joined(separator: ", ") + "]"
        case .map(let pairs):
            return "{" + pairs.map { jsonString($0.0) + ": " + json($0.1) }.joined(separator: ",\n ") + "}"
        }
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Block YAML (flow for the innermost collections when `flow`), scalars plain when they can be.
    static func yaml(_ value: Value, indent: Int = 0, flow: Bool) -> String {
        let pad = String(repeating: " ", count: indent)
        switch value {
        case .list(let items) where !items.isEmpty && !flow:
            return items.map { item in
                pad + "- " + yaml(item, indent: indent + 2, flow: flow).drop { $0 == " " }
            }.joined()
        case .map(let pairs) where !pairs.isEmpty && !flow:
            return pairs.map { key, item in
                switch item {
                case .list(let items) where !items.isEmpty:
                    return pad + yamlScalar(key) + ":\n" + yaml(item, indent: indent + 2, flow: flow)
                case .map(let inner) where !inner.isEmpty:
                    return pad + yamlScalar(key) + ":\n" + yaml(item, indent: indent + 2, flow: flow)
                default: return pad + yamlScalar(key) + ": " + inline(item) + "\n"
                }
            }.joined()
        default:
            return pad + inline(value) + "\n"
        }
    }

    static func inline(_ value: Value) -> String {
        switch value {
        case .string(let text): return yamlScalar(text)
        case .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "~"
        case .list(let items): return "[" + items.map(inline).joined(separator: ", ") + "]"
        case .map(let pairs):
            return "{" + pairs.map { yamlScalar($0.0) + ": " + inline($0.1) }.joined(separator: ", ") + "}"
        }
    }

    /// Plain when the text is letters, digits and spaces inside; double-quoted otherwise.
    static func yamlScalar(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == " " || $0 == "-" || $0 == "!"
            }
            && !text.hasPrefix(" ") && !text.hasSuffix(" ") && !text.hasPrefix("-") && !text.hasPrefix("!")
        return plain ? text : jsonString(text)
    }

    /// A CSV file: a header with some of the listing's columns (and a group column), then records,
    /// some with the wrong number of fields or odd quoting.
    mutating func csv() -> String {
        var columns = ["text", "detail", "id", "style", "accessory", "body", "link", "group"].filter { _ in chance(60) }
        if chance(90), !columns.contains("text") { columns.insert("text", at: 0) }
        if chance(30), !columns.contains("group") { columns.append("group") }
        for _ in 0..<columns.count { columns.swapAt(below(columns.count), below(columns.count)) }
        var lines = [columns.joined(separator: ",")]
        for _ in 0..<below(8) {
            var fields: [String] = columns.map { column in
                if chance(column == "text" && !wrong ? 0 : 20) { return "" }
                let text: String
                switch column {
                case "group": text = pick(["B", "A", "C", "b", "Ä"])
                case "style": text = pick(Self.styles, bad: 2)
                case "accessory": text = pick(Self.accessories, bad: 1)
                case "id": text = pick(Self.ids, bad: 2)
                case "link": text = pick(["https://example.org", "javascript:x"])
                default: text = pick(Self.texts)
                }
                return Self.csvField(text)
            }
            if fault(8) { fields.append("extra") }
            if fault(8), !fields.isEmpty { fields.removeLast() }
            if fault(6) { fields.append("bad\"quote") }
            lines.append(fields.joined(separator: ","))
            if chance(5) { lines.append("") }
        }
        return lines.joined(separator: pick(["\n", "\r\n", "\r"])) + (chance(50) ? "\n" : "")
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || text.hasPrefix(" ")
        else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The `index`-th random case: its file name (whose extension picks the syntax) and bytes.
    mutating func next(_ index: Int) -> (name: String, text: String) {
        wrong = chance(35)
        switch index % 4 {
        case 0: return ("r\(index).json", Self.json(document()))
        case 1: return ("r\(index).yaml", Self.yaml(document(), flow: false))
        case 2: return ("r\(index).yaml", Self.yaml(document(), flow: true))
        default: return ("r\(index).csv", csv())
        }
    }
}
