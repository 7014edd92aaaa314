import Foundation
import RowKit
import Testing

@testable import RowKitHTML

/// How many rows a row-data file holds: chosen from the first 128 rows' display data, and the
/// same in the files, the trie's root, the one-page outline and the list pages.
@Suite struct SearchRowGroupSizeTests {
    @Test func smallRowsTakeTheLargestSizeWhoseFileStaysWithinTheTarget() {
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 0) == 1024)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 2048) == 1024)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 2049) == 512)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 4096) == 512)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 4097) == 256)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 8192) == 256)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 8193) == 128)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 1 << 30) == 128)
    }

    static func records(_ count: Int, textBytes: Int) -> SearchDisplayRecords {
        var records = SearchDisplayRecords()
        for _ in 0..<count {
            records.append(
                SearchRow(
                    text: String(repeating: "x", count: textBytes), layout: .default, accessory: .none, href: "p.html"))
        }
        return records
    }

    @Test func theSizeIsDecidedAtTheRowThatCompletesTheFirst128AcrossPages() throws {
        var size = SearchRowGroupSize()
        #expect(size.add(Self.records(100, textBytes: 10)) == nil)
        #expect(size.decided == nil)
        #expect(size.rowsPerFile == 128, "a table of fewer rows is one file of up to 128")
        #expect(size.add(Self.records(100, textBytes: 10)) == 512)
        let rowBytes = try #require(Self.records(1, textBytes: 10).ends.first) + 1
        #expect(size.rows == 128 && size.bytes == 128 * rowBytes)
        #expect((17...32).contains(rowBytes), "a file of 512 such rows is at most 16 KB, of 1,024 more")
        #expect(size.add(Self.records(100, textBytes: 10)) == nil, "decided once")
        #expect(size.rowsPerFile == 512)
    }

    @Test func largeFirstRowsDecideBeforeThe128th() {
        var size = SearchRowGroupSize()
        #expect(size.add(Self.records(2, textBytes: 5000)) == 128)
        #expect(size.rows == 2)
    }

    /// A table's exported index: its root's `r`, its row files' record counts, the one-page
    /// outline's `r` and the list pages' `data-rows-per-file`.
    static func exported(_ table: Table, pageSize: Int) throws -> (
        root: Int, outline: Int, pages: Set<Int>, fileRows: [Int], texts: [String]
    ) {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter(ExportOptions(pageSize: pageSize)).export(table, to: site)
        let search = site.appendingPathComponent("search")
        func data(_ name: String) throws -> Any {
            let text = try String(contentsOf: search.appendingPathComponent("\(name).js"), encoding: .utf8)
            let open = try #require(text.range(of: "\"\(name)\","))
            let close = try #require(text.range(of: ");", options: .backwards))
            return try JSONSerialization.jsonObject(with: Data(text[open.upperBound..<close.lowerBound].utf8))
        }
        let root = try #require((try data("t-") as? [String: Any])?["r"] as? Int)
        let outline = try #require((try data("s-") as? [String: Any])?["r"] as? Int)
        var fileRows: [Int] = []
        var texts: [String] = []
        while FileManager.default.fileExists(atPath: search.appendingPathComponent("r-\(fileRows.count).js").path) {
            let rows = try #require(try data("r-\(fileRows.count)") as? [[Any]])
            fileRows.append(rows.count)
            texts += rows.map { $0[1] as? String ?? "" }
        }
        var pages: Set<Int> = []
        for name in try FileManager.default.contentsOfDirectory(atPath: site.path) where name.hasSuffix(".html") {
            let html = try String(contentsOf: site.appendingPathComponent(name), encoding: .utf8)
            let attribute = try #require(html.range(of: #"data-rows-per-file=""#), "\(name)")
            pages.insert(try #require(Int(html[attribute.upperBound...].prefix { $0 != "\"" })))
        }
        return (root, outline, pages, fileRows, texts)
    }

    @Test func aTableOfSmallRowsHasFewerLargerRowFilesAndSaysSoEverywhere() throws {
        let table = SiteExporterTests.numbered(3000)
        let index = try Self.exported(table, pageSize: 100)
        #expect(index.root > 128, "rows of about 36 bytes take more than 128 a file")
        #expect(index.outline == index.root && index.pages == [index.root])
        #expect(index.fileRows == Array(repeating: index.root, count: 3000 / index.root) + [3000 % index.root])
        let expected = (0..<3).flatMap { section in (0..<1000).map { "Row \(section)-\($0)" } }
        #expect(index.texts == expected, "row k is record k % r of file r-(k / r)")
    }

    @Test func aTableOfLargeRowsKeeps128RowsAFile() throws {
        let body = String(repeating: "Words of a body that is shown under its row. ", count: 4)
        let table = Table(
            style: .plain,
            sections: [
                Section(
                    id: ItemID("s"), header: .title("All"),
                    rows: (0..<600).map { AnyRow(Value1Row("Row \($0)", detail: "\($0)", body: body)) })
            ])
        let index = try Self.exported(table, pageSize: 100)
        #expect(index.root == 128 && index.outline == 128 && index.pages == [128])
        #expect(index.fileRows == [128, 128, 128, 128, 88])
    }
}
