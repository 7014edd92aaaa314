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
}
