import Foundation
import RowKit
import RowKitHTML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The benchmarks of the pipeline around the core: snapshot diffing and HTML export, measured in
/// the same run as the offset-tree and view benchmarks and printed beside them.
///
/// - Diff: `TableDiff.changeset` on a pair of snapshots with 1% of the rows changed (a quarter each
///   deleted, inserted, moved and edited), median of several runs, with `Int` identities (what
///   the algorithm costs) and with `ItemID` identities (what a `Table` of rows costs).
/// - Model: single-row batches (an insert, then a delete, at random rows) on a `TableModel` whose
///   one section holds 1,000,000 rows, and `path(of:)` lookups of random identities in it, each
///   in the same rounds as the C offset tree's insert and `item(at:)` on as many heights.
/// - Export: 100,000 rows with Markdown bodies through `SiteExporter`, against one bare
///   `cmark_markdown_to_html` per row on the same Markdown, interleaved run by run; medians of
///   rows/s and MB/s and their ratio. The same export without the search index runs in each
///   round too: the difference is the index's build cost per row, printed with its size per row.
public struct PipelineBenchmarks: Sendable {
    /// One diff measurement.
    public struct DiffFigure: Sendable, Equatable {
        /// Rows in each snapshot.
        public var rows: Int
        /// The identity type (`Int` or `ItemID`).
        public var identity: String
        /// Median milliseconds per diff.
        public var milliseconds: Double
        /// For `ItemID`: the median over runs of its time over the `Int` diff's time in the same run.
        public var ratioToInt: Double?
    }

    /// The model edit and lookup measurement, with the C tree's insert and `item_at` measured in
    /// the same rounds (``PipelineBenchmarks/runModel()``).
    public struct ModelFigure: Sendable, Equatable {
        /// Rows in the model's one section (and heights in the C tree).
        public var rows: Int
        /// Median microseconds per single-row batch (insert or delete at a random row).
        public var editMicroseconds: Double
        /// Median nanoseconds per `path(of:)` of a random identity.
        public var lookupNanoseconds: Double
        /// Median nanoseconds per C tree insert of one height at a random index.
        public var cInsertNanoseconds: Double
        /// Median nanoseconds per C tree `item(at:)` of a random offset.
        public var cItemAtNanoseconds: Double
        /// Median over rounds of the model edit's time over the C insert's in the same round.
        public var editOverCInsert: Double
        /// Median over rounds of the `path(of:)` time over the C `item(at:)` time in the same round.
        public var lookupOverCItemAt: Double
    }

    /// The export-versus-cmark measurement.
    public struct ExportFigure: Sendable, Equatable {
        /// Rows exported.
        public var rows: Int
        /// Median rows per second of the exporter.
        public var exportRowsPerSecond: Double
        /// Median Markdown MB (10^6 bytes) per second of the exporter.
        public var exportMBPerSecond: Double
        /// Median rows per second of bare cmark.
        public var cmarkRowsPerSecond: Double
        /// Median Markdown MB per second of bare cmark.
        public var cmarkMBPerSecond: Double
        /// Median over runs of (export throughput / cmark throughput).
        public var ratio: Double
        /// Median nanoseconds per row the search index adds (export with it less export without).
        public var searchNanosecondsPerRow: Double = 0
        /// Bytes of search index per row.
        public var searchBytesPerRow: Double = 0
        /// Files of the search index.
        public var searchFiles = 0
    }

    /// Rows for the diff measurements.
    public var diffRows: [Int] = [100_000, 1_000_000]
    /// Timed diffs per size (the median is reported).
    public var diffRuns = 7
    /// Rows in the one section of the model measurement.
    public var modelRows = 1_000_000
    /// Timed rounds of the model measurement (the medians are reported).
    public var modelRuns = 7

    /// Rows for the export measurement.
    public var exportRows = 100_000
    /// Interleaved export/cmark rounds (the medians are reported).
    public var exportRuns = 5

    /// Creates the benchmarks with the default sizes.
    public init() {}

    /// Median milliseconds of `TableDiff.changeset` per size and identity type; the `Int` and
    /// `ItemID` diffs of a size alternate run by run.
    public func runDiffs() -> [DiffFigure] {
        var figures: [DiffFigure] = []
        for rows in diffRows {
            let (old, new) = DiffBenchmark.makeSnapshots(rows: rows, changeFraction: 0.01, seed: 42)
            let (erasedOld, erasedNew) = (Self.erased(old), Self.erased(new))
            var ints: [Double] = []
            var ids: [Double] = []
            for _ in 0..<diffRuns {
                ints.append(time { try TableDiff.changeset(from: old, to: new) })
                ids.append(time { try TableDiff.changeset(from: erasedOld, to: erasedNew) })
            }
            figures.append(DiffFigure(rows: rows, identity: "Int", milliseconds: Harness.median(ints)))
            figures.append(
                DiffFigure(
                    rows: rows, identity: "ItemID", milliseconds: Harness.median(ids),
                    ratioToInt: Harness.medianRatio(ids, ints)))
        }
        return figures
    }

    /// Median microseconds per single-row batch and nanoseconds per identity lookup on a model of
    /// one `modelRows`-row section, side by side with the C offset tree's insert and `item(at:)` on
    /// a tree of as many heights (20–120, as in the offset-tree benchmark), in `modelRuns`
    /// alternating rounds (``Harness/sideBySide(_:phase:_:)``): a round runs an untimed and a timed
    /// batch of each of 200 model edits (inserts and deletes in turn, at random rows), 200 C
    /// inserts and 200 C removes (at random indices), then of each of 10,000 `path(of:)` lookups
    /// of random identities (present or deleted) and 10,000 `item(at:)` lookups of random offsets.
    /// Every lookup takes an input of its own, drawn at random from the whole section or the whole
    /// tree (so either side meets an identity or an item it met before only by chance, about one
    /// lookup in fifteen on both), and load that comes and goes during the run (a shared machine
    /// can have stretches of seconds in which plain arithmetic takes nearly twice as long) weighs on
    /// both sides of a round alike. The ratios are medians of the rounds' ratios.
    public func runModel() -> ModelFigure {
        let rows = modelRows
        var model: TableModel
        let tree: COffsetTree
        var random = SplitMix64(seed: 7)
        do {
            model = try TableModel(
                Table(
                    style: .plain,
                    sections: [Section(id: ItemID("rows"), rows: (0..<rows).map { AnyRow(BenchRow(id: $0)) })]))
            tree = try COffsetTree(heights: OffsetTreeBenchmark.heights(rows, &random))
        } catch {
            preconditionFailure("benchmark rows have unique identities and valid heights: \(error)")
        }
        var nextID = -1
        let edits = Harness(batches: modelRuns, iterations: 200).sideBySide(3) { which, i in
            do {
                switch which {
                case 0:
                    let count = model.numberOfRows(inSection: 0) ?? 0
                    if i % 2 == 0 {
                        try model.performBatch {
                            $0.insert(BenchRow(id: nextID), at: RowPath(section: 0, row: random.below(count + 1)))
                        }
                        nextID -= 1
                    } else {
                        try model.performBatch { $0.delete(.path(RowPath(section: 0, row: random.below(count)))) }
                    }
                case 1: try tree.insert(Double(20 + random.below(101)), at: random.below(tree.count + 1))
                default:
                    let at = random.below(tree.count)
                    try tree.removeSubrange(at..<at + 1)
                }
            } catch {
                preconditionFailure("benchmark edit failed: \(error)")
            }
        }
        // Inputs for every lookup of every round (an untimed batch and `phase` timed ones per side,
        // all sides of a round on the same indices), drawn before any clock starts.
        let lookups = Harness(batches: modelRuns, iterations: 10_000), phase = 1
        let inputs = lookups.batches * lookups.iterations * (1 + phase)
        let keys = (0..<inputs).map { _ in ItemID(random.below(rows)) }
        let total = tree.totalHeight
        let offsets = (0..<inputs).map { _ in Double(random.below(Int(total) * 16)) / 16 }
        let finds = lookups.sideBySide(2, phase: phase) { which, i in
            if which == 0 {
                blackHole(model.path(of: keys[i]))
            } else {
                blackHole(tree.item(at: offsets[i]))
            }
        }
        return ModelFigure(
            rows: rows, editMicroseconds: Harness.median(edits[0]) / 1e3,
            lookupNanoseconds: Harness.median(finds[0]), cInsertNanoseconds: Harness.median(edits[1]),
            cItemAtNanoseconds: Harness.median(finds[1]), editOverCInsert: Harness.medianRatio(edits[0], edits[1]),
            lookupOverCItemAt: Harness.medianRatio(finds[0], finds[1]))
    }

    /// Milliseconds of one diff.
    private func time(_ diff: () throws -> Changeset) -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        let changes = try? diff()
        let milliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        blackHole(changes)
        return milliseconds
    }

    private static func erased(_ snapshot: TableSnapshot<Int, Int>) -> TableSnapshot<ItemID, Int> {
        var erased = TableSnapshot<ItemID, Int>()
        erased.reserveCapacity(sections: snapshot.sectionCount, rows: snapshot.rowCount)
        for section in 0..<snapshot.sectionCount {
            erased.appendSection(ItemID(snapshot.sectionIDs[section]))
            for (id, content) in zip(snapshot.rowIDs(inSection: section), snapshot.contents(inSection: section)) {
                erased.appendRow(ItemID(id), content: content)
            }
        }
        return erased
    }

    /// Export versus bare cmark on the same Markdown, interleaved; `nil` when the export fails
    /// (for example, no writable temporary folder).
    public func runExport() -> ExportFigure? {
        let listing = ExportBenchmark.Listing(rows: exportRows)
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("rowkit-bench-export-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var exports: [ExportBenchmark.Result] = []
        var raws: [ExportBenchmark.Result] = []
        var ratios: [Double] = []
        var searchCosts: [Double] = []
        for _ in 0..<exportRuns {
            let raw = ExportBenchmark.renderRaw(listing)
            guard let export = try? ExportBenchmark.export(listing, to: folder),
                let bare = try? ExportBenchmark.export(
                    listing, to: folder.appendingPathExtension("bare"), search: false)
            else { return nil }
            raws.append(raw)
            exports.append(export)
            ratios.append(export.rowsPerSecond / raw.rowsPerSecond)
            searchCosts.append((export.seconds - bare.seconds) * 1e9 / Double(exportRows))
        }
        try? FileManager.default.removeItem(at: folder.appendingPathExtension("bare"))
        return ExportFigure(
            rows: exportRows,
            exportRowsPerSecond: Harness.median(exports.map(\.rowsPerSecond)),
            exportMBPerSecond: Harness.median(exports.map(\.markdownMBPerSecond)),
            cmarkRowsPerSecond: Harness.median(raws.map(\.rowsPerSecond)),
            cmarkMBPerSecond: Harness.median(raws.map(\.markdownMBPerSecond)),
            ratio: Harness.median(ratios),
            searchNanosecondsPerRow: Harness.median(searchCosts),
            searchBytesPerRow: Double(exports.last?.searchBytes ?? 0) / Double(exportRows),
            searchFiles: exports.last?.searchFiles ?? 0)
    }

    /// Exports `rows` rows with Markdown bodies in this process and returns its peak resident set
    /// in bytes (run it in a fresh process so nothing else counts).
    public static func exportPeakResidentBytes(rows: Int) throws -> Int {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("rowkit-bench-peak-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try ExportBenchmark.export(ExportBenchmark.Listing(rows: rows), to: folder)
        #if canImport(Darwin)
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)  // bytes on macOS
        #else
        // VmHWM, not getrusage: Linux keeps ru_maxrss across execve, so a child spawned by a large
        // parent would report the parent's peak. VmHWM belongs to this process image alone.
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
            return kilobytes * 1024
        }
        return 0
        #endif
    }

    /// The figures as text lines, with the targets they are held to.
    public static func table(
        diffs: [DiffFigure], model: ModelFigure, export: ExportFigure?, peakBytes: Int?, peakRows: Int
    ) -> String {
        var lines: [String] = ["", "pipeline (median)                        figure          target"]
        lines.append(String(repeating: "-", count: 68))
        func row(_ name: String, _ figure: String, _ target: String) {
            lines.append(
                name.padding(toLength: 41, withPad: " ", startingAt: 0)
                    + figure.padding(toLength: 16, withPad: " ", startingAt: 0) + target)
        }
        for diff in diffs {
            var target = diff.identity == "Int" ? (diff.rows <= 100_000 ? "< 20 ms" : "< 300 ms") : ""
            if let ratio = diff.ratioToInt {
                target = String(format: "%.2fx Int", ratio) + (diff.rows == 100_000 ? " (<= 1.5x)" : "")
            }
            row(
                "diff \(diff.rows) rows, 1% changed (\(diff.identity))", String(format: "%.1f ms", diff.milliseconds),
                target)
        }
        row("model edit, 1 section of \(model.rows) rows", String(format: "%.1f µs", model.editMicroseconds), "")
        row("model path(of:), same section", String(format: "%.0f ns", model.lookupNanoseconds), "")
        row("C tree insert, same rounds as the edits", String(format: "%.0f ns", model.cInsertNanoseconds), "")
        row("C tree item_at, same rounds as path(of:)", String(format: "%.0f ns", model.cItemAtNanoseconds), "")
        if let export {
            row(
                "export \(export.rows) rows with Markdown", String(format: "%.0f rows/s", export.exportRowsPerSecond),
                String(format: "%.1f MB/s", export.exportMBPerSecond))
            row(
                "bare cmark, same Markdown", String(format: "%.0f rows/s", export.cmarkRowsPerSecond),
                String(format: "%.1f MB/s", export.cmarkMBPerSecond))
            row("export / bare cmark", String(format: "%.0f%%", export.ratio * 100), ">= 50%")
            row("search index build, per row", String(format: "%.2f µs", export.searchNanosecondsPerRow / 1e3), "")
            row(
                "search index size, per row", String(format: "%.1f bytes", export.searchBytesPerRow),
                "\(export.searchFiles) files")
        } else {
            row("export", "failed", "")
        }
        if let peakBytes {
            row(
                "export \(peakRows) rows + index, peak RSS", String(format: "%.1f MB", Double(peakBytes) / 1e6),
                "< 300 MB")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The figures' members of the `--json` document (``BenchmarkJSON``), beside the offset-tree
    /// figures: `"diff_ms": {"int_100000": ms, ...}, "model": {"rows", "edit_us", "lookup_ns",
    /// "c_insert_ns", "c_item_at_ns"}, "export": {...}, "export_peak_rss_bytes": {"rows", "bytes"}`
    /// (the last two when measured).
    public static func jsonMembers(
        diffs: [DiffFigure], model: ModelFigure, export: ExportFigure?, peakBytes: Int?, peakRows: Int
    ) -> [String: BenchmarkJSON.Value] {
        let diffFields = diffs.map {
            ("\($0.identity.lowercased())_\($0.rows)", BenchmarkJSON.Value.number($0.milliseconds, places: 3))
        }
        var members: [String: BenchmarkJSON.Value] = [
            "diff_ms": .object(Dictionary(diffFields) { _, last in last }),
            "model": .object([
                "rows": .integer(model.rows), "edit_us": .number(model.editMicroseconds, places: 2),
                "lookup_ns": .number(model.lookupNanoseconds, places: 1),
                "c_insert_ns": .number(model.cInsertNanoseconds, places: 1),
                "c_item_at_ns": .number(model.cItemAtNanoseconds, places: 1),
            ]),
        ]
        if let export {
            members["export"] = .object([
                "rows": .integer(export.rows), "rows_per_s": .number(export.exportRowsPerSecond, places: 0),
                "mb_per_s": .number(export.exportMBPerSecond, places: 2),
                "cmark_rows_per_s": .number(export.cmarkRowsPerSecond, places: 0),
                "cmark_mb_per_s": .number(export.cmarkMBPerSecond, places: 2),
                "ratio": .number(export.ratio, places: 3),
                "search_ns_per_row": .number(export.searchNanosecondsPerRow, places: 0),
                "search_bytes_per_row": .number(export.searchBytesPerRow, places: 1),
                "search_files": .integer(export.searchFiles),
            ])
        }
        if let peakBytes {
            members["export_peak_rss_bytes"] = .object(["rows": .integer(peakRows), "bytes": .integer(peakBytes)])
        }
        return members
    }
}
