import RowKitListing
import Testing

/// The compact hash set behind identities and slugs, against Swift's `Set`, and the stable hash.
struct HashSet64Tests {
    @Test func whenValuesAreInsertedAndLookedUp_thenTheSetAgreesWithSwiftsSet() {
        var random = SeededRandom(seed: 0x5EED_0064)
        var set = HashSet64()
        var reference: Set<UInt64> = []
        for round in 0..<60_000 {
            // Small values collide on purpose: some share a shard, some are zero.
            let value = round % 3 == 0 ? random.next() % 5_000 : random.next()
            let inserted = set.insert(value)
            #expect(inserted == reference.insert(value).inserted)
            let probe = random.next() % 10_000
            #expect(set.contains(probe) == reference.contains(probe))
        }
        #expect(set.count == reference.count)
        #expect(reference.allSatisfy(set.contains))
    }

    @Test func whenLowBitsAreATag_thenTheyAreIgnoredKeptAndFiltered() {
        var set = HashSet64(ignoredLowBits: 1)
        for value in stride(from: UInt64(2), through: 20_000, by: 2) {
            let inserted = set.insert(value | (value % 4 == 0 ? 1 : 0))
            #expect(inserted)
        }
        let again = set.insert(4)
        #expect(!again, "4 and 5 differ only in the tag")
        #expect(set.find(4) == 5 && set.find(6) == 6)
        set.update(6 | 1)
        #expect(set.find(6) == 7)
        set.keepOnly(tag: 1)
        #expect(set.count == 5_000 + 1)
        #expect(set.contains(8) && set.contains(6) && !set.contains(10))
    }

    @Test func whenValuesDifferOnlyInTheirTopBitsOrHaveNoLowBits_thenEachIsKeptApart() {
        // A shard keeps only the low 48 bits of its values: these differ in the top 16 only, or
        // have nothing (or only a tag) in the low 48, which a shard cannot store as a slot.
        var set = HashSet64(ignoredLowBits: 1)
        var reference: [UInt64: UInt64] = [:]
        for top in [UInt64(0), 1, 0x7FFF, 0xFFFF] {
            for low in [UInt64(0), 1, 2, 3, 0xFFFF_FFFF_FFFE, 0x1_0000_0000] {
                let value = top << 48 | low
                let inserted = set.insert(value)
                #expect(inserted == (reference[value & ~1] == nil))
                if inserted { reference[value & ~1] = value }
            }
        }
        #expect(set.count == reference.count)
        for (key, value) in reference { #expect(set.find(key) == value && set.find(key | 1) == value) }
        let topOnly: UInt64 = 0xFFFF << 48
        set.update(topOnly | 1)
        #expect(set.find(topOnly) == topOnly | 1)
        set.keepOnly(tag: 1)
        #expect(set.count == reference.values.filter { $0 & 1 == 1 }.count + 1)
        let other: UInt64 = 0x7FFF << 48 | 0x1_0000_0000
        #expect(set.contains(topOnly) && !set.contains(other))
    }

    @Test func whenASetIsCopied_thenChangingTheCopyLeavesTheOriginalAsItWas() {
        var random = SeededRandom(seed: 0x5EED_0065)
        var original = HashSet64(ignoredLowBits: 1)
        let values = (0..<50_000).map { _ in random.next() & ~1 }
        for value in values { original.insert(value) }
        var copy = original
        let added = (0..<50_000).map { _ in random.next() & ~1 }
        for value in added { copy.insert(value) }
        copy.update(values[0] | 1)
        #expect(original.count == 50_000 && copy.count == 100_000)
        #expect(values.allSatisfy { original.contains($0) } && !added.contains { original.contains($0) })
        #expect(original.find(values[0]) == values[0] && copy.find(values[0]) == values[0] | 1)
        #expect(added.allSatisfy { copy.contains($0) })
    }

    @Test func whenBytesAreHashed_thenTheValueIsXXH64AndIndependentOfHowTheyArePieced() {
        #expect(StableHash().value == 0xEF46_DB37_51D8_E999, "XXH64 of no bytes")
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let whole = StableHash.of(bytes)
        for pieces in [1, 3, 31, 32, 33, 999] {
            var hash = StableHash()
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + pieces)
                bytes[start..<end].withUnsafeBytes { hash.update($0) }
                start = end
            }
            #expect(hash.value == whole, "in pieces of \(pieces)")
        }
    }
}
