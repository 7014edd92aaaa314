/// The counted B+-tree behind a `RowList`: rows in leaves of at most ``leafMax``, inner nodes of at
/// most ``fan`` children with running prefixes of their children's row counts, and parent links, so
/// a row's position follows from its leaf in O(log n) without a search from the root.
///
/// Storage is a handful of flat buffers addressed by slot numbers: leaf `s` keeps its identities and
/// rows in `ids[s * leafMax ..< s * leafMax + leafLen[s]]` and `rows[...]` (only those elements are
/// initialized), inner node `s` its children and prefixes in `child[s * fan ...]` and
/// `cend[s * fan ...]`. Freed slots are reused. Edits move rows with raw moves (no retain or
/// release of the rows that shift). Owned by exactly one `RowList` while it is mutated (copy on
/// write), hence `@unchecked Sendable`: it is never mutated while shared.
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

    let leafMax: Int
    let leafMin: Int
    let leafFill: Int
    let fan: Int
    let innerMin: Int
    let innerFill: Int

    // Leaves.
    private(set) var ids: UnsafeMutablePointer<ItemID>
    private(set) var rows: UnsafeMutablePointer<AnyRow>
    private(set) var leafLen: ContiguousArray<Int32> = []
    private(set) var leafParent: ContiguousArray<Int32> = []
    /// The leaf's index among its parent's children.
    private(set) var leafPlace: ContiguousArray<Int32> = []
    private var leafCapacity = 0
    private var freeLeaves: ContiguousArray<Int32> = []
    // Inner nodes.
    private(set) var innerLen: ContiguousArray<Int32> = []
    private(set) var child: ContiguousArray<Int32> = []
    /// Inclusive prefix counts: `cend[s * fan + j]` is the number of rows in children `0...j`.
    private(set) var cend: ContiguousArray<Int> = []
    private(set) var innerParent: ContiguousArray<Int32> = []
    private(set) var innerPlace: ContiguousArray<Int32> = []
    private var freeInner: ContiguousArray<Int32> = []

    private(set) var root: Int32 = 0
    private(set) var depth = 0
    private(set) var count = 0

    private init(shape: Shape, ids: UnsafeMutablePointer<ItemID>, rows: UnsafeMutablePointer<AnyRow>, leaves: Int) {
        leafMax = shape.leafMax
        leafMin = shape.leafMin
        leafFill = shape.leafFill
        fan = shape.fan
        innerMin = shape.innerMin
        innerFill = shape.innerFill
        self.ids = ids
        self.rows = rows
        leafCapacity = leaves
    }

    /// The shape of this tree.
    var shape: Shape {
        Shape(leafMax: leafMax, leafMin: leafMin, leafFill: leafFill, fan: fan, innerMin: innerMin, innerFill: innerFill)
    }

    /// An empty tree: one empty leaf.
    convenience init(shape: Shape = .standard) {
        self.init(shape: shape, ids: .allocate(capacity: shape.leafMax), rows: .allocate(capacity: shape.leafMax), leaves: 1)
        leafLen = [0]
        leafParent = [Self.none]
        leafPlace = [0]
    }

    /// A tree of `source`'s rows, in order, built bottom-up in full leaves and nodes.
    convenience init(_ source: some Collection<AnyRow>, shape: Shape = .standard) {
        let n = source.count
        let m = n <= shape.leafMax ? 1 : (n + shape.leafFill - 1) / shape.leafFill
        self.init(shape: shape, ids: .allocate(capacity: m * shape.leafMax), rows: .allocate(capacity: m * shape.leafMax), leaves: m)
        build(source, leaves: m)
    }

    private func build(_ source: some Collection<AnyRow>, leaves m: Int) {
        let n = source.count
        leafLen.reserveCapacity(m)
        leafParent = ContiguousArray(repeating: Self.none, count: m)
        leafPlace = ContiguousArray(repeating: 0, count: m)
        var iterator = source.makeIterator()
        for q in 0..<m {
            let len = n / m + (q < n % m ? 1 : 0)
            let base = q * leafMax
            for k in 0..<len {
                let row = iterator.next()!
                (ids + base + k).initialize(to: row.id)
                (rows + base + k).initialize(to: row)
            }
            leafLen.append(Int32(len))
        }
        count = n
        var level = (0..<m).map { Int32($0) }
        var counts = (0..<m).map { Int(leafLen[$0]) }
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
                innerLen[Int(node)] = Int32(len)
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
        self.init(shape: other.shape, ids: .allocate(capacity: size), rows: .allocate(capacity: size), leaves: other.leafCapacity)
        leafLen = other.leafLen
        leafParent = other.leafParent
        leafPlace = other.leafPlace
        freeLeaves = other.freeLeaves
        innerLen = other.innerLen
        child = other.child
        cend = other.cend
        innerParent = other.innerParent
        innerPlace = other.innerPlace
        freeInner = other.freeInner
        root = other.root
        depth = other.depth
        count = other.count
        for slot in leafLen.indices {
            let base = slot * leafMax
            let len = Int(leafLen[slot])
            (ids + base).initialize(from: other.ids + base, count: len)
            (rows + base).initialize(from: other.rows + base, count: len)
        }
    }

    deinit {
        for slot in leafLen.indices {
            let base = slot * leafMax
            let len = Int(leafLen[slot])
            (ids + base).deinitialize(count: len)
            (rows + base).deinitialize(count: len)
        }
        ids.deallocate()
        rows.deallocate()
    }

    // MARK: - Slots

    private func newLeaf() -> Int32 {
        if let slot = freeLeaves.popLast() {
            leafLen[Int(slot)] = 0
            return slot
        }
        if leafLen.count == leafCapacity {
            let capacity = max(4, leafCapacity * 2)
            let newIDs = UnsafeMutablePointer<ItemID>.allocate(capacity: capacity * leafMax)
            let newRows = UnsafeMutablePointer<AnyRow>.allocate(capacity: capacity * leafMax)
            for slot in leafLen.indices {
                let base = slot * leafMax
                let len = Int(leafLen[slot])
                (newIDs + base).moveInitialize(from: ids + base, count: len)
                (newRows + base).moveInitialize(from: rows + base, count: len)
            }
            ids.deallocate()
            rows.deallocate()
            ids = newIDs
            rows = newRows
            leafCapacity = capacity
        }
        leafLen.append(0)
        leafParent.append(Self.none)
        leafPlace.append(0)
        return Int32(leafLen.count - 1)
    }

    private func freeLeaf(_ slot: Int32) {
        leafLen[Int(slot)] = 0
        freeLeaves.append(slot)
    }

    private func newInner() -> Int32 {
        if let slot = freeInner.popLast() {
            innerLen[Int(slot)] = 0
            return slot
        }
        innerLen.append(0)
        child.append(contentsOf: repeatElement(0, count: fan))
        cend.append(contentsOf: repeatElement(0, count: fan))
        innerParent.append(Self.none)
        innerPlace.append(0)
        return Int32(innerLen.count - 1)
    }

    private func freeInnerNode(_ slot: Int32) {
        innerLen[Int(slot)] = 0
        freeInner.append(slot)
    }

    /// Records that `node` (a leaf when `height` is 0) is child `place` of `parent`.
    private func setParent(of node: Int32, height: Int, to parent: Int32, place: Int) {
        if height == 0 {
            leafParent[Int(node)] = parent
            leafPlace[Int(node)] = Int32(place)
        } else {
            innerParent[Int(node)] = parent
            innerPlace[Int(node)] = Int32(place)
        }
    }

    /// The row count of child `j` of `node`.
    private func childCount(_ node: Int32, _ j: Int) -> Int {
        let base = Int(node) * fan
        return j == 0 ? cend[base] : cend[base + j] - cend[base + j - 1]
    }

    /// Recomputes `cend` of `node` from child `from` on, from its children's counts.
    private func refreshCounts(_ node: Int32, from: Int, height: Int) {
        let base = Int(node) * fan
        var total = from == 0 ? 0 : cend[base + from - 1]
        for j in from..<Int(innerLen[Int(node)]) {
            let c = child[base + j]
            total += height == 1 ? Int(leafLen[Int(c)]) : totalCount(of: c)
            cend[base + j] = total
        }
    }

    /// The row count of inner node `node`.
    private func totalCount(of node: Int32) -> Int {
        let n = Int(innerLen[Int(node)])
        return n == 0 ? 0 : cend[Int(node) * fan + n - 1]
    }

    // MARK: - Queries

    /// The leaf holding position `i` (`i == count` lands at the end of the last leaf) and the
    /// position inside it.
    func leaf(holding i: Int) -> (slot: Int32, local: Int) {
        var node = root
        var i = i
        cend.withUnsafeBufferPointer { cend in
            child.withUnsafeBufferPointer { child in
                innerLen.withUnsafeBufferPointer { len in
                    for _ in 0..<depth {
                        let base = Int(node) * fan
                        let last = Int(len[Int(node)]) - 1
                        var j = 0
                        while j < last && i >= cend[base + j] { j += 1 }
                        if j > 0 { i -= cend[base + j - 1] }
                        node = child[base + j]
                    }
                }
            }
        }
        return (node, i)
    }

    /// The row at position `i` (`0 <= i < count`).
    func row(at i: Int) -> AnyRow {
        let (slot, local) = leaf(holding: i)
        return rows[Int(slot) * leafMax + local]
    }

    /// The position of the row with identity `id` in leaf `slot`, or `nil` when the leaf does not
    /// hold it: its index in the leaf plus, on every level up, the rows of the siblings before.
    func position(of id: ItemID, inLeaf slot: Int32) -> Int? {
        guard Int(slot) < leafLen.count else { return nil }
        let base = Int(slot) * leafMax
        let len = Int(leafLen[Int(slot)])
        var local = -1
        for k in 0..<len where ids[base + k] == id {
            local = k
            break
        }
        guard local >= 0 else { return nil }
        var position = local
        var place = Int(leafPlace[Int(slot)])
        var node = leafParent[Int(slot)]
        cend.withUnsafeBufferPointer { cend in
            while node != Self.none {
                if place > 0 { position += cend[Int(node) * fan + place - 1] }
                place = Int(innerPlace[Int(node)])
                node = innerParent[Int(node)]
            }
        }
        return position
    }

    /// Calls `body` with every leaf's slot and identities, leaves in order.
    func forEachLeaf(_ body: (Int32, UnsafeBufferPointer<ItemID>) throws -> Void) rethrows {
        var position = 0
        while position < count {
            let (slot, _) = leaf(holding: position)
            let len = Int(leafLen[Int(slot)])
            try body(slot, UnsafeBufferPointer(start: ids + Int(slot) * leafMax, count: len))
            position += len
        }
        if count == 0 { try body(root, UnsafeBufferPointer(start: ids, count: 0)) }
    }

    /// The rows of leaf `slot`.
    func rows(inLeaf slot: Int32) -> UnsafeBufferPointer<AnyRow> {
        UnsafeBufferPointer(start: rows + Int(slot) * leafMax, count: Int(leafLen[Int(slot)]))
    }

    /// The identities of leaf `slot`.
    func ids(inLeaf slot: Int32) -> UnsafeBufferPointer<ItemID> {
        UnsafeBufferPointer(start: ids + Int(slot) * leafMax, count: Int(leafLen[Int(slot)]))
    }

    // MARK: - Edits

    /// Adds `delta` to the counts on the path from leaf `slot` up.
    private func adjustCounts(fromLeaf slot: Int32, by delta: Int) {
        var place = Int(leafPlace[Int(slot)])
        var node = leafParent[Int(slot)]
        cend.withUnsafeMutableBufferPointer { cend in
            while node != Self.none {
                let base = Int(node) * fan
                for j in place..<Int(innerLen[Int(node)]) { cend[base + j] += delta }
                place = Int(innerPlace[Int(node)])
                node = innerParent[Int(node)]
            }
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
        return (old, slot)
    }

    /// Inserts `row` at position `i` and returns the leaf it went to. Leaves whose rows moved to
    /// another slot (a split's new leaf) are appended to `moved`.
    func insert(_ row: AnyRow, at i: Int, moved: inout [Int32]) -> Int32 {
        var (slot, local) = leaf(holding: i)
        if Int(leafLen[Int(slot)]) == leafMax {
            let right = splitLeaf(slot)
            moved.append(right)
            let left = Int(leafLen[Int(slot)])
            if local > left {
                local -= left
                slot = right
            }
        }
        let base = Int(slot) * leafMax
        let len = Int(leafLen[Int(slot)])
        (ids + base + local + 1).moveInitialize(from: ids + base + local, count: len - local)
        (rows + base + local + 1).moveInitialize(from: rows + base + local, count: len - local)
        (ids + base + local).initialize(to: row.id)
        (rows + base + local).initialize(to: row)
        leafLen[Int(slot)] = Int32(len + 1)
        adjustCounts(fromLeaf: slot, by: 1)
        return slot
    }

    /// Splits full leaf `slot` in halves and returns the new right leaf, linked after it (its
    /// ancestors may split in turn); every count on both leaves' paths is recomputed.
    private func splitLeaf(_ slot: Int32) -> Int32 {
        let right = newLeaf()
        let len = Int(leafLen[Int(slot)])
        let keep = len / 2
        (ids + Int(right) * leafMax).moveInitialize(from: ids + Int(slot) * leafMax + keep, count: len - keep)
        (rows + Int(right) * leafMax).moveInitialize(from: rows + Int(slot) * leafMax + keep, count: len - keep)
        leafLen[Int(slot)] = Int32(keep)
        leafLen[Int(right)] = Int32(len - keep)
        insertChild(right, height: 0, after: slot)
        refreshCounts(upFromLeaf: slot)
        refreshCounts(upFromLeaf: right)
        return right
    }

    /// Recomputes, on every node from leaf `slot`'s parent up, the counts from the child on the
    /// path on (after a structural edit: callers refresh the leftmost changed path first).
    private func refreshCounts(upFromLeaf slot: Int32) {
        var place = Int(leafPlace[Int(slot)])
        var node = leafParent[Int(slot)]
        var height = 1
        while node != Self.none {
            refreshCounts(node, from: place, height: height)
            place = Int(innerPlace[Int(node)])
            node = innerParent[Int(node)]
            height += 1
        }
    }

    /// Links `node` (at `height`) into the tree right after its sibling `left`: into their parent,
    /// split first when full, or under a new root when `left` is the root. Counts are left to
    /// `refreshCounts(upFromLeaf:)`, except in the nodes this creates.
    private func insertChild(_ node: Int32, height: Int, after left: Int32) {
        var parent = height == 0 ? leafParent[Int(left)] : innerParent[Int(left)]
        if parent == Self.none {
            let top = newInner()
            child[Int(top) * fan] = left
            child[Int(top) * fan + 1] = node
            innerLen[Int(top)] = 2
            setParent(of: left, height: height, to: top, place: 0)
            setParent(of: node, height: height, to: top, place: 1)
            innerParent[Int(top)] = Self.none
            innerPlace[Int(top)] = 0
            refreshCounts(top, from: 0, height: height + 1)
            root = top
            depth += 1
            return
        }
        if Int(innerLen[Int(parent)]) == fan {
            splitInner(parent, height: height + 1)
            parent = height == 0 ? leafParent[Int(left)] : innerParent[Int(left)]
        }
        let place = Int(height == 0 ? leafPlace[Int(left)] : innerPlace[Int(left)])
        let base = Int(parent) * fan
        let n = Int(innerLen[Int(parent)])
        var j = n
        while j > place + 1 {
            child[base + j] = child[base + j - 1]
            setParent(of: child[base + j], height: height, to: parent, place: j)
            j -= 1
        }
        child[base + place + 1] = node
        setParent(of: node, height: height, to: parent, place: place + 1)
        innerLen[Int(parent)] = Int32(n + 1)
        refreshCounts(parent, from: place, height: height + 1)
    }

    /// Splits full inner node `node` (at `height`) in halves, linking the right half after it.
    private func splitInner(_ node: Int32, height: Int) {
        let right = newInner()
        let n = Int(innerLen[Int(node)])
        let keep = n / 2
        for j in keep..<n {
            let c = child[Int(node) * fan + j]
            child[Int(right) * fan + j - keep] = c
            setParent(of: c, height: height - 1, to: right, place: j - keep)
        }
        innerLen[Int(node)] = Int32(keep)
        innerLen[Int(right)] = Int32(n - keep)
        refreshCounts(right, from: 0, height: height)
        insertChild(right, height: height, after: node)
    }

    /// Removes and returns the row at position `i`. Leaves whose rows moved to another slot (rows
    /// taken in from a neighbour) are appended to `moved`.
    func remove(at i: Int, moved: inout [Int32]) -> AnyRow {
        let (slot, local) = leaf(holding: i)
        let base = Int(slot) * leafMax
        let len = Int(leafLen[Int(slot)])
        (ids + base + local).deinitialize(count: 1)
        let row = (rows + base + local).move()
        (ids + base + local).moveInitialize(from: ids + base + local + 1, count: len - local - 1)
        (rows + base + local).moveInitialize(from: rows + base + local + 1, count: len - local - 1)
        leafLen[Int(slot)] = Int32(len - 1)
        adjustCounts(fromLeaf: slot, by: -1)
        if len - 1 < leafMin && depth > 0 { rebalanceLeaf(slot, moved: &moved) }
        return row
    }

    /// Refills underfull leaf `slot` from a sibling: merges the two when they fit in one leaf,
    /// otherwise moves rows over until both are at least half the minimum.
    private func rebalanceLeaf(_ slot: Int32, moved: inout [Int32]) {
        let parent = leafParent[Int(slot)]
        let place = Int(leafPlace[Int(slot)])
        let n = Int(innerLen[Int(parent)])
        let (a, b) = place + 1 < n
            ? (slot, child[Int(parent) * fan + place + 1])
            : (child[Int(parent) * fan + place - 1], slot)
        let la = Int(leafLen[Int(a)])
        let lb = Int(leafLen[Int(b)])
        let baseA = Int(a) * leafMax
        let baseB = Int(b) * leafMax
        if la + lb <= leafMax {
            (ids + baseA + la).moveInitialize(from: ids + baseB, count: lb)
            (rows + baseA + la).moveInitialize(from: rows + baseB, count: lb)
            leafLen[Int(a)] = Int32(la + lb)
            freeLeaf(b)
            moved.append(a)
            removeChild(at: Int(leafPlace[Int(b)]), of: parent, height: 1)
            return
        }
        let target = (la + lb) / 2
        if la < target {
            let take = target - la
            (ids + baseA + la).moveInitialize(from: ids + baseB, count: take)
            (rows + baseA + la).moveInitialize(from: rows + baseB, count: take)
            (ids + baseB).moveInitialize(from: ids + baseB + take, count: lb - take)
            (rows + baseB).moveInitialize(from: rows + baseB + take, count: lb - take)
            moved.append(a)
        } else {
            let give = la - target
            (ids + baseB + give).moveInitialize(from: ids + baseB, count: lb)
            (rows + baseB + give).moveInitialize(from: rows + baseB, count: lb)
            (ids + baseB).moveInitialize(from: ids + baseA + target, count: give)
            (rows + baseB).moveInitialize(from: rows + baseA + target, count: give)
            moved.append(b)
        }
        leafLen[Int(a)] = Int32(target)
        leafLen[Int(b)] = Int32(la + lb - target)
        refreshCounts(parent, from: Int(leafPlace[Int(a)]), height: 1)
    }

    /// Removes child entry `place` of `node` (at `height`, the child already emptied and freed),
    /// then refills `node` if it became underfull, or shrinks the root.
    private func removeChild(at place: Int, of node: Int32, height: Int) {
        let base = Int(node) * fan
        let n = Int(innerLen[Int(node)])
        for j in place..<(n - 1) {
            child[base + j] = child[base + j + 1]
            setParent(of: child[base + j], height: height - 1, to: node, place: j)
        }
        innerLen[Int(node)] = Int32(n - 1)
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
        let parent = innerParent[Int(node)]
        let place = Int(innerPlace[Int(node)])
        let n = Int(innerLen[Int(parent)])
        let (a, b) = place + 1 < n
            ? (node, child[Int(parent) * fan + place + 1])
            : (child[Int(parent) * fan + place - 1], node)
        let la = Int(innerLen[Int(a)])
        let lb = Int(innerLen[Int(b)])
        let baseA = Int(a) * fan
        let baseB = Int(b) * fan
        if la + lb <= fan {
            for j in 0..<lb {
                child[baseA + la + j] = child[baseB + j]
                setParent(of: child[baseA + la + j], height: height - 1, to: a, place: la + j)
            }
            innerLen[Int(a)] = Int32(la + lb)
            refreshCounts(a, from: la, height: height)
            freeInnerNode(b)
            removeChild(at: Int(innerPlace[Int(b)]), of: parent, height: height + 1)
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
        innerLen[Int(a)] = Int32(target)
        innerLen[Int(b)] = Int32(la + lb - target)
        refreshCounts(a, from: 0, height: height)
        refreshCounts(b, from: 0, height: height)
        refreshCounts(parent, from: Int(innerPlace[Int(a)]), height: height + 1)
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
                let len = Int(leafLen[Int(node)])
                if len > leafMax || (parent != Self.none && len < leafMin) {
                    return (0, "leaf \(node) holds \(len) rows")
                }
                if leafParent[Int(node)] != parent || Int(leafPlace[Int(node)]) != place {
                    return (0, "leaf \(node) has a wrong parent link")
                }
                let base = Int(node) * leafMax
                for k in 0..<len where ids[base + k] != rows[base + k].id {
                    return (0, "leaf \(node) keeps a stale identity at \(k)")
                }
                return (len, nil)
            }
            liveInner += 1
            let n = Int(innerLen[Int(node)])
            if n > fan || n < (parent == Self.none ? 2 : innerMin) {
                return (0, "node \(node) has \(n) children")
            }
            if innerParent[Int(node)] != parent || Int(innerPlace[Int(node)]) != place {
                return (0, "node \(node) at height \(height) links to \(innerParent[Int(node)]) place \(innerPlace[Int(node)]), is child \(place) of \(parent) (root \(root), depth \(depth))")
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
        if liveLeaves + freeLeaves.count != leafLen.count { return "leaf slots leaked" }
        if liveInner + freeInner.count != innerLen.count { return "node slots leaked" }
        return nil
    }
}
