import RowKit

/// A table the exporter reads one section at a time and one row at a time, so a listing of any
/// size can be exported without holding all its rows. `Table` conforms; a large listing can
/// conform with rows produced on demand.
///
/// The outline (every section without its rows) is read first, because page numbers and the
/// index bar need the row counts; then `rows(inSection:)` is called once per section, in order.
public protocol ExportableTable {
    /// The table's style.
    var style: TableStyle { get }
    /// Every section, without rows, in order.
    var sectionOutlines: [SectionOutline] { get }
    /// The rows of section `index`; must produce exactly `sectionOutlines[index].rowCount` rows.
    func rows(inSection index: Int) -> any Sequence<any Row>
}

/// A section without its rows: identity, header, footer, index title and row count.
public struct SectionOutline: Sendable {
    /// The section's identity (anchors are made from it).
    public var id: ItemID
    /// The header, if any.
    public var header: HeaderFooter?
    /// The footer, if any.
    public var footer: HeaderFooter?
    /// The title of the section in the index bar, if any.
    public var indexTitle: String?
    /// The number of rows.
    public var rowCount: Int

    /// Creates an outline.
    public init(
        id: ItemID, header: HeaderFooter? = nil, footer: HeaderFooter? = nil, indexTitle: String? = nil, rowCount: Int
    ) {
        self.id = id
        self.header = header
        self.footer = footer
        self.indexTitle = indexTitle
        self.rowCount = rowCount
    }
}

extension Table: ExportableTable {
    public var sectionOutlines: [SectionOutline] {
        sections.map {
            SectionOutline(
                id: $0.id, header: $0.header, footer: $0.footer, indexTitle: $0.indexTitle, rowCount: $0.rows.count)
        }
    }

    public func rows(inSection index: Int) -> any Sequence<any Row> { sections[index].rows.lazy.map(\.base) }
}
