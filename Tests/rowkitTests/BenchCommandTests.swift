import Foundation
import Testing

/// `rowkit bench`, as a quick smoke run (`--iterations` keeps it short; timings are never checked).
@Suite struct BenchCommandTests {
    @Test func printsTheTableJSONAndWritesTheReport() throws {
        let scratch = try TemporaryDirectory()
        let table = try RowKitTool.run(["bench", "--items", "200", "--iterations", "50"])
        #expect(table.status == 0, "\(table.stderr)")
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("op (200 items)") == true)
        for operation in ["build", "offset_of", "item_at", "set", "insert", "remove", "visible_range", "bytes/item"] {
            #expect(lines.contains { $0.hasPrefix(operation + " ") }, "no \(operation) line")
        }

        let report = scratch.path("report")
        let json = try RowKitTool.run([
            "bench", "--items", "200", "--iterations", "50", "--json", "--report", report, "--sweep", "200", "--sweep", "2000",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(object?["items"] as? Int == 200)
        #expect((object?["ops"] as? [String: Any])?.keys.sorted().contains("offset_of") == true)
        #expect(json.stderr == "Wrote the report: open \(report)/index.html\n")
        let page = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
        #expect(page.components(separatedBy: "<svg ").count - 1 == 7, "one chart per operation")
        #expect(page.contains(">C core</text>"))
        #expect(page.contains(">10³</text>"))
    }

    @Test func whenTheReportFolderIsAFile_thenNothingIsMeasuredAndTheStatusIs73() throws {
        let scratch = try TemporaryDirectory()
        try "x".write(toFile: scratch.path("file"), atomically: true, encoding: .utf8)
        let run = try RowKitTool.run(["bench", "--report", scratch.path("file")])
        #expect(run.status == 73)
        #expect(run.stdout == "")
        #expect(run.stderr == "rowkit: cannot write the report to '\(scratch.path("file"))': it is a file, not a folder\n")
    }

    @Test func whenItemsIsNotPositive_thenTheStatusIs64() throws {
        #expect(try RowKitTool.run(["bench", "--items", "0"]).status == 64)
    }
}
