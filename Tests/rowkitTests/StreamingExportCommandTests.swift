import Foundation
import Testing

/// `rowkit export` on listings too large to hold, on any number of threads.
@Suite struct StreamingExportCommandTests {
    /// Every file under `folder` with its contents.
    static func files(_ folder: String) throws -> [String: Data] {
        try ExportCommandTests.snapshot(of: folder)
    }

    @Test func whenJobsDiffer_thenTheSitesAreByteIdentical() throws {
        let scratch = try TemporaryDirectory()
        let listing = scratch.path("large.csv")
        #expect(
            try RowKitTool.run(["generate-example", "--rows", "3000", "--format", "csv", "-o", listing]).status == 0)
        for jobs in ["1", "3"] {
            let run = try RowKitTool.run([
                "export", listing, "-o", scratch.path("site-\(jobs)"), "--section-by", "section", "--page-size", "100",
                "--jobs", jobs, "-q",
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let one = try Self.files(scratch.path("site-1"))
        #expect(
            one.keys.filter { !$0.hasPrefix("search/") }.count == 30 + 30 + 3 + 3,
            "30 list pages, 30 detail pages, the style sheet, the search script, the manifest, and the one page's script, core module and wrapper"
        )
        #expect(one.keys.contains("search/t-.js"))
        #expect(try Self.files(scratch.path("site-3")) == one)
    }

    @Test func whenJobsIsOutOfRange_thenItIsAUsageError() throws {
        let scratch = try TemporaryDirectory()
        let run = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", scratch.path("site"), "--jobs", "0"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--jobs must be between 1 and 256 (got 0)"))
    }

    /// A listing of `rows` rows with 10 KB Markdown bodies shown under them, written a row at a time.
    static func writeLargeListing(_ path: String, format: String, rows: Int) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        defer { try? handle.close() }
        let paragraph = String(repeating: "Lorem *ipsum* dolor sit amet, **consectetur** adipiscing elit. ", count: 160)
        if format == "csv" {
            try handle.write(contentsOf: Data("text,accessory,body\n".utf8))
        } else {
            try handle.write(contentsOf: Data("title: Large\nsections:\n  - rows:\n".utf8))
        }
        for row in 0..<rows {
            let line =
                format == "csv"
                ? "Row \(row),none,\"\(paragraph)\"\n"
                : "      - text: Row \(row)\n        accessory: none\n        body: \"\(paragraph)\"\n"
            try handle.write(contentsOf: Data(line.utf8))
        }
    }

    @Test(arguments: ["yaml", "csv"])
    func whenAListingIsLargerThan64MiB_thenItExports(format: String) throws {
        let scratch = try TemporaryDirectory()
        let listing = scratch.path("large.\(format)")
        try Self.writeLargeListing(listing, format: format, rows: 6_800)
        let size = try #require(FileManager.default.attributesOfItem(atPath: listing)[.size] as? NSNumber).intValue
        #expect(size > 64 * 1024 * 1024)
        let run = try RowKitTool.run(["export", listing, "-o", scratch.path("site"), "--page-size", "1000"])
        #expect(run.status == 0, "\(run.stderr)")
        // A page closes at 1,000 rows or past 1 MiB of their text and bodies: 104 rows of 10 KB.
        #expect(run.stdout.hasPrefix("Wrote \(scratch.path("site")): 66 pages, 6,800 rows, "))
        let last = try String(contentsOfFile: scratch.path("site/page-66.html"), encoding: .utf8)
        #expect(last.contains("Row 6799"))
        #expect(last.contains("<em>ipsum</em>"))
    }
}
