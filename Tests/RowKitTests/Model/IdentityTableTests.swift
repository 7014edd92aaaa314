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

    /// A slot keeps only the low 32 bits of an identity's hash: identities that share them (found
    /// among this process's hashes, which are seeded per process) share a home slot, and each is
    /// still found, updated and removed apart from the other, also next to an equal-hashed box.
    @Test func whenIdentitiesShareTheLowHalfOfTheirHash_thenTheTableKeepsThemApart() throws {
        var byLowHash: [UInt32: Int] = [:]
        var pairs: [(ItemID, ItemID)] = []
        var value = 0
        while pairs.count < 3 {
            let low = UInt32(truncatingIfNeeded: value.hashValue)
            if let other = byLowHash[low] { pairs.append((ItemID(other), ItemID(value))) }
            byLowHash[low] = value
            value += 1
        }
        for (first, second) in pairs {
            #expect(first.hashCode != second.hashCode && first != second)
            var table = IdentityTable()
            let one = TableIndex.Location(key: 1, leaf: 10), two = TableIndex.Location(key: 2, leaf: 20)
            table.updateValue(one, hint: 7, forKey: first)
            #expect(table[second] == nil)
            table.updateValue(two, hint: 8, forKey: second)
            #expect(table.entry(first)?.location == one && table.entry(first)?.hint == 7)
            #expect(table.entry(second)?.location == two && table.entry(second)?.hint == 8)
            // A boxed identity equal to `second` (an `Int64` of the same value, as `AnyHashable`
            // has it) finds the same entry.
            let boxed = ItemID(Int64(second.bits))
            #expect(boxed.box != nil && table[boxed] == two)
            #expect(table.removeValue(forKey: first) == one)
            #expect(table[first] == nil && table[second] == two && table.count == 1)
            var seen: [ItemID] = []
            table.forEachEntry { id, _ in seen.append(id) }
            #expect(seen == [second] && seen.first?.hashCode == second.hashCode)
        }
    }

    /// Growing moves `migrationStep` old slots per insert, update or removal, never the whole
    /// table at once; meanwhile every lookup, update (of entries still in the old storage too),
    /// removal and position hint behaves as before.
    @Test func whenTheTableGrows_thenItMovesAFewSlotsPerChangeAndAnswersRightThroughout() {
        var (table, reference, next) = Self.grown()
        #expect(next == 1_537, "growth starts with the insert that passes three quarters of 2,048 slots")
        #expect(Self.agree(table, reference))
        var random = SeededRandom(seed: 5)
        var changes = 0
        while table.isGrowing {
            let id = ItemID(random.below(next + 200))
            if random.below(3) == 0 {
                let removed = reference.removeValue(forKey: id)?.0
                #expect(table.removeValue(forKey: id) == removed)
                if removed == nil { continue }  // nothing to remove changes nothing, moves nothing
            } else {
                let value = (TableIndex.Location(key: 3, leaf: Int32(changes)), UInt32(changes))
                #expect(table.updateValue(value.0, hint: value.1, forKey: id) == reference[id]?.0)
                reference[id] = value
            }
            changes += 1
            #expect(Self.agree(table, reference), "change \(changes)")
        }
        // The growing insert moved the first step; each change after it one more.
        #expect(changes + 1 == 2_048 / IdentityTable.migrationStep)
        next = 0
        table.forEachEntry { id, location in
            #expect(reference[id]?.0 == location)
            next += 1
        }
        #expect(next == reference.count)
    }

    /// A copy of a growing table shares both storages: the first change of one copies its live
    /// entries into one storage of its own, and the other, which then holds both storages alone,
    /// goes on growing step by step.
    @Test func whenAGrowingTableIsCopied_thenEachCopyKeepsItsOwnEntries() {
        var (table, reference, _) = Self.grown()
        var copy = table
        let copyReference = reference
        table.removeValue(forKey: ItemID(7))
        reference[ItemID(7)] = nil
        #expect(!table.isGrowing && copy.isGrowing)
        #expect(Self.agree(table, reference) && Self.agree(copy, copyReference))
        var copyReference2 = copyReference
        copy.updateValue(TableIndex.Location(key: 1, leaf: 1), hint: 9, forKey: ItemID(9_999))
        copyReference2[ItemID(9_999)] = (TableIndex.Location(key: 1, leaf: 1), 9)
        #expect(copy.isGrowing && Self.agree(copy, copyReference2))
        #expect(Self.agree(table, reference))
    }

    /// A table of 2,048 slots just grown: the identities 0..<next with hints equal to them.
    private static func grown() -> (IdentityTable, [ItemID: (TableIndex.Location, UInt32)], Int) {
        var table = IdentityTable(minimumCapacity: 1_000)
        var reference: [ItemID: (TableIndex.Location, UInt32)] = [:]
        var next = 0
        while !table.isGrowing {
            let location = TableIndex.Location(key: Int32(next % 7), leaf: Int32(next))
            table.updateValue(location, hint: UInt32(next), forKey: ItemID(next))
            reference[ItemID(next)] = (location, UInt32(next))
            next += 1
        }
        return (table, reference, next)
    }

    /// Whether `table` holds exactly `reference`'s identities, locations and hints.
    private static func agree(_ table: IdentityTable, _ reference: [ItemID: (TableIndex.Location, UInt32)]) -> Bool {
        table.count == reference.count
            && reference.allSatisfy { id, value in
                table.entry(id).map { $0.location == value.0 && $0.hint == value.1 } ?? false
            }
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

    /// Past 2 MiB of slots the table lives in a mapping of its own (LargeAllocation): it grows into
    /// one, is copied out of one on write, and frees them, with every entry where it belongs.
    @Test func whenATableGrowsPastTwoMebibytes_thenItKeepsEveryEntryAndCopiesStayApart() {
        var table = IdentityTable()
        for i in 0..<70_000 { table[ItemID(i)] = TableIndex.Location(key: 0, leaf: Int32(i % 1_000)) }
        let copy = table
        for i in stride(from: 0, to: 70_000, by: 2) { table[ItemID(i)] = nil }
        #expect(table.count == 35_000 && copy.count == 70_000)
        #expect((0..<70_000).allSatisfy { i in table[ItemID(i)] == (i % 2 == 0 ? nil : copy[ItemID(i)]) })
        #expect((0..<70_000).allSatisfy { copy[ItemID($0)] == TableIndex.Location(key: 0, leaf: Int32($0 % 1_000)) })
    }

    @Test(arguments: [
        64, 4_096, LargeAllocation.hugePage - 1, LargeAllocation.hugePage, 5 * LargeAllocation.hugePage + 3,
    ])
    func whenLargeMemoryIsAllocated_thenItIsAlignedAndEveryByteIsUsable(byteCount: Int) {
        let memory = LargeAllocation(byteCount: byteCount)
        defer { memory.deallocate() }
        #expect(Int(bitPattern: memory.base) % 64 == 0)
        #if canImport(Glibc)
        if byteCount >= LargeAllocation.hugePage {
            #expect(Int(bitPattern: memory.base) % LargeAllocation.hugePage == 0, "a mapping starts on a huge page")
            #expect(memory.isZeroed, "a mapping is zero already")
        }
        #endif
        let bytes = memory.base.bindMemory(to: UInt8.self, capacity: byteCount)
        if memory.isZeroed { #expect((0..<byteCount).allSatisfy { bytes[$0] == 0 }, "a fresh mapping reads zero") }
        for i in 0..<byteCount { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        #expect((0..<byteCount).allSatisfy { bytes[$0] == UInt8(truncatingIfNeeded: $0 &* 31) })
    }
}
