import Foundation
import RowKitHTML
import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The main job measured end to end: a listing file on disk exported to a site, as `rowkit export`
/// does it, at each size in each format.
///
/// For each case a listing of ``ListingGenerator/Kind/bodies`` rows (a text, a detail and a
/// five-line Markdown body each; bodies under their rows, or on detail pages) is generated, then:
///
/// - the full export into an empty folder, median of ``runs`` runs: seconds, rows/s, MB/s of input;
/// - an unchanged re-export into the same folder (median): its seconds and share of the full one;
/// - the peak resident memory of one full export, measured in a fresh process (`peak`);
/// - bare cmark on the same Markdown (one `cmark_markdown_to_html` per row), for scale.
public struct FileExportBenchmark: Sendable {
    /// One case's figures.
    public struct Figure: Sendable, Equatable {
        public var rows: Int
        public var format: ListingGenerator.Format
        /// The listing file's size.
        public var bytes: Int
        /// Median seconds of a full export.
        public var seconds: Double
        /// Median seconds of an unchanged re-export.
        public var unchangedSeconds: Double
        /// Peak resident set of a full export in a process of its own, in bytes.
        public var peakResidentBytes: Int?
        /// Rows per second of bare cmark on the same bodies.
        public var cmarkRowsPerSecond: Double

        public var rowsPerSecond: Double { Double(rows) / seconds }
        public var megabytesPerSecond: Double { Double(bytes) / 1e6 / seconds }
        public var unchangedShare: Double { unchangedSeconds / seconds }
    }

    /// Row counts measured.
    public var sizes: [Int]
    /// Formats measured at each size.
    public var formats: [ListingGenerator.Format]
    /// Detail pages for every row instead of bodies under the rows.
    public var detailPages: Bool
    /// Runs per case below 1,000,000 rows (the median is reported); one run from there on.
    public var runs: Int
    /// Pages rendered at once.
    public var jobs: Int

    /// A benchmark of `sizes` rows in `formats`.
    public init(
        sizes: [Int] = [100_000, 1_000_000], formats: [ListingGenerator.Format] = ListingGenerator.Format.allCases,
        detailPages: Bool = false, runs: Int = 3, jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.sizes = sizes
        self.formats = formats
        self.detailPages = detailPages
        self.runs = runs
        self.jobs = jobs
    }

    /// The reader of a generated listing (CSV listings are sectioned by their `section` column).
    public static func reader(for file: URL) -> ListingReader {
        let csv = CSVListingOptions(sectionBy: ListingGenerator.csvSectionColumn)
        return ListingReader(contentsOfFile: file.path, csv: csv)
    }

    /// Exports the listing `file` to `output` as `rowkit export` does.
    @discardableResult
    public static func export(_ file: URL, to output: URL, jobs: Int) throws -> ExportSummary {
        let options = ExportOptions(
            baseDirectory: file.deletingLastPathComponent(), title: "Benchmark", jobs: jobs)
        return try SiteExporter(options).export(listings: [ListingExport(reader(for: file))], to: output)
    }

    /// Runs every case in `folder` (created, and emptied after each case). `peak` exports a file
    /// in a fresh process and returns its peak resident set in bytes.
    public func run(in folder: URL, peak: (URL) -> Int?, progress: (String) -> Void = { _ in }) throws -> [Figure] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var figures: [Figure] = []
        for rows in sizes {
            for format in formats {
                progress("\(format.rawValue), \(rows) rows")
                figures.append(try measure(rows: rows, format: format, in: folder, peak: peak))
            }
        }
        return figures
    }

    private func measure(rows: Int, format: ListingGenerator.Format, in folder: URL, peak: (URL) -> Int?) throws
        -> Figure
    {
        let file = folder.appendingPathComponent("listing-\(rows).\(format.rawValue)")
        let site = folder.appendingPathComponent("site")
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: site)
        }
        let generator = ListingGenerator(kind: .bodies, rows: rows, format: format, detailPages: detailPages)
        try generator.write(to: file)
        let bytes = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        let count = rows >= 1_000_000 ? 1 : max(1, runs)
        var full: [Double] = []
        var unchanged: [Double] = []
        for _ in 0..<count {
            try? FileManager.default.removeItem(at: site)
            full.append(try Self.seconds { try Self.export(file, to: site, jobs: jobs) })
            unchanged.append(try Self.seconds { try Self.export(file, to: site, jobs: jobs) })
        }
        try? FileManager.default.removeItem(at: site)
        let peakBytes = peak(file)
        let cmark = Self.seconds { for row in 0..<rows { blackHole(Markdown.renderRaw(generator.body(ofRow: row))) } }
        return Figure(
            rows: rows, format: format, bytes: bytes, seconds: Harness.median(full),
            unchangedSeconds: Harness.median(unchanged),
            peakResidentBytes: peakBytes, cmarkRowsPerSecond: Double(rows) / cmark)
    }

    private static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    /// Runs this executable again with `arguments` and reads the number it prints (a child's peak
    /// resident set), or `nil` when it fails.
    public static func childPeak(arguments: [String]) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Int(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The peak resident set of this process so far, in bytes (`VmHWM` on Linux: it belongs to
    /// this process image alone, unlike `ru_maxrss`, which Linux keeps across `execve`).
    public static func peakResidentBytes() -> Int {
        #if canImport(Darwin)
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #else
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
        }
        return 0
        #endif
    }

    /// The figures as text lines.
    public static func table(_ figures: [Figure]) -> String {
        var lines = ["", "file export (median)   input      rows/s     MB/s  unchanged  peak RSS   cmark rows/s"]
        lines.append(String(repeating: "-", count: lines[1].count))
        for figure in figures {
            let name = "\(figure.format.rawValue) \(figure.rows) rows"
            let peak = figure.peakResidentBytes.map { String(format: "%.1f MB", Double($0) / 1e6) } ?? "-"
            lines.append(
                name.padding(toLength: 22, withPad: " ", startingAt: 0)
                    + String(
                        format: "%6.1f MB %10.0f %8.1f  %8.0f%%  ", Double(figure.bytes) / 1e6, figure.rowsPerSecond,
                        figure.megabytesPerSecond, figure.unchangedShare * 100)
                    + String(repeating: " ", count: max(0, 8 - peak.count)) + peak
                    + String(format: " %12.0f", figure.cmarkRowsPerSecond))
        }
        // How the peak grows with the listing: each format's largest size against its smallest.
        for format in ListingGenerator.Format.allCases {
            let measured = figures.filter { $0.format == format && $0.peakResidentBytes != nil }
            guard let small = measured.min(by: { $0.rows < $1.rows }),
                let large = measured.max(by: { $0.rows < $1.rows }),
                large.rows > small.rows, let smallPeak = small.peakResidentBytes,
                let largePeak = large.peakResidentBytes,
                smallPeak > 0
            else { continue }
            lines.append(
                "peak \(format.rawValue) \(large.rows) / \(small.rows) rows: "
                    + String(format: "%.2fx", Double(largePeak) / Double(smallPeak)))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The figures' member of the `--json` document (``BenchmarkJSON``): `"file_export": [{"format",
    /// "rows", "bytes", "seconds", "rows_per_s", "mb_per_s", "unchanged_s", "unchanged_share",
    /// "cmark_rows_per_s", "peak_rss_bytes"}, ...]` (the peak when measured); none without figures.
    public static func jsonMembers(_ figures: [Figure]) -> [String: BenchmarkJSON.Value] {
        guard !figures.isEmpty else { return [:] }
        let items = figures.map { figure -> BenchmarkJSON.Value in
            var fields: [String: BenchmarkJSON.Value] = [
                "format": .string(figure.format.rawValue), "rows": .integer(figure.rows),
                "bytes": .integer(figure.bytes), "seconds": .number(figure.seconds, places: 3),
                "rows_per_s": .number(figure.rowsPerSecond, places: 0),
                "mb_per_s": .number(figure.megabytesPerSecond, places: 2),
                "unchanged_s": .number(figure.unchangedSeconds, places: 3),
                "unchanged_share": .number(figure.unchangedShare, places: 3),
                "cmark_rows_per_s": .number(figure.cmarkRowsPerSecond, places: 0),
            ]
            if let peak = figure.peakResidentBytes { fields["peak_rss_bytes"] = .integer(peak) }
            return .object(fields)
        }
        return ["file_export": .array(items)]
    }
}
