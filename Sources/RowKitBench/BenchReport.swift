import Foundation
import Mustache
import RowKitHTML

/// A benchmark report page: for each operation, a log-log chart of time per operation against row
/// count, one line per implementation, and the numbers as a table.
///
/// The page is rendered from the exporter's templates folder (`Templates/bench-report.mustache`,
/// bundled with `RowKitHTML`), and is self-contained: the chart is inline SVG, the styles inline
/// CSS, so the one file can be mailed or attached to an issue.
///
/// ```swift
/// let sweep = BenchmarkSuite.standard.run(sizes: [1_000, 10_000, 100_000, 1_000_000])
/// try BenchReport(sweep: sweep).write(to: URL(fileURLWithPath: "bench-report"))
/// ```
public struct BenchReport: Sendable {
    /// One measurement: the median time per operation at a row count.
    public struct Point: Sendable, Hashable {
        /// The number of rows in the table measured.
        public var rows: Int
        /// The median time of one operation, in nanoseconds.
        public var nanosecondsPerOperation: Double
        /// Whether fewer iterations than usual were run at this size (drawn hollow).
        public var isCapped: Bool

        /// Creates a measurement.
        public init(rows: Int, nanosecondsPerOperation: Double, isCapped: Bool = false) {
            self.rows = rows
            self.nanosecondsPerOperation = nanosecondsPerOperation
            self.isCapped = isCapped
        }
    }

    /// The measurements of one implementation.
    public struct Series: Sendable, Hashable {
        /// The implementation's name, as in the legend ("C core").
        public var name: String
        /// The measurements, in any order.
        public var points: [Point]

        /// Creates a series.
        public init(name: String, points: [Point]) {
            self.name = name
            self.points = points
        }
    }

    /// One chart: an operation measured across row counts, one series per implementation.
    public struct Chart: Sendable, Hashable {
        /// The chart's heading ("Offset of a row").
        public var title: String
        /// What the y axis measures ("Time per operation").
        public var measure: String
        /// The implementations; the first is the one speed-ups are given for, against the second.
        public var series: [Series]
        /// Speed-ups measured in alternating rounds, by row count: the median over rounds of the
        /// second series' time / the first's (``BenchmarkResults/Row/ratios``), shown in their own
        /// column beside the quotient of the two medians.
        public var speedUps: [Int: Double] = [:]

        /// Creates a chart.
        public init(
            title: String, measure: String = "Time per operation", series: [Series], speedUps: [Int: Double] = [:]
        ) {
            self.title = title
            self.measure = measure
            self.series = series
            self.speedUps = speedUps
        }

        /// Every row count measured by any series, ascending.
        public var rowCounts: [Int] { Set(series.flatMap { $0.points.map(\.rows) }).sorted() }
    }

    /// The page's heading.
    public var title: String
    /// A line under the heading: what was measured, on what, when.
    public var subtitle: String
    /// The charts, in page order.
    public var charts: [Chart]
    /// The benchmark's own text tables, shown verbatim at the end; `nil` for none.
    public var textTable: String?

    /// Creates a report.
    public init(title: String, subtitle: String = "", charts: [Chart], textTable: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.charts = charts
        self.textTable = textTable
    }

    /// The name of the page's template in the templates folder.
    public static let templateName = "bench-report"

    /// The HTML page, rendered from `bench-report.mustache` in `templatesDirectory` when it has
    /// one, else from the bundled templates.
    ///
    /// - Throws: `ExportError.templateMissing` or `.templateSyntax` when the template cannot be used.
    public func html(templatesDirectory: URL? = nil) throws -> String {
        let file = Self.templateName + ".mustache"
        var candidates = [try TemplateSet.bundledDirectory().appendingPathComponent(file)]
        if let templatesDirectory { candidates.insert(templatesDirectory.appendingPathComponent(file), at: 0) }
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
            throw ExportError.templateMissing(name: Self.templateName)
        }
        let template: MustacheTemplate
        do {
            template = try MustacheTemplate(string: String(contentsOf: url, encoding: .utf8))
        } catch {
            throw ExportError.templateSyntax(name: url.path, message: "\(error)")
        }
        return template.render(context)
    }

    /// Writes the page to `folder/index.html` (creating the folder) and returns the file's URL.
    ///
    /// - Throws: `ExportError.fileSystem` when the folder or file cannot be written.
    @discardableResult
    public func write(to folder: URL, templatesDirectory: URL? = nil) throws -> URL {
        let page = try html(templatesDirectory: templatesDirectory)
        let file = folder.appendingPathComponent("index.html")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(page.utf8).write(to: file, options: .atomic)
        } catch {
            throw ExportError.fileSystem(operation: "write", path: file.path, message: error.localizedDescription)
        }
        return file
    }

    /// The values the template sees; every string is escaped HTML (templates use `{{{ }}}`).
    var context: [String: Any] {
        var context: [String: Any] = [
            "title": HTMLEscaping.escape(title),
            "charts": charts.map(Self.context(of:)),
            "capped": charts.contains { $0.series.contains { $0.points.contains(where: \.isCapped) } },
        ]
        if !subtitle.isEmpty { context["subtitle"] = HTMLEscaping.escape(subtitle) }
        if let textTable { context["textTable"] = HTMLEscaping.escape(textTable) }
        return context
    }

    private static func context(of chart: Chart) -> [String: Any] {
        let series = chart.series
        let speedUp = series.count >= 2
        let byRound = speedUp && !chart.speedUps.isEmpty
        // The speed-up is the quotient of the two medians beside it; by round, the median of the
        // rounds' quotients (each round timing both), where the two were timed that way.
        let headers =
            ["Rows"] + series.map(\.name) + (speedUp ? ["\(series[0].name) speed-up"] : [])
            + (byRound ? ["speed-up by round"] : [])
        let rows: [[String: Any]] = chart.rowCounts.map { count in
            let values = series.map { $0.points.first { $0.rows == count } }
            var cells = [Formatting.grouped(count)]
            cells += values.map { value in
                value.map { Formatting.duration(nanoseconds: $0.nanosecondsPerOperation) + ($0.isCapped ? "*" : "") }
                    ?? "–"
            }
            if speedUp {
                if let first = values[0], let second = values[1], first.nanosecondsPerOperation > 0 {
                    cells.append(Formatting.ratio(second.nanosecondsPerOperation / first.nanosecondsPerOperation))
                } else {
                    cells.append("–")
                }
            }
            if byRound { cells.append(chart.speedUps[count].map(Formatting.ratio) ?? "–") }
            return ["cells": cells.map { ["text": HTMLEscaping.escape($0)] }]
        }
        return [
            "title": HTMLEscaping.escape(chart.title),
            "chart": chart.svg(),
            "headers": headers.map { ["text": HTMLEscaping.escape($0)] },
            "rows": rows,
        ]
    }
}

extension BenchReport {
    /// Number formatting for the report, independent of the locale.
    enum Formatting {
        /// "1,000,000".
        static func grouped(_ value: Int) -> String {
            let digits = String(value.magnitude)
            var result = ""
            for (index, digit) in digits.enumerated() {
                if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
                result.append(digit)
            }
            return (value < 0 ? "-" : "") + result
        }

        /// A time in the unit that keeps it between 1 and 1000: "42.1 ns", "3.20 µs", "1.05 ms".
        static func duration(nanoseconds: Double) -> String {
            let units = [(1e9, "s"), (1e6, "ms"), (1e3, "µs"), (1, "ns")]
            let (scale, unit) = units.first { nanoseconds >= $0.0 } ?? (1, "ns")
            return significant(nanoseconds / scale) + " " + unit
        }

        /// A ratio: "12.3×".
        static func ratio(_ value: Double) -> String { significant(value) + "×" }

        /// Three significant digits, without exponent: "123", "12.3", "1.23", "0.123".
        static func significant(_ value: Double) -> String {
            guard value.isFinite else { return "–" }
            let decimals = value >= 100 ? 0 : value >= 10 ? 1 : value >= 1 ? 2 : 3
            let scale = pow(10, Double(decimals))
            let rounded = (value * scale).rounded() / scale
            let whole = Int(rounded)
            guard decimals > 0 else { return "\(whole)" }
            let fraction = Int(((rounded - Double(whole)) * scale).rounded())
            let padded = String(repeating: "0", count: max(0, decimals - String(fraction).count)) + String(fraction)
            return "\(whole).\(padded)"
        }
    }
}
