/// A group of rows with an optional header, footer and index title.
public struct ListingSection: Sendable, Hashable {
    /// The text above the section.
    public var header: String?
    /// The text below the section.
    public var footer: String?
    /// The short title in the table's index bar.
    public var indexTitle: String?
    /// The rows, in document order (empty in a streamed section: its rows come one by one).
    public var rows: [ListingRow]
    /// Where the section starts in its file.
    public var location: SourceLocation

    /// Creates a section.
    public init(
        header: String? = nil, footer: String? = nil, indexTitle: String? = nil,
        rows: [ListingRow] = [], location: SourceLocation
    ) {
        self.header = header
        self.footer = footer
        self.indexTitle = indexTitle
        self.rows = rows
        self.location = location
    }
}
