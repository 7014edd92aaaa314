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
    /// The cell style of a row whose style cell is empty or that has no style column (default:
    /// `CellLayout.default`, which shows no detail).
    public var defaultStyle: CellLayout
    /// The column holding each section's footer: the first non-empty value among the section's
    /// rows.
    public var footer: String?
    /// The column holding each section's index title (the section index bar's letter): the first
    /// non-empty value among the section's rows.
    public var index: String?
    /// Whether each section's index title is the first character of its header, upper-cased (when
    /// ``index`` gives it none); sections without a header get none.
    public var indexInitials: Bool
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
        tableStyle: TableStyle = .insetGrouped, defaultStyle: CellLayout = .default, footer: String? = nil,
        index: String? = nil, indexInitials: Bool = false
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
        self.defaultStyle = defaultStyle
        self.footer = footer
        self.index = index
        self.indexInitials = indexInitials
    }
}
