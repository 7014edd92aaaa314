import RowKit
import Testing

/// A tree's observable state, to show a refused call changed nothing.
private struct Snapshot: Equatable {
    let count: Int
    let total: Double
    let heights: [Double]
    let bytes: Int

    init(_ tree: any OffsetTree) {
        count = tree.count
        total = tree.totalHeight
        heights = (0..<tree.count).map { (try? tree.height(at: $0)) ?? .nan }
        bytes = tree.memoryFootprint
    }
}

@Suite("Offset tree: refused calls leave the tree unchanged")
struct OffsetTreeBadCallTests {
    static let sizes = [0, 1, 128, 129, 5_000]

    @Test(arguments: OffsetTreeImplementation.allCases, sizes)
    func whenACallIsInvalid_thenItThrowsTheNamedErrorAndTheTreeIsUnchanged(
        implementation: OffsetTreeImplementation, size: Int
    ) throws {
        var rng = SeededRandom(seed: UInt64(size) + 100)
        let tree = try implementation.make((0..<size).map { _ in rng.quarterHeight() })
        let before = Snapshot(tree)
        func expectRefused(
            _ expected: OffsetTreeError, sourceLocation: SourceLocation = #_sourceLocation,
            _ call: () throws -> Void
        ) {
            do {
                try call()
                Issue.record("expected \(expected)", sourceLocation: sourceLocation)
            } catch let error as OffsetTreeError {
                switch (error, expected) {
                case (.invalidHeight(let v, let i), .invalidHeight(let ev, let ei)):
                    #expect(i == ei && (v == ev || (v.isNaN && ev.isNaN)), sourceLocation: sourceLocation)
                default:
                    #expect(error == expected, sourceLocation: sourceLocation)
                }
            } catch {
                Issue.record("untyped error \(error)", sourceLocation: sourceLocation)
            }
            #expect(Snapshot(tree) == before, sourceLocation: sourceLocation)
            #expect(throws: Never.self, sourceLocation: sourceLocation) { try tree.checkInvariants() }
        }
        let n = size
        expectRefused(.indexOutOfRange(index: -1, count: n)) { _ = try tree.height(at: -1) }
        expectRefused(.indexOutOfRange(index: n, count: n)) { _ = try tree.height(at: n) }
        expectRefused(.indexOutOfRange(index: -1, count: n)) { _ = try tree.offset(of: -1) }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { _ = try tree.offset(of: n + 1) }
        expectRefused(.indexOutOfRange(index: -1, count: n)) { try tree.setHeight(1, at: -1) }
        expectRefused(.indexOutOfRange(index: n, count: n)) { try tree.setHeight(1, at: n) }
        expectRefused(.indexOutOfRange(index: -1, count: n)) {
            try tree.insert(contentsOf: [1], at: -1)
        }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) {
            try tree.insert(contentsOf: [1], at: n + 1)
        }
        expectRefused(.indexOutOfRange(index: -1, count: n)) { try tree.insert(1, at: -1) }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { try tree.insert(1, at: n + 1) }
        expectRefused(.indexOutOfRange(index: -1, count: n)) { try tree.removeSubrange(-1..<0) }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { try tree.removeSubrange(n..<n + 1) }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { try tree.removeSubrange(0..<n + 1) }
        expectRefused(.indexOutOfRange(index: -1, count: n)) { _ = try tree.heights(in: -1..<0) }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { _ = try tree.heights(in: n + 1..<n + 1) }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { _ = try tree.heights(in: 0..<n + 1) }
        expectRefused(.indexOutOfRange(index: Int.max, count: n)) { _ = try tree.heights(in: 0..<Int.max) }
        expectRefused(.indexOutOfRange(index: -1, count: n)) { try tree.setHeights([1], startingAt: -1) }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { try tree.setHeights([], startingAt: n + 1) }
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { try tree.setHeights([1], startingAt: n) }
        if n > 0 {
            expectRefused(.indexOutOfRange(index: n + 2, count: n)) {
                try tree.setHeights([1, 2, 3], startingAt: n - 1)
            }
        }
        #expect(try tree.heights(in: n..<n) == [])
        #expect(try tree.offsetsAndHeights(in: n..<n) == (offsets: [], heights: []))
        expectRefused(.indexOutOfRange(index: n + 1, count: n)) { _ = try tree.offsetsAndHeights(in: 0..<n + 1) }
        expectRefused(.indexOutOfRange(index: -1, count: n)) { _ = try tree.offsetsAndHeights(in: -1..<n) }
        try tree.setHeights([], startingAt: n)
        let tooLarge = [COffsetTree.maximumTotalHeight, .greatestFiniteMagnitude]
        for bad in [Double.nan, .infinity, -.infinity, -1, -Double.leastNonzeroMagnitude] + tooLarge {
            if n >= 3 {
                // One bad height in a run: nothing is set, and the error names the bad item.
                expectRefused(.invalidHeight(value: bad, index: n / 2 + 1)) {
                    try tree.setHeights([1, bad, 3].prefix(min(3, n - n / 2)).map { $0 }, startingAt: n / 2)
                }
            }
            if n > 0 {
                expectRefused(.invalidHeight(value: bad, index: n / 2)) {
                    try tree.setHeight(bad, at: n / 2)
                }
            }
            // One bad height in the middle of a multi-item insert: nothing is inserted.
            let batch = [1, 2, bad, 3, 4] + Array(repeating: 0.5, count: 300)
            expectRefused(.invalidHeight(value: bad, index: n / 2 + 2)) {
                try tree.insert(contentsOf: batch, at: n / 2)
            }
            expectRefused(.invalidHeight(value: bad, index: n / 2)) { try tree.insert(bad, at: n / 2) }
            #expect(throws: OffsetTreeError.self) { _ = try implementation.make([1, bad]) }
        }
        // Lookups that find nothing answer nil / empty and change nothing.
        for y in [Double.nan, -1, -Double.leastNonzeroMagnitude, tree.totalHeight, .infinity] {
            #expect(tree.item(at: y) == nil, "item(at: \(y))")
        }
        #expect(tree.items(intersecting: 5..<5) == 0..<0)
        #expect(tree.items(intersecting: -10..<0) == 0..<0)
        #expect(tree.items(intersecting: tree.totalHeight..<tree.totalHeight + 10) == 0..<0)
        // Edits that would bring the total to the maximum: refused, whatever their kind (each height
        // alone is valid: below the maximum).
        let room = COffsetTree.maximumTotalHeight - tree.totalHeight
        if tree.totalHeight > 0 {
            expectRefused(.totalHeightTooLarge) { try tree.insert(contentsOf: [room], at: n / 2) }
            expectRefused(.totalHeightTooLarge) { try tree.insert(room, at: n / 2) }
            expectRefused(.totalHeightTooLarge) { try tree.insert(contentsOf: [room - 0.25, 0.25], at: n) }
            expectRefused(.totalHeightTooLarge) { try tree.replaceAll(with: [room, tree.totalHeight]) }
            let h = try tree.height(at: n - 1)
            if h < tree.totalHeight {
                expectRefused(.totalHeightTooLarge) { try tree.setHeight(room + h, at: n - 1) }
                expectRefused(.totalHeightTooLarge) { try tree.setHeights([room + h], startingAt: n - 1) }
            }
        }
        #expect(Snapshot(tree) == before)
    }

    @Test(arguments: OffsetTreeImplementation.allCases)
    func whenTheTotalStaysJustBelowTheMaximum_thenEveryHeightAndOffsetIsExact(
        implementation: OffsetTreeImplementation
    ) throws {
        let max = COffsetTree.maximumTotalHeight
        let quantum = COffsetTree.heightQuantum
        #expect(throws: OffsetTreeError.totalHeightTooLarge) { _ = try implementation.make([max / 2, max / 2]) }
        var heights = [max / 2] + Array(repeating: 0.25, count: 300) + [max / 2 - 75 - quantum]
        let tree = try implementation.make(heights)
        #expect(tree.totalHeight == max - quantum)
        expectSameContents(tree, heights)
        try tree.setHeight(0.125, at: 7)
        heights[7] = 0.125
        #expect(throws: OffsetTreeError.totalHeightTooLarge) { try tree.setHeight(0.5, at: 8) }
        try tree.removeSubrange(0..<1)
        heights.removeFirst()
        try tree.insert(contentsOf: [max / 4], at: 100)
        heights.insert(max / 4, at: 100)
        try tree.checkInvariants()
        expectSameContents(tree, heights)
    }

    @Test(arguments: [0, 127, 128, 5_000])
    func whenAnAllocationFails_thenTheEditThrowsOutOfMemoryAndTheTreeIsUnchanged(size: Int) throws {
        guard COffsetTree.internalChecksEnabled else { return }  // release builds lack the hook
        var rng = SeededRandom(seed: UInt64(size) + 7)
        var heights = (0..<size).map { _ in rng.quarterHeight() }
        let tree = try COffsetTree(heights: heights)
        let edits: [(String, ([Double]) -> [Double], (COffsetTree) throws(OffsetTreeError) -> Void)] = [
            (
                "insert one",
                {
                    var h = $0; h.insert(2, at: h.count / 3); return h
                },
                { t throws(OffsetTreeError) in try t.insert(contentsOf: [2], at: t.count / 3) }
            ),
            (
                "insert many",
                {
                    var h = $0; h.insert(contentsOf: Array(repeating: 1.5, count: 900), at: h.count / 2); return h
                },
                { t throws(OffsetTreeError) in
                    try t.insert(contentsOf: Array(repeating: 1.5, count: 900), at: t.count / 2)
                }
            ),
            (
                "remove a span",
                {
                    var h = $0; h.removeSubrange(h.count / 4..<h.count / 4 + min(h.count / 2, 700)); return h
                },
                { t throws(OffsetTreeError) in try t.removeSubrange(t.count / 4..<t.count / 4 + min(t.count / 2, 700)) }
            ),
            ("remove all", { _ in [] }, { t throws(OffsetTreeError) in try t.removeSubrange(0..<t.count) }),
        ]
        for (name, expected, edit) in edits {
            for failAfter in 0..<64 {
                let before = Snapshot(tree)
                COffsetTree.failAllocations(after: failAfter)
                let result: Result<Void, OffsetTreeError> = Result { () throws(OffsetTreeError) in try edit(tree) }
                COffsetTree.failAllocations(after: -1)
                if case .failure(let error) = result {
                    #expect(error == .outOfMemory, "\(name)")
                    #expect(Snapshot(tree) == before, "\(name), failing allocation \(failAfter)")
                    try tree.checkInvariants()
                    continue
                }
                heights = expected(heights)
                expectSameContents(tree, heights)
                break
            }
            // Every step of the edit is refused cleanly for all earlier failure points.
        }
        COffsetTree.failAllocations(after: 0)
        #expect(throws: OffsetTreeError.outOfMemory) { _ = try COffsetTree(heights: heights) }
        COffsetTree.failAllocations(after: -1)
    }
}
