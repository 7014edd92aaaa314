import RowKit
import Testing

@Suite("Offset tree: lookup semantics")
struct OffsetTreeLookupTests {
    @Test(arguments: OffsetTreeImplementation.allCases)
    func whenItemsHaveZeroHeight_thenTheyAreNeverFoundButAreInsideRanges(
        implementation: OffsetTreeImplementation
    ) throws {
        let tree = try implementation.make([0, 10, 0, 0, 20, 0])
        #expect(tree.item(at: 0) == 1)
        #expect(tree.item(at: 9.999) == 1)
        #expect(tree.item(at: 10) == 4)
        #expect(tree.item(at: 29.5) == 4)
        #expect(tree.item(at: 30) == nil)
        #expect(tree.items(intersecting: 0..<30) == 1..<5)
        #expect(tree.items(intersecting: 5..<10) == 1..<2)
        #expect(tree.items(intersecting: 5..<10.5) == 1..<5)
        #expect(tree.items(intersecting: -100..<100) == 1..<5)
        #expect(try tree.offset(of: 4) == 10)
        #expect(try tree.offset(of: 6) == 30)
    }

    @Test(arguments: OffsetTreeImplementation.allCases)
    func whenTheTreeIsEmptyOrAllZero_thenNothingIsFound(implementation: OffsetTreeImplementation) throws {
        let empty = try implementation.make()
        #expect(empty.item(at: 0) == nil)
        #expect(empty.items(intersecting: 0..<100) == 0..<0)
        #expect(try empty.offset(of: 0) == 0)
        let zeros = try implementation.make([0, 0, 0])
        #expect(zeros.item(at: 0) == nil)
        #expect(zeros.items(intersecting: 0..<1) == 0..<0)
    }

    @Test(arguments: OffsetTreeImplementation.allCases)
    func whenANegativeZeroHeightIsStored_thenItReadsBackAsPositiveZero(
        implementation: OffsetTreeImplementation
    ) throws {
        let tree = try implementation.make([-0.0, 1])
        try tree.setHeight(-0.0, at: 1)
        try tree.insert(contentsOf: [-0.0], at: 0)
        for i in 0..<3 { #expect(try tree.height(at: i).sign == .plus) }
        try tree.checkInvariants()
    }

    @Test(arguments: OffsetTreeImplementation.allCases)
    func whenAMillionItemsAreBuilt_thenTheViewportRangeIsTheNaiveOne(
        implementation: OffsetTreeImplementation
    ) throws {
        let heights = (0..<1_000_000).map { Double(20 + $0 % 7) }
        let tree = try implementation.make(heights)
        try tree.checkInvariants()
        let naive = NaiveOffsets(heights: heights)
        let y = naive.offset(of: 654_321) + 3
        let range = tree.items(intersecting: y..<y + 900)
        #expect(range.lowerBound == 654_321)
        #expect(try tree.offset(of: range.upperBound - 1) < y + 900)
        #expect(try tree.offset(of: range.upperBound) >= y + 900)
        #expect(Double(tree.memoryFootprint) / 1e6 <= 16)
    }
}
