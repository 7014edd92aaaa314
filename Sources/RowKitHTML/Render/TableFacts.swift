import RowKit

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
