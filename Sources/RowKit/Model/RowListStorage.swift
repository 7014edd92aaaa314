/// The counted B+-tree behind a `RowList`: rows in leaves of at most ``leafMax``, inner nodes of at
/// most ``fan`` children with running prefixes of their children's row counts, and parent links, so
/// a row's position follows from its leaf in O(log n) without a search from the root.
///
/// Storage is a handful of flat buffers addressed by slot numbers: leaf `s` keeps its identities and
/// rows in `ids[s * leafMax ..< s * leafMax + leafInfo[s].len]` and `rows[...]` (only those elements are
/// initialized), inner node `s` its children and prefixes in `child[s * fan ...]` and
/// `cend[s * fan ...]`. Freed slots are reused. Edits move rows with raw moves (no retain or
/// release of the rows that shift). Owned by exactly one `RowList` while it is mutated (copy on
/// write), hence `@unchecked Sendable`: it is never mutated while shared, and for the same reason
/// its stored properties skip the run-time exclusivity checks (`@exclusivity(unchecked)`).
final class RowListStorage: @unchecked Sendable {
    /// Node sizes. Every list uses ``standard``; the tests build small ones to reach deep trees.
    struct Shape: Sendable {
        /// Most rows in a leaf.
        var leafMax = 128
        /// Fewest rows in a non-root leaf (at most half of `leafMax`).
        var leafMin = 32
        /// Rows per leaf when building.
        var leafFill = 112
        /// Most children of an inner node.
        var fan = 128
        /// Fewest children of a non-root inner node (at most half of `fan`).
        var innerMin = 32
        /// Children per inner node when building.
        var innerFill = 112

        static let standard = Shape()
    }

    /// The parent of the root.
    static let none: Int32 = -1

    /// A node's (or leaf's) size and link to its parent, in one record so a walk up reads one line.
    struct NodeInfo {
        var len: Int32 = 0
        var parent: Int32 = RowListStorage.none
        var place: Int32 = 0
        /// A leaf's epoch: it changes (modulo 2^24) whenever rows move in or out of the leaf's
        /// slots, which makes every hint made for the leaf before invalid (see `hint(ofLeaf:at:)`).
        var epoch: UInt32 = 0
    }

    /// The hint that never holds (see `hint(ofLeaf:at:)`).
    static let noHint = UInt32.max
    /// Leaves whose epoch wrapped around to 0 during the current edit; the edit hands them to its
    /// caller with the leaves whose rows moved, so that the hints made for them are made again.
    @exclusivity(unchecked) private var wrapped: [Int32] = []

    let leafMax: Int
    let leafMin: Int
    let leafFill: Int
    let fan: Int
    let innerMin: Int
    let innerFill: Int

    // Leaves.
    @exclusivity(unchecked) private(set) var ids: UnsafeMutablePointer<ItemID>
    @exclusivity(unchecked) private(set) var rows: UnsafeMutablePointer<AnyRow>
    /// Leaf slots in use or free.
    @exclusivity(unchecked) private(set) var leafSlots = 0
    /// Sixteen bits of each identity's hash, beside `ids`: a leaf's 128 are four cache lines,
    /// searched sixteen at a time.
    @exclusivity(unchecked) private(set) var hashes: UnsafeMutablePointer<UInt16>
    /// The memory behind `ids`, `rows` and `hashes` (see GrowableMemory: a large row storage grows
    /// where it is, without moving its rows).
    @exclusivity(unchecked) private var idMemory: GrowableMemory
    @exclusivity(unchecked) private var rowMemory: GrowableMemory
    @exclusivity(unchecked) private var hashMemory: GrowableMemory
    /// Per leaf slot: its length, parent and index among the parent's children.
    @exclusivity(unchecked) private(set) var leafInfo = Slab<NodeInfo>()
    @exclusivity(unchecked) private var leafCapacity = 0
    @exclusivity(unchecked) private var freeLeaves: ContiguousArray<Int32> = []
    // Inner nodes.
    @exclusivity(unchecked) private(set) var innerSlots = 0
    /// Per inner node slot: its number of children, parent and index among the parent's children.
    @exclusivity(unchecked) private(set) var innerInfo = Slab<NodeInfo>()
    @exclusivity(unchecked) private(set) var child = Slab<Int32>()
    /// Inclusive prefix counts: `cend[s * fan + j]` is the number of rows in children `0...j`.
    @exclusivity(unchecked) private(set) var cend = Slab<Int>()
    @exclusivity(unchecked) private var freeInner: ContiguousArray<Int32> = []

    @exclusivity(unchecked) private(set) var root: Int32 = 0
    @exclusivity(unchecked) private(set) var depth = 0
    @exclusivity(unchecked) private(set) var count = 0

    /// Storage for `leaves` (at least one) leaves, none of them in use.
    private init(shape: Shape, leaves: Int) {
        leafMax = shape.leafMax
        leafMin = shape.leafMin
        leafFill = shape.leafFill
        fan = shape.fan
        innerMin = shape.innerMin
        innerFill = shape.innerFill
        let slots = leaves * shape.leafMax
        let reserving = Self.reserves(slots)
        (idMemory, ids) = Self.memory(for: slots, of: ItemID.self, reserving: reserving)
        (rowMemory, rows) = Self.memory(for: slots, of: AnyRow.self, reserving: reserving)
        (hashMemory, hashes) = Self.hashMemory(for: slots, reserving: reserving)
        leafCapacity = leaves
        leafInfo.grow(to: leaves)
    }

    /// The shape of this tree.
    var shape: Shape {
        Shape(
            leafMax: leafMax, leafMin: leafMin, leafFill: leafFill, fan: fan, innerMin: innerMin, innerFill: innerFill)
    }

    /// An empty tree: one empty leaf.
    convenience init(shape: Shape = .standard) {
        self.init(shape: shape, leaves: 1)
        _ = newLeaf()
    }

    /// A tree of `source`'s rows, in order, built bottom-up in full leaves and nodes.
    convenience init(_ source: some Collection<AnyRow>, shape: Shape = .standard) {
        let n = source.count
        let m = n <= shape.leafMax ? 1 : (n + shape.leafFill - 1) / shape.leafFill
        self.init(shape: shape, leaves: m)
        build(source, leaves: m)
    }

    private func build(_ source: some Collection<AnyRow>, leaves m: Int) {
        let n = source.count
        var iterator = source.makeIterator()
        for q in 0..<m {
            let slot = newLeaf()
            let len = n / m + (q < n % m ? 1 : 0)
            let base = Int(slot) * leafMax
            for k in 0..<len {
                let row = iterator.next()!
                (ids + base + k).initialize(to: row.id)
                (rows + base + k).initialize(to: row)
                hashes[base + k] = row.id.shortHash
            }
            leafInfo[Int(slot)].len = Int32(len)
        }
        count = n
        var level = (0..<m).map { Int32($0) }
        var counts = (0..<m).map { Int(leafInfo[$0].len) }
        while level.count > 1 {
            let t = level.count
            let groups = t <= fan ? 1 : (t + innerFill - 1) / innerFill
            var next: [Int32] = []
            var nextCounts: [Int] = []
            var start = 0
            for q in 0..<groups {
                let len = t / groups + (q < t % groups ? 1 : 0)
                let node = newInner()
                var total = 0
                for i in 0..<len {
                    child[Int(node) * fan + i] = level[start + i]
                    total += counts[start + i]
                    cend[Int(node) * fan + i] = total
                    setParent(of: level[start + i], height: depth, to: node, place: i)
                }
                innerInfo[Int(node)].len = Int32(len)
                next.append(node)
                nextCounts.append(total)
                start += len
            }
            level = next
            counts = nextCounts
            depth += 1
        }
        root = level[0]
    }

    /// A deep copy (retains every row).
    convenience init(copying other: RowListStorage) {
        let size = other.leafCapacity * other.leafMax
        self.init(shape: other.shape, leaves: other.leafCapacity)
        leafSlots = other.leafSlots
        hashes.update(from: other.hashes, count: size)
        leafInfo.free()
        leafInfo = other.leafInfo.copy()
        freeLeaves = other.freeLeaves
        innerSlots = other.innerSlots
        innerInfo = other.innerInfo.copy()
        child = other.child.copy()
        cend = other.cend.copy()
        freeInner = other.freeInner
        root = other.root
        depth = other.depth
        count = other.count
        for slot in 0..<leafSlots {
            let base = slot * leafMax
            let len = Int(leafInfo[slot].len)
            (ids + base).initialize(from: other.ids + base, count: len)
            (rows + base).initialize(from: other.rows + base, count: len)
        }
    }

    deinit {
        for slot in 0..<leafSlots {
            let base = slot * leafMax
            let len = Int(leafInfo[slot].len)
            (ids + base).deinitialize(count: len)
            (rows + base).deinitialize(count: len)
        }
        idMemory.deallocate()
        rowMemory.deallocate()
        hashMemory.deallocate()
        leafInfo.free()
        innerInfo.free()
        child.free()
        cend.free()
    }

    // MARK: - Slots

    private func newLeaf() -> Int32 {
        if let slot = freeLeaves.popLast() {
            leafInfo[Int(slot)].len = 0
            touch(Int(slot))
            return slot
        }
        if leafSlots == leafCapacity {
            let capacity = max(4, leafCapacity * 2)
            let slots = capacity * leafMax
            if idMemory.canGrow(inPlaceTo: slots * MemoryLayout<ItemID>.stride)
                && rowMemory.canGrow(inPlaceTo: slots * MemoryLayout<AnyRow>.stride)
                && hashMemory.canGrow(inPlaceTo: (slots + 16) * MemoryLayout<UInt16>.stride)
            {
                // Where they are: nothing moves, and the new hashes are a mapping's zeros.
                ids = idMemory.base.bindMemory(to: ItemID.self, capacity: slots)
                rows = rowMemory.base.bindMemory(to: AnyRow.self, capacity: slots)
                hashes = hashMemory.base.bindMemory(to: UInt16.self, capacity: slots + 16)
            } else {
                let reserving = Self.reserves(slots)
                let (newIDMemory, newIDs) = Self.memory(for: slots, of: ItemID.self, reserving: reserving)
                let (newRowMemory, newRows) = Self.memory(for: slots, of: AnyRow.self, reserving: reserving)
                let (newHashMemory, newHashes) = Self.hashMemory(for: slots, reserving: reserving)
                for slot in 0..<leafSlots {
                    let base = slot * leafMax
                    let len = Int(leafInfo[slot].len)
                    (newIDs + base).moveInitialize(from: ids + base, count: len)
                    (newRows + base).moveInitialize(from: rows + base, count: len)
                }
                newHashes.update(from: hashes, count: leafSlots * leafMax)
                idMemory.deallocate()
                rowMemory.deallocate()
                hashMemory.deallocate()
                (idMemory, ids) = (newIDMemory, newIDs)
                (rowMemory, rows) = (newRowMemory, newRows)
                (hashMemory, hashes) = (newHashMemory, newHashes)
            }
            leafCapacity = capacity
        }
        leafInfo.grow(to: leafSlots + 1)
        leafInfo[leafSlots] = NodeInfo()
        leafSlots += 1
        return Int32(leafSlots - 1)
    }

    private func freeLeaf(_ slot: Int32) {
        leafInfo[Int(slot)].len = 0
        touch(Int(slot))
        freeLeaves.append(slot)
    }

    /// Moves leaf `slot` to its next epoch (24 bits, so hints keep 8 bits for the index), noting a
    /// wrap to 0: hints made 2^24 epochs ago would hold again, so the caller makes the leaf's hints
    /// again (see `wrapped`).
    private func touch(_ slot: Int) {
        let epoch = (leafInfo[slot].epoch &+ 1) & 0xFF_FFFF
        leafInfo[slot].epoch = epoch
        if epoch == 0 { wrapped.append(Int32(slot)) }
    }

    /// A hint for the row at index `k` of leaf `slot`, for `position(of:inLeaf:hint:)`: the leaf's
    /// epoch and `k`. It holds until rows move in or out of the leaf's slots.
    func hint(ofLeaf slot: Int32, at k: Int) -> UInt32 {
        assert(leafMax < 255 && k < leafMax, "a hint keeps an index below 255")
        return leafInfo[Int(slot)].epoch << 8 | UInt32(k)
    }

    /// The index in leaf `slot` that `hint` gives when it holds, else `nil`.
    func hintedIndex(_ hint: UInt32, inLeaf slot: Int32) -> Int? {
        guard slot >= 0 && Int(slot) < leafSlots else { return nil }
        return Self.index(hint, in: leafInfo[Int(slot)])
    }

    /// The index `hint` gives when it was made in the leaf's current epoch, for an index the leaf
    /// has, else `nil` (`noHint` never holds: its index is 255, and a leaf holds fewer rows).
    @inline(__always)
    private static func index(_ hint: UInt32, in leaf: NodeInfo) -> Int? {
        let k = Int32(hint & 0xFF)
        return hint >> 8 == leaf.epoch && k < leaf.len ? Int(k) : nil
    }

    /// Sets leaf `slot`'s epoch, so that tests reach the wrap to 0 without 2^24 edits.
    func setEpochForTesting(_ epoch: UInt32, ofLeaf slot: Int32) { leafInfo[Int(slot)].epoch = epoch & 0xFF_FFFF }

    private func newInner() -> Int32 {
        if let slot = freeInner.popLast() {
            innerInfo[Int(slot)].len = 0
            return slot
        }
        innerInfo.grow(to: innerSlots + 1)
        child.grow(to: (innerSlots + 1) * fan)
        cend.grow(to: (innerSlots + 1) * fan)
        innerInfo[innerSlots] = NodeInfo()
        innerSlots += 1
        return Int32(innerSlots - 1)
    }

    private func freeInnerNode(_ slot: Int32) {
        innerInfo[Int(slot)].len = 0
        freeInner.append(slot)
    }

    /// Whether the buffers of `slots` slots reserve room to grow in place: when the identities
    /// alone take 2 MiB (about 76,000 rows in built leaves), so that the three buffers, which
    /// must all grow in place or all move, do so together.
    private static func reserves(_ slots: Int) -> Bool {
        slots * MemoryLayout<ItemID>.stride >= LargeAllocation.hugePage
    }

    /// Memory for `count` values of `T`, uninitialized.
    private static func memory<T>(for count: Int, of type: T.Type, reserving: Bool) -> (
        GrowableMemory, UnsafeMutablePointer<T>
    ) {
        let memory = GrowableMemory(byteCount: count * MemoryLayout<T>.stride, reserving: reserving)
        return (memory, memory.base.bindMemory(to: T.self, capacity: count))
    }

    /// A zeroed hash buffer for `count` slots and sixteen more, so a search may read a whole line
    /// past any leaf. Aligned to a cache line (GrowableMemory), so a leaf's hashes (leafMax of them,
    /// a multiple of 32 in every shape but the tests' tiny ones) take whole lines.
    private static func hashMemory(for count: Int, reserving: Bool) -> (GrowableMemory, UnsafeMutablePointer<UInt16>) {
        let (memory, hashes) = memory(for: count + 16, of: UInt16.self, reserving: reserving)
        if !memory.isZeroed { hashes.initialize(repeating: 0, count: count + 16) }
        return (memory, hashes)
    }

    /// Moves `count` slots (identities, rows, hashes) from slot index `source` to `destination`;
    /// the ranges may overlap, and the destination must be uninitialized where the source is not.
    /// Both leaves move to their next epoch.
    @inline(__always)
    private func moveSlots(to destination: Int, from source: Int, count: Int) {
        if count > 0 {  // rows move: the hints of both leaves stop holding (each range is in one leaf)
            touch(destination / leafMax)
            if source / leafMax != destination / leafMax { touch(source / leafMax) }
        }
        (ids + destination).moveInitialize(from: ids + source, count: count)
        (rows + destination).moveInitialize(from: rows + source, count: count)
        (hashes + destination).moveInitialize(from: hashes + source, count: count)
    }

    /// Records that `node` (a leaf when `height` is 0) is child `place` of `parent`.
    private func setParent(of node: Int32, height: Int, to parent: Int32, place: Int) {
        if height == 0 {
            leafInfo[Int(node)].parent = parent
            leafInfo[Int(node)].place = Int32(place)
        } else {
            innerInfo[Int(node)].parent = parent
            innerInfo[Int(node)].place = Int32(place)
        }
    }

    /// Recomputes `cend` of `node` from child `from` on, from its children's counts.
    private func refreshCounts(_ node: Int32, from: Int, height: Int) {
        let base = Int(node) * fan
        var total = from == 0 ? 0 : cend[base + from - 1]
        for j in from..<Int(innerInfo[Int(node)].len) {
            let c = child[base + j]
            total += height == 1 ? Int(leafInfo[Int(c)].len) : totalCount(of: c)
            cend[base + j] = total
        }
    }

    /// The row count of inner node `node`.
    private func totalCount(of node: Int32) -> Int {
        let n = Int(innerInfo[Int(node)].len)
        return n == 0 ? 0 : cend[Int(node) * fan + n - 1]
    }

    // MARK: - Queries

    /// The leaf holding position `i` (`i == count` lands at the end of the last leaf) and the
    /// position inside it.
    func leaf(holding i: Int) -> (slot: Int32, local: Int) {
        var node = root
        var i = i
        let cend = self.cend.base, child = self.child.base, info = innerInfo.base, fan = self.fan
        for _ in 0..<depth {
            let base = Int(node) * fan
            // The first child whose prefix count passes i (the last child when none does): a
            // binary search over the node's prefixes.
            var j = 0
            var span = Int(info[Int(node)].len)
            while span > 1 {
                let half = span / 2
                if cend[base + j + half - 1] <= i { j += half }
                span -= half
            }
            if j > 0 { i -= cend[base + j - 1] }
            node = child[base + j]
        }
        return (node, i)
    }

    /// The row at position `i` (`0 <= i < count`).
    func row(at i: Int) -> AnyRow {
        let (slot, local) = leaf(holding: i)
        return rows[Int(slot) * leafMax + local]
    }

    /// The position of the row with identity `id` in leaf `slot`, which must hold it (the
    /// model's index guarantees that): its index in the leaf plus, on every level up, the rows of
    /// the siblings before.
    ///
    /// The index in the leaf is `hint`'s when the hint holds (`hint(ofLeaf:at:)` made it in the
    /// leaf's current epoch): then the lookup reads only the leaf's record and its ancestors'
    /// counts, no row of the leaf. Otherwise the leaf is searched by its short hashes, and found
    /// by them alone when exactly one matches (almost always: two rows of a leaf share a 16-bit
    /// hash about once in 500 leaves); only then are identities compared.
    func position(of id: ItemID, inLeaf slot: Int32, hint: UInt32) -> Int? {
        guard slot >= 0 && Int(slot) < leafSlots else { return nil }
        let leaf = leafInfo[Int(slot)]
        let base = Int(slot) * leafMax
        let len = Int(leaf.len)
        let found = Self.index(hint, in: leaf) ?? search(for: id, base: base, count: len)
        guard found >= 0 else { return nil }
        assert(ids[base + found] == id, "leaf \(slot) does not hold \(id)")
        var position = found
        var place = Int(leaf.place)
        var node = leaf.parent
        let cend = self.cend.base, info = innerInfo.base, fan = self.fan
        while node != Self.none {
            if place > 0 { position += cend[Int(node) * fan + place - 1] }
            let up = info[Int(node)]
            place = Int(up.place)
            node = up.parent
        }
        return position
    }

    /// The index of `id` among the `count` rows from slot index `base`, or -1: by the short hashes
    /// sixteen at a time, then by identities when several share the short hash.
    private func search(for id: ItemID, base: Int, count len: Int) -> Int {
        let target = SIMD16<UInt16>(repeating: id.shortHash)
        let laneBits = SIMD16<UInt16>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
        var found = -1
        var matches = 0
        var chunk = 0
        while chunk < len {
            // Sixteen hashes at once; only a chunk with a match is turned into a bit mask of the
            // lanes that match (lanes past the leaf's end never count).
            let lanes = UnsafeRawPointer(hashes + base + chunk).loadUnaligned(as: SIMD16<UInt16>.self)
            let equal = lanes .== target
            if any(equal) {
                var mask = SIMD16<UInt16>(repeating: 0).replacing(with: laneBits, where: equal).wrappedSum()
                if len - chunk < 16 { mask &= UInt16(truncatingIfNeeded: (1 << (len - chunk)) - 1) }
                if mask != 0 {
                    if found < 0 { found = chunk + mask.trailingZeroBitCount }
                    matches += mask.nonzeroBitCount
                }
            }
            chunk += 16
        }
        if matches > 1 {  // several rows share the short hash: compare identities
            found = -1
            for k in 0..<len where hashes[base + k] == id.shortHash && ids[base + k] == id {
                found = k
                break
            }
        }
        return found
    }

    /// Calls `body` with every leaf's slot and identities, leaves in order.
    func forEachLeaf(_ body: (Int32, UnsafeBufferPointer<ItemID>) throws -> Void) rethrows {
        var position = 0
        while position < count {
            let (slot, _) = leaf(holding: position)
            let len = Int(leafInfo[Int(slot)].len)
            try body(slot, UnsafeBufferPointer(start: ids + Int(slot) * leafMax, count: len))
            position += len
        }
        if count == 0 { try body(root, UnsafeBufferPointer(start: ids, count: 0)) }
    }

    /// The rows of leaf `slot`.
    func rows(inLeaf slot: Int32) -> UnsafeBufferPointer<AnyRow> {
        UnsafeBufferPointer(start: rows + Int(slot) * leafMax, count: Int(leafInfo[Int(slot)].len))
    }

    /// The identities of leaf `slot`.
    func ids(inLeaf slot: Int32) -> UnsafeBufferPointer<ItemID> {
        UnsafeBufferPointer(start: ids + Int(slot) * leafMax, count: Int(leafInfo[Int(slot)].len))
    }

    // MARK: - Edits

    /// Adds `delta` to the counts on the path from leaf `slot` up.
    private func adjustCounts(fromLeaf slot: Int32, by delta: Int) {
        var place = Int(leafInfo[Int(slot)].place)
        var node = leafInfo[Int(slot)].parent
        let cend = self.cend.base, info = innerInfo.base, fan = self.fan
        while node != Self.none {
            let base = Int(node) * fan
            for j in place..<Int(info[Int(node)].len) { cend[base + j] += delta }
            place = Int(innerInfo[Int(node)].place)
            node = innerInfo[Int(node)].parent
        }
        count += delta
    }

    /// Replaces the row at position `i` and returns the old one and the leaf.
    func replace(at i: Int, with row: AnyRow) -> (old: AnyRow, leaf: Int32) {
        let (slot, local) = leaf(holding: i)
        let at = Int(slot) * leafMax + local
        let old = rows[at]
        rows[at] = row
        ids[at] = row.id
        hashes[at] = row.id.shortHash
        return (old, slot)
    }

    /// Inserts `row` at position `i` and returns the leaf it went to. Leaves whose rows moved to
    /// another slot (a split's new leaf) are appended to `moved`.
    func insert(_ row: AnyRow, at i: Int, moved: inout [Int32]) -> Int32 {
        var (slot, local) = leaf(holding: i)
        if Int(leafInfo[Int(slot)].len) == leafMax {
            let right = splitLeaf(slot)
            moved.append(right)
            let left = Int(leafInfo[Int(slot)].len)
            if local > left {
                local -= left
                slot = right
            }
        }
        let base = Int(slot) * leafMax
        let len = Int(leafInfo[Int(slot)].len)
        moveSlots(to: base + local + 1, from: base + local, count: len - local)
        (ids + base + local).initialize(to: row.id)
        (rows + base + local).initialize(to: row)
        hashes[base + local] = row.id.shortHash
        leafInfo[Int(slot)].len = Int32(len + 1)
        adjustCounts(fromLeaf: slot, by: 1)
        takeWrapped(into: &moved)
        return slot
    }

    /// Appends the leaves whose epoch wrapped during this edit to `moved`.
    private func takeWrapped(into moved: inout [Int32]) {
        guard !wrapped.isEmpty else { return }
        moved.append(contentsOf: wrapped)
        wrapped.removeAll()
    }

    /// Splits full leaf `slot` in halves and returns the new right leaf, linked after it (its
    /// ancestors may split in turn); every count on both leaves' paths is recomputed.
    private func splitLeaf(_ slot: Int32) -> Int32 {
        let right = newLeaf()
        let len = Int(leafInfo[Int(slot)].len)
        let keep = len / 2
        moveSlots(to: Int(right) * leafMax, from: Int(slot) * leafMax + keep, count: len - keep)
        leafInfo[Int(slot)].len = Int32(keep)
        leafInfo[Int(right)].len = Int32(len - keep)
        insertChild(right, height: 0, after: slot)
        refreshCounts(upFromLeaf: slot)
        refreshCounts(upFromLeaf: right)
        return right
    }

    /// Recomputes, on every node from leaf `slot`'s parent up, the counts from the child on the
    /// path on (after a structural edit: callers refresh the leftmost changed path first).
    private func refreshCounts(upFromLeaf slot: Int32) {
        var place = Int(leafInfo[Int(slot)].place)
        var node = leafInfo[Int(slot)].parent
        var height = 1
        while node != Self.none {
            refreshCounts(node, from: place, height: height)
            place = Int(innerInfo[Int(node)].place)
            node = innerInfo[Int(node)].parent
            height += 1
        }
    }

    /// Links `node` (at `height`) into the tree right after its sibling `left`: into their parent,
    /// split first when full, or under a new root when `left` is the root. Counts are left to
    /// `refreshCounts(upFromLeaf:)`, except in the nodes this creates.
    private func insertChild(_ node: Int32, height: Int, after left: Int32) {
        var parent = height == 0 ? leafInfo[Int(left)].parent : innerInfo[Int(left)].parent
        if parent == Self.none {
            let top = newInner()
            child[Int(top) * fan] = left
            child[Int(top) * fan + 1] = node
            innerInfo[Int(top)].len = 2
            setParent(of: left, height: height, to: top, place: 0)
            setParent(of: node, height: height, to: top, place: 1)
            innerInfo[Int(top)].parent = Self.none
            innerInfo[Int(top)].place = 0
            refreshCounts(top, from: 0, height: height + 1)
            root = top
            depth += 1
            return
        }
        if Int(innerInfo[Int(parent)].len) == fan {
            splitInner(parent, height: height + 1)
            parent = height == 0 ? leafInfo[Int(left)].parent : innerInfo[Int(left)].parent
        }
        let place = Int(height == 0 ? leafInfo[Int(left)].place : innerInfo[Int(left)].place)
        let base = Int(parent) * fan
        let n = Int(innerInfo[Int(parent)].len)
        var j = n
        while j > place + 1 {
            child[base + j] = child[base + j - 1]
            setParent(of: child[base + j], height: height, to: parent, place: j)
            j -= 1
        }
        child[base + place + 1] = node
        setParent(of: node, height: height, to: parent, place: place + 1)
        innerInfo[Int(parent)].len = Int32(n + 1)
        refreshCounts(parent, from: place, height: height + 1)
    }

    /// Splits full inner node `node` (at `height`) in halves, linking the right half after it.
    private func splitInner(_ node: Int32, height: Int) {
        let right = newInner()
        let n = Int(innerInfo[Int(node)].len)
        let keep = n / 2
        for j in keep..<n {
            let c = child[Int(node) * fan + j]
            child[Int(right) * fan + j - keep] = c
            setParent(of: c, height: height - 1, to: right, place: j - keep)
        }
        innerInfo[Int(node)].len = Int32(keep)
        innerInfo[Int(right)].len = Int32(n - keep)
        refreshCounts(right, from: 0, height: height)
        insertChild(right, height: height, after: node)
    }

    /// Removes and returns the row at position `i`. Leaves whose rows moved to another slot (rows
    /// taken in from a neighbour) are appended to `moved`.
    func remove(at i: Int, moved: inout [Int32]) -> AnyRow {
        let (slot, local) = leaf(holding: i)
        let base = Int(slot) * leafMax
        let len = Int(leafInfo[Int(slot)].len)
        (ids + base + local).deinitialize(count: 1)
        let row = (rows + base + local).move()
        moveSlots(to: base + local, from: base + local + 1, count: len - local - 1)
        leafInfo[Int(slot)].len = Int32(len - 1)
        adjustCounts(fromLeaf: slot, by: -1)
        if len - 1 < leafMin && depth > 0 { rebalanceLeaf(slot, moved: &moved) }
        takeWrapped(into: &moved)
        return row
    }

    /// Refills underfull leaf `slot` from a sibling: merges the two when they fit in one leaf,
    /// otherwise moves rows over until both are at least half the minimum.
    private func rebalanceLeaf(_ slot: Int32, moved: inout [Int32]) {
        let parent = leafInfo[Int(slot)].parent
        let place = Int(leafInfo[Int(slot)].place)
        let n = Int(innerInfo[Int(parent)].len)
        let (a, b) =
            place + 1 < n
            ? (slot, child[Int(parent) * fan + place + 1])
            : (child[Int(parent) * fan + place - 1], slot)
        let la = Int(leafInfo[Int(a)].len)
        let lb = Int(leafInfo[Int(b)].len)
        let baseA = Int(a) * leafMax
        let baseB = Int(b) * leafMax
        if la + lb <= leafMax {
            moveSlots(to: baseA + la, from: baseB, count: lb)
            leafInfo[Int(a)].len = Int32(la + lb)
            freeLeaf(b)
            moved.append(a)
            removeChild(at: Int(leafInfo[Int(b)].place), of: parent, height: 1)
            return
        }
        let target = (la + lb) / 2
        if la < target {
            let take = target - la
            moveSlots(to: baseA + la, from: baseB, count: take)
            moveSlots(to: baseB, from: baseB + take, count: lb - take)
            moved.append(a)
        } else {
            let give = la - target
            moveSlots(to: baseB + give, from: baseB, count: lb)
            moveSlots(to: baseB, from: baseA + target, count: give)
            moved.append(b)
        }
        leafInfo[Int(a)].len = Int32(target)
        leafInfo[Int(b)].len = Int32(la + lb - target)
        refreshCounts(parent, from: Int(leafInfo[Int(a)].place), height: 1)
    }

    /// Removes child entry `place` of `node` (at `height`, the child already emptied and freed),
    /// then refills `node` if it became underfull, or shrinks the root.
    private func removeChild(at place: Int, of node: Int32, height: Int) {
        let base = Int(node) * fan
        let n = Int(innerInfo[Int(node)].len)
        for j in place..<(n - 1) {
            child[base + j] = child[base + j + 1]
            setParent(of: child[base + j], height: height - 1, to: node, place: j)
        }
        innerInfo[Int(node)].len = Int32(n - 1)
        refreshCounts(node, from: place == 0 ? 0 : place - 1, height: height)
        if node == root {
            if n - 1 == 1 {  // the root keeps one child: that child is the root now
                let only = child[base]
                setParent(of: only, height: height - 1, to: Self.none, place: 0)
                freeInnerNode(node)
                root = only
                depth -= 1
            }
            return
        }
        if n - 1 < innerMin { rebalanceInner(node, height: height) }
    }

    /// Refills underfull inner node `node` (at `height`) from a sibling, as `rebalanceLeaf` does.
    private func rebalanceInner(_ node: Int32, height: Int) {
        let parent = innerInfo[Int(node)].parent
        let place = Int(innerInfo[Int(node)].place)
        let n = Int(innerInfo[Int(parent)].len)
        let (a, b) =
            place + 1 < n
            ? (node, child[Int(parent) * fan + place + 1])
            : (child[Int(parent) * fan + place - 1], node)
        let la = Int(innerInfo[Int(a)].len)
        let lb = Int(innerInfo[Int(b)].len)
        let baseA = Int(a) * fan
        let baseB = Int(b) * fan
        if la + lb <= fan {
            for j in 0..<lb {
                child[baseA + la + j] = child[baseB + j]
                setParent(of: child[baseA + la + j], height: height - 1, to: a, place: la + j)
            }
            innerInfo[Int(a)].len = Int32(la + lb)
            refreshCounts(a, from: la, height: height)
            freeInnerNode(b)
            removeChild(at: Int(innerInfo[Int(b)].place), of: parent, height: height + 1)
            return
        }
        let target = (la + lb) / 2
        if la < target {
            let take = target - la
            for j in 0..<take {
                child[baseA + la + j] = child[baseB + j]
                setParent(of: child[baseA + la + j], height: height - 1, to: a, place: la + j)
            }
            for j in 0..<(lb - take) {
                child[baseB + j] = child[baseB + j + take]
                setParent(of: child[baseB + j], height: height - 1, to: b, place: j)
            }
        } else {
            let give = la - target
            for j in stride(from: lb - 1, through: 0, by: -1) {
                child[baseB + j + give] = child[baseB + j]
                setParent(of: child[baseB + j + give], height: height - 1, to: b, place: j + give)
            }
            for j in 0..<give {
                child[baseB + j] = child[baseA + target + j]
                setParent(of: child[baseB + j], height: height - 1, to: b, place: j)
            }
        }
        innerInfo[Int(a)].len = Int32(target)
        innerInfo[Int(b)].len = Int32(la + lb - target)
        refreshCounts(a, from: 0, height: height)
        refreshCounts(b, from: 0, height: height)
        refreshCounts(parent, from: Int(innerInfo[Int(a)].place), height: height + 1)
    }

    // MARK: - Invariants

    /// The first broken invariant (counts, prefixes, parent links, fill bounds, equal leaf depth,
    /// identities matching their rows, slot bookkeeping), or `nil`.
    ///
    /// - Complexity: O(n).
    func violation() -> String? {
        var liveLeaves = 0
        var liveInner = 0
        func check(_ node: Int32, height: Int, parent: Int32, place: Int) -> (count: Int, problem: String?) {
            if height == 0 {
                liveLeaves += 1
                let len = Int(leafInfo[Int(node)].len)
                if len > leafMax || (parent != Self.none && len < leafMin) {
                    return (0, "leaf \(node) holds \(len) rows")
                }
                if leafInfo[Int(node)].parent != parent || Int(leafInfo[Int(node)].place) != place {
                    return (0, "leaf \(node) has a wrong parent link")
                }
                let base = Int(node) * leafMax
                for k in 0..<len where ids[base + k] != rows[base + k].id || hashes[base + k] != ids[base + k].shortHash
                {
                    return (0, "leaf \(node) keeps a stale identity or hash at \(k)")
                }
                return (len, nil)
            }
            liveInner += 1
            let n = Int(innerInfo[Int(node)].len)
            if n > fan || n < (parent == Self.none ? 2 : innerMin) {
                return (0, "node \(node) has \(n) children")
            }
            if innerInfo[Int(node)].parent != parent || Int(innerInfo[Int(node)].place) != place {
                return (
                    0,
                    "node \(node) at height \(height) links to \(innerInfo[Int(node)].parent) place \(innerInfo[Int(node)].place), is child \(place) of \(parent) (root \(root), depth \(depth))"
                )
            }
            var total = 0
            for j in 0..<n {
                let (c, problem) = check(child[Int(node) * fan + j], height: height - 1, parent: node, place: j)
                if let problem { return (0, problem) }
                total += c
                if cend[Int(node) * fan + j] != total { return (0, "node \(node) has a wrong count prefix at \(j)") }
            }
            return (total, nil)
        }
        let (total, problem) = check(root, height: depth, parent: Self.none, place: 0)
        if let problem { return problem }
        if total != count { return "count \(count), rows \(total)" }
        if liveLeaves + freeLeaves.count != leafSlots { return "leaf slots leaked" }
        if liveInner + freeInner.count != innerSlots { return "node slots leaked" }
        return nil
    }
}
