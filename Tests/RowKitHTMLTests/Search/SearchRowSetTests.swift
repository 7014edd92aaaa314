import Testing

@testable import RowKitHTML

/// The search index's row sets: an array while sparse, a bitmap once dense, the same rows either way.
@Suite struct SearchRowSetTests {
    /// A seeded generator (SplitMix64), so a failure reproduces.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func set(_ rows: [UInt32]) -> SearchRowSet {
        var set = SearchRowSet()
        for row in rows { set.append(row) }
        return set
    }

    @Test func unionsOfSparseAndDenseSetsHoldTheRowsOfANaiveSet() {
        var random = Seeded(state: 36)
        for round in 0..<200 {
            // Densities from one row in 2 to one in 500, so both kinds meet in every pairing.
            var naive = Set<UInt32>()
            var built = SearchRowSet()
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let step = UInt32.random(in: 1...500, using: &random)
                let count = Int.random(in: 0...3000, using: &random)
                var rows: [UInt32] = []
                var row = UInt32.random(in: 0...1000, using: &random)
                for _ in 0..<count {
                    rows.append(row)
                    row += UInt32.random(in: 1...step, using: &random)
                }
                naive.formUnion(rows)
                built.formUnion(Self.set(rows))
            }
            #expect(Array(built) == naive.sorted(), "round \(round)")
            #expect(built.count == naive.count && built.last == naive.max(), "round \(round)")
        }
    }

    @Test func aSetOfEveryRowIsABitmapOfABitPerRow() {
        let every = Self.set(Array(0..<1_000_000))
        #expect(every.count == 1_000_000 && Array(every) == Array(0..<1_000_000))
        #expect(every.isBitmap, "a bitmap of 125 KB, not a list of 4 MB")
        #expect(!Self.set(Array(stride(from: 0, to: 1_000_000, by: 100))).isBitmap, "one row in 100: a list")
    }
}
