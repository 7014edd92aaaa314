import Foundation
import RowKitBench
import Testing

/// The benchmark report page: a log-log SVG chart and a table, from the templates folder.
@Suite struct BenchReportTests {
    static let chart = BenchReport.Chart(
        title: "Offset of a row",
        series: [
            .init(
                name: "C core",
                points: [
                    .init(rows: 1_000, nanosecondsPerOperation: 38), .init(rows: 10_000, nanosecondsPerOperation: 52),
                    .init(rows: 100_000, nanosecondsPerOperation: 71),
                    .init(rows: 1_000_000, nanosecondsPerOperation: 120),
                ]),
            .init(
                name: "Swift baseline",
                points: [
                    .init(rows: 1_000, nanosecondsPerOperation: 95), .init(rows: 10_000, nanosecondsPerOperation: 140),
                    .init(rows: 100_000, nanosecondsPerOperation: 210),
                    .init(rows: 1_000_000, nanosecondsPerOperation: 390),
                ]),
            .init(
                name: "Naive array",
                points: [
                    .init(rows: 1_000, nanosecondsPerOperation: 450),
                    .init(rows: 10_000, nanosecondsPerOperation: 4_300),
                    .init(rows: 100_000, nanosecondsPerOperation: 44_000),
                    .init(rows: 1_000_000, nanosecondsPerOperation: 460_000, isCapped: true),
                ]),
        ])

    static let sample = BenchReport(
        title: "Offset tree: C core vs Swift baseline", subtitle: "Median of 5 runs, release build",
        charts: [chart], textTable: "operation  C  Swift\nlookup     38  95")

    @Test func theChartHasLogAxesWithADecadePerTickALegendAndATooltipPerPoint() {
        let svg = Self.chart.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        for tick in ["10³", "10⁴", "10⁵", "10⁶", "1,000,000", "10 ns", "100 ns", "1 µs", "10 µs", "100 µs", "1 ms"] {
            #expect(svg.contains(">\(tick)</text>"), "no tick label \(tick)")
        }
        for name in ["C core", "Swift baseline", "Naive array"] {
            #expect(svg.contains(">\(name)</text>"), "no legend entry for \(name)")
        }
        #expect(svg.components(separatedBy: "<title>").count - 1 == 12)
        #expect(svg.contains("<title>Naive array: 460 µs at 1,000,000 rows (fewer iterations)</title>"))
        #expect(svg.contains("Rows in the table (log scale)"))
        #expect(svg.contains("Time per operation (log scale)"))
        #expect(svg.contains(">Offset of a row<tspan"))
        #expect(Self.chart.svg() == svg, "the chart is deterministic")
    }

    @Test func thePageHasTheChartTheTableAndTheRawResults() throws {
        let html = try Self.sample.html()
        #expect(html.contains("<title>Offset tree: C core vs Swift baseline</title>"))
        #expect(html.contains(Self.chart.svg()))
        #expect(
            html.contains(
                "<th>Rows</th><th>C core</th><th>Swift baseline</th><th>Naive array</th><th>C core speed-up</th>"))
        #expect(html.contains("<tr><td>1,000</td><td>38.0 ns</td><td>95.0 ns</td><td>450 ns</td><td>2.50×</td></tr>"))
        #expect(html.contains("<td>460 µs*</td>"))
        #expect(html.contains("<pre>operation  C  Swift\nlookup     38  95</pre>"))
        #expect(!html.contains("{{"))
    }

    @Test func aSweepBecomesOneChartPerOperationWithBuildLast() {
        let sizes = [1_000, 10_000]
        let sweep = sizes.map { items in
            BenchmarkResults(
                items: items, columns: ["c", "swift"],
                rows: [
                    .init(op: "build", nanoseconds: ["c": Double(items) * 5, "swift": Double(items) * 9]),
                    .init(op: "offset_of", nanoseconds: ["c": 40, "swift": 90]),
                ])
        }
        let report = BenchReport(sweep: sweep)
        #expect(
            report.charts.map(\.title) == [
                "Offset of a row (offset_of)", "Rebuild from all heights, reusing the tree's memory (build)",
            ])
        #expect(report.charts[1].measure == "Time per build")
        #expect(report.charts[0].series.map(\.name) == ["C core", "Swift baseline"])
        #expect(
            report.charts[0].series[1].points == [
                .init(rows: 1_000, nanosecondsPerOperation: 90), .init(rows: 10_000, nanosecondsPerOperation: 90),
            ])
        #expect(report.textTable == sweep.map { $0.table() }.joined(separator: "\n"))
    }

    @Test func aViewChartIsNamedInWordsAndListsOnlyTheColumnsThatMeasuredIt() {
        let sweep = [1_000, 10_000].map { items in
            BenchmarkResults(
                items: items, columns: ["c", "swift", "naive"],
                rows: [
                    .init(op: "offset_of", nanoseconds: ["c": 40, "swift": 90, "naive": 400]),
                    .init(op: "view_apply_1000", nanoseconds: ["c": 2e6, "swift": 3e6]),
                ])
        }
        let report = BenchReport(sweep: sweep)
        #expect(report.charts[0].series.map(\.name) == ["C core", "Swift baseline", "Naive array"])
        #expect(report.charts[1].title == "Apply a changeset of 1,000 row edits to a table view (view_apply_1000)")
        #expect(report.charts[1].measure == "Time per changeset")
        #expect(report.charts[1].series.map(\.name) == ["C core", "Swift baseline"])
        #expect(!report.subtitle.contains("one point"))
    }

    @Test func theTablesSpeedUpIsTheMediansQuotientAndTheRoundRatioHasItsOwnColumn() throws {
        let sweep = [1_000, 10_000].map { items in
            BenchmarkResults(
                items: items, columns: ["c", "swift"],
                rows: [
                    .init(
                        op: "set", nanoseconds: ["c": 40, "swift": 60],
                        ratios: items == 1_000 ? ["swift": 1.25] : [:])
                ])
        }
        let report = BenchReport(sweep: sweep)
        #expect(report.charts[0].speedUps == [1_000: 1.25])
        let html = try report.html()
        #expect(html.contains("<th>C core speed-up</th><th>speed-up by round</th>"))
        #expect(
            html.contains("<tr><td>1,000</td><td>40.0 ns</td><td>60.0 ns</td><td>1.50×</td><td>1.25×</td></tr>"),
            "the medians' quotient beside the medians, the alternating ratio in its own column")
        #expect(
            html.contains("<tr><td>10,000</td><td>40.0 ns</td><td>60.0 ns</td><td>1.50×</td><td>–</td></tr>"),
            "no round ratio at 10,000 rows")
    }

    @Test func aSweepOfOneSizeSaysSo() {
        let report = BenchReport(
            sweep: [BenchmarkResults(items: 1_000, columns: ["c"], rows: [.init(op: "set", nanoseconds: ["c": 9])])],
            subtitle: "Sizes 1,000 rows.")
        #expect(
            report.subtitle
                == "Sizes 1,000 rows. Only one size was measured (1,000 rows), so each chart has one point; "
                + "a larger --items sweeps from 1,000 rows up to it.")
    }

    @Test func theLegendMovesToACornerWithoutPoints() {
        let rising = BenchReport.Chart(
            title: "Rising",
            series: [
                .init(
                    name: "A",
                    points: [
                        .init(rows: 1_000, nanosecondsPerOperation: 1_000_000),
                        .init(rows: 1_000_000, nanosecondsPerOperation: 1),
                    ])
            ])
        #expect(rising.svg().contains("<rect x=\"96\" y=\"68\"") == false, "the top-left corner has a point")
    }

    @Test func whenLinesCrossEveryCorner_thenTheAxisGetsADecadeMoreAndTheLegendGoesThere() {
        // Two lines near the top and one near the bottom of the measured decades (1 ns to 100 ns)
        // cross all four corners, as in the set chart of a sweep.
        func flat(_ name: String, _ nanoseconds: Double) -> BenchReport.Series {
            .init(
                name: name,
                points: [1_000, 10_000, 100_000].map { .init(rows: $0, nanosecondsPerOperation: nanoseconds) })
        }
        let chart = BenchReport.Chart(
            title: "Set", series: [flat("C core", 31), flat("Swift baseline", 48), flat("Naive array", 1.7)])
        let svg = chart.svg()
        #expect(svg.contains(">1 µs</text>"), "one decade more above 100 ns")
        #expect(svg.contains("<rect x=\"96\" y=\"68\""), "the legend in the top-left corner, now free")
    }

    @Test func writeCreatesTheFolderAndIndexHTML() throws {
        let scratch = try TemporaryDirectory()
        let file = try Self.sample.write(to: scratch.url.appendingPathComponent("report"))
        #expect(file.lastPathComponent == "index.html")
        #expect(try String(contentsOf: file, encoding: .utf8) == Self.sample.html())
        if let keep = ProcessInfo.processInfo.environment["ROWKIT_KEEP_REPORT"] {
            try? FileManager.default.removeItem(atPath: keep)
            try FileManager.default.copyItem(at: file, to: URL(fileURLWithPath: keep))
        }
    }
}
