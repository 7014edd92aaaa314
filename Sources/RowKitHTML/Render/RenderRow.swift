import RowKit
import RowKitListing

/// A row as the exporter renders it: its content with everything that depends on rows before it
/// settled (its detail page's slug, its image's site path), so any thread can render it.
struct RenderRow: Sendable {
    var layout: CellLayout
    var accessory: Accessory
    var text: String
    /// The secondary text; `nil` when absent or empty.
    var detail: String?
    /// The image: a path inside the site (relative to the site's root) or a remote URL.
    var imageSource: String?
    var imageIsRemote = false
    /// The image's accessible name; `nil` when absent or empty.
    var imageAlt: String?
    /// The link, as given (made safe when rendered).
    var link: String?
    /// The Markdown body; `nil` when absent or empty.
    var body: String?
    /// The slug of the row's detail page, when it has one (a body and a disclosing accessory).
    var slug: String?
    /// A trusted HTML fragment of a custom row, shown as it is; the other fields are unused.
    var fragment: String?

    /// A hash of everything the row's markup and detail page are made from.
    var key: UInt64 {
        var hash = StableHash()
        hash.update(layout.rawValue)
        hash.update(accessory.rawValue)
        hash.update(text)
        for field in [detail, imageSource, imageAlt, link, body, slug, fragment] {
            if let field {
                hash.update(value: UInt8(1))
                hash.update(field)
            } else {
                hash.update(value: UInt8(0))
            }
        }
        hash.update(value: imageIsRemote)
        return hash.value
    }

    /// The path of the row's detail page in its table's folder.
    var detailPath: String? { slug.map { "rows/\($0).html" } }
}

/// What a table's pages share: its title, folder and look, and (once the table has been read)
/// the facts every list page needs: the page count and the index bar.
struct TableFacts: Sendable {
    var title: String
    var escapedTitle: String
    /// The table's folder in the site: "" or "name/".
    var folder: String
    /// The way from the table's folder to the site's root: "" or "../".
    var root: String
    var style: TableStyle
    /// The link back to the site's index page, for a table of several.
    var siteIndex: (href: String, label: String)?
    /// The key of the options, templates and tool, and of the table's title, folder and style.
    var key: UInt64

    var pageCount = 1
    /// Each section's anchor.
    var anchors: [String] = []
    /// Each section's first page.
    var startPages: [Int] = []
    /// The sections with an index title, in order.
    var indexTitles: [(section: Int, title: String)] = []

    static func pageFile(_ number: Int) -> String { number == 1 ? "index.html" : "page-\(number).html" }
}
