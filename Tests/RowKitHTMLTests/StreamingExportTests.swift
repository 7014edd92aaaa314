import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Testing

/// Listings exported as streams: the same bytes on any number of threads, and re-exports that
/// redo only what changed.
@Suite struct StreamingExportTests {
    /// A listing of `count` rows in three sections: every third row with a detail page, every
    /// third with its body under it, an index title per section.
    static func listing(_ count: Int, changing changed: Int? = nil, dropping dropped: Int? = nil) -> String {
        var yaml = "version: 1\ntitle: Stream\nsections:\n"
        for section in 0..<3 {
            yaml +=
                "  - header: Part \(section)\n    index: \(section)\n    footer: End of part \(section)\n    rows:\n"
            for row in stride(from: section, to: count, by: 3) where row != dropped {
                let text = row == changed ? "Changed row \(row)" : "Row \(row)"
                yaml += "      - text: \"\(text)\"\n        detail: \"\(row % 7)\"\n"
                switch row % 3 {
                case 0: yaml += "        body: \"Detail page of **\(row)**\"\n"
                case 1: yaml += "        accessory: none\n        body: \"Shown under *\(row)*\"\n"
                default: break
                }
            }
        }
        return yaml
    }

    /// Writes `yaml` as `folder/listing.yaml` and exports it to `site` (default: `folder/site`),
    /// with the search index when `search`.
    @discardableResult
    static func export(
        _ yaml: String, in folder: URL, to site: URL? = nil, jobs: Int, pageSize: Int = 20, search: Bool = true
    ) throws -> ExportSummary {
        let file = folder.appendingPathComponent("listing.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let options = ExportOptions(pageSize: pageSize, search: search, jobs: jobs)
        return try SiteExporter(options).export(
            listings: [ListingExport(ListingReader(contentsOfFile: file.path))],
            to: site ?? folder.appendingPathComponent("site"))
    }

    /// Every file of the site at `folder` with its bytes.
    static func files(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for path in TemporaryFolder.files(in: folder) {
            files[path] = try Data(contentsOf: folder.appendingPathComponent(path))
        }
        return files
    }

    static func inode(_ url: URL) throws -> UInt64 {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    @Test(arguments: [2, 3, 8])
    func whenPagesRenderOnSeveralThreads_thenTheSiteIsByteIdenticalToOneThread(jobs: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let yaml = Self.listing(500)
        let one = folder.url.appendingPathComponent("one"), many = folder.url.appendingPathComponent("many")
        let single = try Self.export(yaml, in: folder.url, to: one, jobs: 1)
        let parallel = try Self.export(yaml, in: folder.url, to: many, jobs: jobs)
        #expect(single.pages == parallel.pages && single.rows == parallel.rows && single.bytes == parallel.bytes)
        let expected = try Self.files(one)
        #expect(
            expected.keys.filter { !$0.hasPrefix("search/") }.count == 1 + 25 + 167 + 2 + 3,
            "the manifest, 25 list pages, 167 detail pages, the style sheet, the search script, and the one page's script, core module and wrapper"
        )
        #expect(expected.keys.contains("search/t-.js"))
        let actual = try Self.files(many)
        #expect(actual.keys.sorted() == expected.keys.sorted())
        for (path, bytes) in expected { #expect(actual[path] == bytes, "\(path) differs with \(jobs) jobs") }
    }

    @Test func whenATableIsExportedOnSeveralThreads_thenTheSiteIsByteIdenticalToOneThread() throws {
        let one = try TemporaryFolder()
        let many = try TemporaryFolder()
        defer {
            one.remove()
            many.remove()
        }
        let table = SiteExporterTests.numbered(1_000, sections: 7, body: true)
        try SiteExporter(ExportOptions(pageSize: 30, jobs: 1)).export(table, to: one.url.appendingPathComponent("s"))
        try SiteExporter(ExportOptions(pageSize: 30, jobs: 4)).export(table, to: many.url.appendingPathComponent("s"))
        #expect(try Self.files(many.url.appendingPathComponent("s")) == Self.files(one.url.appendingPathComponent("s")))
    }

    @Test func whenNothingChanged_thenTheWholePreviousSiteIsKeptWithoutRendering() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = try Self.export(Self.listing(300), in: folder.url, jobs: 2)
        let site = folder.url.appendingPathComponent("site")
        let siteInode = try Self.inode(site)
        let before = try Self.files(site)
        let second = try Self.export(Self.listing(300), in: folder.url, jobs: 2)
        #expect(second.filesWritten == 0 && second.filesUnchanged == first.filesWritten && second.filesRemoved == 0)
        #expect(second.pages == first.pages && second.rows == first.rows && second.bytes == first.bytes)
        #expect(try Self.inode(site) == siteInode, "the previous site was kept, not swapped")
        #expect(try Self.files(site) == before)
    }

    @Test func whenOneRowChanges_thenOnlyThePagesThatShowItAreRendered() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Without the search index, whose word files change with any row's words.
        try Self.export(Self.listing(300), in: folder.url, jobs: 2, search: false)
        let site = folder.url.appendingPathComponent("site")
        let before = try Self.files(site)
        var inodes: [String: UInt64] = [:]
        for path in before.keys { inodes[path] = try Self.inode(site.appendingPathComponent(path)) }
        // Row 150 (a detail-page row in part 0) is on list page 3 of part 0's 100 rows.
        let second = try Self.export(Self.listing(300, changing: 150), in: folder.url, jobs: 2, search: false)
        let after = try Self.files(site)
        let changed = Set(after.keys.filter { after[$0] != before[$0] })
        #expect(changed == ["page-3.html", "rows/changed-row-150.html", ".rowkit-manifest.json"])
        #expect(Set(before.keys).subtracting(after.keys) == ["rows/row-150.html"])
        #expect(second.filesWritten == 2 && second.filesRemoved == 1)
        for path in after.keys where !changed.contains(path) && path != ".rowkit-manifest.json" {
            #expect(try Self.inode(site.appendingPathComponent(path)) == inodes[path], "\(path) was written again")
        }
    }

    @Test func whenOneRowChangesWithSearch_thenItsPagesAndTheSearchFilesThatHoldItAreWrittenAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.export(Self.listing(300), in: folder.url, jobs: 2)
        let site = folder.url.appendingPathComponent("site")
        let before = try Self.files(site)
        try Self.export(Self.listing(300, changing: 150), in: folder.url, jobs: 2)
        let after = try Self.files(site)
        let changed = Set(after.keys.filter { after[$0] != before[$0] })
        let pages = changed.filter { !$0.hasPrefix("search/") }
        #expect(pages == ["page-3.html", "rows/changed-row-150.html", ".rowkit-manifest.json"])
        // Row 150 is the 51st of part 0, the 51st row of the listing: row shard 0 holds it.
        #expect(changed.contains("search/r-0.js") && !changed.contains("search/r-1.js"))
        #expect(changed.contains { $0.hasPrefix("search/t-") || $0.hasPrefix("search/p-") })
    }

    @Test func whenARowIsDeleted_thenItsDetailPageIsRemovedAndPagesThatChangeAreRedone() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.export(Self.listing(300), in: folder.url, jobs: 1, search: false)
        let site = folder.url.appendingPathComponent("site")
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("rows/row-297.html").path))
        let second = try Self.export(Self.listing(300, dropping: 297), in: folder.url, jobs: 1, search: false)
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("rows/row-297.html").path))
        #expect(second.filesRemoved == 1)
        #expect(second.rows == 299)
        // Part 2 now starts on page 10, not 11: every list page's index bar changes. The other
        // detail pages stay on their pages and are kept, with the style sheet.
        #expect(second.filesWritten == 15 && second.filesUnchanged == 99 + 1)
    }

    @Test func whenABodyIsOverTheMarkdownLimit_thenItsPageShowsItAsPlainTextWithAWarning() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let long = String(repeating: "*a* <b>", count: ListingLimits.maxMarkdownSize / 7 + 1)
        let yaml =
            "sections:\n  - rows:\n      - text: Long\n        body: \"\(long)\"\n      - text: Short\n        body: \"*b*\"\n"
        let summary = try Self.export(yaml, in: folder.url, jobs: 2)
        #expect(summary.warnings.map(\.message).contains { $0.contains("over the 1.0 MiB Markdown limit") })
        let rows = folder.url.appendingPathComponent("site/rows")
        let longPage = try String(contentsOf: rows.appendingPathComponent("long.html"), encoding: .utf8)
        #expect(longPage.contains("<pre class=\"plain-text\">*a* &lt;b&gt;*a* &lt;b&gt;"))
        #expect(!longPage.contains("<em>") && !longPage.contains("<!-- raw HTML omitted -->"))
        let shortPage = try String(contentsOf: rows.appendingPathComponent("short.html"), encoding: .utf8)
        #expect(shortPage.contains("<p><em>b</em></p>"))
    }

    @Test func whenAListingHasAProblem_thenNothingIsPublishedAndEveryProblemIsReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.export(Self.listing(60), in: folder.url, jobs: 2)
        let site = folder.url.appendingPathComponent("site")
        let before = try Self.files(site)
        let broken = Self.listing(60) + "      - detail: no text\n      - text: [not, text]\n"
        #expect {
            try Self.export(broken, in: folder.url, jobs: 2)
        } throws: { error in
            guard case .invalidListings(let diagnostics) = error as? ListingExportError else { return false }
            return diagnostics.map(\.message) == [
                "missing required field 'text' in a row", "'text' must be a string, found a sequence",
            ]
        }
        #expect(try Self.files(site) == before)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["listing.yaml", "site"])
    }

    @Test func whenATitleFollowsTheRows_thenTheRowsAreReadAgainWithIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // The title comes after the rows, as tools that sort keys write it.
        let yaml = Self.listing(30).replacingOccurrences(of: "title: Stream\n", with: "") + "title: Late title\n"
        try Self.export(yaml, in: folder.url, jobs: 2)
        let detail = try String(contentsOf: folder.url.appendingPathComponent("site/rows/row-0.html"), encoding: .utf8)
        #expect(detail.contains("<title>Row 0 – Late title</title>"))
    }
}
