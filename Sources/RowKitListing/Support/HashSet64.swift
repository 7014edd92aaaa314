/// A set of 64-bit values (hashes) in about 8 bytes per value, for remembering millions of
/// identities or slugs in bounded memory.
///
/// Open addressing with linear probing, split into 256 shards by the values' top byte. A shard
/// stores only the other 56 bits of each value, in 7 bytes, since its place says the top 8; so
/// every bit is still compared. Each shard grows on its own, by an eighth of its size once it is
/// fifteen-sixteenths full: growing copies one shard, never the whole set, so the peak while
/// growing stays close to the set's size, and a shard is between 83% and 94% full (7.5 to 8.4
/// bytes a value). A shard of more than 16 KiB is a mapping of its own (`mmap`), given back to the
/// system whole when it grows, so the freed tables do not stay behind as scattered free memory
/// the process keeps. The low `ignoredLowBits` of a value are not compared: a caller can keep a
/// tag there (whether an identity was explicit or derived).
package struct HashSet64: Sendable {
    /// The shards' tables; made on the first insertion, shared between copies until one changes.
    private var shards: [HashSet64Table?] = []
    /// The values whose stored 56 bits are zero in the compared bits (zero marks an empty slot),
    /// by shard: about one in 2^55 values.
    private var zeros: [UInt8: UInt64] = [:]
    /// The bits compared.
    private let mask: UInt64
    /// The values stored.
    package private(set) var count = 0

    private static let lowBits: UInt64 = (1 << 56) - 1

    /// An empty set that compares values without their low `ignoredLowBits` bits.
    package init(ignoredLowBits: Int = 0) {
        precondition((0..<8).contains(ignoredLowBits), "a tag of up to 7 bits")
        mask = ~((1 << UInt64(ignoredLowBits)) - 1)
    }

    /// The stored value equal to `value` in the compared bits, or `nil`.
    package func find(_ value: UInt64) -> UInt64? {
        let key = value & mask
        let shard = Int(key >> 56)
        let rest = key & Self.lowBits
        if rest == 0 { return zeros[UInt8(shard)] }
        guard !shards.isEmpty, let table = shards[shard] else { return nil }
        guard let index = table.probe(rest, mask: mask).found else { return nil }
        return UInt64(shard) << 56 | table.load(index)
    }

    /// Whether a value equal to `value` in the compared bits is stored.
    package func contains(_ value: UInt64) -> Bool { find(value) != nil }

    /// Stores `value` unless an equal one (in the compared bits) is there; returns whether it was
    /// stored.
    @discardableResult
    package mutating func insert(_ value: UInt64) -> Bool {
        store(value, replacing: false)
    }

    /// Stores `value` in place of the equal one (in the compared bits), or adds it: changes the
    /// tag of a value already there.
    package mutating func update(_ value: UInt64) {
        _ = store(value, replacing: true)
    }

    /// Every value stored, in ascending order.
    package func sortedValues() -> [UInt64] {
        var values = Array(zeros.values)
        values.reserveCapacity(count)
        for (shard, table) in shards.enumerated() {
            guard let table else { continue }
            for index in 0..<table.capacity {
                let stored = table.load(index)
                if stored != 0 { values.append(UInt64(shard) << 56 | stored) }
            }
        }
        values.sort()
        return values
    }

    /// Removes every value whose low bits (the tag) are not `tag`.
    package mutating func keepOnly(tag: UInt64) {
        let tagBits = ~mask
        zeros = zeros.filter { $0.value & tagBits == tag }
        var total = zeros.count
        for shard in shards.indices {
            guard let old = shards[shard] else { continue }
            let table = HashSet64Table(capacity: old.capacity)
            for index in 0..<old.capacity {
                let stored = old.load(index)
                guard stored != 0, stored & tagBits == tag else { continue }
                table.place(stored, mask: mask)
            }
            shards[shard] = table.count == 0 ? nil : table
            total += table.count
        }
        count = total
    }

    /// Stores `value` when no equal one is there, or in its place when `replacing`; returns
    /// whether it was added.
    private mutating func store(_ value: UInt64, replacing: Bool) -> Bool {
        let key = value & mask
        let shard = Int(key >> 56)
        let stored = value & Self.lowBits
        if key & Self.lowBits == 0 {
            let known = zeros[UInt8(shard)] != nil
            if !known || replacing { zeros[UInt8(shard)] = value }
            if !known { count += 1 }
            return !known
        }
        if shards.isEmpty { shards = Array(repeating: nil, count: 256) }
        if !isKnownUniquelyReferenced(&shards[shard]) {
            // New, or shared with a copy of the set: this set's own from now on.
            shards[shard] = HashSet64Table(copying: shards[shard], capacity: shards[shard]?.capacity ?? 8, mask: mask)
        }
        guard var table = shards[shard] else { preconditionFailure("the shard was just made") }
        if (table.count + 1) * 16 > table.capacity * 15 {
            table = HashSet64Table(copying: table, capacity: table.capacity + max(1, table.capacity / 8), mask: mask)
            shards[shard] = table
        }
        let slot = table.probe(stored & mask, mask: mask)
        if let found = slot.found {
            if replacing { table.save(stored, at: found) }
            return false
        }
        table.save(stored, at: slot.free)
        table.count += 1
        count += 1
        return true
    }
}
