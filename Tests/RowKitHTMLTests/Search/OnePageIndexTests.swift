import Foundation
import RowKit
import Testing

@testable import RowKitHTML

/// What the exporter writes for the one-page list (`docs/one-page.md`): its scripts in `assets/`
/// only when a table has several pages, the sections file, the anchor buckets, and nothing more.
@Suite struct OnePageIndexTests {
    /// The data of index file `name` (`RowKitSearch.load(key, name, data);`) in `folder`.
    static func data(_ name: String, in folder: URL) throws -> Any {
        let text = try String(contentsOf: folder.appendingPathComponent("search/\(name).js"), encoding: .utf8)
        let start = try #require(text.range(of: "\"\(name)\",")).upperBound
        let json = text[start...].dropLast(3)
        return try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
    }

    @Test func theAnchorHashIsFNV1aOfTheSlugsBytes() {
        #expect(OnePageIndex.hash("row-100") == 3_913_551_345)
        #expect(OnePageIndex.hash("") == 0x811c_9dc5)
    }

    @Test func thePageScriptsAreTheBundledFilesWhateverTheTemplatesFolderHolds() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let custom = folder.url.appendingPathComponent("templates")
        try FileManager.default.createDirectory(at: custom, withIntermediateDirectories: true)
        for name in ["listing.js", "search.js"] {
            try Data("/* old */".utf8).write(to: custom.appendingPathComponent(name + ".mustache"))
        }
        let site = folder.url.appendingPathComponent("s")
        var options = ExportOptions(pageSize: 500)
        options.templatesDirectory = custom
        try SiteExporter(options).export(SiteExporterTests.numbered(1200, body: true), to: site)
        let bundled = try TemplateSet.bundledDirectory().appendingPathComponent("assets")
        for name in ["listing.js", "search.js", "rowkit-core.js", "rowkit-core.wasm.js"] {
            #expect(
                try Data(contentsOf: site.appendingPathComponent("assets/" + name))
                    == Data(contentsOf: bundled.appendingPathComponent(name)), "\(name)")
        }
    }

    @Test func aTableOfSeveralPagesGetsTheOnePageScriptsOutlineAndAnchors() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("s")
        try SiteExporter(ExportOptions(pageSize: 500)).export(SiteExporterTests.numbered(1200, body: true), to: site)
        let files = Set(TemporaryFolder.files(in: site))
        for name in [
            "assets/listing.js", "assets/rowkit-core.js", "assets/rowkit-core.wasm.js", "search/s-.js", "search/i-0.js",
        ] {
            #expect(files.contains(name), "\(name)")
        }
        let bundled = try TemplateSet.bundledDirectory().appendingPathComponent("assets/rowkit-core.wasm.js")
        #expect(
            try Data(contentsOf: site.appendingPathComponent("assets/rowkit-core.wasm.js")) == Data(contentsOf: bundled)
        )
        let outline = try #require(try Self.data("s-", in: site) as? [String: Any])
        // Rows of about 70 bytes of display data (a detail page's link beside the text): more than
        // 128 a row file (SearchRowGroupSizeTests), and the pages say as many.
        let perFile = try #require(outline["r"] as? Int)
        #expect(perFile > 128 && perFile % 32 == 0, "\(perFile)")
        let page = try String(contentsOf: site.appendingPathComponent("page-2.html"), encoding: .utf8)
        #expect(page.contains("<script src=\"assets/listing.js\" defer></script>"))
        #expect(
            page.contains(
                "<main class=\"table\" id=\"list\" tabindex=\"-1\" data-page=\"2\" data-page-size=\"500\" data-first-row=\"500\" data-rows-per-file=\"\(perFile)\">"
            ))
        #expect(outline["n"] as? Int == 1200 && outline["p"] as? Int == 500)
        #expect(outline["k"] as? [Int] == [0, 1200, 0, 0, 0], "1,200 value1 rows, none with an inline body")
        let sections = try #require(outline["s"] as? [[Any]])
        #expect(sections.count == 3)
        #expect(sections[1][0] as? Int == 400 && sections[1][1] as? Int == 400)
        #expect(sections[1][2] as? String == "section-s1" && sections[1][3] as? String == "Section 1")
        #expect(sections[1].count == 6 && sections[1][5] as? String == "1", "no footer, then the index title")

        // Every detail page's anchor is in the bucket its hash names, with its row.
        let buckets = try #require(outline["b"] as? Int)
        #expect(buckets == 5, "1,200 anchors in buckets of 256")
        var found: [Int: UInt32] = [:]
        for bucket in 0..<buckets {
            let pairs = try #require(try Self.data("i-\(bucket)", in: site) as? [Int])
            for index in stride(from: 0, to: pairs.count, by: 2) {
                #expect(pairs[index] % buckets == bucket)
                found[pairs[index + 1]] = UInt32(pairs[index])
            }
        }
        #expect(found.count == 1200)
        #expect(found[401] == OnePageIndex.hash("row-1-1"), "row 401 is the second row of section 1")
    }

    @Test func aTableOfOnePageGetsNoneAndAReExportRemovesThem() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("s")
        try SiteExporter(ExportOptions(pageSize: 500)).export(SiteExporterTests.numbered(1200), to: site)
        let summary = try SiteExporter(ExportOptions(pageSize: 5000)).export(SiteExporterTests.numbered(1200), to: site)
        let files = Set(TemporaryFolder.files(in: site))
        #expect(!files.contains("assets/listing.js") && !files.contains("search/s-.js"))
        #expect(
            Set(["assets/listing.js", "assets/rowkit-core.js", "assets/rowkit-core.wasm.js", "search/s-.js"]).isSubset(
                of: Set(summary.removedFiles)))
        let page = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!page.contains("listing.js") && !page.contains("data-page="))
    }

    @Test func rowFilesCarryAnInlineBodysMarkupForTheListPage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("s")
        let table = Table(style: .plain) {
            Section("Only") {
                DefaultRow("Plain")
                DefaultRow("With body", body: "Some **bold** text")
            }
        }
        try SiteExporter(ExportOptions(pageSize: 1)).export(table, to: site)
        let rows = try #require(try Self.data("r-0", in: site) as? [[Any]])
        #expect(rows[0].count == 4, "no markup: trailing empty fields left out")
        #expect(rows[1].count == 7 && rows[1][6] as? String == "<p>Some <strong>bold</strong> text</p>\n")
        let outline = try #require(try Self.data("s-", in: site) as? [String: Any])
        #expect(outline["k"] as? [Int] == [2, 0, 0, 0, 1] && outline["b"] as? Int == 0)
    }
}
