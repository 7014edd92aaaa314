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
