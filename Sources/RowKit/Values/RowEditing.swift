/// What editing a row allows: its style, the delete confirmation title and trailing actions.
public struct RowEditing: Sendable, Hashable {
    /// The control an editing table shows beside the row.
    public enum Style: String, Sendable, Hashable {
        /// The row cannot be edited.
        case none
        /// A delete control; committing deletes the row.
        case delete
        /// An insert control; committing asks the owner to insert a row.
        case insert
    }

    /// A swipe action shown at the trailing edge of the row.
    public struct Action: Sendable, Hashable {
        /// Whether the action removes the row (drawn red, like UIKit's destructive style).
        public var isDestructive: Bool
        /// The action's title.
        public var title: String

        /// Creates a trailing action.
        public init(_ title: String, isDestructive: Bool = false) {
            self.title = title
            self.isDestructive = isDestructive
        }
    }

    /// The editing control.
    public var style: Style
    /// The title of the delete confirmation button ("Delete" unless set).
    public var deleteConfirmationTitle: String
    /// Trailing swipe actions, first is outermost.
    public var trailingActions: [Action]

    /// Creates an editing description.
    public init(style: Style = .none, deleteConfirmationTitle: String = "Delete", trailingActions: [Action] = []) {
        self.style = style
        self.deleteConfirmationTitle = deleteConfirmationTitle
        self.trailingActions = trailingActions
    }

    /// Not editable.
    public static let none = RowEditing()
    /// Deletable, with the default confirmation title.
    public static let delete = RowEditing(style: .delete)
    /// Shows an insert control.
    public static let insert = RowEditing(style: .insert)
}
