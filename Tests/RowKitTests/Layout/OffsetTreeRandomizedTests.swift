import RowKit
import Testing

/// One randomized run: start with `initial` items, drift around `target`, `ops` operations.
struct OffsetTreeScenario: Sendable, CustomTestStringConvertible {
    let initial: Int
    let target: Int
    let ops: Int
    /// Full content comparison and invariant check every this many steps.
    let fullCheckEvery: Int
    /// Largest bulk insert or remove.
    let maxBulk: Int
    let seed: UInt64

    var testDescription: String { "\(initial)→~\(target) items, \(ops) ops" }

    static let all: [OffsetTreeScenario] = [
        .init(initial: 0, target: 8, ops: 12_000, fullCheckEvery: 1, maxBulk: 6, seed: 1),
        .init(initial: 127, target: 127, ops: 8_000, fullCheckEvery: 1, maxBulk: 40, seed: 2),
        .init(initial: 128, target: 128, ops: 8_000, fullCheckEvery: 1, maxBulk: 40, seed: 3),
        .init(initial: 129, target: 129, ops: 8_000, fullCheckEvery: 1, maxBulk: 40, seed: 4),
        .init(initial: 300, target: 2_000, ops: 12_000, fullCheckEvery: 20, maxBulk: 600, seed: 5),
        .init(initial: 5_000, target: 5_000, ops: 8_000, fullCheckEvery: 50, maxBulk: 3_000, seed: 6),
        .init(initial: 40_000, target: 40_000, ops: 3_000, fullCheckEvery: 500, maxBulk: 9_000, seed: 7),
        .init(initial: 1_000_000, target: 1_000_000, ops: 150, fullCheckEvery: 75, maxBulk: 20_000, seed: 8),
    ]
}

/// The naive range answer computed with a pointer loop (fast enough at a million items).
private func naiveRange(_ heights: [Double], _ range: Range<Double>) -> Range<Int> {
    if range.isEmpty { return 0..<0 }
    return heights.withUnsafeBufferPointer { h in
        var first = -1
        var last = 0
        var acc = 0.0
        for i in 0..<h.count {
            if h[i] > 0 && acc < range.upperBound && acc + h[i] > range.lowerBound {
                if first < 0 { first = i }
                last = i
            }
            acc += h[i]
        }
        return first < 0 ? 0..<0 : first..<last + 1
    }
}

@Suite("Offset tree: randomized operations against a naive model")
struct OffsetTreeRandomizedTests {
    @Test(arguments: OffsetTreeImplementation.allCases, OffsetTreeScenario.all)
    func whenRandomOperationsRun_thenEveryAnswerMatchesNaivePrefixSums(
        implementation: OffsetTreeImplementation, scenario: OffsetTreeScenario
    ) throws {
        var rng = SeededRandom(seed: scenario.seed)
        var naive = NaiveOffsets(heights: (0..<scenario.initial).map { _ in rng.quarterHeight() })
        let tree = try implementation.make(naive.heights)
        try tree.checkInvariants()
        for step in 0..<scenario.ops {
            let n = naive.heights.count
            let bulk = rng.below(8) == 0
            let choice = rng.below(10)
            let insertShare = n < scenario.target ? 5 : (n > scenario.target ? 2 : 4)
            if choice < insertShare || n == 0 {
                let k = bulk ? 1 + rng.below(scenario.maxBulk) : 1 + rng.below(3)
                let at = rng.below(n + 1)
                let heights = (0..<k).map { _ in rng.quarterHeight() }
                if k == 1 {  // the single-item insert, without an array
                    try tree.insert(heights[0], at: at)
                } else {
                    try tree.insert(contentsOf: heights, at: at)
                }
                naive.heights.insert(contentsOf: heights, at: at)
            } else if choice < 8 {
                let at = rng.below(n)
                let k = 1 + rng.below(min(n - at, bulk ? scenario.maxBulk : 3))
                try tree.removeSubrange(at..<at + k)
                naive.heights.removeSubrange(at..<at + k)
            } else if choice < 9 {
                let i = rng.below(n)
                let h = rng.quarterHeight()
                try tree.setHeight(h, at: i)
                naive.heights[i] = h
            } else {
                let at = rng.below(n + 1)
                let k = rng.below(min(n - at, bulk ? scenario.maxBulk : 3) + 1)
                let heights = (0..<k).map { _ in rng.quarterHeight() }
                try tree.setHeights(heights, startingAt: at)
                naive.heights.replaceSubrange(at..<at + k, with: heights)
            }
            // Every step: the operations' answers.
            let count = naive.heights.count
            #expect(tree.count == count)
            let i = rng.below(count + 1)
            let expectedOffset = naive.offset(of: i)
            #expect(try tree.offset(of: i) == expectedOffset, "step \(step): offset(of: \(i))")
            if count > 0 {
                let j = rng.below(count)
                #expect(try tree.height(at: j) == naive.heights[j], "step \(step): height(at: \(j))")
            }
            let first = rng.below(count + 1)
            let span = first..<first + rng.below(min(count - first, 300) + 1)
            let read = try tree.offsetsAndHeights(in: span)
            var expectedOffsets: [Double] = []
            var running = naive.offset(of: first)
            for item in span {
                expectedOffsets.append(running)
                running += naive.heights[item]
            }
            #expect(read.offsets == expectedOffsets, "step \(step): offsetsAndHeights(in: \(span)).offsets")
            #expect(read.heights == Array(naive.heights[span]), "step \(step): offsetsAndHeights(in: \(span))")
            #expect(try tree.heights(in: span) == read.heights, "step \(step): heights(in: \(span))")
            let total = naive.total
            #expect(tree.totalHeight == total)
            let y = rng.below(2) == 0 ? expectedOffset : Double(rng.below(Int(total * 4) + 9) - 4) / 4
            #expect(tree.item(at: y) == naive.item(at: y), "step \(step): item(at: \(y))")
            let y0 = Double(rng.below(Int(total * 4) + 9) - 4) / 4
            let y1 = y0 + Double(rng.below(3_600)) / 4
            #expect(
                tree.items(intersecting: y0..<y1) == naiveRange(naive.heights, y0..<y1),
                "step \(step): items(intersecting: \(y0)..<\(y1))")
            if count <= 5_000 || step % scenario.fullCheckEvery == 0 { try tree.checkInvariants() }
            if step % scenario.fullCheckEvery == 0 || step == scenario.ops - 1 {
                if count <= 50_000 { expectSameContents(tree, naive.heights) }
            }
        }
    }

    @Test(arguments: OffsetTreeImplementation.allCases)
    func whenHeightsAreArbitraryDoubles_thenEachIsStoredRoundedToAQuantumAndOffsetsAreExactSums(
        implementation: OffsetTreeImplementation
    ) throws {
        var rng = SeededRandom(seed: 42)
        func height() -> Double { Double(rng.next() % 10_000_000) / 7_919.3 }
        // The specification of the stored value: the nearest multiple of 2^-16, ties to even.
        func rounded(_ h: Double) -> Double { (h * 65_536).rounded(.toNearestOrEven) / 65_536 }
        var heights = (0..<3_000).map { _ in height() }
        let tree = try implementation.make(heights)
        heights = heights.map(rounded)
        for step in 0..<10_000 {
            let n = heights.count
            switch rng.below(4) {
            case 0:
                let at = rng.below(n + 1)
                let new = (0..<1 + rng.below(4)).map { _ in height() }
                try tree.insert(contentsOf: new, at: at)
                heights.insert(contentsOf: new.map(rounded), at: at)
            case 1:
                let at = rng.below(n)
                let k = 1 + rng.below(min(4, n - at))
                try tree.removeSubrange(at..<at + k)
                heights.removeSubrange(at..<at + k)
            case 2:
                let i = rng.below(n)
                let h = height()
                try tree.setHeight(h, at: i)
                heights[i] = rounded(h)
            default:
                let at = rng.below(n)
                let new = (0..<min(n - at, 1 + rng.below(300))).map { _ in height() }
                try tree.setHeights(new, startingAt: at)
                heights.replaceSubrange(at..<at + new.count, with: new.map(rounded))
            }
            // Offsets read in bulk and one at a time are the exact sums of the rounded heights.
            let first = rng.below(heights.count + 1)
            let span = first..<first + rng.below(min(heights.count - first, 400) + 1)
            let bulk = try tree.offsetsAndHeights(in: span)
            var running = NaiveOffsets(heights: heights).offset(of: first)
            var mismatch: Int?
            for (k, item) in span.enumerated() {
                let single = try tree.offset(of: item)
                if bulk.offsets[k] != running || bulk.heights[k] != heights[item] || single != running {
                    mismatch = item
                    break
                }
                running += heights[item]
            }
            #expect(mismatch == nil, "step \(step): item \(mismatch ?? -1)")
            #expect(tree.totalHeight == NaiveOffsets(heights: heights).total, "step \(step): total")
        }
        try tree.checkInvariants()
        expectSameContents(tree, heights)
    }

    @Test(arguments: OffsetTreeImplementation.allCases)
    func whenManyRandomEditsRun_thenMemoryStaysAtMost16BytesPerItem(
        implementation: OffsetTreeImplementation
    ) throws {
        var rng = SeededRandom(seed: 9)
        var count = 200_000
        let tree = try implementation.make((0..<count).map { _ in rng.quarterHeight() })
        var worst = Double(tree.memoryFootprint) / Double(count)
        for step in 0..<20_000 {
            if step % 2 == 0 {
                try tree.insert(contentsOf: [rng.quarterHeight()], at: rng.below(count + 1))
                count += 1
            } else {
                let at = rng.below(count)
                try tree.removeSubrange(at..<at + 1)
                count -= 1
            }
            if step % 1_000 == 0 { worst = max(worst, Double(tree.memoryFootprint) / Double(count)) }
        }
        // Thin the tree out: remove every other item, leaving leaves half empty.
        var i = 0
        while i < count {
            try tree.removeSubrange(i..<i + 1)
            count -= 1
            i += 1
        }
        worst = max(worst, Double(tree.memoryFootprint) / Double(count))
        try tree.checkInvariants()
        #expect(tree.count == count)
        #expect(worst <= 16, "worst bytes per item \(worst)")
    }
}
