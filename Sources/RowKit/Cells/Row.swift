/// A typed row model: a stable identity, a height policy and the cell type that shows it.
///
/// The associated `Cell` must be a cell that configures itself from exactly this row type, so the
/// compiler rejects a row paired with a cell that cannot show it. The reuse identifier comes from
/// the cell type; no strings are typed and no class is looked up by name.
///
/// ```swift
/// struct Contact: Row, Equatable {
///     typealias Cell = ContactCell      // the cell that shows a Contact
///     var id: String
///     var name: String
/// }
///
/// @MainActor
/// final class ContactCell: TableCell, CellConfiguring {
///     private(set) var name = ""
///     func configure(with row: Contact) { name = row.name }   // so ContactCell.Model == Contact
/// }
/// ```
///
/// Which cell shows which row: `DefaultRow` → `DefaultCell`, `Value1Row` → `Value1Cell`,
/// `Value2Row` → `Value2Cell`, `SubtitleRow` → `SubtitleCell`, `SwitchRow` → `SwitchCell`, and a
/// custom row → the `CellConfiguring` cell whose `configure(with:)` takes that row.
public protocol Row: Sendable {
    /// The type of the row's stable identity.
    associatedtype ID: Hashable & Sendable
    /// The cell class that shows this row: a `TableCell` subclass conforming to `CellConfiguring`
    /// whose `configure(with:)` takes exactly this row type (`Cell.Model == Self`).
    ///
    /// A cell that shows another row type does not fit, and the compiler refuses the row: "type
    /// 'Contact' does not conform to protocol 'Row'" with "'Row' requires the types 'Contact' and
    /// 'DefaultRow' (aka 'StandardRow<DefaultCell>') be equivalent", that is: `DefaultCell` shows
    /// `DefaultRow`, not `Contact`. When the row leaves `ID` to be inferred from `id`, the
    /// compiler may report "protocol requires nested type 'ID'" instead: the mismatched cell stops
    /// the inference, and the cause is still the cell. Pair the row with the cell whose
    /// `configure(with:)` takes it.
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
    /// `==` when the row is `Equatable`, found at run time, so a generic row that is `Equatable`
    /// only for some of its arguments compares too; otherwise `false` (always reload).
    public func isContentEqual(to other: Self) -> Bool {
        guard let equatable = self as? any Equatable else { return false }
        return equatable.isEqual(to: other)
    }
}

extension Equatable {
    /// Whether `other` is a `Self` equal to this value.
    fileprivate func isEqual(to other: Any) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

extension Row where Self: Equatable {
    public func isContentEqual(to other: Self) -> Bool { self == other }
}
