import RowKit

/// How the exporter reads each type of row, found once per type instead of with an existential
/// cast per row.
///
/// `row as? any StandardRowContent` looks up the protocol conformance of the row's type every
/// time, which costs more than rendering a short row. The cache asks once per dynamic type and
/// keeps a reader specialised for it; a reader's cast is from the existential to that exact type,
/// which the runtime answers by comparing type metadata.
struct RowKindCache {
    /// What a row of one type is.
    enum Kind {
        /// A built-in row: its content, layout and switch state (`nil`: no switch).
        case standard((any Row) -> (CellContent, CellLayout, Bool?))
        /// A row that renders itself (``HTMLRenderableRow``) and is not standard.
        case custom((any Row) -> HTMLRowRepresentation)
        /// Neither: shown as a default cell with its identity.
        case unknown
    }

    private var kinds: [ObjectIdentifier: Kind] = [:]

    /// The kind of `row`, the same as testing `StandardRowContent` first, then
    /// `HTMLRenderableRow`.
    mutating func kind(of row: any Row) -> Kind {
        let type = ObjectIdentifier(Swift.type(of: row))
        if let known = kinds[type] { return known }
        let kind: Kind
        if let standard = Swift.type(of: row) as? any StandardRowContent.Type {
            kind = .standard(Self.standardReader(standard))
        } else if let custom = Swift.type(of: row) as? any HTMLRenderableRow.Type {
            kind = .custom(Self.customReader(custom))
        } else {
            kind = .unknown
        }
        kinds[type] = kind
        return kind
    }

    private static func standardReader<T: StandardRowContent>(
        _: T.Type
    ) -> (any Row) -> (CellContent, CellLayout, Bool?) {
        { row in
            guard let row = row as? T else {
                preconditionFailure("a row of another type reached the reader of \(T.self)")
            }
            return (row.content, row.layout, row.switchIsOn)
        }
    }

    private static func customReader<T: HTMLRenderableRow>(_: T.Type) -> (any Row) -> HTMLRowRepresentation {
        { row in
            guard let row = row as? T else {
                preconditionFailure("a row of another type reached the reader of \(T.self)")
            }
            return row.htmlRepresentation
        }
    }
}
