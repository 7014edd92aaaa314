import RowKit

/// A validated listing: a titled table of sections read from a YAML, JSON or CSV file.
///
/// A whole document holds every row; ``ListingReader/read(into:)`` streams the rows of a listing
/// of any size instead.
public struct ListingDocument: Sendable, Hashable {
    /// The path the document was read from, exactly as given.
    public var path: String
    /// The format version; always ``ListingDocument/currentVersion`` once validated.
    public var version: Int
    /// The table's title (defaults to the file name without its extension).
    public var title: String
    /// The look of the table.
    public var style: TableStyle
    /// The sections, in document order; never empty.
    public var sections: [ListingSection]

    /// The only version of the listing format this reader accepts.
    public static let currentVersion = 1

    /// Creates a document; readers produce these, tests and builders may too.
    public init(
        path: String, version: Int = ListingDocument.currentVersion, title: String,
        style: TableStyle = .insetGrouped, sections: [ListingSection]
    ) {
        self.path = path
        self.version = version
        self.title = title
        self.style = style
        self.sections = sections
    }

    /// The document-level fields: path, version, title and style.
    public var header: ListingHeader { ListingHeader(path: path, version: version, title: title, style: style) }

    /// Every row of every section, in document order.
    public var allRows: [ListingRow] { sections.flatMap(\.rows) }
}
