/// One item a `TableView` displays: a row's cell, or a section's header or footer view.
public struct VisibleItem: Sendable, Hashable, CustomStringConvertible {
    /// Which kind of item.
    public enum Kind: String, Sendable, Hashable {
        /// A section header.
        case header
        /// A row.
        case row
        /// A section footer.
        case footer
    }

    /// Which kind of item.
    public var kind: Kind
    /// The section's index.
    public var section: Int
    /// The row's index in its section (rows only).
    public var row: Int?
    /// The row's path (rows only; `nil` for headers and footers).
    public var path: RowPath? { row.map { RowPath(section: section, row: $0) } }
    /// The row's identity, or the section's for headers and footers.
    public var id: ItemID
    /// Where the item is drawn, in content coordinates (a floating header's pinned position).
    public var rect: TableRect
    /// Whether the rectangle is a floating header's pinned position rather than its own.
    public var isPinned: Bool
    /// The cell or view bound to it.
    public var view: ReusableViewID

    /// Creates a visible item.
    public init(kind: Kind, section: Int, row: Int?, id: ItemID, rect: TableRect, isPinned: Bool, view: ReusableViewID)
    {
        self.kind = kind
        self.section = section
        self.row = row
        self.id = id
        self.rect = rect
        self.isPinned = isPinned
        self.view = view
    }

    /// `row [0, 3] id=a3 (0, 132, 390x44) #4`, one line of `TableView.dump`.
    public var description: String {
        let place: String
        switch kind {
        case .header: place = "header \(section)"
        case .row: place = "row \(RowPath(section: section, row: row ?? -1))"
        case .footer: place = "footer \(section)"
        }
        return "\(place) id=\(id) \(rect)\(isPinned ? " pinned" : "") \(view)"
    }
}
