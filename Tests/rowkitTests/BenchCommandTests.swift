import Foundation
import RowKitBench
import Testing

/// `rowkit bench`, run as the README writes it (timings are never checked).
@Suite struct BenchCommandTests {
    /// The `rowkit bench` command lines of the README's code blocks that a test can afford: the
    /// ones with a small `--items`.
    static func readmeCommands() throws -> [[String]] {
        let readme = try String(contentsOf: RowKitTool.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.split(separator: "\n").compactMap { line -> [String]? in
            let command = line.split(separator: "#", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces)
            guard command.hasPrefix(".build/release/rowkit bench "),
                command.contains("--items 1000 ") || command.hasSuffix("--items 1000")
            else { return nil }
            return command.split(separator: " ").dropFirst().map(String.init)
        }
    }

    @Test func theReadmeShowsAQuickJSONRunAndAQuickReport() throws {
        let commands = try Self.readmeCommands()
        #expect(commands.contains { $0.contains("--json") && !$0.contains("--report") })
        #expect(commands.contains { $0.contains("--report") && !$0.contains("--json") })
    }

    @Test func whenTheReadmeCommandsRun_thenTheyPrintTheTablesTheJSONAndTheReport() throws {
        for arguments in try Self.readmeCommands() {
            let scratch = try TemporaryDirectory()
            let run = try RowKitTool.run(arguments, in: scratch.url)
            #expect(run.status == 0, "rowkit \(arguments.joined(separator: " ")): \(run.stderr)")
            if arguments.contains("--json") {
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
                #expect(object["items"] as? Int == 1_000)
                let ops = try #require(object["ops"] as? [String: [String: Double]])
                for op in [
                    "build", "build_new", "offset_of", "item_at", "set", "insert", "remove", "visible_range",
                    "view_build", "view_scroll_frame", "view_apply_1000",
                ] {
                    #expect(ops[op]?["c"] != nil && ops[op]?["swift"] != nil, "no \(op) for c and swift")
                }
                #expect((object["bytes_per_item"] as? [String: Double])?["c"] != nil)
                #expect((object["bytes_per_item_fresh"] as? [String: Double])?["c"] != nil)
                // The C and the Swift backend alternate on every operation but build_new.
                let alternating = try #require(object["ratios_alternating"] as? [String: [String: Double]])
                #expect(
                    Set(alternating.keys)
                        == [
                            "build", "offset_of", "item_at", "set", "insert", "remove", "visible_range",
                            "view_build", "view_scroll_frame", "view_apply_1000",
                        ])
                #expect(alternating.values.allSatisfy { ($0["swift"] ?? 0) > 0 })
                let reference = try #require(object["reference"] as? [String: [String: Any]])
                #expect(Set(reference.keys) == ["item_at", "offset_of", "set", "insert", "remove", "build"])
                #expect(reference["item_at"]?["against"] as? String == "fenwick find")
                #expect(reference["insert"]?["limit"] as? Double == 1.2)
            } else {
                let lines = run.stdout.split(separator: "\n")
                #expect(lines.first?.hasPrefix("op (1000 items)") == true)
                for label in [
                    "build ", "offset_of ", "view_scroll_frame ", "bytes/item fresh ", "bytes/item ",
                    "C tree vs plain-C references",
                ] {
                    #expect(lines.contains { $0.hasPrefix(label) }, "no \(label) line")
                }
            }
            if let report = arguments.firstIndex(of: "--report").map({ arguments[$0 + 1] }) {
                let page = try String(
                    contentsOf: scratch.url.appendingPathComponent(report).appendingPathComponent("index.html"),
                    encoding: .utf8)
                #expect(page.components(separatedBy: "<svg ").count - 1 == 11, "one chart per operation")
                #expect(page.contains(">C core</text>"))
                #expect(page.contains("C tree vs plain-C references"))
                #expect(page.contains("limit at 10^6"), "the limits are for 1,000,000 rows")
            }
        }
    }

    @Test func whenTheReportFolderIsAFile_thenNothingIsMeasuredAndTheStatusIs73() throws {
        let scratch = try TemporaryDirectory()
        try "x".write(toFile: scratch.path("file"), atomically: true, encoding: .utf8)
        let run = try RowKitTool.run(["bench", "--report", scratch.path("file")])
        #expect(run.status == 73)
        #expect(run.stdout == "")
        #expect(
            run.stderr == "rowkit: cannot write the report to '\(scratch.path("file"))': it is a file, not a folder\n")
    }

    /// A folder with an index.html of the user's (or a symbolic link there) is refused before
    /// anything is measured, and the file stays as it was; a report rowkit wrote is replaced.
    @Test func whenTheReportFolderHoldsFilesRowKitDidNotWrite_thenTheyAreKeptAndTheStatusIs73() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path("mine"), withIntermediateDirectories: true)
        try "mine\n".write(toFile: scratch.path("mine/index.html"), atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: scratch.path("linked"), withIntermediateDirectories: true)
        try "target\n".write(toFile: scratch.path("target.html"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("linked/index.html"), withDestinationPath: "../target.html")
        for folder in ["mine", "linked"] {
            let run = try RowKitTool.run(["bench", "--items", "1000", "--report", scratch.path(folder)])
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stdout == "")
            #expect(run.stderr.hasPrefix("rowkit: cannot write the report to '\(scratch.path(folder))': "))
        }
        #expect(try String(contentsOfFile: scratch.path("mine/index.html"), encoding: .utf8) == "mine\n")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("linked/index.html"))
                == "../target.html")
        #expect(try String(contentsOfFile: scratch.path("target.html"), encoding: .utf8) == "target\n")

        let first = try RowKitTool.run(["bench", "--items", "1000", "--report", scratch.path("report"), "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        let again = try RowKitTool.run(["bench", "--items", "1000", "--report", scratch.path("report"), "-q"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("report")) == ["index.html"])
    }

    @Test func whenItemsIsNotPositive_thenTheStatusIs64() throws {
        #expect(try RowKitTool.run(["bench", "--items", "0"]).status == 64)
    }

    @Test func theSweepRunsFromAThousandRowsUpToItems() {
        #expect(BenchReport.sweepSizes(upTo: 1_000) == [1_000])
        #expect(BenchReport.sweepSizes(upTo: 1_000_000) == [1_000, 10_000, 100_000, 1_000_000])
        #expect(BenchReport.sweepSizes(upTo: 50_000) == [1_000, 10_000, 50_000])
        #expect(BenchReport.sweepSizes(upTo: 200) == [200])
    }
}
