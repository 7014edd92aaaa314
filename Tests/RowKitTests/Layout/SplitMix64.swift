/// A small seeded generator (SplitMix64) so every randomized test is reproducible.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly random integer in `0..<n` (0 when n == 0).
    mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }

    /// A height in quarter steps (one in eight is 0): every sum of these is exact in doubles.
    mutating func quarterHeight() -> Double { below(8) == 0 ? 0 : Double(below(400)) / 4 }
}
