import ArgumentParser
import Foundation
import RowKitBench
import RowKitHTML
import RowKitListing

/// `rowkit bench`: the C core against the Swift baseline and a naive array, through `RowKitBench`.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Compare the C core with the Swift baseline and a naive array.",
        discussion: """
            Runs the offset-tree and headless-view benchmarks of the RowKitBench library at \
            --items rows and prints their table on standard output: the median nanoseconds per \
            operation for the C core (c), the Swift baseline (swift) and the naive array \
            (naive), each one's ratio to the C core, and heap bytes per row fresh and after \
            edits; then the C tree side by side with two plain-C reference structures (a \
            Fenwick tree and a chunked array). Build in release for meaningful numbers.

            With --report, also runs the sweep over 10^3, 10^4, ... rows up to --items and \
            writes an HTML page with, for each operation, a log-log chart of time per operation \
            against row count and a table. The naive array runs fewer iterations at large \
            sizes so the sweep ends in reasonable time.

            EXAMPLES
              Print the comparison table at 100,000 rows:
                swift run -c release rowkit bench --items 100000

              The same as JSON, for scripts:
                rowkit bench --items 100000 --json

              Write a report with charts from 10^3 to 10^6 rows and open it:
                rowkit bench --items 1000000 --report /tmp/bench
                open /tmp/bench/index.html

              Also time listing files of 100,000 and 1,000,000 rows exported to a site:
                rowkit bench --file-export 100000,1000000 --formats yaml,csv
            """)

    /// The row counts `--items` accepts.
    static let sizes = 1...10_000_000

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The number of rows of the table run (1 to 10,000,000), and the largest size of the sweep.", valueName: "n")
    )
    var items = 100_000

    @Flag(help: "Print the results as JSON instead of a table.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also run the sweep from 10^3 rows up to --items and write an HTML report with charts to this folder.",
            valueName: "dir"))
    var report: String?

    @Option(
        help: ArgumentHelp(
            "Also export generated listings of these row counts (comma-separated) from file to site.",
            valueName: "rows"))
    var fileExport: String?

    @Option(help: ArgumentHelp("The listing formats of --file-export.", valueName: "yaml,json,csv"))
    var formats = "yaml,json,csv"

    @Flag(help: "With --file-export: give every row a detail page instead of showing its body under it.")
    var detailPages = false

    /// The child process of the file export's peak-memory measurement.
    @Option(help: .hidden)
    var fileExportChild: String?

    @Flag(name: .shortAndLong, help: "Print no progress messages.")
    var quiet = false

    func validate() throws {
        guard Self.sizes.contains(items) else {
            throw ValidationError("--items must be between 1 and 10,000,000 (got \(items))")
        }
    }

    /// Measures on the main actor: the headless view the benchmark drives is main-actor isolated.
    func run() async throws {
        try await MainActor.run { try self.measure() }
    }

    @MainActor
    private func measure() throws {
        if let fileExportChild {
            try FileExportBenchmark.export(
                URL(fileURLWithPath: fileExportChild), to: URL(fileURLWithPath: fileExportChild + ".site"),
                jobs: ProcessInfo.processInfo.activeProcessorCount)
            try? FileManager.default.removeItem(atPath: fileExportChild + ".site")
            print(FileExportBenchmark.peakResidentBytes())
            return
        }
        try checkReportFolder()
        let suite = BenchmarkSuite.standard
        let results = suite.run(items: items)
        let files = try runFileExport()
        if json {
            var document = BenchmarkJSON()
            document.add(results.jsonMembers)
            document.add(FileExportBenchmark.jsonMembers(files))
            print(document.text, terminator: "")
        } else {
            print(results.table() + (files.isEmpty ? "" : FileExportBenchmark.table(files)), terminator: "")
        }
        guard let report else { return }

        let sizes = BenchReport.sweepSizes(upTo: items)
        let progress = ProgressBar(enabled: ProgressBar.isWanted(quiet: quiet), delay: 0)
        var sweepResults: [BenchmarkResults] = []
        for (index, size) in sizes.enumerated() {
            progress.activity("Sweep \(index + 1)/\(sizes.count): \(Formatting.grouped(size)) rows")
            sweepResults.append(size == items ? results : suite.run(items: size))
        }
        progress.finish()
        let page = BenchReport(
            sweep: sweepResults,
            subtitle:
                "Median of batches per operation; sizes \(sizes.map(Formatting.grouped).joined(separator: ", ")) rows.")
        let html: String
        do {
            html = try page.html()
        } catch {
            StandardError.line("rowkit: cannot write the report: \(error)")
            throw ExitCode.failure
        }
        let file = try ReportFolder(path: report).write(html)
        // Standard output stays pure JSON with --json.
        let line = "Wrote the report: open \(ExportCommand.shellQuoted(file))"
        if json { StandardError.line(line) } else if !quiet { print(StandardError.safe(line)) }
    }

    /// The file-to-site figures of `--file-export`, with each case's peak memory measured in a
    /// child process (this command again, with the hidden `--file-export-child`).
    private func runFileExport() throws -> [FileExportBenchmark.Figure] {
        guard let fileExport else { return [] }
        let sizes = fileExport.split(separator: ",").compactMap { Int($0) }
        let chosen = formats.split(separator: ",").compactMap { ListingGenerator.Format(rawValue: String($0)) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 > 0 }), !chosen.isEmpty else {
            throw ValidationError(
                "--file-export needs row counts such as 100000,1000000 and --formats yaml, json or csv")
        }
        let benchmark = FileExportBenchmark(sizes: sizes, formats: chosen, detailPages: detailPages)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rowkit-bench-files-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let progress = ProgressBar(enabled: ProgressBar.isWanted(quiet: quiet), delay: 0)
        defer { progress.finish() }
        return try benchmark.run(
            in: folder,
            peak: { file in
                FileExportBenchmark.childPeak(arguments: ["bench", "--file-export-child", file.path])
            }
        ) { progress.activity("File export: \($0)") }
    }

    /// Exits 73 before measuring anything when the report cannot be written to its folder (see
    /// ``ReportFolder``).
    private func checkReportFolder() throws(ExitCode) {
        guard let report, let problem = ReportFolder(path: report).problem() else { return }
        StandardError.line("rowkit: cannot write the report to '\(ListingText.escaped(report))': \(problem)")
        throw ExitCode.cannotCreate
    }
}
