import Foundation
import RowKitHTML
import RowKitListing
import Testing

/// List pages bounded by bytes as well as rows: a page closes after the row that brings its rows'
/// text and inline bodies to 1 MiB, and every link to a page (pagination, detail pages' way back,
/// search results, the one-page list's outline) follows where the rows went.
@Suite struct PageBytesTests {
    /// Ten rows with a body of about 400 KB shown under each, then a row with a detail page.
    static func listing() -> String {
        let body = String(repeating: "word ", count: 80_000)
        var yaml = "version: 1\ntitle: Large\nsections:\n  - header: Bodies\n    rows:\n"
        for row in 1...10 {
            yaml += "      - text: \"Large \(row)\"\n        accessory: none\n        body: \"\(body)\"\n"
        }
        yaml += "      - text: Last\n        body: \"A detail page\"\n"
        return yaml
    }

    @Test func whenRowsCarryLargeInlineBodies_thenAPageClosesAtAMebibyteAndLinksFollowTheRows() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.url.appendingPathComponent("listing.yaml")
        try Self.listing().write(to: file, atomically: true, encoding: .utf8)
        let site = folder.url.appendingPathComponent("site")
        let summary = try SiteExporter(ExportOptions(jobs: 2)).export(
            listings: [ListingExport(ListingReader(contentsOfFile: file.path))], to: site)
        #expect(summary.rows == 11)
        func text(_ path: String) throws -> String {
            try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
        }
        // 3 rows of 400 KB reach 1 MiB: pages of rows 1-3, 4-6, 7-9 and 10-11.
        let pages = ["index.html", "page-2.html", "page-3.html", "page-4.html"]
        for (number, page) in pages.enumerated() {
            let html = try text(page)
            #expect(html.utf8.count < 3 << 20, "\(page) is \(html.utf8.count) bytes")
            #expect(html.contains("data-first-row=\"\(number * 3)\""), "\(page)")
            #expect(html.contains("id=\"r-\(number * 3 + 1)\""), "\(page) starts with row \(number * 3 + 1)")
            #expect(!html.contains("id=\"r-\(number * 3 + 4)\""), "\(page) ends before row \(number * 3 + 4)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("page-5.html").path))
        #expect(try text("page-3.html").contains("href=\"page-4.html\""), "the next page's link")
        #expect(try text("page-3.html").contains("href=\"page-2.html\""), "the previous page's link")
        // The detail page of row 11 leads back to page 4.
        let detail = try #require(
            TemporaryFolder.files(in: site).first { $0.hasPrefix("rows/") && $0.hasSuffix(".html") })
        #expect(try text(detail).contains("page-4.html"), "\(detail) leads back to the page its row is on")
        // The outline gives the pages' first rows, and search results lead to the right page.
        #expect(try text("search/s-.js").contains("\"g\":[0,3,6,9]"))
        let rowData = try TemporaryFolder.files(in: site).filter { $0.hasPrefix("search/r-") }
            .map { try text($0) }.joined()
        // Row 4's record has page 2 for its place (`page-2.html#r-4`).
        #expect(rowData.contains(#"[0,"Large 4","",2,"#), "row 4's search result")
    }

    @Test func whenRowsAreSmall_thenPagesAreOfThePageSizeAndTheOutlineHasNoFirstRows() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var yaml = "version: 1\ntitle: Small\nsections:\n  - rows:\n"
        for row in 1...30 { yaml += "      - text: \"Row \(row)\"\n" }
        let file = folder.url.appendingPathComponent("listing.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let site = folder.url.appendingPathComponent("site")
        _ = try SiteExporter(ExportOptions(pageSize: 10, jobs: 1)).export(
            listings: [ListingExport(ListingReader(contentsOfFile: file.path))], to: site)
        let outline = try String(contentsOf: site.appendingPathComponent("search/s-.js"), encoding: .utf8)
        #expect(outline.contains("\"p\":10") && !outline.contains("\"g\":"))
        let third = try String(contentsOf: site.appendingPathComponent("page-3.html"), encoding: .utf8)
        #expect(third.contains("data-first-row=\"20\"") && third.contains("id=\"r-21\""))
    }
}
