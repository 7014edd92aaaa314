/// A seeded SeededRandom generator, so randomized tests are reproducible from their seed.
///
/// The one generator of every randomized suite in this target (layout, reuse, model, updates,
/// diff, view).
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniformly chosen integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// `true` with probability `probability`.
    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &self) < probability }

    /// A uniformly chosen element, or `nil` for an empty collection.
    mutating func pick<C: Collection>(_ elements: C) -> C.Element? { elements.randomElement(using: &self) }

    /// A uniformly chosen integer in `0..<n`; 0 when `n` is not positive.
    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// A height that is a multiple of 1/4 in [0, 99.75], zero one time in eight, so prefix sums
    /// are exact in doubles and can be compared with `==`.
    mutating func quarterHeight() -> Double { below(8) == 0 ? 0 : Double(below(400)) / 4 }
}
