/// Row identity → location, for the model's identity index: an open-addressing hash table with
/// linear probing whose slots hold the identity and its location side by side (32 bytes, two to a
/// cache line, never across two), so a lookup reads one line where a `Dictionary` reads its keys
/// and its values in two arrays. Beside each slot, in an array of their own, a position hint (4
/// bytes). The identity's cached hash picks the slot; removal shifts the following entries back
/// instead of leaving tombstones. A value: copies share storage until one changes (copy on write).
///
/// Growing is incremental. When an insert would pass three quarters full, the table takes a new
/// storage of twice the slots and keeps the old one beside it; from then on every insert, update
/// and removal first moves the entries of the next ``migrationStep`` old slots over, until none
/// are left (long before the new storage could fill). Meanwhile a lookup that misses in the new
/// storage looks in the old one, where the slots before the migration's cursor no longer count,
/// and an entry still in the old storage that is updated or removed is marked gone there (and an
/// update moves it over). So no single operation rehashes the whole table: at 1,572,864 rows the
/// insert that grew it used to take 0.4 s.
///
/// - Complexity: Lookup, insert, update and removal: O(1) expected (the table keeps at most three
///   quarters of its slots in use), also while it grows.
struct IdentityTable: Sendable {
    /// One slot: an identity and its location, or empty.
    ///
    /// All of an empty slot's bytes may be zero (and a fresh mapping's are), so a new storage from
    /// the system needs no pass that writes its empty slots: pages are touched only as entries
    /// arrive. That is why the key is stored plus one.
    struct Slot {
        var id: ItemID
        /// The location's section key plus one: 0 in an empty slot, -1 in a slot of the old
        /// storage whose entry was updated or removed while the table grew (probes go on past it,
        /// and it never matches).
        var keyPlusOne: Int32
        var leaf: Int32

        init(id: ItemID, location: TableIndex.Location) {
            self.id = id
            keyPlusOne = location.key + 1
            leaf = location.leaf
        }

        /// A slot marked gone.
        static let gone = Slot(id: IdentityTable.placeholder, location: TableIndex.Location(key: -2, leaf: -1))
        /// An empty slot.
        static let empty = Slot(id: IdentityTable.placeholder, location: TableIndex.Location(key: -1, leaf: 0))

        var location: TableIndex.Location {
            get { TableIndex.Location(key: keyPlusOne - 1, leaf: leaf) }
            set {
                keyPlusOne = newValue.key + 1
                leaf = newValue.leaf
            }
        }

        var isEmpty: Bool { keyPlusOne == 0 }
        var isLive: Bool { keyPlusOne > 0 }
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

        /// Empty slots. `lazily`: a mapping's pages are left for the entries to touch (see below).
        init(capacity: Int, lazily: Bool = false) {
            self.capacity = capacity
            // Aligned to a cache line, so no 32-byte slot straddles two lines (a lookup that misses
            // the cache then waits for one line, not two); a large table on huge pages where the
            // system has them (LargeAllocation). The hints follow the slots.
            let slotBytes = capacity * MemoryLayout<Slot>.stride
            let byteCount = slotBytes + capacity * MemoryLayout<UInt32>.stride
            memory = LargeAllocation(byteCount: byteCount)
            // Zero bytes are empty slots (and hints no empty slot reads). A mapping is zero already:
            // the storage a growing table moves into leaves its pages to the entries, because a
            // storage of 151 MB (2^22 slots) written whole at once took 28 ms, and 317 ms when the
            // kernel first had to find huge pages for it, all in the one insert that started the
            // growth. Any other storage is written whole when made, whose cost the O(n) work that
            // fills it hides: lookups in a model of 1,000,000 rows took about 3% less (the median
            // of 16 interleaved pairs) with its pages touched in order before the build than with
            // them touched by the build's inserts.
            if !(lazily && memory.isZeroed) {
                memory.base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
            }
            slots = memory.base.bindMemory(to: Slot.self, capacity: capacity)
            hints = (memory.base + slotBytes).bindMemory(to: UInt32.self, capacity: capacity)
        }

        deinit {
            slots.deinitialize(count: capacity)
            hints.deinitialize(count: capacity)
            memory.deallocate()
        }
    }

    /// The identity an emptied or gone slot holds (an inline integer: no reference to keep).
    static let placeholder = ItemID(0)
    /// Old slots whose entries each insert, update or removal moves while the table grows.
    static let migrationStep = 8

    private var storage: Storage
    /// While the table grows: the storage it grows out of (its `count` is the entries still there).
    private var old: Storage?
    /// While the table grows: the old slots before this one are moved (or were empty).
    private var cursor = 0

    /// An empty table with room for `minimumCapacity` identities before it grows.
    init(minimumCapacity: Int = 0) {
        var capacity = 8
        while capacity * 3 < minimumCapacity * 4 + 4 { capacity *= 2 }
        storage = Storage(capacity: capacity)
    }

    /// The number of identities.
    var count: Int { storage.count + (old?.count ?? 0) }

    /// Whether the table is growing (entries remain in the old storage).
    var isGrowing: Bool { old != nil }

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
            if !slot.pointee.isLive { break }
            if slot.pointee.id == id { return (slot.pointee.location, hints[i]) }
            i = (i + 1) & mask
        }
        return old == nil ? nil : oldEntry(id)
    }

    /// `entry(_:)` in the old storage while the table grows: out of line, so that the lookup's
    /// usual path (found, or not there, with no growth going on) stays as short as it was.
    @inline(never)
    private func oldEntry(_ id: ItemID) -> (location: TableIndex.Location, hint: UInt32)? {
        guard let old, let at = Self.liveSlot(of: id, in: old, from: cursor) else { return nil }
        return (old.slots[at].location, old.hints[at])
    }

    /// The slot of `id` in the old storage `old`, if it is there and counts (at or after `cursor`,
    /// not marked gone). Slots before the cursor still hold what was moved, so probe runs stay
    /// unbroken; only an empty slot ends one.
    private static func liveSlot(of id: ItemID, in old: Storage, from cursor: Int) -> Int? {
        let mask = old.capacity - 1
        var i = id.hashCode & mask
        while true {
            let slot = old.slots + i
            if slot.pointee.isEmpty { return nil }
            if slot.pointee.isLive && i >= cursor && slot.pointee.id == id { return i }
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
        let moved = takeFromOld(id)
        let slots = storage.slots
        let mask = storage.capacity - 1
        var i = id.hashCode & mask
        while true {
            if !slots[i].isLive {
                slots[i] = Slot(id: id, location: location)
                storage.hints[i] = hint
                storage.count += 1
                return moved
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
        if let gone = takeFromOld(id) { return gone }
        let slots = storage.slots
        let mask = storage.capacity - 1
        var hole = id.hashCode & mask
        while slots[hole].id != id { hole = (hole + 1) & mask }
        let old = slots[hole].location
        var next = (hole + 1) & mask
        while slots[next].isLive {
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
        slots[hole] = .empty
        storage.hints[hole] = RowListStorage.noHint
        storage.count -= 1
        return old
    }

    /// Calls `body` with every identity and its location, in no particular order.
    func forEachEntry(_ body: (ItemID, TableIndex.Location) throws -> Void) rethrows {
        let slots = storage.slots
        for i in 0..<storage.capacity where slots[i].isLive {
            try body(slots[i].id, slots[i].location)
        }
        guard let old else { return }
        for i in cursor..<old.capacity where old.slots[i].isLive {
            try body(old.slots[i].id, old.slots[i].location)
        }
    }

    /// While the table grows: marks `id`'s slot in the old storage gone and returns its location,
    /// if it is there (the caller stores or drops it in the new storage).
    private mutating func takeFromOld(_ id: ItemID) -> TableIndex.Location? {
        guard let old, let at = Self.liveSlot(of: id, in: old, from: cursor) else { return nil }
        let location = old.slots[at].location
        old.slots[at] = .gone
        old.count -= 1
        return location
    }

    /// Copies the storage if another table shares it, starts growing when `growing` and an insert
    /// would pass three quarters full, and moves the next `migrationStep` old slots while growing.
    private mutating func makeUnique(growing: Bool) {
        if !isKnownUniquelyReferenced(&storage) || (old != nil && !isKnownUniquelyReferenced(&old)) {
            // Shared with a copy: a copy of the live entries, all in one storage (O(n) either way).
            rehash(into: Storage(capacity: storage.capacity))
        }
        if old != nil {
            migrate(Self.migrationStep)
        } else if growing && (storage.count + 1) * 4 > storage.capacity * 3 {
            old = storage
            cursor = 0
            storage = Storage(capacity: storage.capacity * 2, lazily: true)
            migrate(Self.migrationStep)
        }
    }

    /// Moves the entries of the next `slots` old slots into the storage; ends the growth after the
    /// last.
    private mutating func migrate(_ slots: Int) {
        guard let old else { return }
        let end = min(old.capacity, cursor + slots)
        for i in cursor..<end where old.slots[i].isLive {
            place(old.slots[i], hint: old.hints[i], in: storage)
            old.count -= 1
        }
        cursor = end
        if cursor == old.capacity { self.old = nil }
    }

    /// Puts every live entry of the storage and of the old one into `fresh`, which becomes the
    /// storage, and ends any growth.
    private mutating func rehash(into fresh: Storage) {
        let current = storage
        for i in 0..<current.capacity where current.slots[i].isLive {
            place(current.slots[i], hint: current.hints[i], in: fresh)
        }
        if let old {
            for i in cursor..<old.capacity where old.slots[i].isLive {
                place(old.slots[i], hint: old.hints[i], in: fresh)
            }
        }
        storage = fresh
        old = nil
        cursor = 0
    }

    /// Puts `slot`, an identity `storage` does not hold, into the first empty slot of its run.
    private func place(_ slot: Slot, hint: UInt32, in storage: Storage) {
        let mask = storage.capacity - 1
        var j = slot.id.hashCode & mask
        while storage.slots[j].isLive { j = (j + 1) & mask }
        storage.slots[j] = slot
        storage.hints[j] = hint
        storage.count += 1
    }
}
