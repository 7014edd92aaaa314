import Foundation
import Testing

/// `rowkit bench --file-export`, as a quick smoke run on small listings (timings are never checked).
@Suite struct FileExportBenchTests {
    @Test func whenFileExportIsAsked_thenEachSizeAndFormatHasItsFiguresInTheJSON() throws {
        let run = try RowKitTool.run([
            "bench", "--items", "200", "--file-export", "300", "--formats", "yaml,csv", "--json", "-q",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["items"] as? Int == 200, "the table's figures are kept")
        let cases = try #require(object["file_export"] as? [[String: Any]])
        #expect(cases.map { $0["format"] as? String } == ["yaml", "csv"])
        for figure in cases {
            #expect(figure["rows"] as? Int == 300)
            for key in [
                "bytes", "seconds", "rows_per_s", "mb_per_s", "unchanged_s", "unchanged_share", "cmark_rows_per_s",
                "peak_rss_bytes",
            ] {
                #expect(figure[key] != nil, "no \(key)")
            }
            #expect((figure["peak_rss_bytes"] as? Int ?? 0) > 1_000_000, "the child process reported its peak memory")
        }
    }

    @Test func whenFileExportSizesAreNotNumbers_thenItIsAUsageError() throws {
        let run = try RowKitTool.run(["bench", "--items", "200", "--file-export", "many"])
        #expect(run.status == 64)
    }
}
