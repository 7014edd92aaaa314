/// A benchmark that can run beside the others in one session and one table.
///
/// Later benchmarks (a headless scroll frame, the diff, HTML export) conform and register in
/// ``BenchmarkSuite/standard`` or in their own suite.
public protocol Benchmark: Sendable {
    /// A short name for logs.
    var name: String { get }
    /// Runs at `items` items and returns its rows.
    func run(items: Int) -> BenchmarkResults
}

/// Benchmarks run together; their results merge into one table.
public struct BenchmarkSuite: Sendable {
    /// The benchmarks, run in order.
    public var benchmarks: [any Benchmark]

    /// Creates a suite.
    public init(_ benchmarks: [any Benchmark]) {
        self.benchmarks = benchmarks
    }

    /// The suite `rowkit-bench` runs: the offset-tree comparison, then the headless table view.
    public static var standard: BenchmarkSuite { BenchmarkSuite([OffsetTreeBenchmark(), ViewBenchmark()]) }

    /// Runs every benchmark at `items` items and merges their results.
    public func run(items: Int) -> BenchmarkResults {
        var results = BenchmarkResults(items: items, columns: [])
        for benchmark in benchmarks { results.merge(benchmark.run(items: items)) }
        return results
    }

    /// Runs the suite at each size (e.g. 10^3 ... 10^6) for a scaling report.
    public func run(sizes: [Int]) -> [BenchmarkResults] { sizes.map { run(items: $0) } }
}

/// Runs the standard suite at `items` items (the entry point for `rowkit bench` and reports).
public func run(items: Int) -> BenchmarkResults {
    BenchmarkSuite.standard.run(items: items)
}
