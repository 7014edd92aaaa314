import Foundation
import RowKit
import RowKitHTML

/// What a benchmark needs to compare the exporter with raw libcmark on the same Markdown.
///
/// ```swift
/// let listing = ExportBenchmark.Listing(rows: 100_000)
/// let export = try ExportBenchmark.export(listing, to: folder)    // the whole exporter
/// let raw = ExportBenchmark.renderRaw(listing)                     // cmark_markdown_to_html only
/// ```
/// Rows are made on demand (the listing holds none), so memory measures the exporter alone.
public enum ExportBenchmark {
    /// A generated listing: `rows` Value1 rows in sections of 100, each with a Markdown body of a
    /// few paragraphs, a list and a link, different for every row. Bodies are shown under their
    /// rows (no detail pages), so the site has one file per page, not per row.
    public struct Listing: ExportableTable, Sendable {
        /// The number of rows.
        public var rows: Int
        /// Rows per section.
        public var rowsPerSection: Int
        public var style: TableStyle { .insetGrouped }

        /// Creates a listing of `rows` rows.
        public init(rows: Int, rowsPerSection: Int = 100) {
            self.rows = rows
            self.rowsPerSection = rowsPerSection
        }

        public var sectionOutlines: [SectionOutline] {
            stride(from: 0, to: rows, by: rowsPerSection).map { start in
                let section = start / rowsPerSection
                return SectionOutline(
                    id: ItemID("s\(section)"), header: .title("Section \(section)"),
                    indexTitle: section % 10 == 0 ? "\(section / 10)" : nil, rowCount: min(rowsPerSection, rows - start)
                )
            }
        }

        public func rows(inSection index: Int) -> any Sequence<any Row> {
            let start = index * rowsPerSection
            return (start..<min(start + rowsPerSection, rows)).lazy.map { row in
                Value1Row("Item \(row)", detail: "\(row % 997) pcs", id: row, body: Self.markdown(row)) as any Row
            }
        }

        /// The Markdown body of row `row`.
        public static func markdown(_ row: Int) -> String {
            """
            ## Item \(row)

            A *sample* body with **strong** text, `code \(row)` and a [link](https://example.com/items/\(row)).
            Prices start at \(row % 100).99 and ship in \(row % 7 + 1) days.

            - first point for \(row)
            - second point & more
            """
        }

        /// The Markdown of every row, in order.
        public var allMarkdown: some Sequence<String> { (0..<rows).lazy.map(Self.markdown) }
    }

    /// What one run measured.
    public struct Result: Sendable {
        /// Rows processed.
        public var rows: Int
        /// Markdown bytes read.
        public var markdownBytes: Int
        /// HTML bytes produced.
        public var outputBytes: Int
        /// Wall-clock seconds.
        public var seconds: Double
        /// Bytes of the search index (0 when none was built).
        public var searchBytes = 0
        /// Files of the search index.
        public var searchFiles = 0
        /// Rows per second.
        public var rowsPerSecond: Double { Double(rows) / seconds }
        /// Markdown megabytes (10^6 bytes) per second.
        public var markdownMBPerSecond: Double { Double(markdownBytes) / 1e6 / seconds }
    }

    /// Exports `listing` to `folder` with the exporter (page size `pageSize`), with or without
    /// the search index.
    public static func export(_ listing: Listing, to folder: URL, pageSize: Int = 500, search: Bool = true) throws
        -> Result
    {
        let markdownBytes = listing.allMarkdown.reduce(0) { $0 + $1.utf8.count }
        let start = DispatchTime.now().uptimeNanoseconds
        let summary = try SiteExporter(ExportOptions(pageSize: pageSize, title: "Benchmark", search: search)).export(
            listing, to: folder)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Result(
            rows: summary.rows, markdownBytes: markdownBytes, outputBytes: summary.bytes, seconds: seconds,
            searchBytes: summary.searchBytes, searchFiles: summary.searchFiles)
    }

    /// Renders the Markdown of every row of `listing` with one raw `cmark_markdown_to_html` call
    /// each, nothing else.
    public static func renderRaw(_ listing: Listing) -> Result {
        var markdownBytes = 0
        var outputBytes = 0
        let start = DispatchTime.now().uptimeNanoseconds
        for markdown in listing.allMarkdown {
            markdownBytes += markdown.utf8.count
            outputBytes += Markdown.renderRaw(markdown)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Result(rows: listing.rows, markdownBytes: markdownBytes, outputBytes: outputBytes, seconds: seconds)
    }
}
