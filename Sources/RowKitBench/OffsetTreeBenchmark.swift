import RowKit

/// C tree versus Swift tree versus a naive array: rebuild, build, offset-of, item-at, set, insert
/// and remove one item at random positions, and the visible range of a 900-point viewport; then
/// the C tree side by side with two plain-C reference structures (``ReferenceComparison``). The C
/// and the Swift tree run each operation in alternating phases, as the references do, and their
/// ratio is the median over rounds (``BenchmarkResults/Row/ratios``); only `build_new` times them
/// one after the other.
///
/// Heights are whole numbers from 20 to 120. Columns: `c`, `swift`, `naive`; rows: `build` (ns to
/// rebuild a tree from all heights with `replaceAll(with:)`, reusing its memory), `build_new` (ns
/// to build a new tree), `offset_of`, `item_at`, `set`, `insert`, `remove`, `visible_range` (ns
/// per operation). Inserts and removes alternate batch by batch, each batch at most an eighth of
/// the items, so the tree stays within 12.5% of its size. Naive operations are O(n), so they run
/// fewer iterations, still as medians of batches. Bytes per item are read after the build
/// (`bytes_per_item_fresh`) and after the inserts and removes (`bytes_per_item`).
public struct OffsetTreeBenchmark: Benchmark {
    /// The operations measured, in table order.
    public static let operations = [
        "build", "build_new", "offset_of", "item_at", "set", "insert", "remove", "visible_range",
    ]

    /// Timed batches per operation.
    public var batches: Int
    /// Tree operations per batch.
    public var treeIterations: Int

    /// Creates the benchmark.
    public init(batches: Int = 7, treeIterations: Int = 20_000) {
        self.batches = batches
        self.treeIterations = treeIterations
    }

    /// "offset-tree".
    public var name: String { "offset-tree" }

    /// Runs all operations on `items` items for the three implementations, then the reference
    /// comparison.
    public func run(items: Int) -> BenchmarkResults {
        precondition(items > 0, "the offset-tree benchmark needs at least one item")
        var rng = SplitMix64(seed: 0x5EED)
        let heights = Self.heights(items, &rng)
        let inputs = Inputs(items: items, total: heights.reduce(0, +), rng: &rng)
        let trees = measureTrees(heights, inputs)
        var columns = trees.ns
        columns["naive"] = measureNaive(heights, inputs)
        let rows = Self.operations.map { op in
            BenchmarkResults.Row(
                op: op, nanoseconds: columns.compactMapValues { $0[op] },
                ratios: trees.swiftOverC[op].map { ["swift": $0] } ?? [:])
        }
        var results = BenchmarkResults(
            items: items, columns: ["c", "swift", "naive"], rows: rows, bytesPerItem: trees.churned)
        results.bytesPerItemFresh = trees.fresh
        results.reference = compareWithReferences(heights, inputs)
        return results
    }

    /// `count` whole-number heights from 20 to 120.
    static func heights(_ count: Int, _ rng: inout SplitMix64) -> [Double] {
        (0..<count).map { _ in Double(20 + rng.below(101)) }
    }

    /// Items inserted (then removed) per batch: at most an eighth of the tree, so each size is
    /// measured near its size.
    func editBatch(items: Int) -> Int { min(treeIterations, max(16, items / 8)) }

    /// Rounds of insert and remove batches: enough for as many operations as the other rows get.
    func editRounds(items: Int) -> Int { max(batches, min(201, batches * treeIterations / editBatch(items: items))) }

    /// Random positions, offsets and heights drawn once and shared by every implementation.
    struct Inputs {
        /// A power of two, so an operation's input is `inputs[i & mask]`.
        static let count = 4_096
        static let mask = count - 1
        var indices: [Int] = []
        var offsets: [Double] = []
        var heights: [Double] = []

        init(items: Int, total: Double, rng: inout SplitMix64) {
            for _ in 0..<Self.count {
                indices.append(rng.below(items))
                offsets.append(Double(rng.below(Int(total) * 16)) / 16)
                heights.append(Double(20 + rng.below(101)))
            }
        }
    }

    /// The C tree and the Swift tree, each operation in alternating phases of the two
    /// (``Harness/sideBySide(_:phase:_:)``), like the reference comparison: load that comes and
    /// goes during the run weighs on both alike, and `ratios` holds the median over rounds of
    /// Swift time / C time. `build_new` alone is timed one tree after the other: each build keeps
    /// a new tree alive until its round ends.
    private func measureTrees(_ heights: [Double], _ inputs: Inputs) -> TreeFigures {
        var figures = TreeFigures()
        figures.ns["c"] = ["build_new": buildNew(COffsetTree.self, heights)]
        figures.ns["swift"] = ["build_new": buildNew(SwiftOffsetTree.self, heights)]
        guard let c = try? COffsetTree(heights: heights), let swift = try? SwiftOffsetTree(heights: heights) else {
            return figures
        }
        let trees: [(String, any OffsetTree)] = [("c", c), ("swift", swift)]
        let mask = Inputs.mask
        func record(_ op: String, _ samples: [[Double]], c first: Int = 0, swift second: Int = 1) {
            figures.ns["c", default: [:]][op] = Harness.median(samples[first])
            figures.ns["swift", default: [:]][op] = Harness.median(samples[second])
            figures.swiftOverC[op] = Harness.medianRatio(samples[second], samples[first])
        }
        record(
            "build",
            Harness(batches: 7, iterations: 1).sideBySide(2) { which, _ in
                try? trees[which].1.replaceAll(with: heights)
            })
        for (name, tree) in trees { figures.fresh[name] = Double(tree.memoryFootprint) / Double(tree.count) }
        // Each phase is a loop over one concrete type, so neither pays for the existential.
        let harness = Harness(batches: batches, iterations: treeIterations)
        record(
            "offset_of",
            harness.sideBySide(2, phase: 3) { which, i in
                if which == 0 {
                    blackHole(try? c.offset(of: inputs.indices[i & mask]))
                } else {
                    blackHole(try? swift.offset(of: inputs.indices[i & mask]))
                }
            })
        record(
            "item_at",
            harness.sideBySide(2, phase: 3) { which, i in
                if which == 0 {
                    blackHole(c.item(at: inputs.offsets[i & mask]))
                } else {
                    blackHole(swift.item(at: inputs.offsets[i & mask]))
                }
            })
        record(
            "set",
            harness.sideBySide(2, phase: 3) { which, i in
                if which == 0 {
                    try? c.setHeight(inputs.heights[i & mask], at: inputs.indices[i & mask])
                } else {
                    try? swift.setHeight(inputs.heights[i & mask], at: inputs.indices[i & mask])
                }
            })
        let items = heights.count
        let edits = Harness(batches: editRounds(items: items), iterations: editBatch(items: items)).sideBySide(4) {
            which, i in
            switch which {
            case 0: try? c.insert(inputs.heights[i & mask], at: inputs.indices[i & mask])
            case 1: try? swift.insert(inputs.heights[i & mask], at: inputs.indices[i & mask])
            case 2:
                let at = inputs.indices[i & mask] % c.count
                try? c.removeSubrange(at..<at + 1)
            default:
                let at = inputs.indices[i & mask] % swift.count
                try? swift.removeSubrange(at..<at + 1)
            }
        }
        record("insert", edits, c: 0, swift: 1)
        record("remove", edits, c: 2, swift: 3)
        record(
            "visible_range",
            harness.sideBySide(2, phase: 3) { which, i in
                let y = inputs.offsets[i & mask]
                if which == 0 {
                    blackHole(c.items(intersecting: y..<y + 900))
                } else {
                    blackHole(swift.items(intersecting: y..<y + 900))
                }
            })
        for (name, tree) in trees { figures.churned[name] = Double(tree.memoryFootprint) / Double(tree.count) }
        return figures
    }

    /// What ``measureTrees(_:_:)`` measured: ns per operation by column, Swift / C by operation,
    /// and bytes per item of the C and the Swift tree, fresh and after the edits.
    private struct TreeFigures {
        var ns: [String: [String: Double]] = [:]
        var swiftOverC: [String: Double] = [:]
        var fresh: [String: Double] = [:]
        var churned: [String: Double] = [:]
    }

    /// Median ns to build a new tree of `heights`; the tree is destroyed after the clock stops.
    private func buildNew<Tree: OffsetTree>(_ type: Tree.Type, _ heights: [Double]) -> Double {
        Harness(batches: 5, iterations: 1).nanosecondsPerRun(setup: { Tree?.none }) { tree in
            tree = try? Tree(heights: heights)
        }
    }

    private func measureNaive(_ heights: [Double], _ inputs: Inputs) -> [String: Double] {
        let mask = Inputs.mask
        var results: [String: Double] = [:]
        results["build"] = Harness(batches: 5, iterations: 1).nanosecondsPerRun(
            setup: { NaiveOffsetArray?.none }
        ) { naive in
            var copy: [Double] = []  // a real copy, not a copy-on-write share
            copy.reserveCapacity(heights.count)
            copy.append(contentsOf: heights)
            naive = NaiveOffsetArray(heights: copy)
        }
        results["build_new"] = results["build"]
        var naive = NaiveOffsetArray(heights: heights)
        let iterations = max(5, min(treeIterations, 20_000_000 / max(heights.count, 1)))
        let harness = Harness(batches: 5, iterations: iterations)
        results["offset_of"] = harness.nanosecondsPerOperation { i in
            blackHole(naive.offset(of: inputs.indices[i & mask]))
        }
        results["item_at"] = harness.nanosecondsPerOperation { i in
            blackHole(naive.item(at: inputs.offsets[i & mask]))
        }
        results["set"] = Harness(batches: batches, iterations: treeIterations).nanosecondsPerOperation {
            i in
            naive.heights[inputs.indices[i & mask]] = inputs.heights[i & mask]
        }
        let edits = Harness(batches: 5, iterations: min(iterations, editBatch(items: heights.count))).sideBySide(2) {
            which, i in
            if which == 0 {
                naive.heights.insert(inputs.heights[i & mask], at: inputs.indices[i & mask])
            } else {
                naive.heights.remove(at: inputs.indices[i & mask] % naive.heights.count)
            }
        }
        results["insert"] = Harness.median(edits[0])
        results["remove"] = Harness.median(edits[1])
        results["visible_range"] = harness.nanosecondsPerOperation { i in
            let y = inputs.offsets[i & mask]
            blackHole(naive.items(intersecting: y..<y + 900))
        }
        return results
    }

    /// The C tree against the Fenwick tree (rebuild, prefix sum, descent, point update) and the
    /// chunked array (insert and remove), measured in alternating batches.
    private func compareWithReferences(_ heights: [Double], _ inputs: Inputs) -> ReferenceComparison {
        let mask = Inputs.mask
        guard let tree = try? COffsetTree(heights: heights) else { return ReferenceComparison(figures: []) }
        let fenwick = FenwickReference(heights: heights)
        var figures: [ReferenceComparison.Figure] = []
        func add(_ op: String, _ reference: String, _ samples: [[Double]], c: Int = 0, ref: Int = 1) {
            figures.append(
                ReferenceComparison.Figure(
                    op: op, reference: reference, c: Harness.median(samples[c]),
                    referenceNanoseconds: Harness.median(samples[ref]),
                    ratio: Harness.medianRatio(samples[c], samples[ref]), limit: ReferenceComparison.limits[op]))
        }
        add(
            "build", "fenwick build",
            Harness(batches: 7, iterations: 1).sideBySide(2) { which, _ in
                if which == 0 { try? tree.replaceAll(with: heights) } else { fenwick.build(heights) }
            })
        let harness = Harness(batches: batches, iterations: treeIterations)
        add(
            "offset_of", "fenwick prefix",
            harness.sideBySide(2, phase: 3) { which, i in
                if which == 0 {
                    blackHole(try? tree.offset(of: inputs.indices[i & mask]))
                } else {
                    blackHole(fenwick.prefix(inputs.indices[i & mask]))
                }
            })
        add(
            "item_at", "fenwick find",
            harness.sideBySide(2, phase: 3) { which, i in
                if which == 0 {
                    blackHole(tree.item(at: inputs.offsets[i & mask]))
                } else {
                    blackHole(fenwick.find(inputs.offsets[i & mask]))
                }
            })
        add(
            "set", "fenwick update",
            harness.sideBySide(2, phase: 3) { which, i in
                if which == 0 {
                    try? tree.setHeight(inputs.heights[i & mask], at: inputs.indices[i & mask])
                } else {
                    fenwick.set(inputs.indices[i & mask], inputs.heights[i & mask])
                }
            })
        let chunked = ChunkedReference(heights: heights)
        let items = heights.count
        let edits = Harness(batches: editRounds(items: items), iterations: editBatch(items: items)).sideBySide(4) {
            which, i in
            switch which {
            case 0: try? tree.insert(inputs.heights[i & mask], at: inputs.indices[i & mask])
            case 1: chunked.insert(inputs.heights[i & mask], at: inputs.indices[i & mask])
            case 2:
                let at = inputs.indices[i & mask] % tree.count
                try? tree.removeSubrange(at..<at + 1)
            default: chunked.remove(at: inputs.indices[i & mask] % chunked.count)
            }
        }
        add("insert", "chunked insert", edits, c: 0, ref: 1)
        add("remove", "chunked remove", edits, c: 2, ref: 3)
        let order = ["item_at", "offset_of", "set", "insert", "remove", "build"]
        return ReferenceComparison(
            figures: figures.sorted { order.firstIndex(of: $0.op)! < order.firstIndex(of: $1.op)! })
    }
}

/// The C tree measured side by side with two plain-C structures written for the comparison (in
/// `Sources/CBenchReference`): a Fenwick tree over doubles (rebuild, prefix sum, descent to the
/// item at an offset, point update) and a chunked array of 64-row chunks with Fenwick trees over
/// chunk counts and sums (insert, remove). Each operation alternates phases of the C tree and the
/// reference: an untimed batch (so neither starts on caches the other filled), then timed batches
/// (three for the lookups and set, one for the edits, which alternate inserts and removes to keep
/// the size); the ratio is the median over rounds of C time / reference time.
public struct ReferenceComparison: Sendable, Equatable {
    /// One operation against its reference.
    public struct Figure: Sendable, Equatable {
        /// The C tree's operation (`item_at`).
        public var op: String
        /// What it is compared with (`fenwick find`).
        public var reference: String
        /// Median ns per operation of the C tree (per rebuild for `build`).
        public var c: Double
        /// Median ns of the reference.
        public var referenceNanoseconds: Double
        /// Median over rounds of C / reference.
        public var ratio: Double
        /// The ratio the project holds the C tree to, if any.
        public var limit: Double?
    }

    /// The figures in display order.
    public var figures: [Figure]

    /// The ratios the C tree is held to: item_at ≤ 0.5× the Fenwick descent, offset_of ≤ 2× the
    /// Fenwick prefix sum, set ≤ 1.5× the Fenwick update, insert ≤ 1.2× the chunked insert, build
    /// ≤ 1.5× the Fenwick build.
    public static let limits: [String: Double] = [
        "item_at": 0.5, "offset_of": 2, "set": 1.5, "insert": 1.2, "build": 1.5,
    ]

    /// The row count the limits are set for; at other sizes they are shown, not judged.
    public static let limitRows = 1_000_000
}
