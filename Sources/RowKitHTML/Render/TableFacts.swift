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
    /// The first row (from 0) of each list page.
    var pageFirstRows = [0]
    /// The index bar: at most ``maximumIndexEntries`` sections with an index title, in order.
    var indexEntries: [IndexEntry] = []
    /// The rows of each of the search index's row-data files (``SearchRowGroupSize``).
    var rowsPerFile = SearchRowGroupSize.smallest

    /// An entry of the index bar: a section's anchor, the list page it starts on, its index title.
    struct IndexEntry: Sendable {
        var anchor: String
        var startPage: Int
        var title: String
    }

    /// The index bar's entries at most. Every list page carries the bar, so a listing of 100,000
    /// index titles would write each of them on every page (1.2 GB from 7 MB of listing).
    static let maximumIndexEntries = 100

    /// Which of `count` index titles the index bar shows (their positions among the titles, in
    /// order): all of them up to ``maximumIndexEntries``, else that many spread evenly, the
    /// first and the last among them.
    static func indexBarPicks(of count: Int) -> [Int] {
        guard count > maximumIndexEntries else { return Array(0..<count) }
        return (0..<maximumIndexEntries).map { $0 * (count - 1) / (maximumIndexEntries - 1) }
    }

    /// A list page holds at most this many bytes of its rows' text, detail and inline Markdown
    /// bodies (rendered, about 1 to 3 times as many): it closes after the row that reaches it, or
    /// at the page size, whichever comes first. 1 MiB.
    static let pageByteLimit = 1 << 20

    /// The list page (from 1) that row `row` (from 0) is on, given the pages' first rows.
    static func page(ofRow row: Int, in firstRows: [Int]) -> Int {
        var low = 0
        var high = firstRows.count
        // The number of pages that start at or before `row`.
        while low < high {
            let middle = (low + high) / 2
            if firstRows[middle] <= row { low = middle + 1 } else { high = middle }
        }
        return max(1, low)
    }

    static func pageFile(_ number: Int) -> String { number == 1 ? "index.html" : "page-\(number).html" }
}
