/// SplitMix64: a small, fast, seedable generator whose sequence is the same on every platform, so
/// the benchmarks measure the same inputs on every run and the randomized tests replay exactly
/// from their seed. The one generator of the package's benchmarks and tests.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number in `0..<n` (by remainder, which is what the benchmarks' inputs were made with);
    /// 0 when `n` is not positive.
    package mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
}
