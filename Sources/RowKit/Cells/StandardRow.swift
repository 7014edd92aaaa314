/// A built-in row shown by one of the four standard cells; the cell class is the type parameter.
///
/// Use the aliases: `DefaultRow`, `Value1Row`, `Value2Row`, `SubtitleRow`.
///
/// ```swift
/// Value1Row("Wi-Fi", detail: "HomeNet", accessory: .disclosureIndicator)
/// ```
/// The identity is `id` when given, else the text. Behaviour is set with modifiers that return a
/// changed copy: `.height(_:)`, `.editing(_:)`, `.selectable(_:)`, `.movable(_:)`, `.onSelect(_:)`,
/// `.onAccessoryTap(_:)`, `.onCommitEdit(_:)`.
public struct StandardRow<Cell: StandardCell>: Sendable {
    /// The row's identity.
    public var id: ItemID
    /// What the cell shows.
    public var content: CellContent
    /// How the row gets its height. Default: automatic, estimated at 44 points.
    public var height: HeightPolicy = .automatic(estimate: 44)
    /// Whether the row can be highlighted and selected.
    public var isSelectable = true
    /// What editing allows.
    public var editing: RowEditing = .none
    /// Whether the user can move the row.
    public var isMovable = false
    /// Per-row actions.
    public var actions: RowActions = .none

    /// Creates a row showing `text`; its identity is `id`, or the text when `id` is `nil`.
    public init(
        _ text: String, detail: String? = nil, image: CellImage? = nil, accessory: Accessory = .none,
        id: (any Hashable & Sendable)? = nil, body: String? = nil, link: String? = nil,
        selectionStyle: SelectionStyle = .default
    ) {
        self.init(
            id: id.map { ItemID($0) } ?? ItemID(text),
            content: CellContent(
                text: text, detail: detail, image: image, accessory: accessory,
                selectionStyle: selectionStyle, body: body, link: link))
    }

    /// Creates a row with an identity and prepared content.
    public init(id: ItemID, content: CellContent) {
        self.id = id
        self.content = content
    }

    /// A copy with another height policy.
    public func height(_ policy: HeightPolicy) -> Self { with { $0.height = policy } }
    /// A copy with another editing description.
    public func editing(_ editing: RowEditing) -> Self { with { $0.editing = editing } }
    /// A copy that can or cannot be selected.
    public func selectable(_ selectable: Bool) -> Self { with { $0.isSelectable = selectable } }
    /// A copy that can or cannot be moved.
    public func movable(_ movable: Bool = true) -> Self { with { $0.isMovable = movable } }
    /// A copy that calls `action` when selected.
    public func onSelect(_ action: @escaping @MainActor @Sendable (RowActionContext) -> Void) -> Self {
        with { $0.actions.onSelect = action }
    }
    /// A copy that calls `action` when its accessory button is tapped.
    public func onAccessoryTap(_ action: @escaping @MainActor @Sendable (RowActionContext) -> Void) -> Self {
        with { $0.actions.onAccessoryTap = action }
    }
    /// A copy that calls `action` when an edit is committed.
    public func onCommitEdit(
        _ action: @escaping @MainActor @Sendable (RowActionContext, RowEditing.Style) -> Void
    ) -> Self {
        with { $0.actions.onCommitEdit = action }
    }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}

extension StandardRow: Row where Cell: CellConfiguring, Cell.Model == StandardRow<Cell> {
    /// Same content, height kind, editing and flags; actions are not compared.
    public func isContentEqual(to other: Self) -> Bool {
        content == other.content && editing == other.editing && isSelectable == other.isSelectable
            && isMovable == other.isMovable && height.kindAndValueEqual(other.height)
    }
}

extension HeightPolicy {
    /// Fixed and automatic policies compare by value; computed ones are never equal (their
    /// closures cannot be compared), so a diff reloads such rows.
    func kindAndValueEqual(_ other: HeightPolicy) -> Bool {
        switch (self, other) {
        case (.fixed(let a), .fixed(let b)): return a == b
        case (.automatic(let a), .automatic(let b)): return a == b
        default: return false
        }
    }
}

/// An image and text (UIKit's `.default` style).
public typealias DefaultRow = StandardRow<DefaultCell>
/// Text left, detail right (UIKit's `.value1` style).
public typealias Value1Row = StandardRow<Value1Cell>
/// The text as a narrow, tinted label, then the detail as its value (UIKit's `.value2` style).
public typealias Value2Row = StandardRow<Value2Cell>
/// Text over detail (UIKit's `.subtitle` style).
public typealias SubtitleRow = StandardRow<SubtitleCell>
