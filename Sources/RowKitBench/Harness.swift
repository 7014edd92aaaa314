/// Keeps `value` opaque to the optimizer, so measured work is not deleted: the function is neither
/// inlined nor optimized, so the compiler cannot prove the value unused. Its body is empty: a
/// body that called `withExtendedLifetime` added two generic calls to every measured operation,
/// which slowed the C tree's offset lookups (dependent loads) by a third and not the Fenwick
/// prefix (independent loads); the measurements are in docs/benchmarks.md.
@inline(never)
@_optimize(none)
public func blackHole<T>(_ value: T) {}

/// Measures closures in batches and reports the median time per operation.
///
/// Each batch runs the body `iterations` times between two clock readings; the median over
/// `batches` batches damps outliers from scheduling and page faults. A short warm-up runs first.
public struct Harness: Sendable {
    /// Number of timed batches (the median of these is reported).
    public var batches: Int
    /// Operations per batch.
    public var iterations: Int

    /// Creates a harness running `batches` timed batches of `iterations` operations.
    public init(batches: Int, iterations: Int) {
        precondition(batches > 0 && iterations > 0, "a harness needs at least one operation")
        self.batches = batches
        self.iterations = iterations
    }

    /// Median nanoseconds per operation of `body`, which receives the operation's sequence number
    /// (counting on across batches, so it can index precomputed inputs modulo their count).
    public func nanosecondsPerOperation(_ body: (Int) -> Void) -> Double {
        var next = 0
        for _ in 0..<min(iterations, 16) {  // warm-up
            body(next)
            next += 1
        }
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<batches {
            let start = clock.now
            for _ in 0..<iterations {
                body(next)
                next += 1
            }
            samples.append(Self.nanoseconds(start.duration(to: clock.now)) / Double(iterations))
        }
        return Self.median(samples)
    }

    /// Nanoseconds per operation of `count` bodies measured side by side, in alternating phases:
    /// each of `batches` rounds runs every body in turn for one untimed batch (so it does not start
    /// on caches the previous body filled with its own data) and then `phase` timed batches of
    /// `iterations` operations, and records the median of those. `body(which, i)` gets `which` in
    /// `0..<count` and `i`, the operation's sequence number (shared by all bodies, so they see the
    /// same inputs). Returns each body's samples, one per round, so the caller can take medians and
    /// per-round ratios: load that comes and goes during the run weighs on all bodies of a round
    /// alike.
    public func sideBySide(_ count: Int, phase: Int = 1, _ body: (_ which: Int, _ i: Int) -> Void) -> [[Double]] {
        let clock = ContinuousClock()
        var samples = [[Double]](repeating: [], count: count)
        var next = 0
        for _ in 0..<batches {
            var end = next
            for which in 0..<count {
                var i = next
                for _ in 0..<iterations {
                    body(which, i)
                    i += 1
                }
                var times: [Double] = []
                for _ in 0..<phase {
                    let start = clock.now
                    for _ in 0..<iterations {
                        body(which, i)
                        i += 1
                    }
                    times.append(Self.nanoseconds(start.duration(to: clock.now)) / Double(iterations))
                }
                samples[which].append(Self.median(times))
                end = i
            }
            next = end
        }
        return samples
    }

    /// The median over rounds of `a[r] / b[r]`.
    public static func medianRatio(_ a: [Double], _ b: [Double]) -> Double {
        median(zip(a, b).map { $0 / $1 })
    }

    /// Median nanoseconds of one whole run of `body`, after an untimed `setup` each round.
    public func nanosecondsPerRun<State>(setup: () -> State, _ body: (inout State) -> Void) -> Double {
        let clock = ContinuousClock()
        var samples: [Double] = []
        for _ in 0..<batches {
            var state = setup()
            let start = clock.now
            body(&state)
            samples.append(Self.nanoseconds(start.duration(to: clock.now)))
            blackHole(state)
        }
        return Self.median(samples)
    }

    /// The median of `values` (mean of the middle two for an even count).
    public static func median(_ values: [Double]) -> Double {
        precondition(!values.isEmpty, "median of nothing")
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    static func nanoseconds(_ d: Duration) -> Double {
        let (seconds, attoseconds) = d.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
