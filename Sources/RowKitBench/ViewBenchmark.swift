import RowKit

/// The headless table view on the C core versus the Swift baseline: building a view, one scroll
/// frame, and applying a 1,000-operation changeset, at `items` rows with estimated heights.
///
/// Columns: `c`, `swift` (the `TableView` backend); rows: `view_build` (ns to build a view and lay
/// out the first screen), `view_scroll_frame` (ns per frame: scroll down by one 844-point screen,
/// release the rows that left, bind reused cells to the rows that came, measure them), and
/// `view_apply_1000` (ns for `TableView.apply` of a changeset of 500 row inserts and 500 row
/// deletes at random positions, to each backend's view in turn; the model's batch runs untimed,
/// and so does freeing the snapshot the views let go of: a view hands it to a background task,
/// and the benchmark keeps it alive until the next untimed batch so that freeing it on another
/// core does not overlap the timing). The two backends alternate round by round, as in the tree
/// benchmark. Rows are automatic with a 44-point
/// estimate, measured 30–70 points by their cell, in sections of 10,000 rows with 28-point headers;
/// nobody listens to events (so none are built), as in a host that only reads cells.
public struct ViewBenchmark: Benchmark {
    /// The operations measured, in table order.
    public static let operations = ["view_build", "view_scroll_frame", "view_apply_1000"]

    /// Timed batches per operation (the median is reported).
    public var batches: Int
    /// Scroll frames per batch.
    public var framesPerBatch: Int

    /// Creates the benchmark.
    public init(batches: Int = 7, framesPerBatch: Int = 300) {
        self.batches = batches
        self.framesPerBatch = framesPerBatch
    }

    /// "table-view".
    public var name: String { "table-view" }

    /// Runs all operations on `items` rows for both backends, in alternating phases (as the tree
    /// benchmark does): each round measures the C backend's view and the Swift backend's in turn,
    /// so load that comes and goes weighs on both alike, and each row's `ratios` holds the median
    /// over rounds of Swift time / C time. Must run on the main thread.
    public func run(items: Int) -> BenchmarkResults {
        precondition(items > 0, "the view benchmark needs at least one row")
        return MainActor.assumeIsolated {
            let model = Self.makeModel(rows: items)
            let samples = measure(model: model)
            let rows = Self.operations.map { op in
                let c = samples[op]?[0] ?? []
                let swift = samples[op]?[1] ?? []
                return BenchmarkResults.Row(
                    op: op, nanoseconds: ["c": Harness.median(c), "swift": Harness.median(swift)],
                    ratios: ["swift": Harness.medianRatio(swift, c)])
            }
            return BenchmarkResults(items: items, columns: ["c", "swift"], rows: rows)
        }
    }

    /// A plain table of `rows` automatic rows in sections of 10,000.
    @MainActor static func makeModel(rows: Int) -> TableModel {
        let perSection = 10_000
        var next = 0
        var sections: [Section] = []
        while next < rows {
            let count = min(perSection, rows - next)
            let ids = next..<(next + count)
            sections.append(
                Section(
                    id: ItemID("section \(sections.count)"),
                    header: .title("Section \(sections.count)", height: .fixed(28)),
                    rows: ids.map { AnyRow(BenchRow(id: $0)) }))
            next += count
        }
        do {
            return try TableModel(Table(style: .plain, sections: sections))
        } catch {
            preconditionFailure("benchmark rows have unique identities: \(error)")
        }
    }

    /// Each operation's samples by backend (0: C, 1: Swift), one per round.
    @MainActor private func measure(model: TableModel) -> [String: [[Double]]] {
        let backends: [TableViewBackend] = [.c, .swift]
        var results: [String: [[Double]]] = [:]
        results["view_build"] = Harness(batches: batches, iterations: 1).sideBySide(2) { which, _ in
            let view = TableView(model: model, viewport: .phone, backend: backends[which])
            view.layoutIfNeeded()
            blackHole(view)
        }

        let views = backends.map { TableView(model: model, viewport: .phone, backend: $0) }
        for view in views { view.layoutIfNeeded() }
        results["view_scroll_frame"] = Harness(batches: batches, iterations: framesPerBatch).sideBySide(2) { which, _ in
            let view = views[which]
            if view.contentOffset >= view.maximumContentOffset { view.scroll(to: 0) }
            view.scroll(by: TableViewport.phone.height)
        }

        // Each round: an untimed batch of 500 inserts and 500 deletes on the model, then the timed
        // apply of its changeset to each view (which goes first alternates from round to round).
        let state = ApplyState(model: model, rng: SplitMix64(seed: 0xB47C4))
        let clock = ContinuousClock()
        var applies: [[Double]] = [[], []]
        for round in 0..<batches {
            let batch = state.nextBatch()
            for which in round % 2 == 0 ? [0, 1] : [1, 0] {
                let start = clock.now
                do {
                    try views[which].apply(batch.changes, to: batch.model)
                } catch {
                    preconditionFailure("the view refused a model changeset: \(error)")
                }
                applies[which].append(Harness.nanoseconds(start.duration(to: clock.now)))
            }
        }
        results["view_apply_1000"] = applies
        return results
    }

    /// The model the applies follow, and where the next batch's random positions come from.
    @MainActor final class ApplyState {
        var model: TableModel
        /// The snapshot the view showed before the last apply, freed in the next setup.
        var previous: TableModel?
        var rng: SplitMix64
        var nextID = -1

        init(model: TableModel, rng: SplitMix64) {
            self.model = model
            self.rng = rng
        }

        /// Runs 500 inserts and 500 deletes at random positions on the model.
        func nextBatch() -> (changes: Changeset, model: TableModel) {
            previous = model
            let sections = model.numberOfSections
            var counts = model.sections.map(\.rows.count)
            do {
                let changes = try model.performBatch { batch in
                    for index in 0..<1_000 {
                        let section = rng.below(sections)
                        if index % 2 == 0 || counts[section] == 0 {
                            batch.insert(
                                BenchRow(id: nextID), at: RowPath(section: section, row: rng.below(counts[section] + 1))
                            )
                            nextID -= 1
                            counts[section] += 1
                        } else {
                            batch.delete(.path(RowPath(section: section, row: rng.below(counts[section]))))
                            counts[section] -= 1
                        }
                    }
                }
                return (changes, model)
            } catch {
                preconditionFailure("benchmark batch failed: \(error)")
            }
        }
    }
}

/// A benchmark row: automatic height, estimated at 44 points.
struct BenchRow: Row {
    typealias Cell = BenchCell
    var id: Int
    var height: HeightPolicy { .automatic(estimate: 44) }
}

/// The cell of `BenchRow`: measures 30–70 points from the row's identity, without text layout.
@MainActor
final class BenchCell: TableCell, CellConfiguring {
    private var value = 0
    func configure(with row: BenchRow) { value = row.id }
    override func prepareForReuse() {
        super.prepareForReuse()
        value = 0
    }
    override func measureHeight(width: Double) -> Double { Double(30 + (abs(value) % 5) * 10) }
}
