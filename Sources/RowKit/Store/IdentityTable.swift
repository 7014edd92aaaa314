/// Row identity → location, for the model's identity index: an open-addressing hash table with
/// linear probing whose slots hold everything a lookup reads side by side: the identity's two
/// words, the low half of its cached hash, its location and its position hint, 32 bytes, two to
/// a cache line and never across two. So a lookup that misses the cache waits for one line on one
/// page, where a `Dictionary` reads its keys and its values in two arrays (and a table with the
/// hints in an array of their own read two lines on two pages: two translations to wait for when
/// the pages are small). The hash picks the slot; removal shifts the following entries back
/// instead of leaving tombstones. A value: copies share storage until one changes (copy on
/// write).
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
    /// One slot: an identity, its location and position hint, or empty.
    ///
    /// All of an empty slot's bytes may be zero (and a fresh mapping's are), so a new storage from
    /// the system needs no pass that writes its empty slots: pages are touched only as entries
    /// arrive. That is why the key is stored plus one.
    struct Slot {
        /// The identity's words (`ItemID.bits`, `ItemID.box`).
        var bits: Int
        var box: ItemIDBox?
        /// The low 32 bits of the identity's hash: the slot's home in a table of up to 2^32 slots,
        /// and the first thing a probe compares.
        var hash: UInt32
        /// The location's section key plus one: 0 in an empty slot, -1 in a slot of the old
        /// storage whose entry was updated or removed while the table grew (probes go on past it,
        /// and it never matches).
        var keyPlusOne: Int32
        var leaf: Int32
        /// The position hint (`RowListStorage.hint(ofLeaf:at:)`).
        var hint: UInt32

        init(id: ItemID, location: TableIndex.Location, hint: UInt32) {
            bits = id.bits
            box = id.box
            hash = UInt32(truncatingIfNeeded: id.hashCode)
            keyPlusOne = location.key + 1
            leaf = location.leaf
            self.hint = hint
        }

        /// A slot marked gone.
        static let gone = Slot(
            id: IdentityTable.placeholder, location: TableIndex.Location(key: -2, leaf: -1), hint: RowListStorage.noHint
        )
        /// An empty slot.
        static let empty = Slot(
            id: IdentityTable.placeholder, location: TableIndex.Location(key: -1, leaf: 0), hint: RowListStorage.noHint)

        var location: TableIndex.Location {
            get { TableIndex.Location(key: keyPlusOne - 1, leaf: leaf) }
            set {
                keyPlusOne = newValue.key + 1
                leaf = newValue.leaf
            }
        }

        /// The identity (its full hash is the box's, or the integer's own).
        var id: ItemID { ItemID(bits: bits, box: box) }

        var isEmpty: Bool { keyPlusOne == 0 }
        var isLive: Bool { keyPlusOne > 0 }

        /// Whether the slot holds `id`, whose hash's low 32 bits are `hash`: as `ItemID`'s `==`
        /// decides, with the low half of the hash where it compares the whole (equal values have
        /// equal hashes, so this only shortcuts fewer unequal pairs).
        @inline(__always)
        func holds(_ id: ItemID, hash: UInt32) -> Bool {
            guard self.hash == hash else { return false }
            if box === id.box { return bits == id.bits }
            return ItemID.differentBoxesEqual(self.id, id)
        }
    }

    /// The slots; shared by copies until one of them changes.
    final class Storage: @unchecked Sendable {
        /// A power of two, at most 2^32 (a slot keeps 32 bits of the hash).
        let capacity: Int
        let slots: UnsafeMutablePointer<Slot>
        var count = 0
        private let memory: LargeAllocation

        /// Empty slots. `lazily`: a mapping's pages are left for the entries to touch (see below).
        init(capacity: Int, lazily: Bool = false) {
            precondition(capacity <= 1 << 32, "an identity table holds fewer than 3 * 2^30 identities")
            self.capacity = capacity
            // Aligned to a cache line, so no 32-byte slot straddles two lines (a lookup that misses
            // the cache then waits for one line, not two); a large table on huge pages where the
            // system has them (LargeAllocation).
            let byteCount = capacity * MemoryLayout<Slot>.stride
            memory = LargeAllocation(byteCount: byteCount)
            // Zero bytes are empty slots. A mapping is zero already: the storage a growing table
            // moves into leaves its pages to the entries, because a storage of 151 MB (2^22 slots)
            // written whole at once took 28 ms, and 317 ms when the kernel first had to find huge
            // pages for it, all in the one insert that started the growth. Any other storage is
            // written whole when made, whose cost the O(n) work that fills it hides: lookups in a
            // model of 1,000,000 rows took about 3% less (the median of 16 interleaved pairs) with
            // its pages touched in order before the build than with them touched by the build's
            // inserts.
            if !(lazily && memory.isZeroed) {
                memory.base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
            }
            slots = memory.base.bindMemory(to: Slot.self, capacity: capacity)
        }

        deinit {
            slots.deinitialize(count: capacity)
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
        let slots = storage.slots
        let mask = storage.capacity - 1
        let hash = UInt32(truncatingIfNeeded: id.hashCode)
        var i = Int(hash) & mask
        while true {
            // Read in place: a copy of the slot would retain (atomically) a boxed identity.
            let slot = slots + i
            if !slot.pointee.isLive { break }
            if slot.pointee.holds(id, hash: hash) { return (slot.pointee.location, slot.pointee.hint) }
            i = (i + 1) & mask
        }
        return old == nil ? nil : oldEntry(id)
    }

    /// `entry(_:)` in the old storage while the table grows: out of line, so that the lookup's
    /// usual path (found, or not there, with no growth going on) stays as short as it was.
    @inline(never)
    private func oldEntry(_ id: ItemID) -> (location: TableIndex.Location, hint: UInt32)? {
        guard let old, let at = Self.liveSlot(of: id, in: old, from: cursor) else { return nil }
        return (old.slots[at].location, old.slots[at].hint)
    }

    /// The slot of `id` in the old storage `old`, if it is there and counts (at or after `cursor`,
    /// not marked gone). Slots before the cursor still hold what was moved, so probe runs stay
    /// unbroken; only an empty slot ends one.
    private static func liveSlot(of id: ItemID, in old: Storage, from cursor: Int) -> Int? {
        let mask = old.capacity - 1
        let hash = UInt32(truncatingIfNeeded: id.hashCode)
        var i = Int(hash) & mask
        while true {
            let slot = old.slots + i
            if slot.pointee.isEmpty { return nil }
            if slot.pointee.isLive && i >= cursor && slot.pointee.holds(id, hash: hash) { return i }
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
        let hash = UInt32(truncatingIfNeeded: id.hashCode)
        var i = Int(hash) & mask
        while true {
            if !slots[i].isLive {
                slots[i] = Slot(id: id, location: location, hint: hint)
                storage.count += 1
                return moved
            }
            if slots[i].holds(id, hash: hash) {
                let old = slots[i].location
                slots[i].location = location
                slots[i].hint = hint
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
        let hash = UInt32(truncatingIfNeeded: id.hashCode)
        var hole = Int(hash) & mask
        while !slots[hole].holds(id, hash: hash) { hole = (hole + 1) & mask }
        let old = slots[hole].location
        var next = (hole + 1) & mask
        while slots[next].isLive {
            let home = Int(slots[next].hash) & mask
            // The entry at `next` may fill the hole unless its home lies cyclically in (hole, next].
            let stays = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
            if !stays {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = .empty
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
            place(old.slots[i], in: storage)
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
            place(current.slots[i], in: fresh)
        }
        if let old {
            for i in cursor..<old.capacity where old.slots[i].isLive {
                place(old.slots[i], in: fresh)
            }
        }
        storage = fresh
        old = nil
        cursor = 0
    }

    /// Puts `slot`, an identity `storage` does not hold, into the first empty slot of its run.
    private func place(_ slot: Slot, in storage: Storage) {
        let mask = storage.capacity - 1
        var j = Int(slot.hash) & mask
        while storage.slots[j].isLive { j = (j + 1) & mask }
        storage.slots[j] = slot
        storage.count += 1
    }
}
