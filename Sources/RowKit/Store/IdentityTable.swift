/// Row identity → location, for the model's identity index: an open-addressing hash table with
/// linear probing whose slots hold the identity and its location side by side (32 bytes, two to a
/// cache line, never across two), so a lookup reads one line where a `Dictionary` reads its keys and its values in
/// two arrays. Beside each slot, in an array of their own, a position hint (4 bytes). The identity's cached hash picks the slot; removal shifts the following entries back
/// instead of leaving tombstones. A value: copies share storage until one changes (copy on write).
///
/// - Complexity: Lookup, insert, update and removal: O(1) expected (the table keeps at most three
///   quarters of its slots in use).
struct IdentityTable: Sendable {
    /// One slot: an identity and its location, or empty (`location.key < 0`).
    struct Slot {
        var id: ItemID
        var location: TableIndex.Location
    }

    /// The slots; shared by copies until one of them changes.
    final class Storage: @unchecked Sendable {
        /// A power of two.
        let capacity: Int
        let slots: UnsafeMutablePointer<Slot>
        /// Each slot's position hint (`RowListStorage.hint(ofLeaf:at:)`), in an array of its own
        /// beside the slots, which are a whole half line already. A lookup knows where both are
        /// from the identity's hash, so the two loads go out together.
        let hints: UnsafeMutablePointer<UInt32>
        var count = 0
        private let memory: LargeAllocation

        init(capacity: Int) {
            self.capacity = capacity
            // Aligned to a cache line, so no 32-byte slot straddles two lines (a lookup that misses
            // the cache then waits for one line, not two); a large table on huge pages where the
            // system has them (LargeAllocation). The hints follow the slots.
            let slotBytes = capacity * MemoryLayout<Slot>.stride
            memory = LargeAllocation(byteCount: slotBytes + capacity * MemoryLayout<UInt32>.stride)
            slots = memory.base.bindMemory(to: Slot.self, capacity: capacity)
            slots.initialize(
                repeating: Slot(id: IdentityTable.placeholder, location: IdentityTable.emptyLocation), count: capacity)
            hints = (memory.base + slotBytes).bindMemory(to: UInt32.self, capacity: capacity)
            hints.initialize(repeating: RowListStorage.noHint, count: capacity)
        }

        deinit {
            slots.deinitialize(count: capacity)
            hints.deinitialize(count: capacity)
            memory.deallocate()
        }
    }

    /// The identity an empty slot holds (an inline integer: no reference to keep).
    static let placeholder = ItemID(0)
    /// The location of an empty slot.
    static let emptyLocation = TableIndex.Location(key: -1, leaf: -1)

    private var storage: Storage

    /// An empty table with room for `minimumCapacity` identities before it grows.
    init(minimumCapacity: Int = 0) {
        var capacity = 8
        while capacity * 3 < minimumCapacity * 4 + 4 { capacity *= 2 }
        storage = Storage(capacity: capacity)
    }

    /// The number of identities.
    var count: Int { storage.count }

    /// The location of `id`, or `nil`; setting `nil` removes it, setting a location stores it
    /// without a position hint.
    subscript(id: ItemID) -> TableIndex.Location? {
        get { entry(id)?.location }
        set {
            if let newValue { updateValue(newValue, forKey: id) } else { removeValue(forKey: id) }
        }
    }

    /// The location of `id` and its position hint, or `nil`.
    func entry(_ id: ItemID) -> (location: TableIndex.Location, hint: UInt32)? {
        let slots = storage.slots, hints = storage.hints
        let mask = storage.capacity - 1
        var i = id.hashCode & mask
        while true {
            // Read in place: a copy of the slot would retain (atomically) a boxed identity.
            let slot = slots + i
            if slot.pointee.location.key < 0 { return nil }
            if slot.pointee.id == id { return (slot.pointee.location, hints[i]) }
            i = (i + 1) & mask
        }
    }

    /// Stores `location` and the position hint `hint` for `id` and returns the location it
    /// replaced, if any.
    @discardableResult
    mutating func updateValue(
        _ location: TableIndex.Location, hint: UInt32 = RowListStorage.noHint, forKey id: ItemID
    ) -> TableIndex.Location? {
        makeUnique(growing: true)
        let slots = storage.slots
        let mask = storage.capacity - 1
        var i = id.hashCode & mask
        while true {
            if slots[i].location.key < 0 {
                slots[i] = Slot(id: id, location: location)
                storage.hints[i] = hint
                storage.count += 1
                return nil
            }
            if slots[i].id == id {
                let old = slots[i].location
                slots[i].location = location
                storage.hints[i] = hint
                return old
            }
            i = (i + 1) & mask
        }
    }

    /// Removes `id` and returns its location, if it was there. The entries after it in its probe
    /// run move back over the gap, so every entry stays reachable from its home slot.
    @discardableResult
    mutating func removeValue(forKey id: ItemID) -> TableIndex.Location? {
        guard self[id] != nil else { return nil }
        makeUnique(growing: false)
        let slots = storage.slots
        let mask = storage.capacity - 1
        var hole = id.hashCode & mask
        while slots[hole].id != id { hole = (hole + 1) & mask }
        let old = slots[hole].location
        var next = (hole + 1) & mask
        while slots[next].location.key >= 0 {
            let home = slots[next].id.hashCode & mask
            // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
            let stays = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !stays {
                slots[hole] = slots[next]
                storage.hints[hole] = storage.hints[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = Slot(id: Self.placeholder, location: Self.emptyLocation)
        storage.hints[hole] = RowListStorage.noHint
        storage.count -= 1
        return old
    }

    /// Calls `body` with every identity and its location, in no particular order.
    func forEachEntry(_ body: (ItemID, TableIndex.Location) throws -> Void) rethrows {
        let slots = storage.slots
        for i in 0..<storage.capacity where slots[i].location.key >= 0 {
            try body(slots[i].id, slots[i].location)
        }
    }

    /// Copies the storage if another table shares it, and doubles it when `growing` and an insert
    /// would pass three quarters full.
    private mutating func makeUnique(growing: Bool) {
        let full = growing && (storage.count + 1) * 4 > storage.capacity * 3
        guard full || !isKnownUniquelyReferenced(&storage) else { return }
        let old = storage
        let new = Storage(capacity: full ? old.capacity * 2 : old.capacity)
        let mask = new.capacity - 1
        for i in 0..<old.capacity where old.slots[i].location.key >= 0 {
            var j = old.slots[i].id.hashCode & mask
            while new.slots[j].location.key >= 0 { j = (j + 1) & mask }
            new.slots[j] = old.slots[i]
            new.hints[j] = old.hints[i]
        }
        new.count = old.count
        storage = new
    }
}
