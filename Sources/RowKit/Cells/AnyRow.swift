/// A row of any type, as sections store it.
///
/// Keeps the typed row (`base`) and everything a view needs without knowing its type: identity,
/// reuse identifier, height policy, behaviour, and main-actor functions that make and configure
/// the row's cell. Get the typed row back with `as(_:)`; nothing here force-casts.
///
/// An `AnyRow` is one reference to an immutable box made when it is created, so copying one (a
/// section's rows, a snapshot, a view reading its rows) is a retain.
public struct AnyRow: Sendable, Identifiable {
    private let box: AnyRowBox

    /// Wraps `row`.
    public init<R: Row>(_ row: R) {
        box = TypedRowBox(row)
    }

    /// The typed row.
    public var base: any Row { box.base }
    /// The row's identity.
    public var id: ItemID { box.id }
    /// The reuse identifier of the row's cell class.
    public var reuseIdentifier: ReuseIdentifier { box.reuseIdentifier }

    /// The typed row, if it is an `R`.
    public func `as`<R: Row>(_ type: R.Type) -> R? { base as? R }

    /// The row's height policy.
    public var height: HeightPolicy { box.height }
    /// Whether the row can be highlighted and selected.
    public var isSelectable: Bool { box.base.isSelectable }
    /// What editing allows for the row.
    public var editing: RowEditing { box.base.editing }
    /// Whether the user can move the row.
    public var isMovable: Bool { box.base.isMovable }
    /// The row's actions.
    public var actions: RowActions { box.base.actions }

    /// A new cell of the row's cell class.
    @MainActor public func makeCell() -> TableCell { box.makeCell() }

    /// Configures `cell` with this row; `false` (and nothing changed) when `cell` is not of the
    /// row's cell class.
    @MainActor @discardableResult
    public func configure(_ cell: TableCell) -> Bool { box.configure(cell) }

    /// Whether `other` is the same kind of row showing the same content.
    public func isContentEqual(to other: AnyRow) -> Bool { box.isContentEqual(to: other.box) }
}

/// The box behind an `AnyRow`: immutable after `init`, hence `@unchecked Sendable` (its only
/// subclass stores one `Sendable` row in a `let`).
class AnyRowBox: @unchecked Sendable {
    let id: ItemID
    let reuseIdentifier: ReuseIdentifier

    init(id: ItemID, reuseIdentifier: ReuseIdentifier) {
        self.id = id
        self.reuseIdentifier = reuseIdentifier
    }

    var base: any Row { preconditionFailure("AnyRowBox is abstract") }
    var height: HeightPolicy { preconditionFailure("AnyRowBox is abstract") }
    @MainActor func makeCell() -> TableCell { preconditionFailure("AnyRowBox is abstract") }
    @MainActor func configure(_ cell: TableCell) -> Bool { preconditionFailure("AnyRowBox is abstract") }
    func isContentEqual(to other: AnyRowBox) -> Bool { preconditionFailure("AnyRowBox is abstract") }
}

/// An `AnyRowBox` holding an `R`.
final class TypedRowBox<R: Row>: AnyRowBox, @unchecked Sendable {
    let row: R

    init(_ row: R) {
        self.row = row
        super.init(id: ItemID(row.id), reuseIdentifier: R.Cell.reuseIdentifier)
    }

    override var base: any Row { row }
    override var height: HeightPolicy { row.height }
    @MainActor override func makeCell() -> TableCell { R.Cell() }

    @MainActor override func configure(_ cell: TableCell) -> Bool {
        guard let typed = cell as? R.Cell else { return false }
        typed.configure(with: row)
        return true
    }

    override func isContentEqual(to other: AnyRowBox) -> Bool {
        if let other = other as? TypedRowBox<R> { return row.isContentEqual(to: other.row) }
        guard let typed = other.base as? R else { return false }  // e.g. a subclass of a class row
        return row.isContentEqual(to: typed)
    }
}
