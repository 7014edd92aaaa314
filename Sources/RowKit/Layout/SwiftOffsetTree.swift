/// An ``OffsetTree`` written in pure Swift: the same counted B+-tree as the C core, with the same
/// node sizes, fill bounds, split, merge and summation rules, so the two can be compared fairly.
///
/// Storage mirrors the C layout without a class per node: each leaf is one `ContiguousArray` of
/// heights (its capacity kept to multiples of 16, like the C leaf blocks), and inner nodes live
/// side by side in struct-of-arrays storage with a fixed stride of `fan` children, addressed by
/// `Int32` slot numbers; freed slots are reused. Like the C inner nodes, each node also keeps the
/// running prefixes of its child sums and counts (`innerEnd`, `innerCend`), recomputed from the
/// children whenever the node's entry is taken; searches compare against them. Hot loops take each
/// array's unsafe buffer pointer once per operation, so they pay no per-element exclusivity,
/// uniqueness or bounds checks.
///
/// Swift traps on allocation failure, so ``OffsetTreeError/outOfMemory`` is never thrown here.
/// Not `Sendable`: a mutable reference type.
public final class SwiftOffsetTree: OffsetTree {
    /// Most heights in a leaf.
    static let leafMax = 128
    /// Fewest heights in a non-root leaf.
    static let leafMin = 32
    /// Heights per leaf when building or splitting in bulk.
    static let leafFill = 112
    /// Leaf capacities are multiples of this.
    static let leafStep = 16
    /// Most children of an inner node.
    static let fan = 64
    /// Fewest children of a non-root inner node.
    static let innerMin = 16
    /// Children per inner node when building or splitting in bulk.
    static let innerFill = 56

    private struct Entry {
        var node: Int32
        var sum: Double
        var cnt: Int
    }

    fileprivate(set) var leaves: ContiguousArray<ContiguousArray<Double>> = []
    fileprivate(set) var freeLeaves: ContiguousArray<Int32> = []
    fileprivate(set) var innerLen: ContiguousArray<Int32> = []
    fileprivate(set) var innerSum: ContiguousArray<Double> = []
    fileprivate(set) var innerCnt: ContiguousArray<Int> = []
    fileprivate(set) var innerChild: ContiguousArray<Int32> = []
    /// Per inner node, `innerEnd[base + j]` is the left-to-right sum of child sums `0...j`.
    fileprivate(set) var innerEnd: ContiguousArray<Double> = []
    /// Per inner node, `innerCend[base + j]` is the sum of child counts `0...j`.
    fileprivate(set) var innerCend: ContiguousArray<Int> = []
    fileprivate(set) var freeInner: ContiguousArray<Int32> = []
    fileprivate(set) var root: Int32 = 0
    fileprivate(set) var depth = 0
    private var pathNode = ContiguousArray<Int32>(repeating: 0, count: 32)
    private var pathIdx = ContiguousArray<Int32>(repeating: 0, count: 32)
    private var pieces: ContiguousArray<Entry> = []
    private var list: ContiguousArray<Entry> = []

    /// The number of items.
    /// - Complexity: O(1).
    public private(set) var count = 0

    /// The sum of all heights.
    /// - Complexity: O(1).
    public private(set) var totalHeight = 0.0

    /// Creates a tree holding `heights`, in order.
    /// - Throws: ``OffsetTreeError/invalidHeight(value:index:)``.
    /// - Complexity: O(n).
    public init(heights: [Double]) throws(OffsetTreeError) {
        if let bad = heights.firstIndex(where: { !Self.isValid($0) }) {
            throw .invalidHeight(value: heights[bad], index: bad)
        }
        heights.withUnsafeBufferPointer { build($0) }
    }

    // MARK: - Helpers

    private static func isValid(_ height: Double) -> Bool { height.isFinite && height >= 0 }

    private static func ceilDiv(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }

    private static func roundCap(_ n: Int) -> Int {
        max(leafStep, ceilDiv(n, leafStep) * leafStep)
    }

    private static func pieces(_ total: Int, max: Int, fill: Int) -> Int {
        total <= max ? 1 : ceilDiv(total, fill)
    }

    /// Sum with four independent accumulators, in the same order as the C core's `sum_doubles`.
    static func sum(_ a: UnsafeBufferPointer<Double>) -> Double {
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
        var i = 0
        let n = a.count
        while i + 4 <= n {
            s0 += a[i]
            s1 += a[i + 1]
            s2 += a[i + 2]
            s3 += a[i + 3]
            i += 4
        }
        while i < n {
            s0 += a[i]
            i += 1
        }
        return (s0 + s1) + (s2 + s3)
    }

    private static func makeLeaf<C: Collection>(_ heights: C) -> ContiguousArray<Double>
    where C.Element == Double {
        var leaf = ContiguousArray<Double>()
        leaf.reserveCapacity(roundCap(heights.count))
        for h in heights { leaf.append(h + 0.0) }  // + 0.0 stores -0.0 as +0.0
        return leaf
    }

    private func newLeaf(_ heights: ContiguousArray<Double>) -> Int32 {
        if let slot = freeLeaves.popLast() {
            leaves[Int(slot)] = heights
            return slot
        }
        leaves.append(heights)
        return Int32(leaves.count - 1)
    }

    private func freeLeaf(_ slot: Int32) {
        leaves[Int(slot)] = []
        freeLeaves.append(slot)
    }

    private func newInner() -> Int32 {
        if let slot = freeInner.popLast() {
            innerLen[Int(slot)] = 0
            return slot
        }
        innerLen.append(0)
        innerSum.append(contentsOf: repeatElement(0, count: Self.fan))
        innerCnt.append(contentsOf: repeatElement(0, count: Self.fan))
        innerChild.append(contentsOf: repeatElement(0, count: Self.fan))
        innerEnd.append(contentsOf: repeatElement(0, count: Self.fan))
        innerCend.append(contentsOf: repeatElement(0, count: Self.fan))
        return Int32(innerLen.count - 1)
    }

    private func freeInnerNode(_ slot: Int32) {
        innerLen[Int(slot)] = 0
        freeInner.append(slot)
    }

    private func freeSubtree(_ node: Int32, height: Int) {
        if height == 0 {
            freeLeaf(node)
            return
        }
        let base = Int(node) * Self.fan
        for i in 0..<Int(innerLen[Int(node)]) {
            freeSubtree(innerChild[base + i], height: height - 1)
        }
        freeInnerNode(node)
    }

    private func leafEntry(_ slot: Int32) -> Entry {
        let leaf = leaves[Int(slot)]
        return Entry(node: slot, sum: leaf.withUnsafeBufferPointer(Self.sum), cnt: leaf.count)
    }

    /// The node's entry for its parent, after recomputing all of its prefixes (the C core's
    /// `inner_entry`; call it after any edit of the node).
    private func innerEntry(_ node: Int32) -> Entry {
        let base = Int(node) * Self.fan
        let n = Int(innerLen[Int(node)])
        var s = 0.0
        var c = 0
        innerSum.withUnsafeBufferPointer { sum in
            innerCnt.withUnsafeBufferPointer { cnt in
                innerEnd.withUnsafeMutableBufferPointer { end in
                    innerCend.withUnsafeMutableBufferPointer { cend in
                        for j in base..<base + n {
                            s += sum[j]
                            c += cnt[j]
                            end[j] = s
                            cend[j] = c
                        }
                    }
                }
            }
        }
        return Entry(node: node, sum: s, cnt: c)
    }

    /// First child `j < n - 1` of the node at `base` whose prefix count exceeds `i` (the last
    /// child when none does).
    private static func child(
        forIndex i: Int, _ cend: UnsafeBufferPointer<Int>, base: Int, n: Int
    ) -> Int {
        var j = 0
        while j < n - 1 && i >= cend[base + j] { j += 1 }
        return j
    }

    private func entry(of node: Int32, height: Int) -> Entry {
        height == 0 ? leafEntry(node) : innerEntry(node)
    }

    private func setEntry(_ node: Int32, _ i: Int, _ e: Entry) {
        let at = Int(node) * Self.fan + i
        innerChild[at] = e.node
        innerSum[at] = e.sum
        innerCnt[at] = e.cnt
    }

    private func getEntry(_ node: Int32, _ i: Int) -> Entry {
        let at = Int(node) * Self.fan + i
        return Entry(node: innerChild[at], sum: innerSum[at], cnt: innerCnt[at])
    }

    /// Copies `n` entries from `src[si...]` to `dst[di...]`; the ranges may overlap.
    private func moveEntries(_ dst: Int32, _ di: Int, _ src: Int32, _ si: Int, _ n: Int) {
        let d = Int(dst) * Self.fan + di
        let s = Int(src) * Self.fan + si
        if d == s || n == 0 { return }
        if d < s {
            for i in 0..<n {
                innerChild[d + i] = innerChild[s + i]
                innerSum[d + i] = innerSum[s + i]
                innerCnt[d + i] = innerCnt[s + i]
            }
        } else {
            for i in (0..<n).reversed() {
                innerChild[d + i] = innerChild[s + i]
                innerSum[d + i] = innerSum[s + i]
                innerCnt[d + i] = innerCnt[s + i]
            }
        }
    }

    /// Descends to the leaf holding position `index` (`index == count` lands at the end of the last
    /// leaf), recording the path in `pathNode`/`pathIdx`.
    private func descend(_ index: Int) -> (leaf: Int32, local: Int) {
        var i = index
        var node = root
        let depth = self.depth
        innerCend.withUnsafeBufferPointer { cend in
            innerLen.withUnsafeBufferPointer { len in
                innerChild.withUnsafeBufferPointer { child in
                    pathNode.withUnsafeMutableBufferPointer { pathNode in
                        pathIdx.withUnsafeMutableBufferPointer { pathIdx in
                            for d in 0..<depth {
                                let base = Int(node) * Self.fan
                                let j = Self.child(
                                    forIndex: i, cend, base: base, n: Int(len[Int(node)]))
                                if j > 0 { i -= cend[base + j - 1] }
                                pathNode[d] = node
                                pathIdx[d] = Int32(j)
                                node = child[base + j]
                            }
                        }
                    }
                }
            }
        }
        return (node, i)
    }

    /// Stores `e` as the child on the recorded path and recomputes every entry above it.
    private func fixPath(_ entry: Entry) {
        var e = entry
        var d = depth - 1
        while d >= 0 {
            let node = pathNode[d]
            setEntry(node, Int(pathIdx[d]), e)
            e = innerEntry(node)
            d -= 1
        }
        setRoot(e)
    }

    private func setRoot(_ e: Entry) {
        root = e.node
        totalHeight = e.sum
        count = e.cnt
    }

    /// Replaces all storage with a freshly built tree of `heights` (already validated).
    private func build(_ heights: UnsafeBufferPointer<Double>) {
        leaves = []
        freeLeaves = []
        innerLen = []
        innerSum = []
        innerCnt = []
        innerChild = []
        innerEnd = []
        innerCend = []
        freeInner = []
        let n = heights.count
        let m = Self.pieces(n, max: Self.leafMax, fill: Self.leafFill)
        var entries = ContiguousArray<Entry>()
        entries.reserveCapacity(m)
        var from = 0
        for q in 0..<m {
            let len = n / m + (q < n % m ? 1 : 0)
            let slot = newLeaf(Self.makeLeaf(heights[from..<from + len]))
            from += len
            entries.append(leafEntry(slot))
        }
        depth = 0
        while entries.count > 1 {
            entries = group(entries)
            depth += 1
        }
        setRoot(entries[0])
    }

    /// Distributes `entries` evenly into new inner nodes and returns their entries.
    private func group(_ entries: ContiguousArray<Entry>) -> ContiguousArray<Entry> {
        let t = entries.count
        let m = Self.pieces(t, max: Self.fan, fill: Self.innerFill)
        var out = ContiguousArray<Entry>()
        var start = 0
        for q in 0..<m {
            let node = newInner()
            let len = t / m + (q < t % m ? 1 : 0)
            for i in 0..<len { setEntry(node, i, entries[start + i]) }
            innerLen[Int(node)] = Int32(len)
            start += len
            out.append(innerEntry(node))
        }
        return out
    }

    // MARK: - Queries

    /// The height of the item at `index`.
    /// - Complexity: O(log n).
    public func height(at index: Int) throws(OffsetTreeError) -> Double {
        guard index >= 0 && index < count else {
            throw .indexOutOfRange(index: index, count: count)
        }
        let (leaf, local) = descend(index)
        return leaves[Int(leaf)][local]
    }

    /// The sum of the heights before `index`; `offset(of: count)` is the total.
    /// - Complexity: O(log n).
    public func offset(of index: Int) throws(OffsetTreeError) -> Double {
        guard index >= 0 && index <= count else {
            throw .indexOutOfRange(index: index, count: count)
        }
        if index == count { return totalHeight }
        var i = index
        var acc = 0.0
        var node = root
        let depth = self.depth
        innerCend.withUnsafeBufferPointer { cend in
            innerEnd.withUnsafeBufferPointer { end in
                innerLen.withUnsafeBufferPointer { len in
                    innerChild.withUnsafeBufferPointer { child in
                        for _ in 0..<depth {
                            let base = Int(node) * Self.fan
                            let j = Self.child(
                                forIndex: i, cend, base: base, n: Int(len[Int(node)]))
                            if j > 0 {
                                i -= cend[base + j - 1]
                                acc += end[base + j - 1]
                            }
                            node = child[base + j]
                        }
                    }
                }
            }
        }
        leaves[Int(node)].withUnsafeBufferPointer { h in
            for k in 0..<i { acc += h[k] }
        }
        return acc
    }

    /// The positive-height item with `offset <= y < end` (or `offset < y <= end` when
    /// `closedRight`): on each level the first child whose prefix end passes `y` (never an empty
    /// child), falling back to a subtree's last positive child or item when rounding leaves no
    /// match, exactly like the C core's `locate`. Requires `totalHeight > 0`.
    private func locate(_ y: Double, closedRight: Bool) -> Int? {
        var acc = 0.0
        var base = 0
        var node = root
        let depth = self.depth
        innerEnd.withUnsafeBufferPointer { end in
            innerCend.withUnsafeBufferPointer { cend in
                innerSum.withUnsafeBufferPointer { sum in
                    innerLen.withUnsafeBufferPointer { len in
                        innerChild.withUnsafeBufferPointer { child in
                            for _ in 0..<depth {
                                let b = Int(node) * Self.fan
                                let n = Int(len[Int(node)])
                                var j = 0
                                if closedRight {
                                    while j < n && y > acc + end[b + j] { j += 1 }
                                } else {
                                    while j < n && y >= acc + end[b + j] { j += 1 }
                                }
                                if j == n {  // rounding: the last child with a positive sum
                                    j = n - 1
                                    while j > 0 && !(sum[b + j] > 0) { j -= 1 }
                                }
                                if j > 0 {
                                    acc += end[b + j - 1]
                                    base += cend[b + j - 1]
                                }
                                node = child[b + j]
                            }
                        }
                    }
                }
            }
        }
        return leaves[Int(node)].withUnsafeBufferPointer { h -> Int? in
            var last: Int?
            for i in 0..<h.count where h[i] > 0 {
                let end = acc + h[i]
                if closedRight ? y <= end : y < end { return base + i }
                last = base + i
                acc = end
                continue
            }
            return last
        }
    }

    /// The item whose `[offset, offset + height)` contains `y`, or `nil`.
    /// - Complexity: O(log n).
    public func item(at y: Double) -> Int? {
        guard y >= 0 && y < totalHeight else { return nil }
        return locate(y, closedRight: false)
    }

    /// The items that intersect `range`, or `0..<0`.
    /// - Complexity: O(log n).
    public func items(intersecting range: Range<Double>) -> Range<Int> {
        let y0 = range.lowerBound
        let y1 = range.upperBound
        guard y0 < y1 && y1 > 0 && y0 < totalHeight,
            let first = locate(max(y0, 0), closedRight: false),
            let last = locate(y1, closedRight: true)
        else { return 0..<0 }
        return first..<(max(last, first) + 1)
    }

    /// Heap bytes held: live leaf arrays, inner-node storage, bookkeeping arrays.
    /// - Complexity: O(n / B).
    public var memoryFootprint: Int {
        let header = 32 + 16  // array header + allocator bookkeeping per heap block
        var bytes = 0
        for leaf in leaves where leaf.capacity > 0 { bytes += leaf.capacity * 8 + header }
        bytes += leaves.capacity * 8 + header
        bytes += innerLen.capacity * 4 + innerSum.capacity * 8 + innerCnt.capacity * 8
        bytes += innerChild.capacity * 4 + innerEnd.capacity * 8 + innerCend.capacity * 8
        bytes += 6 * header
        bytes += (freeLeaves.capacity + freeInner.capacity) * 4 + 2 * header
        return bytes + 2 * 32 * 4 + 2 * header + 64  // path buffers, the object itself
    }

    // MARK: - Edits

    /// Sets the height of the item at `index`.
    /// - Complexity: O(log n).
    public func setHeight(_ height: Double, at index: Int) throws(OffsetTreeError) {
        guard index >= 0 && index < count else {
            throw .indexOutOfRange(index: index, count: count)
        }
        guard Self.isValid(height) else { throw .invalidHeight(value: height, index: index) }
        let (leaf, local) = descend(index)
        var s = leaves[Int(leaf)].withUnsafeMutableBufferPointer { h in
            h[local] = height + 0.0
            return Self.sum(UnsafeBufferPointer(h))
        }
        // Counts are unchanged: on each node of the path store the child's new sum and recompute
        // the height prefixes from that child on (the values innerEntry would compute).
        let depth = self.depth
        innerSum.withUnsafeMutableBufferPointer { sum in
            innerEnd.withUnsafeMutableBufferPointer { end in
                innerLen.withUnsafeBufferPointer { len in
                    pathNode.withUnsafeBufferPointer { pathNode in
                        pathIdx.withUnsafeBufferPointer { pathIdx in
                            var d = depth - 1
                            while d >= 0 {
                                let node = pathNode[d]
                                let base = Int(node) * Self.fan
                                let j = Int(pathIdx[d])
                                sum[base + j] = s
                                var e = j > 0 ? end[base + j - 1] : 0
                                for q in base + j..<base + Int(len[Int(node)]) {
                                    e += sum[q]
                                    end[q] = e
                                }
                                s = e
                                d -= 1
                            }
                        }
                    }
                }
            }
        }
        totalHeight = s
    }

    /// The heights of the items in `range`.
    /// - Complexity: O(log n + k) for k items.
    public func heights(in range: Range<Int>) throws(OffsetTreeError) -> [Double] {
        try checkSpan(range)
        let n = range.count
        return [Double](unsafeUninitializedCapacity: n) { heights, initialized in
            if n > 0 { read(root, height: depth, acc: 0, lo: range.lowerBound, hi: range.upperBound, heights.baseAddress!, nil) }
            initialized = n
        }
    }

    /// The offsets (each exactly `offset(of:)`'s) and heights of the items in `range`.
    /// - Complexity: O(log n + k) for k items.
    public func offsetsAndHeights(in range: Range<Int>) throws(OffsetTreeError) -> (offsets: [Double], heights: [Double]) {
        try checkSpan(range)
        let n = range.count
        var offsets: [Double] = []
        let heights = [Double](unsafeUninitializedCapacity: n) { heights, initialized in
            offsets = [Double](unsafeUninitializedCapacity: n) { offsets, done in
                if n > 0 {
                    read(
                        root, height: depth, acc: 0, lo: range.lowerBound, hi: range.upperBound, heights.baseAddress!,
                        offsets.baseAddress!)
                }
                done = n
            }
            initialized = n
        }
        return (offsets, heights)
    }

    /// Sets the heights of the items from `index` on to `heights`.
    /// - Complexity: O(log n + k) for k heights.
    public func setHeights(_ heights: [Double], startingAt index: Int) throws(OffsetTreeError) {
        guard index >= 0 && index <= count else { throw .indexOutOfRange(index: index, count: count) }
        guard heights.count <= count - index else {
            throw .indexOutOfRange(index: index + heights.count, count: count)
        }
        if let bad = heights.firstIndex(where: { !Self.isValid($0) }) {
            throw .invalidHeight(value: heights[bad], index: index + bad)
        }
        guard !heights.isEmpty else { return }
        totalHeight = heights.withUnsafeBufferPointer { h in
            write(root, height: depth, lo: index, hi: index + heights.count, from: h.baseAddress!)
        }
    }

    /// Throws unless `range` lies in `0...count`.
    private func checkSpan(_ range: Range<Int>) throws(OffsetTreeError) {
        guard range.lowerBound >= 0 && range.lowerBound <= count else {
            throw .indexOutOfRange(index: range.lowerBound, count: count)
        }
        guard range.upperBound <= count else { throw .indexOutOfRange(index: range.upperBound, count: count) }
    }

    /// Copies items `lo..<hi` of the subtree `node` (`height` inner levels above its leaves,
    /// starting at offset `acc`) to `h`, and their offsets to `off` when given; visits only the
    /// children that overlap the range. Offsets are summed in `offset(of:)`'s order: `acc` plus
    /// the prefix before the child on each level, then the leaf's heights from its first item.
    private func read(
        _ node: Int32, height: Int, acc: Double, lo: Int, hi: Int, _ h: UnsafeMutablePointer<Double>,
        _ off: UnsafeMutablePointer<Double>?
    ) {
        if height == 0 {
            leaves[Int(node)].withUnsafeBufferPointer { leaf in
                h.update(from: leaf.baseAddress! + lo, count: hi - lo)
                guard let off else { return }
                var y = acc
                for i in 0..<lo { y += leaf[i] }
                for i in lo..<hi {
                    off[i - lo] = y
                    y += leaf[i]
                }
            }
            return
        }
        let base = Int(node) * Self.fan
        var start = 0
        var j = 0
        var h = h
        var off = off
        let n = Int(innerLen[Int(node)])
        while j < n && start < hi {
            let end = innerCend[base + j]
            if end > lo {
                let a = max(lo, start)
                let b = min(hi, end)
                let childAcc = j > 0 ? acc + innerEnd[base + j - 1] : acc
                read(innerChild[base + j], height: height - 1, acc: childAcc, lo: a - start, hi: b - start, h, off)
                h += b - a
                off = off.map { $0 + (b - a) }
            }
            start = end
            j += 1
        }
    }

    /// Writes `h` over items `lo..<hi` of the subtree `node` and returns its new height sum: each
    /// touched leaf's sum is recomputed and each touched node's prefixes from its first touched
    /// child on (the values `innerEntry` would compute; counts are unchanged).
    private func write(_ node: Int32, height: Int, lo: Int, hi: Int, from h: UnsafePointer<Double>) -> Double {
        if height == 0 {
            return leaves[Int(node)].withUnsafeMutableBufferPointer { leaf in
                for i in lo..<hi { leaf[i] = h[i - lo] + 0.0 }
                return Self.sum(UnsafeBufferPointer(leaf))
            }
        }
        let base = Int(node) * Self.fan
        let n = Int(innerLen[Int(node)])
        var start = 0
        var touched = n
        var j = 0
        while j < n && start < hi {
            let end = innerCend[base + j]
            if end > lo {
                let a = max(lo, start)
                let b = min(hi, end)
                innerSum[base + j] = write(
                    innerChild[base + j], height: height - 1, lo: a - start, hi: b - start, from: h + (a - lo))
                if touched == n { touched = j }
            }
            start = end
            j += 1
        }
        var e = touched > 0 ? innerEnd[base + touched - 1] : 0
        for q in touched..<n {
            e += innerSum[base + q]
            innerEnd[base + q] = e
        }
        return e
    }

    /// Inserts `heights` so that the first becomes the item at `index`.
    /// - Complexity: O(k + log n).
    public func insert(contentsOf heights: [Double], at index: Int) throws(OffsetTreeError) {
        guard index >= 0 && index <= count else {
            throw .indexOutOfRange(index: index, count: count)
        }
        if let bad = heights.firstIndex(where: { !Self.isValid($0) }) {
            throw .invalidHeight(value: heights[bad], index: index + bad)
        }
        let k = heights.count
        if k == 0 { return }
        if k >= count {  // rebuild: O(n + k) = O(k)
            var all = ContiguousArray<Double>()
            all.reserveCapacity(count + k)
            for slot in leafSlotsInOrder() { all.append(contentsOf: leaves[Int(slot)]) }
            all.insert(contentsOf: heights, at: index)
            all.withUnsafeBufferPointer { build($0) }
            return
        }
        let (leaf, off) = descend(index)
        let total = leaves[Int(leaf)].count + k
        if total <= Self.leafMax {
            if total > leaves[Int(leaf)].capacity {
                leaves[Int(leaf)].reserveCapacity(Self.roundCap(total))
            }
            if k == 1 {
                leaves[Int(leaf)].insert(heights[0] + 0.0, at: off)
            } else {
                leaves[Int(leaf)].insert(contentsOf: heights.lazy.map { $0 + 0.0 }, at: off)
            }
            fixPath(leafEntry(leaf))
            return
        }
        var combined = leaves[Int(leaf)]
        combined.insert(contentsOf: heights, at: off)
        let m = Self.pieces(total, max: Self.leafMax, fill: Self.leafFill)
        pieces.removeAll(keepingCapacity: true)
        var from = 0
        for q in 0..<m {
            let len = total / m + (q < total % m ? 1 : 0)
            let part = Self.makeLeaf(combined[from..<from + len])
            from += len
            let slot: Int32
            if q == 0 {
                leaves[Int(leaf)] = part
                slot = leaf
            } else {
                slot = newLeaf(part)
            }
            pieces.append(leafEntry(slot))
        }
        var d = depth - 1
        while d >= 0 {
            let node = pathNode[d]
            let j = Int(pathIdx[d])
            let mb = pieces.count
            defer { d -= 1 }
            if mb == 1 {
                setEntry(node, j, pieces[0])
                pieces[0] = innerEntry(node)
                continue
            }
            let n = Int(innerLen[Int(node)])
            let tl = n - 1 + mb
            if tl <= Self.fan {
                moveEntries(node, j + mb, node, j + 1, n - j - 1)
                for q in 0..<mb { setEntry(node, j + q, pieces[q]) }
                innerLen[Int(node)] = Int32(tl)
                pieces.removeAll(keepingCapacity: true)
                pieces.append(innerEntry(node))
                continue
            }
            list.removeAll(keepingCapacity: true)
            for i in 0..<j { list.append(getEntry(node, i)) }
            list.append(contentsOf: pieces)
            for i in j + 1..<n { list.append(getEntry(node, i)) }
            let ml = Self.pieces(tl, max: Self.fan, fill: Self.innerFill)
            pieces.removeAll(keepingCapacity: true)
            var start = 0
            for q in 0..<ml {
                let dst = q == 0 ? node : newInner()
                let len = tl / ml + (q < tl % ml ? 1 : 0)
                for i in 0..<len { setEntry(dst, i, list[start + i]) }
                innerLen[Int(dst)] = Int32(len)
                start += len
                pieces.append(innerEntry(dst))
            }
        }
        while pieces.count > 1 {
            pieces = group(pieces)
            depth += 1
        }
        setRoot(pieces[0])
    }

    /// Leaf slots from first to last.
    private func leafSlotsInOrder() -> [Int32] {
        var out: [Int32] = []
        func walk(_ node: Int32, _ height: Int) {
            if height == 0 {
                out.append(node)
                return
            }
            let base = Int(node) * Self.fan
            for i in 0..<Int(innerLen[Int(node)]) { walk(innerChild[base + i], height - 1) }
        }
        walk(root, depth)
        return out
    }

    /// Removes the items in `range`.
    /// - Complexity: O(k + log n).
    public func removeSubrange(_ range: Range<Int>) throws(OffsetTreeError) {
        guard range.lowerBound >= 0 && range.lowerBound <= count else {
            throw .indexOutOfRange(index: range.lowerBound, count: count)
        }
        guard range.upperBound <= count else {
            throw .indexOutOfRange(index: range.upperBound, count: count)
        }
        let k = range.count
        let at = range.lowerBound
        if k == 0 { return }
        if k == count {
            build(UnsafeBufferPointer(start: nil, count: 0))
            return
        }
        let (leaf, off) = descend(at)
        let n = leaves[Int(leaf)].count
        if off + k <= n && (depth == 0 || n - k >= Self.leafMin) {
            leaves[Int(leaf)].removeSubrange(off..<off + k)
            let want = Self.roundCap(n - k) + Self.leafStep
            if leaves[Int(leaf)].capacity >= want + 2 * Self.leafStep {
                var smaller = ContiguousArray<Double>()
                smaller.reserveCapacity(want)
                smaller.append(contentsOf: leaves[Int(leaf)])
                leaves[Int(leaf)] = smaller
            }
            fixPath(leafEntry(leaf))
            return
        }
        removeRecursively(root, height: depth, lo: at, hi: at + k)
        var node = root
        while depth > 0 && innerLen[Int(node)] == 1 {
            let only = innerChild[Int(node) * Self.fan]
            freeInnerNode(node)
            node = only
            depth -= 1
        }
        setRoot(entry(of: node, height: depth))
    }

    /// Removes items `lo..<hi` (relative to `node`, which they partially cover).
    private func removeRecursively(_ node: Int32, height: Int, lo: Int, hi: Int) {
        let base = Int(node) * Self.fan
        var first = 0
        var acc = 0
        while acc + innerCnt[base + first] <= lo {
            acc += innerCnt[base + first]
            first += 1
        }
        var w = first
        let n = Int(innerLen[Int(node)])
        for r in first..<n {
            let c0 = acc
            let c1 = acc + innerCnt[base + r]
            acc = c1
            if c0 >= hi {
                if w != r { setEntry(node, w, getEntry(node, r)) }
                w += 1
                continue
            }
            let child = innerChild[base + r]
            if lo <= c0 && c1 <= hi {
                freeSubtree(child, height: height - 1)
                continue
            }
            let l = max(lo, c0) - c0
            let u = min(hi, c1) - c0
            if height == 1 {
                leaves[Int(child)].removeSubrange(l..<u)
            } else {
                removeRecursively(child, height: height - 1, lo: l, hi: u)
            }
            setEntry(node, w, entry(of: child, height: height - 1))
            w += 1
        }
        innerLen[Int(node)] = Int32(w)
        if w >= 2 { fixNode(node, height: height) }
    }

    private func isUnderfull(_ child: Int32, height: Int) -> Bool {
        height == 0
            ? leaves[Int(child)].count < Self.leafMin
            : Int(innerLen[Int(child)]) < Self.innerMin
    }

    /// Grows leaf `slot` to hold `need` heights, in capacity steps like the C leaves.
    private func ensureCapacity(_ slot: Int32, _ need: Int) {
        if leaves[Int(slot)].capacity < need {
            leaves[Int(slot)].reserveCapacity(Self.roundCap(need))
        }
    }

    /// Merges or redistributes underfull children of `node` with a neighbour until every child
    /// meets its minimum, fixing merged nodes recursively (the C core's `fix_node`).
    private func fixNode(_ node: Int32, height: Int) {
        let ch = height - 1
        while true {
            let n = Int(innerLen[Int(node)])
            if n < 2 { return }
            var j = 0
            while j < n && !isUnderfull(getEntry(node, j).node, height: ch) { j += 1 }
            if j == n { return }
            let a = j + 1 < n ? j : j - 1
            let b = a + 1
            let ea = getEntry(node, a).node
            let eb = getEntry(node, b).node
            if ch == 0 {
                let na = leaves[Int(ea)].count
                let nb = leaves[Int(eb)].count
                let tot = na + nb
                if tot <= Self.leafMax {
                    ensureCapacity(ea, tot)
                    leaves[Int(ea)].append(contentsOf: leaves[Int(eb)])
                    freeLeaf(eb)
                    moveEntries(node, b, node, b + 1, n - b - 1)
                    innerLen[Int(node)] = Int32(n - 1)
                    setEntry(node, a, leafEntry(ea))
                } else {
                    let ta = tot / 2
                    if na < ta {
                        ensureCapacity(ea, ta)
                        leaves[Int(ea)].append(contentsOf: leaves[Int(eb)][0..<ta - na])
                        leaves[Int(eb)].removeFirst(ta - na)
                    } else {
                        ensureCapacity(eb, tot - ta)
                        leaves[Int(eb)].insert(contentsOf: leaves[Int(ea)][ta..<na], at: 0)
                        leaves[Int(ea)].removeLast(na - ta)
                    }
                    setEntry(node, a, leafEntry(ea))
                    setEntry(node, b, leafEntry(eb))
                }
            } else {
                let na = Int(innerLen[Int(ea)])
                let nb = Int(innerLen[Int(eb)])
                let tot = na + nb
                if tot <= Self.fan {
                    moveEntries(ea, na, eb, 0, nb)
                    innerLen[Int(ea)] = Int32(tot)
                    freeInnerNode(eb)
                    moveEntries(node, b, node, b + 1, n - b - 1)
                    innerLen[Int(node)] = Int32(n - 1)
                    fixNode(ea, height: ch)
                    setEntry(node, a, innerEntry(ea))
                } else {
                    let ta = tot / 2
                    if na < ta {
                        let mv = ta - na
                        moveEntries(ea, na, eb, 0, mv)
                        moveEntries(eb, 0, eb, mv, nb - mv)
                    } else {
                        let mv = na - ta
                        moveEntries(eb, mv, eb, 0, nb)
                        moveEntries(eb, 0, ea, ta, mv)
                    }
                    innerLen[Int(ea)] = Int32(ta)
                    innerLen[Int(eb)] = Int32(tot - ta)
                    fixNode(ea, height: ch)
                    fixNode(eb, height: ch)
                    setEntry(node, a, innerEntry(ea))
                    setEntry(node, b, innerEntry(eb))
                }
            }
        }
    }
}
