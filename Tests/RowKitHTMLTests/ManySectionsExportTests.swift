import Foundation
import RowKitListing
import Testing

@testable import RowKitHTML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Listings of many sections: their records wait in the scratch file, and the index bar stays
/// bounded however many index titles there are.
@Suite struct ManySectionsExportTests {
    /// A listing of `count` one-row sections, each with a header, and with index titles when
    /// `indexed`; `repeating` gives every section whose number is a multiple of it the same
    /// header.
    static func listing(_ count: Int, indexed: Bool = true, repeating: Int? = nil) -> String {
        var yaml = "version: 1\ntitle: Sections\nsections:\n"
        for section in 0..<count {
            let header = repeating.map { section % $0 == 0 } == true ? "Again" : "Section \(section)"
            yaml += "  - header: \(header)\n"
            if indexed { yaml += "    index: T\(section)\n" }
            yaml += "    rows:\n      - text: Row \(section)\n"
        }
        return yaml
    }

    /// The `href`s and titles of the index bar of the list page `html`.
    static func indexBar(_ html: String) -> [(href: String, title: String)] {
        guard let start = html.range(of: "<nav class=\"index-bar\""), let end = html.range(of: "</nav>") else {
            return []
        }
        let bar = html[start.upperBound..<end.lowerBound]
        return bar.components(separatedBy: "<li><a href=\"").dropFirst().map { item in
            let href = item.prefix { $0 != "\"" }
            let title = item.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }
            return (String(href), String(title))
        }
    }

    @Test func whenAListingHasMoreIndexTitlesThanTheBarHolds_thenEveryPageShowsThatManySpreadEvenly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try StreamingExportTests.export(Self.listing(1_000), in: folder.url, jobs: 2, pageSize: 20, search: false)
        let site = folder.url.appendingPathComponent("site")
        let maximum = TableFacts.maximumIndexEntries
        let picks = (0..<maximum).map { $0 * 999 / (maximum - 1) }
        for page in 1...50 {
            let html = try String(
                contentsOf: site.appendingPathComponent(TableFacts.pageFile(page)), encoding: .utf8)
            let bar = Self.indexBar(html)
            #expect(bar.count == maximum, "page \(page) shows \(bar.count) index titles")
            #expect(bar.map(\.title) == picks.map { "T\($0)" })
            // Section n is on page n / 20 + 1; a link to the page itself is its anchor alone.
            let hrefs = picks.map { section in
                let start = section / 20 + 1
                return (start == page ? "" : TableFacts.pageFile(start)) + "#section-section-\(section)"
            }
            #expect(bar.map(\.href) == hrefs, "page \(page)")
        }
    }

    @Test func whenAListingHasAsManyIndexTitlesAsTheBarHolds_thenItShowsEveryOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let count = TableFacts.maximumIndexEntries
        try StreamingExportTests.export(Self.listing(count), in: folder.url, jobs: 1, pageSize: 20, search: false)
        let html = try String(contentsOf: folder.url.appendingPathComponent("site/page-2.html"), encoding: .utf8)
        #expect(Self.indexBar(html).map(\.title) == (0..<count).map { "T\($0)" })
    }

    @Test func whenSectionsRepeatTheirHeaders_thenTheirAnchorsAreTheirPositionsAndTheOthersTheirHeaders() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Enough sections for their records to pass through the scratch file several times.
        let count = 12_000
        try StreamingExportTests.export(
            Self.listing(count, indexed: false, repeating: 1_000), in: folder.url, jobs: 2, pageSize: 500)
        let site = folder.url.appendingPathComponent("site")
        var anchors: [String] = []
        for page in 1...(count / 500) {
            let html = try String(
                contentsOf: site.appendingPathComponent(TableFacts.pageFile(page)), encoding: .utf8)
            anchors += html.components(separatedBy: "id=\"section-").dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
        }
        let expected = (0..<count).map { $0 % 1_000 == 0 ? "\($0)" : "section-\($0)" }
        #expect(anchors == expected)
        let outline = try String(contentsOf: site.appendingPathComponent("search/s-.js"), encoding: .utf8)
        #expect(outline.contains("[0,1,\"section-0\",\"Again\"],[1,1,\"section-section-1\",\"Section 1\"]"))
        #expect(outline.contains("[11999,1,\"section-section-11999\",\"Section 11999\"]]"))
    }

    @Test func whenSectionRecordsFillSeveralBuffers_thenTheyAreReadBackInOrderAsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let descriptor = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        let scratch = try ScratchFile(in: descriptor)
        let list = SectionList(scratch: scratch)
        let parts = PagePartList(scratch: scratch)
        var records: [SectionList.Record] = []
        var pages: [[PagePartList.Part]] = []
        for number in 0..<20_000 {
            let record = SectionList.Record(
                id: number % 3 == 0 ? "id \(number)" : nil, header: number % 5 == 0 ? nil : "Header é \(number)",
                footer: number % 7 == 0 ? "" : nil, indexTitle: number % 2 == 0 ? "\(number)" : nil,
                rowStart: number * 300, rowCount: number % 400)
            records.append(record)
            try list.append(record)
            let page = (0..<(number % 4)).map {
                PagePartList.Part(section: number + $0, isFirst: $0 % 2 == 0, rows: $0 * 200, hasFooter: $0 == 1)
            }
            pages.append(page)
            try parts.append(page)
        }
        #expect(records.count * 20 > SectionList.bufferSize * 4, "the records went to the scratch file")
        let sections = list.makeReader()
        var read: [SectionList.Record] = []
        while let record = try sections.next() {
            read.append(record)
            #expect(sections.position == read.count)
        }
        #expect(read == records)
        let reader = parts.makeReader()
        var readPages: [[PagePartList.Part]] = []
        while let page = try reader.next() { readPages.append(page) }
        #expect(readPages == pages)
    }

    @Test func whenIndexFilesGoThroughTheScratchFile_thenTheyAreTheFilesMadeInMemory() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let descriptor = open(folder.url.path, O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        let scratch = try ScratchFile(in: descriptor)
        // Rows with inline bodies of 300 KB of markup (a row-data file of several MiB) and
        // 40,000 sections (an outline of over a MiB).
        let markup = String(repeating: "<li><em>item</em> \"quoted\" <code>x</code></li>\n", count: 6_000)
        let rows = (0..<300).map { number in
            SearchRow(
                text: "Row \(number)", layout: .default, accessory: .none, target: .link("#r-\(number + 1)"),
                html: number % 50 == 0 ? markup : nil, hasInlineBody: number % 50 == 0)
        }
        let sections: OnePageIndex.Sections = { visit in
            for number in 0..<40_000 {
                try visit(
                    OnePageIndex.Section(
                        firstRow: min(number, 299), rowCount: number < 300 ? 1 : 0, anchor: "section-\(number)",
                        header: "Section \(number)"))
            }
        }
        func build(streaming: Bool) throws -> (files: [String: [UInt8]], streamed: Set<String>) {
            var files: [String: [UInt8]] = [:]
            var streamed: Set<String> = []
            let builder = SearchIndexBuilder(key: "t", pairsPerRun: 1 << 20) { name, data in files[name] = data }
            builder.parallelWords = false
            if streaming {
                builder.largeFiles = (
                    scratch,
                    { name, ranges in
                        var bytes: [UInt8] = []
                        for range in ranges { try scratch.read(range, appendingTo: &bytes) }
                        files[name] = bytes
                        if ranges.count > 1 { streamed.insert(name) }
                    }
                )
            }
            for row in rows { try builder.add(row) }
            try builder.finish(sections: sections, pageSize: 20)
            return (files, streamed)
        }
        let inMemory = try build(streaming: false)
        let throughScratch = try build(streaming: true)
        // Groups of more than a MiB of rows are cut in parts; the first part, begun under
        // the group's name, went to the scratch file before it was renamed.
        #expect(throughScratch.streamed.isSuperset(of: ["s-", "r-0-0", "r-1-0"]), "\(throughScratch.streamed)")
        #expect(throughScratch.files.keys.sorted() == inMemory.files.keys.sorted())
        for (name, bytes) in inMemory.files { #expect(throughScratch.files[name] == bytes, "\(name) differs") }
    }

    /// A listing of `count` rows in two sections, each row with an inline body of `items` list
    /// items (about 20 bytes of Markdown and 38 of markup each); row `changed` has another text.
    static func largeBodies(_ count: Int, items: Int, changing changed: Int? = nil) -> String {
        let body = (1...items).map { "          - *\($0)* `x`\n" }.joined()
        var yaml = "version: 1\ntitle: Large\nsections:\n"
        for section in 0..<2 {
            yaml += "  - header: Part \(section)\n    rows:\n"
            for row in stride(from: section * count / 2, to: (section + 1) * count / 2, by: 1) {
                let text = row == changed ? "Changed \(row)" : "Row \(row)"
                yaml += "      - text: \(text)\n        accessory: none\n        body: |\n" + body
            }
        }
        return yaml
    }

    @Test func whenAPageOfLargeBodiesIsWrittenFromTheScratchFile_thenItIsTheSameOnAnyThreadsAndWhenReused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        // Rows of about 930 KB of Markdown, 2.5 MB of markup: a page closes at 2 rows (past 1 MiB
        // of Markdown, `TableFacts.pageByteLimit`), over `inMemoryRowBytes`; 6 pages.
        let yaml = Self.largeBodies(12, items: 64_000)
        let one = folder.url.appendingPathComponent("one"), two = folder.url.appendingPathComponent("two")
        try StreamingExportTests.export(yaml, in: folder.url, to: one, jobs: 1, pageSize: 10)
        try StreamingExportTests.export(yaml, in: folder.url, to: two, jobs: 2, pageSize: 10)
        let first = try StreamingExportTests.files(one)
        let page = try #require(first["index.html"])
        #expect(page.count > RenderWorkers.inMemoryRowBytes)
        #expect(try StreamingExportTests.files(two) == first)
        // A row of page 6 changes: page 1's rows are cut from the previous page by the ranges
        // its manifest entry records, and the page comes out as a fresh export makes it.
        let changed = Self.largeBodies(12, items: 64_000, changing: 11)
        try StreamingExportTests.export(changed, in: folder.url, to: one, jobs: 2, pageSize: 10)
        let fresh = folder.url.appendingPathComponent("fresh")
        try StreamingExportTests.export(changed, in: folder.url, to: fresh, jobs: 1, pageSize: 10)
        let reused = try StreamingExportTests.files(one), expected = try StreamingExportTests.files(fresh)
        #expect(reused["index.html"] == page)
        #expect(reused.keys.sorted() == expected.keys.sorted())
        for (path, bytes) in expected { #expect(reused[path] == bytes, "\(path) differs") }
    }
}
