import Testing

@testable import RowKit

/// The identity index's hash table against a `Dictionary`: inserts, updates and removals (which
/// shift later entries back over the gap) keep every identity reachable.
struct IdentityTableTests {
    @Test func whenIdentitiesComeAndGo_thenTheTableAgreesWithADictionary() {
        var random = SeededRandom(seed: 77)
        var table = IdentityTable()
        var reference: [ItemID: TableIndex.Location] = [:]
        let ids = (0..<3_000).map { $0 % 3 == 0 ? ItemID("s\($0)") : ItemID($0) }
        for step in 0..<60_000 {
            let id = ids[random.below(ids.count)]
            if random.below(3) == 0 {
                #expect(table.removeValue(forKey: id) == reference.removeValue(forKey: id), "step \(step)")
            } else {
                let location = TableIndex.Location(key: Int32(random.below(9)), leaf: Int32(random.below(1_000)))
                #expect(
                    table.updateValue(location, forKey: id) == reference.updateValue(location, forKey: id),
                    "step \(step)")
            }
            if step % 1_000 == 0 {
                #expect(table.count == reference.count)
                #expect(ids.allSatisfy { table[$0] == reference[$0] }, "step \(step)")
            }
        }
        var seen = 0
        table.forEachEntry { id, location in
            #expect(reference[id] == location)
            seen += 1
        }
        #expect(seen == reference.count)
    }

    @Test func whenATableIsCopiedAndOneCopyChanges_thenTheOtherKeepsItsEntries() {
        var table = IdentityTable(minimumCapacity: 100)
        for i in 0..<100 { table[ItemID(i)] = TableIndex.Location(key: 0, leaf: Int32(i)) }
        var copy = table
        copy[ItemID(5)] = nil
        copy[ItemID(500)] = TableIndex.Location(key: 1, leaf: 1)
        #expect(
            table[ItemID(5)] == TableIndex.Location(key: 0, leaf: 5) && table[ItemID(500)] == nil && table.count == 100)
        #expect(copy[ItemID(5)] == nil && copy[ItemID(500)] != nil && copy.count == 100)
    }
}
