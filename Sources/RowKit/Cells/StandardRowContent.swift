/// A row that shows standard cell content (the built-in rows).
public protocol StandardRowContent: Sendable {
    /// What the cell shows.
    var content: CellContent { get }
    /// The layout of the row's cell class.
    var layout: CellLayout { get }
    /// The state of the row's switch (`SwitchRow`), or `nil` when it has none. Default: `nil`.
    var switchIsOn: Bool? { get }
}

extension StandardRowContent {
    public var switchIsOn: Bool? { nil }
}

extension StandardRow: StandardRowContent {
    public var layout: CellLayout { Cell.layout }
}
