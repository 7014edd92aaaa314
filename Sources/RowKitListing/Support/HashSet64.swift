/// A set of 64-bit values (hashes) in about 10–12 bytes per value, for remembering millions of
/// identities or slugs in bounded memory.
///
/// Open addressing with linear probing, split into 256 shards by the values' top byte, each grown
/// on its own by half its size once it is seven-eighths full: growing copies one shard, never the
/// whole set, so the peak while growing stays close to the set's size, and a shard is between 58%
/// and 88% full (9 to 14 bytes a value). The low `ignoredLowBits` of a value are not compared: a
/// caller can keep a tag there (whether an identity was explicit or derived).
package struct HashSet64: Sendable {
    private var shards: [[UInt64]] = Array(repeating: [], count: 256)
    private var counts: [Int] = Array(repeating: 0, count: 256)
    /// The bits compared.
    private let mask: UInt64
    /// The value whose compared bits are all zero (zero marks an empty slot in the tables).
    private var zero: UInt64?
    /// The values stored.
    package private(set) var count = 0

    /// An empty set that compares values without their low `ignoredLowBits` bits.
    package init(ignoredLowBits: Int = 0) {
        precondition((0..<8).contains(ignoredLowBits), "a tag of up to 7 bits")
        mask = ~((1 << UInt64(ignoredLowBits)) - 1)
    }

    /// The stored value equal to `value` in the compared bits, or `nil`.
    package func find(_ value: UInt64) -> UInt64? {
        let key = value & mask
        if key == 0 { return zero }
        let shard = Int(key >> 56)
        let table = shards[shard]
        guard !table.isEmpty else { return nil }
        var index = Self.slot(of: key, in: table.count)
        while true {
            let stored = table[index]
            if stored == 0 { return nil }
            if stored & mask == key { return stored }
            index += 1
            if index == table.count { index = 0 }
        }
    }

    /// Whether a value equal to `value` in the compared bits is stored.
    package func contains(_ value: UInt64) -> Bool { find(value) != nil }

    /// Stores `value` unless an equal one (in the compared bits) is there; returns whether it was
    /// stored.
    @discardableResult
    package mutating func insert(_ value: UInt64) -> Bool {
        let stored = value
        let key = stored & mask
        if key == 0 {
            guard zero == nil else { return false }
            zero = value
            count += 1
            return true
        }
        let shard = Int(key >> 56)
        if (counts[shard] + 1) * 8 > shards[shard].count * 7 { grow(shard) }
        let mask = self.mask
        // One access to the shard for the probe and the store (each subscript of the nested
        // array would check that both arrays are unshared).
        let inserted = shards[shard].withUnsafeMutableBufferPointer { table -> Bool in
            var index = Self.slot(of: key, in: table.count)
            while true {
                let existing = table[index]
                if existing == 0 { break }
                if existing & mask == key { return false }
                index += 1
                if index == table.count { index = 0 }
            }
            table[index] = stored
            return true
        }
        guard inserted else { return false }
        counts[shard] += 1
        count += 1
        return true
    }

    /// Stores `value` in place of the equal one (in the compared bits), or adds it: changes the
    /// tag of a value already there.
    package mutating func update(_ value: UInt64) {
        let stored = value
        let key = stored & mask
        if key == 0 {
            if zero == nil { count += 1 }
            zero = value
            return
        }
        let shard = Int(key >> 56)
        if !shards[shard].isEmpty {
            let size = shards[shard].count
            var index = Self.slot(of: key, in: size)
            while shards[shard][index] != 0 {
                if shards[shard][index] & mask == key {
                    shards[shard][index] = stored
                    return
                }
                index += 1
                if index == size { index = 0 }
            }
        }
        insert(value)
    }

    /// Removes every value whose low bits (the tag) are not `tag`.
    package mutating func keepOnly(tag: UInt64) {
        let old = shards
        let oldZero = zero
        shards = Array(repeating: [], count: 256)
        counts = Array(repeating: 0, count: 256)
        count = 0
        zero = nil
        if let oldZero, oldZero & ~mask == tag { insert(oldZero) }
        for table in old {
            for value in table where value != 0 && value & ~mask == tag { insert(value) }
        }
    }

    private mutating func grow(_ shard: Int) {
        let old = shards[shard]
        let capacity = max(16, old.count + old.count / 2)
        var table = [UInt64](repeating: 0, count: capacity)
        for value in old where value != 0 {
            var index = Self.slot(of: value & mask, in: capacity)
            while table[index] != 0 {
                index += 1
                if index == capacity { index = 0 }
            }
            table[index] = value
        }
        shards[shard] = table
    }

    /// Where `key` belongs in a shard of `size` slots: its bits below the shard byte scaled to the
    /// size (a multiply and a shift; any size works, not only powers of two).
    @inline(__always)
    private static func slot(of key: UInt64, in size: Int) -> Int {
        Int(truncatingIfNeeded: (key << 8).multipliedFullWidth(by: UInt64(size)).high)
    }

}
