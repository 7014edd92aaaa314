import RowKit

/// The document-level fields of a listing, without its sections.
public struct ListingHeader: Sendable, Hashable {
    /// The path the document is read from, exactly as given.
    public var path: String
    /// The format version.
    public var version: Int
    /// The table's title (defaults to the file name without its extension).
    public var title: String
    /// The look of the table.
    public var style: TableStyle

    /// Creates a header.
    public init(
        path: String, version: Int = ListingDocument.currentVersion, title: String, style: TableStyle = .insetGrouped
    ) {
        self.path = path
        self.version = version
        self.title = title
        self.style = style
    }
}
