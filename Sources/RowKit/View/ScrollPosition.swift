/// Where `TableView.scrollToRow(at:position:)` puts the row in the viewport.
public enum ScrollPosition: String, Sendable, Hashable, CaseIterable {
    /// The row's top at the viewport's top (below a floating header in plain style).
    case top
    /// The row's centre at the viewport's centre.
    case middle
    /// The row's bottom at the viewport's bottom.
    case bottom
    /// No scrolling when the row is fully visible; otherwise the least scrolling that shows it
    /// (`top` when it is above, `bottom` when it is below).
    case nearest
}
