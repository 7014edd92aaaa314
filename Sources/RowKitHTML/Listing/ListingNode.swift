/// The syntax tree every reader produces and the validator walks, so the schema is checked once.
///
/// YAML, JSON and CSV each build this tree with a location on every node and key; nothing here
/// interprets values yet (numbers keep their literal text, so huge numbers cannot overflow).
struct ListingNode: Sendable {
    /// One key and its value in a mapping, in file order.
    struct Pair: Sendable {
        /// The key's text.
        var key: String
        /// Where the key is.
        var keyLocation: SourceLocation
        /// The value.
        var value: ListingNode
    }

    /// A scalar's type as the source syntax states it.
    enum ScalarKind: String, Sendable {
        case string, number, bool, null
    }

    /// The shape of a node.
    enum Value: Sendable {
        /// Keys and values, in file order (duplicates kept, for the validator to report).
        case mapping([Pair])
        /// Items, in file order.
        case sequence([ListingNode])
        /// A scalar's literal text and kind. `literalIsText` marks an unquoted YAML scalar whose
        /// kind was inferred: a field that wants a string takes its text as written.
        case scalar(text: String, kind: ScalarKind, literalIsText: Bool)
    }

    /// The shape and content.
    var value: Value
    /// Where the node starts.
    var location: SourceLocation

    /// A short name of the node's type for diagnostics ("a mapping", "a number 12", ...).
    var typeDescription: String {
        switch value {
        case .mapping: return "a mapping"
        case .sequence: return "a sequence"
        case .scalar(let text, let kind, _):
            switch kind {
            case .string: return "a string"
            case .null: return "null"
            case .number, .bool:
                let shown = text.count > 24 ? String(text.prefix(24)) + "…" : text
                return "\(kind == .number ? "the number" : "the boolean") \(shown)"
            }
        }
    }
}
