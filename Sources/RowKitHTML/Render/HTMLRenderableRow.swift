import RowKit

/// A custom row that knows how the exporter should show it.
///
/// Standard rows (`DefaultRow`, `Value1Row`, ...) need nothing. A custom row conforms and returns
/// either standard content, shown by one of the four standard layouts, or its own HTML fragment.
/// Rows that are neither standard nor `HTMLRenderableRow` are shown as a default cell whose text
/// is the row's identity.
public protocol HTMLRenderableRow: Row {
    /// How the row is shown.
    var htmlRepresentation: HTMLRowRepresentation { get }
}

/// How a custom row is shown in an exported page.
public enum HTMLRowRepresentation: Sendable {
    /// Standard cell content in one of the standard layouts.
    case content(CellContent, layout: CellLayout)
    /// A fragment placed inside the row's list item as it is. The row vouches that it is
    /// well-formed and escaped: the exporter does not check or escape it.
    case trustedHTML(String)
}
