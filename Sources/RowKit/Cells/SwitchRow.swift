/// A row with an on/off switch at its trailing edge, as in iOS Settings; shown by `SwitchCell`.
///
/// ```swift
/// SwitchRow("Airplane Mode", isOn: false)
/// ```
///
/// The switch takes the place of the accessory, so `content.accessory` is not shown. The row is
/// not selectable by default (tapping it does nothing; the user flips the switch), and a headless
/// `TableView` flips it with `toggleSwitch(at:)`, which updates the model and posts
/// `TableEvent.switchToggled`. The identity is `id` when given, else the text. Behaviour is set with
/// modifiers that return a changed copy, as for the standard rows.
public struct SwitchRow: Row, Sendable {
    /// The cell class that shows a switch row.
    public typealias Cell = SwitchCell

    /// The row's identity.
    public var id: ItemID
    /// What the cell shows beside the switch (its accessory is not shown).
    public var content: CellContent
    /// How the text and the detail are placed: `.default` (text only) or `.subtitle` (detail under
    /// the text) as in Settings; `.value1` and `.value2` place them as their standard cells do.
    public var layout: CellLayout
    /// Whether the switch is on.
    public var isOn: Bool
    /// How the row gets its height. Default: automatic, estimated at 44 points.
    public var height: HeightPolicy = .automatic(estimate: 44)
    /// Whether the row can be highlighted and selected. Default: `false`.
    public var isSelectable = false
    /// What editing allows.
    public var editing: RowEditing = .none
    /// Whether the user can move the row.
    public var isMovable = false
    /// Per-row actions (`onToggle` is called when the switch is flipped).
    public var actions: RowActions = .none

    /// Creates a row showing `text` and a switch; its identity is `id`, or the text when `id` is
    /// `nil`.
    public init(
        _ text: String, detail: String? = nil, image: CellImage? = nil, isOn: Bool,
        id: (any Hashable & Sendable)? = nil, layout: CellLayout = .default, body: String? = nil,
        link: String? = nil
    ) {
        self.init(
            id: id.map { ItemID($0) } ?? ItemID(text),
            content: CellContent(text: text, detail: detail, image: image, body: body, link: link),
            isOn: isOn, layout: layout)
    }

    /// Creates a row with an identity, prepared content and the switch's state.
    public init(id: ItemID, content: CellContent, isOn: Bool, layout: CellLayout = .default) {
        self.id = id
        self.content = content
        self.isOn = isOn
        self.layout = layout
    }

    /// A copy with the switch flipped.
    public func toggled() -> Self { with { $0.isOn.toggle() } }
    /// A copy with another height policy.
    public func height(_ policy: HeightPolicy) -> Self { with { $0.height = policy } }
    /// A copy with another editing description.
    public func editing(_ editing: RowEditing) -> Self { with { $0.editing = editing } }
    /// A copy that can or cannot be selected.
    public func selectable(_ selectable: Bool) -> Self { with { $0.isSelectable = selectable } }
    /// A copy that can or cannot be moved.
    public func movable(_ movable: Bool = true) -> Self { with { $0.isMovable = movable } }
    /// A copy that calls `action` with the new state when the switch is flipped.
    public func onToggle(_ action: @escaping @MainActor @Sendable (RowActionContext, Bool) -> Void) -> Self {
        with { $0.actions.onToggle = action }
    }
    /// A copy that calls `action` when selected (see `selectable(_:)`).
    public func onSelect(_ action: @escaping @MainActor @Sendable (RowActionContext) -> Void) -> Self {
        with { $0.actions.onSelect = action }
    }

    /// Same content, state, layout, height kind, editing and flags; actions are not compared.
    public func isContentEqual(to other: Self) -> Bool {
        content == other.content && isOn == other.isOn && layout == other.layout && editing == other.editing
            && isSelectable == other.isSelectable && isMovable == other.isMovable
            && height.kindAndValueEqual(other.height)
    }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}

extension SwitchRow: StandardRowContent {
    public var switchIsOn: Bool? { isOn }
}
