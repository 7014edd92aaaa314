import Testing

@testable import RowKit

/// `RowList` against an array: the same rows after the same edits, with the tree's invariants
/// (counts, parent links, fill bounds) checked along the way, on small node sizes that reach deep
/// trees as well as on the standard ones.
@Suite("Row list: a counted B-tree that behaves like an array")
struct RowListTests {
    static func row(_ id: Int) -> AnyRow { AnyRow(DefaultRow("r\(id)", id: id)) }

    /// Leaves of at most 4 rows, nodes of at most 4 children: 300 rows make four levels.
    static let tiny = RowListStorage.Shape(leafMax: 4, leafMin: 2, leafFill: 3, fan: 4, innerMin: 2, innerFill: 3)

    @Test(arguments: [(tiny, UInt64(1), 300), (RowListStorage.Shape.standard, UInt64(2), 2_000)])
    func whenRandomEditsRun_thenTheListMatchesAnArrayAndEveryPositionIsFoundFromItsLeaf(
        shape: RowListStorage.Shape, seed: UInt64, size: Int
    ) {
        var random = SeededRandom(seed: seed)
        var array = (0..<size).map(Self.row)
        var list = RowList(array, shape: shape)
        var next = size
        for step in 0..<6_000 {
            switch random.below(10) {
            case 0..<4:
                let at = random.below(array.count + 1)
                array.insert(Self.row(next), at: at)
                list.insert(Self.row(next), at: at)
                next += 1
            case 4..<8 where !array.isEmpty:
                let at = random.below(array.count)
                #expect(list.remove(at: at).id == array.remove(at: at).id)
            case 8 where !array.isEmpty:
                let at = random.below(array.count)
                array[at] = Self.row(next)
                list[at] = Self.row(next)
                next += 1
            default:
                let at = random.below(array.count + 1)
                let end = at + random.below(min(array.count - at, 9) + 1)
                let new = (0..<random.below(6)).map { Self.row(next + $0) }
                next += new.count
                array.replaceSubrange(at..<end, with: new)
                list.replaceSubrange(at..<end, with: new)
            }
            if step % 97 == 0 || list.count < 20 {
                #expect(list.treeViolation() == nil, "step \(step): \(list.treeViolation() ?? "")")
                #expect(list.map(\.id) == array.map(\.id), "step \(step)")
                var position = 0
                list.forEachLeaf { leaf, ids in
                    for id in ids {
                        #expect(list.position(of: id, inLeaf: leaf) == position, "step \(step): \(id)")
                        position += 1
                    }
                }
            }
        }
        #expect(list.treeViolation() == nil)
        #expect(list.map(\.id) == array.map(\.id))
        #expect((0..<array.count).allSatisfy { list[$0].id == array[$0].id })
    }

    @Test func whenAListIsCopiedAndOneCopyChanges_thenTheOtherKeepsItsRows() {
        let original = RowList((0..<1_000).map(Self.row))
        var copy = original
        copy.remove(at: 0)
        copy.insert(Self.row(-1), at: 500)
        copy[10] = Self.row(-2)
        #expect(original.map(\.id) == (0..<1_000).map { ItemID($0) })
        #expect(
            copy.count == 1_000 && copy[499].id == ItemID(500) && copy[500].id == ItemID(-1)
                && copy[10].id == ItemID(-2))
        #expect(original.treeViolation() == nil && copy.treeViolation() == nil)
    }

    /// A list of 100,000 rows keeps its identities in more than 2 MiB, so its storage is a
    /// mapping with room reserved (GrowableMemory): inserts past the built capacity grow it where
    /// it is. Every row stays in order, and a copy made before stays apart.
    @Test func whenALargeListGrowsPastItsCapacity_thenItGrowsInPlaceAndKeepsEveryRow() {
        var list = RowList((0..<100_000).map(Self.row))
        let copy = list
        list.insert(Self.row(-1), at: 50)  // copies the shared storage (into a mapping too)
        let before = list.storage.ids
        for k in 1..<6_000 { list.insert(Self.row(-1 - k), at: 50) }  // about 90 splits, one doubling
        #if canImport(Glibc)
        #expect(list.storage.ids == before, "the identities did not move")
        #else
        _ = before  // elsewhere the allocator's memory moves
        #endif
        #expect(list.count == 106_000 && list.treeViolation() == nil)
        #expect(list[49].id == ItemID(49) && list[50].id == ItemID(-6_000) && list[6_049].id == ItemID(-1))
        #expect(list[6_050].id == ItemID(50) && list[105_999].id == ItemID(99_999))
        #expect(copy.count == 100_000 && copy[50].id == ItemID(50) && copy.treeViolation() == nil)
    }

    @Test func whenGrowableMemoryReserves_thenItIsZeroAndGrowsInPlaceWithinItsReservation() {
        let memory = GrowableMemory(byteCount: LargeAllocation.hugePage, reserving: true)
        defer { memory.deallocate() }
        let small = GrowableMemory(byteCount: 4_096, reserving: false)
        defer { small.deallocate() }
        #expect(Int(bitPattern: memory.base) % 64 == 0 && Int(bitPattern: small.base) % 64 == 0)
        #expect(!small.canGrow(inPlaceTo: 8_192))
        #if canImport(Glibc)
        let words = LargeAllocation.hugePage / 8
        let values = memory.base.bindMemory(to: Int.self, capacity: words * GrowableMemory.reserve)
        #expect(memory.isZeroed && (0..<words).allSatisfy { values[$0] == 0 })
        for i in 0..<words { values[i] = i &* 7 }
        #expect(memory.canGrow(inPlaceTo: LargeAllocation.hugePage * GrowableMemory.reserve))
        #expect((0..<words).allSatisfy { values[$0] == $0 &* 7 })
        #expect((words..<words * GrowableMemory.reserve).allSatisfy { values[$0] == 0 })
        #expect(!memory.canGrow(inPlaceTo: LargeAllocation.hugePage * GrowableMemory.reserve + 4_096))
        #endif
    }

    @Test func whenAListIsBuiltFromALiteralOrEmptied_thenItBehavesLikeAnArray() {
        var list: RowList = [Self.row(1), Self.row(2)]
        #expect(list.count == 2 && list.first?.id == ItemID(1) && list.last?.id == ItemID(2))
        list.append(Self.row(3))
        #expect(Array(list.map(\.id)) == [ItemID(1), ItemID(2), ItemID(3)])
        list.removeAll()
        #expect(list.isEmpty && list.treeViolation() == nil)
        #expect(RowList().isEmpty)
    }
}
