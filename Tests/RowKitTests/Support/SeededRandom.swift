import RowKitBench

/// The package's seeded generator (``SplitMix64``) with the helpers the randomized suites use, so
/// each suite is reproducible from its seed.
///
/// The one generator of every randomized suite in this target (layout, reuse, model, updates,
/// diff, view).
struct SeededRandom: RandomNumberGenerator {
    private var generator: SplitMix64

    /// A generator whose sequence is fixed by `seed`.
    init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { generator.next() }

    /// A uniformly chosen integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// `true` with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }

    /// A uniformly chosen element, or `nil` for an empty collection.
    mutating func pick<C: Collection>(_ elements: C) -> C.Element? { elements.randomElement(using: &self) }

    /// A uniformly chosen integer in `0..<n`; 0 when `n` is not positive.
    mutating func below(_ n: Int) -> Int { generator.below(n) }

    /// A height that is a multiple of 1/4 in [0, 99.75], zero one time in eight, so prefix sums
    /// are exact in doubles and can be compared with `==`.
    mutating func quarterHeight() -> Double { below(8) == 0 ? 0 : Double(below(400)) / 4 }
}
