import RowKit
import Testing

/// Runs the same section-index checks on either tree implementation.
private func checkAgainstNaive<Tree: OffsetTree>(_: Tree.Type, seed: UInt64) throws {
    var rng = SeededRandom(seed: seed)
    var rows = (0..<rng.below(300)).map { _ in rng.below(rng.below(4) == 0 ? 300 : 6) }
    let index = try SectionIndex<Tree>(rowCounts: rows)
    func expectMatchesNaive(_ step: Int) throws {
        #expect(index.sectionCount == rows.count)
        var flat: [SectionIndex<Tree>.Position] = []
        for (s, r) in rows.enumerated() {
            flat.append(.init(section: s, element: .header))
            for row in 0..<r { flat.append(.init(section: s, element: .row(row))) }
            flat.append(.init(section: s, element: .footer))
        }
        #expect(index.itemCount == flat.count, "step \(step)")
        for _ in 0..<20 where !flat.isEmpty {
            let f = rng.below(flat.count)
            let p = flat[f]
            #expect(index.position(ofFlatIndex: f) == p, "step \(step): position of \(f)")
            switch p.element {
            case .header: #expect(try index.flatIndexOfHeader(inSection: p.section) == f)
            case .footer: #expect(try index.flatIndexOfFooter(inSection: p.section) == f)
            case .row(let r): #expect(try index.flatIndex(ofRow: r, inSection: p.section) == f)
            }
        }
        #expect(index.position(ofFlatIndex: flat.count) == nil)
        #expect(index.position(ofFlatIndex: -1) == nil)
        try index.checkInvariants()
    }
    for step in 0..<1_500 {
        switch rng.below(4) {
        case 0:
            let at = rng.below(rows.count + 1)
            let new = (0..<1 + rng.below(3)).map { _ in rng.below(5) }
            try index.insertSections(rowCounts: new, at: at)
            rows.insert(contentsOf: new, at: at)
        case 1 where !rows.isEmpty:
            let at = rng.below(rows.count)
            let k = 1 + rng.below(min(3, rows.count - at))
            try index.removeSections(at..<at + k)
            rows.removeSubrange(at..<at + k)
        case 2 where !rows.isEmpty:
            let s = rng.below(rows.count)
            rows[s] = rng.below(10)
            try index.setRowCount(rows[s], ofSection: s)
        default:
            break
        }
        try expectMatchesNaive(step)
    }
}

@Suite("Section index")
struct SectionIndexTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func whenSectionsChangeAtRandom_thenFlatIndicesMatchANaiveFlattening(seed: UInt64) throws {
        try checkAgainstNaive(COffsetTree.self, seed: seed)
        try checkAgainstNaive(SwiftOffsetTree.self, seed: seed + 10)
    }

    @Test func whenASectionHasNoRows_thenItsHeaderAndFooterAreAdjacent() throws {
        let index = try SectionIndex<COffsetTree>(rowCounts: [2, 0, 1])
        #expect(try index.flatIndexOfHeader(inSection: 1) == 4)
        #expect(try index.flatIndexOfFooter(inSection: 1) == 5)
        #expect(index.position(ofFlatIndex: 5) == .init(section: 1, element: .footer))
        #expect(try index.flatIndex(ofRow: 0, inSection: 2) == 7)
        #expect(index.itemCount == 9)
    }

    @Test func whenARowOrSectionIsOutOfRange_thenItThrowsIndexOutOfRange() throws {
        let index = try SectionIndex<SwiftOffsetTree>(rowCounts: [2, 0])
        #expect(throws: OffsetTreeError.indexOutOfRange(index: 2, count: 2)) {
            try index.flatIndex(ofRow: 2, inSection: 0)
        }
        #expect(throws: OffsetTreeError.indexOutOfRange(index: 0, count: 0)) {
            try index.flatIndex(ofRow: 0, inSection: 1)
        }
        #expect(throws: OffsetTreeError.indexOutOfRange(index: 2, count: 2)) {
            try index.flatIndexOfHeader(inSection: 2)
        }
    }
}
