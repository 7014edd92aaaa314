/// A set of 64-bit values (hashes) in about 10–12 bytes per value, for remembering millions of
/// identities or slugs in bounded memory.
///
/// Open addressing with linear probing, split into 256 shards by the values' top byte, each grown
/// on its own: growing copies one shard, never the whole set, so the peak while growing stays
/// close to the set's size. The low `ignoredLowBits` of a value are not compared: a caller can
/// keep a tag there (whether an identity was explicit or derived).
package struct HashSet64: Sendable {
    private var shards: [[UInt64]] = Array(repeating: [], count: 256)
    private var counts: [Int] = Array(repeating: 0, count: 256)
    /// The bits compared.
    private let mask: UInt64
    /// The values stored.
    package private(set) var count = 0

    /// An empty set that compares values without their low `ignoredLowBits` bits.
    package init(ignoredLowBits: Int = 0) {
        precondition((0..<8).contains(ignoredLowBits), "a tag of up to 7 bits")
        mask = ~((1 << UInt64(ignoredLowBits)) - 1)
    }

    /// The stored value equal to `value` in the compared bits, or `nil`.
    package func find(_ value: UInt64) -> UInt64? {
        let key = Self.nonZero(value) & mask
        let shard = Int(key >> 56)
        let table = shards[shard]
        guard !table.isEmpty else { return nil }
        let slots = table.count - 1
        var index = Int(truncatingIfNeeded: key >> 8) & slots
        while true {
            let stored = table[index]
            if stored == 0 { return nil }
            if stored & mask == key { return stored }
            index = (index + 1) & slots
        }
    }

    /// Whether a value equal to `value` in the compared bits is stored.
    package func contains(_ value: UInt64) -> Bool { find(value) != nil }

    /// Stores `value` unless an equal one (in the compared bits) is there; returns whether it was
    /// stored.
    @discardableResult
    package mutating func insert(_ value: UInt64) -> Bool {
        let stored = Self.nonZero(value)
        let key = stored & mask
        let shard = Int(key >> 56)
        if (counts[shard] + 1) * 8 > shards[shard].count * 7 { grow(shard) }
        let slots = shards[shard].count - 1
        var index = Int(truncatingIfNeeded: key >> 8) & slots
        while true {
            let existing = shards[shard][index]
            if existing == 0 { break }
            if existing & mask == key { return false }
            index = (index + 1) & slots
        }
        shards[shard][index] = stored
        counts[shard] += 1
        count += 1
        return true
    }

    /// Stores `value` in place of the equal one (in the compared bits), or adds it: changes the
    /// tag of a value already there.
    package mutating func update(_ value: UInt64) {
        let stored = Self.nonZero(value)
        let key = stored & mask
        let shard = Int(key >> 56)
        if !shards[shard].isEmpty {
            let slots = shards[shard].count - 1
            var index = Int(truncatingIfNeeded: key >> 8) & slots
            while shards[shard][index] != 0 {
                if shards[shard][index] & mask == key {
                    shards[shard][index] = stored
                    return
                }
                index = (index + 1) & slots
            }
        }
        insert(value)
    }

    /// Removes every value whose low bits (the tag) are not `tag`.
    package mutating func keepOnly(tag: UInt64) {
        let old = shards
        shards = Array(repeating: [], count: 256)
        counts = Array(repeating: 0, count: 256)
        count = 0
        for table in old {
            for value in table where value != 0 && value & ~mask == tag { insert(value) }
        }
    }

    private mutating func grow(_ shard: Int) {
        let old = shards[shard]
        let capacity = max(16, old.count * 2)
        var table = [UInt64](repeating: 0, count: capacity)
        let slots = capacity - 1
        for value in old where value != 0 {
            var index = Int(truncatingIfNeeded: (value & mask) >> 8) & slots
            while table[index] != 0 { index = (index + 1) & slots }
            table[index] = value
        }
        shards[shard] = table
    }

    /// Zero marks an empty slot, so a zero value is stored as one with its lowest compared bit set.
    private static func nonZero(_ value: UInt64) -> UInt64 { value == 0 ? 1 << 8 : value }
}
