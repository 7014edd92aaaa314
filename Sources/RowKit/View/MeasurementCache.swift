/// Measured heights by `HeightKey`: an open-addressing hash table with linear probing that keeps
/// each entry's hash.
///
/// A scroll through unmeasured rows adds a measurement per new row, so the table grows all the
/// time; a `Dictionary` hashes every key again each time it grows (at 36,000 entries that was a
/// sixth of a scroll frame). Here growing only moves entries by their stored hash, a key's hash is
/// a multiply-and-shift mix of the identity's cached hash (itself seeded per process) with the
/// kind and width, and a probe compares stored hashes before it looks at a key. Entries are never
/// removed (a measurement is replaced, or kept for a row that may come back).
struct MeasurementCache {
    private struct Slot {
        /// The key's hash; 0 marks an empty slot (a real hash of 0 is stored as 1).
        var hash = 0
        var id: ItemID?
        var width = 0.0
        var kind = HeightKey.Kind.row
        var height = 0.0
    }

    private var slots: [Slot] = []
    /// The number of measurements.
    private(set) var count = 0

    /// The measurement for `key`. - Complexity: O(1) expected.
    subscript(key: HeightKey) -> Double? {
        guard count > 0 else { return nil }
        let hash = Self.hash(key)
        let (index, found) = find(key, hash: hash)
        return found ? slots[index].height : nil
    }

    /// Stores `height` as the measurement for `key`, replacing any earlier one.
    /// - Complexity: O(1) amortized.
    mutating func set(_ height: Double, for key: HeightKey) {
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let hash = Self.hash(key)
        let (index, found) = find(key, hash: hash)
        if !found {
            slots[index] = Slot(hash: hash, id: key.id, width: key.width, kind: key.kind, height: height)
            count += 1
        } else {
            slots[index].height = height
        }
    }

    /// The slot holding `key`, or the empty slot where it would go. Requires a free slot.
    private func find(_ key: HeightKey, hash: Int) -> (index: Int, found: Bool) {
        slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = hash & mask
            while true {
                let slot = slots[index]
                if slot.hash == 0 { return (index, false) }
                if slot.hash == hash, slot.kind == key.kind, slot.width == key.width, slot.id == key.id {
                    return (index, true)
                }
                index = (index + 1) & mask
            }
        }
    }

    /// Doubles the table (16 slots at first) and re-slots every entry by its stored hash.
    private mutating func grow() {
        let old = slots
        slots = Array(repeating: Slot(), count: max(16, old.count * 2))
        let mask = slots.count - 1
        for slot in old where slot.hash != 0 {
            var index = slot.hash & mask
            while slots[index].hash != 0 { index = (index + 1) & mask }
            slots[index] = slot
        }
    }

    /// A well-mixed, non-zero hash of `key`; equal keys (widths 0.0 and -0.0 included) hash alike.
    private static func hash(_ key: HeightKey) -> Int {
        var h = UInt64(bitPattern: Int64(key.id.hashCode))
        h ^= (key.width + 0.0).bitPattern &* 0x9E37_79B9_7F4A_7C15
        h ^= UInt64(key.kind.rawValue) &* 0xC2B2_AE3D_27D4_EB4F
        // The finalizer of MurmurHash3's 64-bit variant spreads every input bit over the word.
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        let mixed = Int(bitPattern: UInt(h))
        return mixed == 0 ? 1 : mixed
    }
}
