import RowKitListing

/// A list page's rows to render (and their detail pages), or the previous site's rendering of
/// them to reuse.
struct PageJob: Sendable {
    var unit: ManifestUnit
    var table: TableFacts
    var rows: [RenderRow]
    /// The row indices where each section's part of the page starts.
    var partStarts: [Int]
    /// For each row, how to produce its detail page (`nil`: it has none); the renderer settles
    /// its key and whether the previous page is kept.
    var details: [DetailPlan?]
    /// The previous site's list page of the same number; its rows are reused when they were
    /// made from the same sources (the same key).
    var previous: ManifestEntry?

    /// The key of the page's rows (their keys `rowKeys`): what its list page's rows and detail
    /// pages are made from.
    func key(rowKeys: [UInt64]) -> UInt64 {
        var key = StableHash()
        key.update(value: table.key)
        key.update(value: unit.page)
        for rowKey in rowKeys { key.update(value: rowKey) }
        for start in partStarts { key.update(value: start) }
        return key.value
    }
}

/// A list page to put together once its table has been read.
struct AssemblyJob: Sendable {
    var unit: ManifestUnit
    var table: TableFacts
    /// The page's sections: anchor, header and footer (escaped), and how many rows each has.
    var parts: [(anchor: String?, header: String?, footer: String?, rows: Int)]
    /// The page's rendered rows.
    var body: RenderedBody
    var previous: ManifestEntry?
    var key: UInt64
}

/// A page's rows, rendered: where they are in the scratch file (one range, or a MiB at a time for
/// rows of large bodies: their bytes in order), and where the part lengths are
/// (``ScratchVarint``s, right after the last rows), so that a table of millions of one-row
/// sections keeps no lengths in memory.
struct RenderedBody: Sendable {
    var ranges: [Range<Int>]
    var lengths: Range<Int>

    /// The rows' bytes.
    var count: Int { ranges.reduce(0) { $0 + $1.count } }

    /// The scratch file ranges of the rows' bytes `logical` (counted from the first row's).
    func ranges(of logical: Range<Int>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var start = 0
        for range in ranges {
            let end = start + range.count
            let lower = max(start, logical.lowerBound), upper = min(end, logical.upperBound)
            if lower < upper {
                result.append((range.lowerBound + lower - start)..<(range.lowerBound + upper - start))
            }
            start = end
        }
        return result
    }
}

enum RenderJob: Sendable {
    case page(PageJob)
    case assemble(AssemblyJob)
}

/// What a job produced.
enum RenderOutcome: Sendable {
    /// A page's rows rendered: their markup, its key, the detail pages' entries and, with a
    /// search index, the rows' display data for it (see ``SearchDisplayRecords``).
    case page(ManifestUnit, RenderedBody, key: UInt64, details: [ManifestEntry], search: SearchDisplayRecords)
    case assembled(ManifestUnit, ManifestEntry)
}
