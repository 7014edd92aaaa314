/// What happened to a row, passed to its actions.
public struct RowActionContext: Sendable {
    /// The row's identity.
    public var id: ItemID
    /// Where the row was when the action fired.
    public var path: RowPath

    /// Creates a context.
    public init(id: ItemID, path: RowPath) {
        self.id = id
        self.path = path
    }
}

/// Per-row actions, called by a view after the matching event has been delivered.
///
/// Actions run on the main actor. They are optional: a row without actions still produces every
/// event.
public struct RowActions: Sendable {
    /// Called when the row is selected.
    public var onSelect: (@MainActor @Sendable (RowActionContext) -> Void)?
    /// Called when the row's accessory button (detail button) is tapped.
    public var onAccessoryTap: (@MainActor @Sendable (RowActionContext) -> Void)?
    /// Called when an edit (delete or insert) of the row is committed.
    public var onCommitEdit: (@MainActor @Sendable (RowActionContext, RowEditing.Style) -> Void)?
    /// Called when the row's switch (`SwitchRow`) is flipped, with its new state.
    public var onToggle: (@MainActor @Sendable (RowActionContext, Bool) -> Void)?

    /// Creates actions; every one is optional.
    public init(
        onSelect: (@MainActor @Sendable (RowActionContext) -> Void)? = nil,
        onAccessoryTap: (@MainActor @Sendable (RowActionContext) -> Void)? = nil,
        onCommitEdit: (@MainActor @Sendable (RowActionContext, RowEditing.Style) -> Void)? = nil,
        onToggle: (@MainActor @Sendable (RowActionContext, Bool) -> Void)? = nil
    ) {
        self.onSelect = onSelect
        self.onAccessoryTap = onAccessoryTap
        self.onCommitEdit = onCommitEdit
        self.onToggle = onToggle
    }

    /// No actions.
    public static let none = RowActions()
}
