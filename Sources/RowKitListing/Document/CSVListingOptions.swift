import RowKit

/// How CSV columns map onto listing fields, and the table-level settings a CSV file cannot hold.
///
/// A field's column name left `nil` means "use the column named like the field, if the header has
/// one". A name set explicitly must be in the header, or reading fails naming it.
public struct CSVListingOptions: Sendable, Hashable {
    /// The column whose value groups rows into sections (and becomes the section header); `nil`
    /// puts every row in one section without a header.
    public var sectionBy: String?
    /// The column holding each row's text (required; default `"text"`).
    public var text: String
    /// The column holding the detail text.
    public var detail: String?
    /// The column holding the Markdown body.
    public var body: String?
    /// The column holding the image path.
    public var image: String?
    /// The column holding the explicit identity.
    public var id: String?
    /// The column holding the cell style.
    public var style: String?
    /// The column holding the accessory.
    public var accessory: String?
    /// The column holding the link.
    public var link: String?
    /// Whether sections are sorted by name (Unicode order, locale-independent) instead of kept in
    /// first-seen order.
    public var sort: Bool
    /// The table title; `nil` uses the file name without its extension.
    public var title: String?
    /// The table style.
    public var tableStyle: TableStyle

    /// Creates options; the defaults read a file whose header names the fields directly.
    public init(
        sectionBy: String? = nil, text: String = "text", detail: String? = nil,
        body: String? = nil, image: String? = nil, id: String? = nil, style: String? = nil,
        accessory: String? = nil, link: String? = nil, sort: Bool = false, title: String? = nil,
        tableStyle: TableStyle = .insetGrouped
    ) {
        self.sectionBy = sectionBy
        self.text = text
        self.detail = detail
        self.body = body
        self.image = image
        self.id = id
        self.style = style
        self.accessory = accessory
        self.link = link
        self.sort = sort
        self.title = title
        self.tableStyle = tableStyle
    }
}
