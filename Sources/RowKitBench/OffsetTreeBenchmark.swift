import RowKit

/// C tree versus Swift tree versus a naive array: build, offset-of, item-at, set, insert and
/// remove one item at random positions, and the visible range of a 900-point viewport.
///
/// Columns: `c`, `swift`, `naive`; rows: `build` (ns for the whole build), `offset_of`, `item_at`,
/// `set`, `insert`, `remove`, `visible_range` (ns per operation). Naive operations are O(n), so
/// they run fewer iterations, still as medians of batches.
public struct OffsetTreeBenchmark: Benchmark {
    /// The operations measured, in table order.
    public static let operations = [
        "build", "offset_of", "item_at", "set", "insert", "remove", "visible_range",
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

    /// Runs all operations on `items` items for the three implementations.
    public func run(items: Int) -> BenchmarkResults {
        precondition(items > 0, "the offset-tree benchmark needs at least one item")
        var rng = BenchRandom(seed: 0x5EED)
        let heights = (0..<items).map { _ in Double(20 + rng.below(40)) }
        let inputs = Inputs(items: items, total: heights.reduce(0, +), rng: &rng)
        var columns: [String: [String: Double]] = [:]
        var bytes: [String: Double] = [:]
        (columns["c"], bytes["c"]) = measureTree(COffsetTree.self, heights, inputs)
        (columns["swift"], bytes["swift"]) = measureTree(SwiftOffsetTree.self, heights, inputs)
        columns["naive"] = measureNaive(heights, inputs)
        let rows = Self.operations.map { op in
            BenchmarkResults.Row(op: op, nanoseconds: columns.compactMapValues { $0[op] })
        }
        return BenchmarkResults(
            items: items, columns: ["c", "swift", "naive"], rows: rows, bytesPerItem: bytes)
    }

    /// Random positions, offsets and heights drawn once and shared by every implementation.
    struct Inputs {
        static let count = 4_096
        var indices: [Int] = []
        var offsets: [Double] = []
        var heights: [Double] = []
        /// The same heights as one-element arrays, so inserts do not time an array allocation.
        var singles: [[Double]] = []

        init(items: Int, total: Double, rng: inout BenchRandom) {
            for _ in 0..<Self.count {
                indices.append(rng.below(items))
                offsets.append(Double(rng.below(Int(total) * 16)) / 16)
                heights.append(Double(20 + rng.below(40)))
            }
            singles = heights.map { [$0] }
        }
    }

    private func measureTree<Tree: OffsetTree>(
        _ type: Tree.Type, _ heights: [Double], _ inputs: Inputs
    ) -> ([String: Double], Double) {
        let n = Inputs.count
        var results: [String: Double] = [:]
        // The built tree is kept in the state and destroyed after the clock stops.
        results["build"] = Harness(batches: 5, iterations: 1).nanosecondsPerRun(
            setup: { Tree?.none }
        ) { tree in
            tree = try? Tree(heights: heights)
        }
        guard let tree = try? Tree(heights: heights) else { return (results, .nan) }
        let harness = Harness(batches: batches, iterations: treeIterations)
        results["offset_of"] = harness.nanosecondsPerOperation { i in
            blackHole(try? tree.offset(of: inputs.indices[i % n]))
        }
        results["item_at"] = harness.nanosecondsPerOperation { i in
            blackHole(tree.item(at: inputs.offsets[i % n]))
        }
        results["set"] = harness.nanosecondsPerOperation { i in
            try? tree.setHeight(inputs.heights[i % n], at: inputs.indices[i % n])
        }
        // Inserts grow the tree by one batch's worth; the removes then shrink it back.
        results["insert"] = harness.nanosecondsPerOperation { i in
            try? tree.insert(contentsOf: inputs.singles[i % n], at: inputs.indices[i % n])
        }
        results["remove"] = harness.nanosecondsPerOperation { i in
            let at = inputs.indices[i % n] % tree.count
            try? tree.removeSubrange(at..<at + 1)
        }
        results["visible_range"] = harness.nanosecondsPerOperation { i in
            let y = inputs.offsets[i % n]
            blackHole(tree.items(intersecting: y..<y + 900))
        }
        return (results, Double(tree.memoryFootprint) / Double(tree.count))
    }

    private func measureNaive(_ heights: [Double], _ inputs: Inputs) -> [String: Double] {
        let n = Inputs.count
        var results: [String: Double] = [:]
        results["build"] = Harness(batches: 5, iterations: 1).nanosecondsPerRun(
            setup: { NaiveOffsetArray?.none }
        ) { naive in
            var copy: [Double] = []  // a real copy, not a copy-on-write share
            copy.reserveCapacity(heights.count)
            copy.append(contentsOf: heights)
            naive = NaiveOffsetArray(heights: copy)
        }
        var naive = NaiveOffsetArray(heights: heights)
        let iterations = max(5, min(treeIterations, 20_000_000 / max(heights.count, 1)))
        let harness = Harness(batches: 5, iterations: iterations)
        results["offset_of"] = harness.nanosecondsPerOperation { i in
            blackHole(naive.offset(of: inputs.indices[i % n]))
        }
        results["item_at"] = harness.nanosecondsPerOperation { i in
            blackHole(naive.item(at: inputs.offsets[i % n]))
        }
        results["set"] = Harness(batches: batches, iterations: treeIterations).nanosecondsPerOperation {
            i in
            naive.heights[inputs.indices[i % n]] = inputs.heights[i % n]
        }
        results["insert"] = harness.nanosecondsPerOperation { i in
            naive.heights.insert(inputs.heights[i % n], at: inputs.indices[i % n])
        }
        results["remove"] = harness.nanosecondsPerOperation { i in
            naive.heights.remove(at: inputs.indices[i % n] % naive.heights.count)
        }
        results["visible_range"] = harness.nanosecondsPerOperation { i in
            let y = inputs.offsets[i % n]
            blackHole(naive.items(intersecting: y..<y + 900))
        }
        return results
    }
}

/// SplitMix64, so every run measures the same inputs.
struct BenchRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
}
