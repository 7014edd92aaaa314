import Foundation
import RowKit
import Testing

@testable import RowKitHTML

/// How many rows a row-data file holds: chosen from the first 128 rows' display data, and the
/// same in the files, the trie's root, the one-page outline and the list pages.
@Suite struct SearchRowGroupSizeTests {
    @Test func smallRowsTakeTheMostRowsInStepsOf32WhoseFileStaysWithinTheTarget() {
        let target = SearchRowGroupSize.targetBytes
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 0) == 1024)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: target / 8) == 1024)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: target / 8 + 1) == 992)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: target / 4) == 512)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: target / 4 + 1) == 480)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 128 * 42) == 352, "CSV rows of 42 bytes")
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: target / 2) == 256)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: target / 2 + 1) == 224)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: target * 4 / 5) == 160)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: target * 4 / 5 + 1) == 128)
        #expect(SearchRowGroupSize.rowsPerFile(firstRowsBytes: 1 << 30) == 128)
        // Every size's file of rows like the first ones is within the target, and 32 more rows
        // would not be (unless it is the largest).
        for bytes in stride(from: 128, through: 20000, by: 7) {
            let rows = SearchRowGroupSize.rowsPerFile(firstRowsBytes: bytes)
            #expect(rows % 32 == 0 && (128...1024).contains(rows))
            if rows > 128 { #expect(bytes * rows <= SearchRowGroupSize.targetBytes * 128) }
            if rows < 1024 { #expect(bytes * (rows + 32) > SearchRowGroupSize.targetBytes * 128) }
        }
    }

    static func records(_ count: Int, textBytes: Int) -> SearchDisplayRecords {
        var records = SearchDisplayRecords()
        for _ in 0..<count {
            records.append(
                SearchRow(
                    text: String(repeating: "x", count: textBytes), layout: .default, accessory: .none,
                    target: .link("p.html")))
        }
        return records
    }

    @Test func theSizeIsDecidedAtTheRowThatCompletesTheFirst128AcrossPages() throws {
        var size = SearchRowGroupSize()
        #expect(size.add(Self.records(100, textBytes: 10)) == nil)
        #expect(size.decided == nil)
        #expect(size.rowsPerFile == 128, "a table of fewer rows is one file of up to 128")
        let rowBytes = try #require(Self.records(1, textBytes: 10).ends.first) + 1
        let expected = SearchRowGroupSize.rowsPerFile(firstRowsBytes: 128 * rowBytes)
        #expect((512...992).contains(expected), "rows of \(rowBytes) bytes")
        #expect(size.add(Self.records(100, textBytes: 10)) == expected)
        #expect(size.rows == 128 && size.bytes == 128 * rowBytes)
        #expect(size.add(Self.records(100, textBytes: 10)) == nil, "decided once")
        #expect(size.rowsPerFile == expected)
    }

    @Test func largeFirstRowsDecideBeforeThe128th() {
        var size = SearchRowGroupSize()
        #expect(size.add(Self.records(2, textBytes: 7000)) == 128)
        #expect(size.rows == 2)
        // Rows of about 120 bytes: fewer than 128 of them already rule out 160 a file.
        var medium = SearchRowGroupSize()
        let rowBytes = Self.records(1, textBytes: 100).ends[0] + 1
        let early = (SearchRowGroupSize.targetBytes * 128) / (160 * rowBytes) + 1
        #expect(early < 128, "rows of \(rowBytes) bytes")
        #expect(medium.add(Self.records(early - 1, textBytes: 100)) == nil)
        #expect(medium.add(Self.records(1, textBytes: 100)) == 128)
        #expect(medium.rows == early)
    }

    @Test func aReExportKeepsThePreviousSizeWhileItStaysNearWhatTheFirstRowsCallFor() {
        #expect(!SearchRowGroupSize.keeps(nil, fitting: 352))
        #expect(SearchRowGroupSize.keeps(352, fitting: 352))
        #expect(SearchRowGroupSize.keeps(384, fitting: 352), "a file at most a tenth over the target")
        #expect(!SearchRowGroupSize.keeps(416, fitting: 352))
        #expect(SearchRowGroupSize.keeps(288, fitting: 352), "at most a quarter more files")
        #expect(!SearchRowGroupSize.keeps(256, fitting: 352))
        #expect(!SearchRowGroupSize.keeps(2048, fitting: 1024) && !SearchRowGroupSize.keeps(96, fitting: 128))
        var size = SearchRowGroupSize(previous: 544)
        let rowBytes = Self.records(1, textBytes: 10).ends[0] + 1
        let fitting = SearchRowGroupSize.rowsPerFile(firstRowsBytes: 128 * rowBytes)
        #expect(
            fitting != 544 && SearchRowGroupSize.keeps(544, fitting: fitting), "rows of \(rowBytes) bytes: \(fitting)")
        #expect(size.add(Self.records(128, textBytes: 10)) == 544)
        var large = SearchRowGroupSize(previous: 640)
        #expect(large.add(Self.records(2, textBytes: 7000)) == 128, "rows that call for 128 take 128")
        #expect(
            SearchRowGroupSize.rowsPerFile(inRootFile: #"RowKitSearch.load("k","t-",{"n":9,"r":352,"k":[]});"#) == 352)
    }

    /// Rows whose first ones grow a little: a fresh export cuts their files a step smaller, a
    /// re-export of the site keeps the previous size, and so keeps the row files after the first.
    @Test func aReExportAfterTheFirstRowsGrowKeepsTheRowFiles() throws {
        func table(padding: Int) -> Table {
            var table = SiteExporterTests.numbered(3000)
            for index in 0..<128 {
                table.sections[0].rows[index] = AnyRow(
                    Value1Row("Row 0-\(index)" + String(repeating: "x", count: padding), detail: "\(index)"))
            }
            return table
        }
        let first = try Self.exported(table(padding: 0), pageSize: 100)
        // The least padding whose fresh export has another size that a re-export keeps.
        var padding = 0
        var fresh = first
        repeat {
            padding += 1
            fresh = try Self.exported(table(padding: padding), pageSize: 100)
        } while padding < 12 && (fresh.root == first.root || !SearchRowGroupSize.keeps(first.root, fitting: fresh.root))
        #expect(fresh.root != first.root, "padding \(padding)")

        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        let exporter = SiteExporter(ExportOptions(pageSize: 100))
        try exporter.export(table(padding: 0), to: site)
        let rowFiles = (3000 + first.root - 1) / first.root
        func inodes() throws -> [UInt64] {
            try (0..<rowFiles).map { try SiteExporterTests.inode(site.appendingPathComponent("search/r-\($0).js")) }
        }
        let before = try inodes()
        try exporter.export(table(padding: padding), to: site)
        let root = try String(contentsOf: site.appendingPathComponent("search/t-.js"), encoding: .utf8)
        #expect(SearchRowGroupSize.rowsPerFile(inRootFile: root) == first.root)
        // The first row file holds the edited rows; every other is kept as it was.
        let after = try inodes()
        #expect(after[0] != before[0] && Array(after.dropFirst()) == Array(before.dropFirst()))
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
