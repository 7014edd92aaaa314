import RowKit
import RowKitListing

/// A listing file to export, and what replaces its own settings.
public struct ListingExport: Sendable {
    /// The listing.
    public var reader: ListingReader
    /// The table's title instead of the listing's.
    public var title: String?
    /// The table's style instead of the listing's.
    public var style: TableStyle?

    /// A listing to export as it is, or with another title or style.
    public init(_ reader: ListingReader, title: String? = nil, style: TableStyle? = nil) {
        self.reader = reader
        self.title = title
        self.style = style
    }
}
