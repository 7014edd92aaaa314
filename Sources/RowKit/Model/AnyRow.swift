/// A row of any type, as sections store it.
///
/// Keeps the typed row (`base`) and everything a view needs without knowing its type: identity,
/// reuse identifier, height policy, behaviour, and main-actor functions that make and configure
/// the row's cell. Get the typed row back with `as(_:)`; nothing here force-casts.
public struct AnyRow: Sendable, Identifiable {
    /// The typed row.
    public let base: any Row
    /// The row's identity.
    public let id: ItemID
    /// The reuse identifier of the row's cell class.
    public let reuseIdentifier: ReuseIdentifier
    private let makeCellBody: @MainActor @Sendable () -> TableCell
    private let configureBody: @MainActor @Sendable (TableCell) -> Bool
    private let contentEqualBody: @Sendable (AnyRow) -> Bool

    /// Wraps `row`.
    public init<R: Row>(_ row: R) {
        base = row
        id = ItemID(row.id)
        reuseIdentifier = R.Cell.reuseIdentifier
        makeCellBody = { R.Cell() }
        configureBody = { cell in
            guard let typed = cell as? R.Cell else { return false }
            typed.configure(with: row)
            return true
        }
        contentEqualBody = { other in
            guard let typed = other.base as? R else { return false }
            return row.isContentEqual(to: typed)
        }
    }

    /// The typed row, if it is an `R`.
    public func `as`<R: Row>(_ type: R.Type) -> R? { base as? R }

    /// The row's height policy.
    public var height: HeightPolicy { base.height }
    /// Whether the row can be highlighted and selected.
    public var isSelectable: Bool { base.isSelectable }
    /// What editing allows for the row.
    public var editing: RowEditing { base.editing }
    /// Whether the user can move the row.
    public var isMovable: Bool { base.isMovable }
    /// The row's actions.
    public var actions: RowActions { base.actions }

    /// A new cell of the row's cell class.
    @MainActor public func makeCell() -> TableCell { makeCellBody() }

    /// Configures `cell` with this row; `false` (and nothing changed) when `cell` is not of the
    /// row's cell class.
    @MainActor @discardableResult
    public func configure(_ cell: TableCell) -> Bool { configureBody(cell) }

    /// Whether `other` is the same kind of row showing the same content.
    public func isContentEqual(to other: AnyRow) -> Bool { contentEqualBody(other) }
}
