/// The fixed metrics a `TableView` lays out with, chosen by the table's style.
///
/// | style          | section spacing | horizontal inset | floating headers |
/// |----------------|-----------------|------------------|------------------|
/// | `plain`        | 0               | 0                | yes              |
/// | `grouped`      | 35              | 0                | no               |
/// | `insetGrouped` | 35              | 20               | no               |
///
/// The section spacing (UIKit's grouped spacing) is empty space above every section's header
/// (present or not); it belongs to the section, so a section's first pixel is the top of that
/// space. The horizontal inset narrows rows, headers and footers on both sides, and rows are
/// measured at the narrowed width. Content height is the sum of all sections: spacing, header,
/// rows and footer; nothing is added at the end.
public struct TableMetrics: Sendable, Hashable {
    /// Empty space above each section, in points.
    public var sectionSpacing: Double
    /// Space on the left and the right of every row, header and footer, in points.
    public var horizontalInset: Double
    /// Whether section headers float: stay pinned to the top of the viewport while their section
    /// scrolls under them, and get pushed up by the end of their section.
    public var floatsHeaders: Bool

    /// Creates metrics.
    public init(sectionSpacing: Double, horizontalInset: Double, floatsHeaders: Bool) {
        self.sectionSpacing = sectionSpacing
        self.horizontalInset = horizontalInset
        self.floatsHeaders = floatsHeaders
    }

    /// The metrics of `style` (see the table above).
    public init(style: TableStyle) {
        switch style {
        case .plain: self.init(sectionSpacing: 0, horizontalInset: 0, floatsHeaders: true)
        case .grouped: self.init(sectionSpacing: 35, horizontalInset: 0, floatsHeaders: false)
        case .insetGrouped: self.init(sectionSpacing: 35, horizontalInset: 20, floatsHeaders: false)
        }
    }
}
