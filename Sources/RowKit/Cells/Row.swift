/// A typed row model: a stable identity, a height policy and the cell type that shows it.
///
/// The associated `Cell` must be a cell that configures itself from exactly this row type, so the
/// compiler rejects a row paired with a cell that cannot show it. The reuse identifier comes from
/// the cell type; no strings are typed and no class is looked up by name.
///
/// ```swift
/// struct Contact: Row {
///     typealias Cell = ContactCell      // ContactCell: TableCell, CellConfiguring<Contact>
///     var id: String
///     var name: String
/// }
/// ```
public protocol Row: Sendable {
    /// The type of the row's stable identity.
    associatedtype ID: Hashable & Sendable
    /// The cell class that shows this row.
    associatedtype Cell: CellConfiguring where Cell.Model == Self

    /// The row's stable identity: unique in its table, unchanged while the row lives.
    var id: ID { get }
    /// How the row gets its height. Default: automatic with a 44-point estimate.
    var height: HeightPolicy { get }
    /// Whether the row can be highlighted and selected. Default: `true`.
    var isSelectable: Bool { get }
    /// What editing allows for the row. Default: `.none`.
    var editing: RowEditing { get }
    /// Whether the row can be moved by the user. Default: `false`.
    var isMovable: Bool { get }
    /// Per-row actions. Default: none.
    var actions: RowActions { get }
    /// Whether `other` (a row with the same identity) shows the same content; a diff reloads the
    /// row when it does not. Default: `==` for `Equatable` rows, otherwise `false` (always reload).
    func isContentEqual(to other: Self) -> Bool
}

extension Row {
    public var height: HeightPolicy { .automatic(estimate: 44) }
    public var isSelectable: Bool { true }
    public var editing: RowEditing { .none }
    public var isMovable: Bool { false }
    public var actions: RowActions { .none }
    public func isContentEqual(to other: Self) -> Bool { false }
}

extension Row where Self: Equatable {
    public func isContentEqual(to other: Self) -> Bool { self == other }
}
