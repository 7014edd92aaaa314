extension BenchReport {
    /// A report of a sweep: `results` of the same suite at several sizes (one value per size).
    ///
    /// Each operation gets a chart whose series are the result columns that measured it (`c`,
    /// `swift`, `naive`, named "C core", "Swift baseline", "Naive array"), its vertical axis named
    /// after what one timed unit is (``operationMeasure(_:)``); `build` and `build_new`, timed per
    /// whole build, come last. The tables' speed-ups are the alternating per-round ratios where the
    /// results have them (``BenchmarkResults/Row/ratios``). A sweep of one size says so in the
    /// subtitle.
    /// The raw text tables of every size are kept for the end of the page.
    ///
    /// - Complexity: O(*s* × *o* × *c*) for *s* sizes, *o* operations and *c* columns.
    public init(
        sweep results: [BenchmarkResults], title: String = "C core vs Swift baseline: offset tree",
        subtitle: String = ""
    ) {
        let sorted = results.sorted { $0.items < $1.items }
        var columns: [String] = []
        var operations: [String] = []
        for result in sorted {
            for column in result.columns where !columns.contains(column) { columns.append(column) }
            for row in result.rows where !operations.contains(row.op) { operations.append(row.op) }
        }
        let builds = ["build", "build_new"]
        operations = operations.filter { !builds.contains($0) } + operations.filter { builds.contains($0) }
        let charts = operations.map { operation in
            // A column that never measured this operation (the naive array has no view) gets no
            // series and no legend entry.
            let measured = columns.filter { column in
                sorted.contains { $0.rows.first { $0.op == operation }?.nanoseconds[column] != nil }
            }
            var speedUps: [Int: Double] = [:]
            if measured.count >= 2 {
                for result in sorted {
                    speedUps[result.items] = result.rows.first { $0.op == operation }?.ratios[measured[1]]
                }
            }
            return Chart(
                title: Self.operationTitle(operation),
                measure: Self.operationMeasure(operation),
                series: measured.map { column in
                    Series(
                        name: Self.columnName(column),
                        points: sorted.compactMap { result in
                            result.rows.first { $0.op == operation }?.nanoseconds[column].map {
                                Point(rows: result.items, nanosecondsPerOperation: $0)
                            }
                        })
                },
                speedUps: speedUps)
        }
        var subtitle = subtitle
        if sorted.count == 1, let only = sorted.first {
            subtitle +=
                (subtitle.isEmpty ? "" : " ")
                + "Only one size was measured (\(Formatting.grouped(only.items)) rows), so each chart has one point; "
                + "a larger --items sweeps from 1,000 rows up to it."
        }
        self.init(
            title: title, subtitle: subtitle, charts: charts,
            textTable: sorted.map { $0.table() }.joined(separator: "\n"))
    }

    /// The row counts of a sweep up to `items`: 10^3, 10^4, ... below it, then `items` itself.
    public static func sweepSizes(upTo items: Int) -> [Int] {
        var sizes: [Int] = []
        var size = 1_000
        while size < items {
            sizes.append(size)
            size *= 10
        }
        sizes.append(items)
        return sizes
    }

    /// The legend name of a result column: "C core" for `c`, the column itself when unknown.
    public static func columnName(_ column: String) -> String {
        ["c": "C core", "swift": "Swift baseline", "naive": "Naive array"][column] ?? column
    }

    /// The heading of an operation's chart: "Offset of a row" for `offset_of`.
    public static func operationTitle(_ operation: String) -> String {
        [
            "offset_of": "Offset of a row (offset_of)",
            "item_at": "Row at an offset (item_at)",
            "set": "Change a row's height (set)",
            "insert": "Insert a row (insert)",
            "remove": "Remove a row (remove)",
            "visible_range": "Rows in a 900-point viewport (visible_range)",
            "build": "Rebuild from all heights, reusing the tree's memory (build)",
            "build_new": "Build a new tree from all heights (build_new)",
            "view_build": "Build a table view and lay out its first screen (view_build)",
            "view_scroll_frame": "Scroll a table view by one screen (view_scroll_frame)",
            "view_apply_1000": "Apply a changeset of 1,000 row edits to a table view (view_apply_1000)",
        ][operation] ?? operation
    }

    /// The vertical axis of an operation's chart: what one timed unit is.
    public static func operationMeasure(_ operation: String) -> String {
        [
            "build": "Time per build", "build_new": "Time per build", "view_build": "Time per view built",
            "view_scroll_frame": "Time per frame", "view_apply_1000": "Time per changeset",
        ][operation] ?? "Time per operation"
    }
}
