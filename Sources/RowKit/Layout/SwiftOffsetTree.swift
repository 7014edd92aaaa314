/// An ``OffsetTree`` written in pure Swift: the same counted B+-tree as the C core, with the same
/// node sizes, block layout, fill bounds, split, merge, summation and reuse rules, so the two can be
/// compared fairly.
///
/// Storage mirrors the C layout without a class per node: each leaf is one block of memory holding
/// its 16 block prefixes and its heights (capacity a multiple of 16); inner nodes live side by side in struct-of-arrays storage with a fixed stride of
/// `fan` children (two-level prefixes: in-block `innerIs`/`innerIc`, over blocks
/// `innerBs`/`innerBc`), addressed by `Int32` slot numbers. Freed leaves keep their memory on a
/// free list per capacity, and freed node slots are reused, so `replaceAll(with:)` rebuilds from
/// the tree's own memory. Hot loops work on raw pointers, so they pay no per-element exclusivity,
/// uniqueness or bounds checks.
///
/// Swift traps on allocation failure, so ``OffsetTreeError/outOfMemory`` is never thrown here.
/// Not `Sendable`: a mutable reference type, confined to one isolation domain like the C tree, so
/// its stored properties skip the run-time exclusivity checks (`@exclusivity(unchecked)`), which
/// the C tree does not pay either.
package final class SwiftOffsetTree: OffsetTree {
    /// Most heights in a leaf.
    static let leafMax = 128
    /// Fewest heights in a non-root leaf.
    static let leafMin = 32
    /// Heights per leaf when building or splitting in bulk.
    static let leafFill = 112
    /// Leaf capacities are multiples of this.
    static let leafStep = 16
    /// Heights per leaf block and children per node block.
    static let block = 8
    /// Most children of an inner node.
    static let fan = 128
    /// Blocks of an inner node.
    static let nodeBlocks = fan / block
    /// Fewest children of a non-root inner node.
    static let innerMin = 32
    /// Children per inner node when building or splitting in bulk.
    static let innerFill = 112
    /// Free leaves and node slots kept for reuse: at least this many...
    static let freeMin = 32
    /// ... and beyond that at most one per this many live ones.
    static let freeShare = 64
    static let leafClasses = leafMax / leafStep
    /// Block prefixes a leaf keeps, before its heights.
    static let leafBlocks = leafMax / block

    private struct Entry {
        var node: Int32
        var sum: Double
        var cnt: Int
    }

    // Leaves: slot → its heights (`cap` of them), with the 16 block prefixes right before them (at a
    // fixed distance, as in the C leaf).
    @exclusivity(unchecked) fileprivate(set) var leafBlock: ContiguousArray<UnsafeMutablePointer<Double>?> = []
    @exclusivity(unchecked) fileprivate(set) var leafLen: ContiguousArray<Int> = []
    @exclusivity(unchecked) fileprivate(set) var leafCap: ContiguousArray<Int> = []
    /// Free leaf slots that keep their block, by capacity class.
    @exclusivity(unchecked) fileprivate(set) var freeLeaf = [ContiguousArray<Int32>](repeating: [], count: leafClasses)
    /// Free leaf slots without a block.
    @exclusivity(unchecked) fileprivate(set) var bareLeaf: ContiguousArray<Int32> = []
    // Inner nodes: slot s owns [s * fan, (s + 1) * fan) and [s * nodeBlocks, (s + 1) * nodeBlocks).
    @exclusivity(unchecked) fileprivate(set) var innerLen: ContiguousArray<Int> = []
    @exclusivity(unchecked) fileprivate(set) var innerBc = Slab<Int>()
    @exclusivity(unchecked) fileprivate(set) var innerBs = Slab<Double>()
    @exclusivity(unchecked) fileprivate(set) var innerIc = Slab<Int>()
    @exclusivity(unchecked) fileprivate(set) var innerIs = Slab<Double>()
    @exclusivity(unchecked) fileprivate(set) var innerSum = Slab<Double>()
    @exclusivity(unchecked) fileprivate(set) var innerCnt = Slab<Int>()
    @exclusivity(unchecked) fileprivate(set) var innerChild = Slab<Int32>()
    @exclusivity(unchecked) fileprivate(set) var freeInner: ContiguousArray<Int32> = []
    @exclusivity(unchecked) fileprivate(set) var root: Int32 = -1
    @exclusivity(unchecked) fileprivate(set) var depth = 0
    @exclusivity(unchecked) private var pathNode = [Int32](repeating: 0, count: 32)
    @exclusivity(unchecked) private var pathIdx = [Int](repeating: 0, count: 32)
    @exclusivity(unchecked) private var pieces: [Entry] = []
    @exclusivity(unchecked) private var list: [Entry] = []

    /// The number of items.
    /// - Complexity: O(1).
    @exclusivity(unchecked) public private(set) var count = 0

    /// A descent by position's guess (the C core's `guess`): for each height of inner nodes (1: the
    /// nodes above the leaves), the children of all nodes at that height per item times
    /// 2^`guessBits`, as made after the last rebuild, change of depth, or `count / 8` items
    /// inserted or removed since.
    /// (A buffer of its own, read on every level of a descent without an array's checks.)
    private let guesses: UnsafeMutablePointer<UInt64> = {
        let p = UnsafeMutablePointer<UInt64>.allocate(capacity: guessLevels)
        p.initialize(repeating: 0, count: guessLevels)
        return p
    }()
    /// Heights `guesses` covers (a tree of `Int.max` items has fewer levels).
    private static let guessLevels = 33
    /// Fraction bits of `guesses` (at most one child per item).
    private static let guessBits: UInt64 = 48
    /// The depth the guesses were made for, and the items inserted or removed since.
    @exclusivity(unchecked) private var guessDepth = -1
    @exclusivity(unchecked) private var guessEdits = 0

    /// The sum of all heights.
    /// - Complexity: O(1).
    @exclusivity(unchecked) public private(set) var totalHeight = 0.0

    /// Creates a tree holding `heights`, in order.
    /// - Throws: ``OffsetTreeError/invalidHeight(value:index:)``,
    ///   ``OffsetTreeError/totalHeightTooLarge``.
    /// - Complexity: O(n).
    package init(heights: [Double]) throws(OffsetTreeError) {
        guard try Self.validatedSum(heights, offset: 0) < Self.maximumTotalHeight else { throw .totalHeightTooLarge }
        heights.withUnsafeBufferPointer { rebuild(Segments($0)) }
    }

    deinit {
        for block in leafBlock { (block.map { $0 - Self.leafBlocks })?.deallocate() }
        innerBc.free()
        innerBs.free()
        innerIc.free()
        innerIs.free()
        innerSum.free()
        innerCnt.free()
        innerChild.free()
        guesses.deallocate()
    }

    // MARK: - Helpers

    /// The sum of `heights` as stored (quantized), after checking that each is valid (the error's
    /// index is `offset` plus the bad one's). Once the sum reaches ``maximumTotalHeight`` it may be
    /// rounded, but never back below the limit, so comparing it with the limit is exact.
    private static func validatedSum(_ heights: some Sequence<Double>, offset: Int) throws(OffsetTreeError) -> Double {
        var sum = 0.0
        var index = offset
        for height in heights {
            guard isValidHeight(height) else { throw .invalidHeight(value: height, index: index) }
            sum += quantized(height)
            index += 1
        }
        return sum
    }

    private static func ceilDiv(_ a: Int, _ b: Int) -> Int { (a + b - 1) / b }

    private static func roundCap(_ n: Int) -> Int {
        max(leafStep, ceilDiv(n, leafStep) * leafStep)
    }

    /// The capacity a rebuild gives a leaf of `n` items: one step more than they need (up to the
    /// most), so that the first insert into a built leaf does not move it (the C core's
    /// `built_cap`).
    private static func builtCap(_ n: Int) -> Int { min(roundCap(n + 1), leafMax) }

    private static func blocks(_ n: Int) -> Int { ceilDiv(n, block) }

    private static func pieces(_ total: Int, max: Int, fill: Int) -> Int {
        total <= max ? 1 : ceilDiv(total, fill)
    }

    /// The pairwise sum of one block's eight slots, as the C core's `block_sum` (exact, as every
    /// sum of stored heights is).
    @inline(__always)
    static func blockSum(_ b: UnsafePointer<Double>) -> Double {
        ((b[0] + b[1]) + (b[2] + b[3])) + ((b[4] + b[5]) + (b[6] + b[7]))
    }

    // MARK: - Blocks and free lists

    /// A leaf slot with a block of capacity `cap` (length 0), from a free list when one is there.
    private func newLeaf(cap: Int) -> Int32 {
        let c = cap / Self.leafStep - 1
        if let slot = freeLeaf[c].popLast() {
            leafLen[Int(slot)] = 0
            return slot
        }
        let block =
            UnsafeMutablePointer<Double>.allocate(capacity: Self.leafBlocks + cap)
            + Self.leafBlocks
        if let slot = bareLeaf.popLast() {
            leafBlock[Int(slot)] = block
            leafLen[Int(slot)] = 0
            leafCap[Int(slot)] = cap
            return slot
        }
        leafBlock.append(block)
        leafLen.append(0)
        leafCap.append(cap)
        return Int32(leafBlock.count - 1)
    }

    /// A leaf of capacity `cap` or, when that free list is empty, the smallest larger free one; a
    /// new one when there is none.
    private func leafFit(cap: Int) -> Int32 {
        for c in (cap / Self.leafStep - 1)..<Self.leafClasses where !freeLeaf[c].isEmpty {
            return newLeaf(cap: (c + 1) * Self.leafStep)
        }
        return newLeaf(cap: cap)
    }

    /// Puts a leaf on its free list (its block kept).
    private func freeLeafSlot(_ slot: Int32) {
        freeLeaf[leafCap[Int(slot)] / Self.leafStep - 1].append(slot)
    }

    private func newInner() -> Int32 {
        if let slot = freeInner.popLast() {
            innerLen[Int(slot)] = 0
            return slot
        }
        innerLen.append(0)
        let nodes = innerLen.count
        innerBc.grow(to: nodes * Self.nodeBlocks)
        innerBs.grow(to: nodes * Self.nodeBlocks)
        innerIc.grow(to: nodes * Self.fan)
        innerIs.grow(to: nodes * Self.fan)
        innerSum.grow(to: nodes * Self.fan)
        innerCnt.grow(to: nodes * Self.fan)
        innerChild.grow(to: nodes * Self.fan)
        return Int32(nodes - 1)
    }

    private func freeInnerNode(_ slot: Int32) {
        innerLen[Int(slot)] = 0
        freeInner.append(slot)
    }

    private func releaseSubtree(_ node: Int32, height: Int) {
        if height == 0 {
            freeLeafSlot(node)
            return
        }
        let base = Int(node) * Self.fan
        for i in 0..<innerLen[Int(node)] { releaseSubtree(innerChild[base + i], height: height - 1) }
        freeInnerNode(node)
    }

    /// Keeps at most max(freeMin, live / freeShare) free leaf blocks, freeing the rest.
    private func trim() {
        let free = freeLeaf.reduce(0) { $0 + $1.count }
        let live = leafBlock.count - bareLeaf.count - free
        let keep = max(Self.freeMin, live / Self.freeShare)
        var excess = free - keep
        var c = 0
        while excess > 0 && c < Self.leafClasses {
            while excess > 0, let slot = freeLeaf[c].popLast() {
                (leafBlock[Int(slot)].map { $0 - Self.leafBlocks })?.deallocate()
                leafBlock[Int(slot)] = nil
                leafCap[Int(slot)] = 0
                bareLeaf.append(slot)
                excess -= 1
            }
            c += 1
        }
    }

    // MARK: - Leaves and nodes

    /// Makes leaf `slot`'s block prefixes match its heights from block `b0` on (zeroes the slots
    /// after its last height in its last block, pads prefixes with +infinity); returns its sum.
    private func leafFix(_ slot: Int32, from b0: Int) -> Double {
        let h = leafBlock[Int(slot)]!
        let n = leafLen[Int(slot)]
        let nb = Self.blocks(n)
        let pre = h - Self.leafBlocks
        for i in n..<nb * Self.block { h[i] = 0 }
        let b0 = min(b0, nb)
        var s = b0 > 0 ? pre[b0 - 1] : 0
        for b in b0..<nb {
            s += Self.blockSum(h + b * Self.block)
            pre[b] = s
        }
        for b in nb..<Self.leafBlocks { pre[b] = .infinity }
        return s
    }

    /// `leafFix` after one height was put in place at `off` of leaf `slot`, which held `oldCount`
    /// (the heights from `off` on moved up one slot; blocks before off's are up to date): each block
    /// prefix from off's block on gains the new height and loses the one that moved out of its
    /// block's end, two exact operations where `leafFix` adds up each block (sums of heights are
    /// exact, so both give the same bits). A block the insert opened gets its prefix and the zeros
    /// after its one height. Returns the leaf's sum.
    private func leafFixAfterInsert(_ slot: Int32, at off: Int, oldCount: Int) -> Double {
        let h = leafBlock[Int(slot)]!
        let n = leafLen[Int(slot)]
        let nb = Self.blocks(n)
        let pre = h - Self.leafBlocks
        let added = h[off]
        var b = off / Self.block
        while b + 1 < nb {
            pre[b] += added - h[(b + 1) * Self.block]
            b += 1
        }
        let last = nb - 1
        if nb > Self.blocks(oldCount) {
            for i in n..<nb * Self.block { h[i] = 0 }
            pre[last] = (last > 0 ? pre[last - 1] : 0) + h[last * Self.block]
        } else {
            pre[last] += added
        }
        return pre[last]
    }

    private func leafEntry(_ slot: Int32) -> Entry {
        Entry(node: slot, sum: leafFix(slot, from: 0), cnt: leafLen[Int(slot)])
    }

    private static func blockEnd(_ b: Int, _ n: Int) -> Int { min((b + 1) * block, n) }

    /// Recomputes node `node`'s prefixes from child `from` on (the C core's `inner_fix`).
    private func innerFix(_ node: Int32, from: Int) {
        let n = innerLen[Int(node)]
        let nb = Self.blocks(n)
        let base = Int(node) * Self.fan
        let bbase = Int(node) * Self.nodeBlocks
        let sum = innerSum.base + base, cnt = innerCnt.base + base
        let iss = innerIs.base + base, ic = innerIc.base + base
        var s = from % Self.block != 0 ? iss[from - 1] : 0
        var c = from % Self.block != 0 ? ic[from - 1] : 0
        for j in from..<n {
            if j % Self.block == 0 {
                s = 0
                c = 0
            }
            s += sum[j]
            c += cnt[j]
            iss[j] = s
            ic[j] = c
        }
        for j in n..<Self.fan {  // a guess may read past the last block
            iss[j] = .infinity
            ic[j] = .max
        }
        let bs = innerBs.base + bbase, bc = innerBc.base + bbase
        var b = min(from / Self.block, nb)
        var ps = b > 0 ? bs[b - 1] : 0
        var pc = b > 0 ? bc[b - 1] : 0
        while b < nb {
            let last = Self.blockEnd(b, n) - 1
            ps += iss[last]
            pc += ic[last]
            bs[b] = ps
            bc[b] = pc
            b += 1
        }
        for b in nb..<Self.nodeBlocks {
            bs[b] = .infinity
            bc[b] = .max
        }
    }

    private func innerSumOf(_ node: Int32) -> Double {
        let n = innerLen[Int(node)]
        return n == 0 ? 0 : innerBs[Int(node) * Self.nodeBlocks + Self.blocks(n) - 1]
    }

    private func innerCountOf(_ node: Int32) -> Int {
        let n = innerLen[Int(node)]
        return n == 0 ? 0 : innerBc[Int(node) * Self.nodeBlocks + Self.blocks(n) - 1]
    }

    private func innerEntry(_ node: Int32) -> Entry {
        innerFix(node, from: 0)
        return Entry(node: node, sum: innerSumOf(node), cnt: innerCountOf(node))
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
        (innerChild.base + d).update(from: innerChild.base + s, count: n)
        (innerSum.base + d).update(from: innerSum.base + s, count: n)
        (innerCnt.base + d).update(from: innerCnt.base + s, count: n)
    }

    /// How many of the `len` counts at `a` are at most `x`, added in four independent chains (the
    /// C core's `count_le`).
    @inline(__always)
    private static func countAtOrBelow(_ a: UnsafeMutablePointer<Int>, _ len: Int, _ x: Int) -> Int {
        var c0 = 0, c1 = 0, c2 = 0, c3 = 0
        var k = 0
        while k + 4 <= len {
            c0 += a[k] <= x ? 1 : 0
            c1 += a[k + 1] <= x ? 1 : 0
            c2 += a[k + 2] <= x ? 1 : 0
            c3 += a[k + 3] <= x ? 1 : 0
            k += 4
        }
        while k < len {
            c0 += a[k] <= x ? 1 : 0
            k += 1
        }
        return (c0 + c1) + (c2 + c3)
    }

    /// The child of `node` holding position `i` (relative to the node; the node's count lands in
    /// its last child), and `i` made relative to that child (the C core's `child_for_index`).
    @inline(__always)
    private func child(forIndex i: inout Int, of node: Int32) -> Int {
        let n = innerLen[Int(node)]
        let nb = Self.blocks(n)
        let bc = innerBc.base + Int(node) * Self.nodeBlocks
        var b = Self.countAtOrBelow(bc, Self.nodeBlocks, i)
        if b >= nb { b = nb - 1 }
        if b > 0 { i -= bc[b - 1] }
        let ic = innerIc.base + Int(node) * Self.fan + b * Self.block
        let len = Self.blockEnd(b, n) - b * Self.block
        var j = Self.countAtOrBelow(ic, Self.block, i)
        if j >= len { j = len - 1 }
        if j > 0 { i -= ic[j - 1] }
        return b * Self.block + j
    }

    /// The child of `node` holding position `i`, as `child(forIndex:of:)` finds it, with `i` made
    /// relative to that child; `guess` is `guesses` at the node's height (the C core's `child_at`).
    ///
    /// Guess and verify: the children of the nodes on one level hold similar counts, so the child
    /// is usually `floor((i + 1/2) * guess)`; its start, end and index load at positions computed
    /// from `i` alone, at once, instead of after the node's length, a search of the block prefixes
    /// and then of one block. When `j < n` and `start <= i < end` fail (and at `i == count`), the
    /// search decides. Entries past the last child are padding, so a guess past it reads the
    /// node's own slots.
    @inline(__always)
    private func child(atIndex i: inout Int, of node: Int32, guess: UInt64) -> Int {
        let x = i
        // In fixed point, as the C core does: a multiply and a shift (a wrap only makes the guess
        // wrong).
        let g = ((UInt64(truncatingIfNeeded: x) &* 2 &+ 1) &* guess) &>> (Self.guessBits + 1)
        let j = g < UInt64(Self.fan - 1) ? Int(truncatingIfNeeded: g) : Self.fan - 1
        let b = j / Self.block
        let bc = innerBc.base + Int(node) * Self.nodeBlocks
        let ic = innerIc.base + Int(node) * Self.fan
        let base = b > 0 ? bc[b - 1] : 0
        // Past the last child the padding (Int.max) wraps; those sums are never compared.
        let start = base &+ (j % Self.block != 0 ? ic[j - 1] : 0)
        let end = base &+ ic[j]
        if j < innerLen[Int(node)] && start <= x && x < end {
            i = x - start
            return j
        }
        return child(forIndex: &i, of: node)
    }

    /// Makes `guesses` for the current shape: O(inner nodes).
    private func makeGuesses() {
        var kids = [Int](repeating: 0, count: Self.guessLevels)
        func walk(_ node: Int32, _ height: Int) {
            let n = innerLen[Int(node)]
            kids[height] += n
            guard height > 1 else { return }
            for j in 0..<n { walk(innerChild[Int(node) * Self.fan + j], height - 1) }
        }
        if depth > 0 { walk(root, depth) }
        for h in kids.indices {
            guesses[h] = count > 0 ? UInt64(Double(kids[h]) / Double(count) * Double(UInt64(1) << Self.guessBits)) : 0
        }
        guessDepth = depth
        guessEdits = 0
    }

    /// Counts `k` items inserted or removed, and makes the guesses again after a change of depth
    /// or once `count / 8` have been (so a run of edits pays O(1) for them per item).
    private func noteEdits(_ k: Int) {
        guessEdits += k
        if guessDepth != depth || guessEdits > count / 8 + 64 { makeGuesses() }
    }

    /// Descends to the leaf holding position `index` (`index == count` lands at the end of the last
    /// leaf), recording the path in `pathNode`/`pathIdx`.
    private func descend(_ index: Int) -> (leaf: Int32, local: Int) {
        var i = index
        var node = root
        for d in 0..<depth {
            let j = child(atIndex: &i, of: node, guess: guesses[depth - d])
            pathNode[d] = node
            pathIdx[d] = j
            node = innerChild[Int(node) * Self.fan + j]
        }
        return (node, i)
    }

    /// After an edit inside the recorded path's leaf that made it `child` (sum `sum`) and changed
    /// the count by `dk`: on every node of the path, the changes of sum and count added to the
    /// child's entry, the in-block prefixes from it on and the block prefixes from its block on
    /// (exact, as every sum of stored heights is), then the tree's totals.
    private func fixPath(_ child: Int32, sum: Double, delta dk: Int) {
        let ds: Double
        if depth == 0 {
            root = child
            ds = sum - totalHeight
        } else {
            let base = Int(pathNode[depth - 1]) * Self.fan
            innerChild[base + pathIdx[depth - 1]] = child
            ds = sum - innerSum[base + pathIdx[depth - 1]]
        }
        var d = depth - 1
        while d >= 0 {
            let node = pathNode[d]
            let j = pathIdx[d]
            let n = innerLen[Int(node)]
            let b = j / Self.block
            let base = Int(node) * Self.fan
            innerSum[base + j] += ds
            innerCnt[base + j] += dk
            let ic = innerIc.base + base, iss = innerIs.base + base
            for q in j..<Self.blockEnd(b, n) {
                iss[q] += ds
                ic[q] += dk
            }
            let bbase = Int(node) * Self.nodeBlocks
            let bc = innerBc.base + bbase, bs = innerBs.base + bbase
            for q in b..<Self.blocks(n) {
                bs[q] += ds
                bc[q] += dk
            }
            d -= 1
        }
        totalHeight += ds
        count += dk
        if dk != 0 { noteEdits(abs(dk)) }
    }

    // MARK: - Build

    /// The heights of a tree being built: up to three concatenated pieces.
    private struct Segments {
        var parts: [UnsafeBufferPointer<Double>]
        init(_ parts: UnsafeBufferPointer<Double>...) { self.parts = parts }
        var count: Int { parts.reduce(0) { $0 + $1.count } }

        /// Copies items `from..<from + n` to `dst`, quantized (a no-op on heights the tree holds).
        func copy(from: Int, _ n: Int, to dst: UnsafeMutablePointer<Double>) {
            var from = from
            var n = n
            var dst = dst
            for part in parts where n > 0 {
                if from >= part.count {
                    from -= part.count
                    continue
                }
                let take = min(part.count - from, n)
                for i in 0..<take { dst[i] = SwiftOffsetTree.quantized(part[from + i]) }
                dst += take
                n -= take
                from = 0
            }
        }
    }

    /// Replaces the contents with `segments`, building from the tree's own leaves and nodes.
    private func rebuild(_ segments: Segments) {
        if root >= 0 { releaseSubtree(root, height: depth) }
        let n = segments.count
        let m = Self.pieces(n, max: Self.leafMax, fill: Self.leafFill)
        var entries: [Entry] = []
        entries.reserveCapacity(m)
        var from = 0
        for q in 0..<m {
            let len = n / m + (q < n % m ? 1 : 0)
            let slot = leafFit(cap: Self.builtCap(len))
            segments.copy(from: from, len, to: leafBlock[Int(slot)]!)
            leafLen[Int(slot)] = len
            from += len
            entries.append(leafEntry(slot))
        }
        depth = 0
        while entries.count > 1 {
            entries = group(entries)
            depth += 1
        }
        let top = entries[0]
        root = top.node
        totalHeight = top.sum
        count = top.cnt
        makeGuesses()  // new contents: new guesses, whatever the edits since the last ones
        trim()
    }

    /// Makes `e` the root after a structural change, counting the items it inserted or removed.
    private func setRoot(_ e: Entry) {
        root = e.node
        totalHeight = e.sum
        let k = abs(e.cnt - count)
        count = e.cnt
        noteEdits(k)
    }

    /// Distributes `entries` evenly into new inner nodes and returns their entries.
    private func group(_ entries: [Entry]) -> [Entry] {
        let t = entries.count
        let m = Self.pieces(t, max: Self.fan, fill: Self.innerFill)
        var out: [Entry] = []
        var start = 0
        for q in 0..<m {
            let node = newInner()
            let len = t / m + (q < t % m ? 1 : 0)
            for i in 0..<len { setEntry(node, i, entries[start + i]) }
            innerLen[Int(node)] = len
            start += len
            out.append(innerEntry(node))
        }
        return out
    }

    /// Replaces every item with `heights`, reusing the tree's leaves and nodes.
    /// - Complexity: O(n) for n heights.
    package func replaceAll(with heights: [Double]) throws(OffsetTreeError) {
        guard try Self.validatedSum(heights, offset: 0) < Self.maximumTotalHeight else { throw .totalHeightTooLarge }
        heights.withUnsafeBufferPointer { rebuild(Segments($0)) }
    }

    // MARK: - Queries

    /// The height of the item at `index`.
    /// - Complexity: O(log n).
    package func height(at index: Int) throws(OffsetTreeError) -> Double {
        guard index >= 0 && index < count else {
            throw .indexOutOfRange(index: index, count: count)
        }
        let (leaf, local) = descend(index)
        return leafBlock[Int(leaf)]![local]
    }

    /// The sum of the heights before `index`; `offset(of: count)` is the total.
    /// - Complexity: O(log n).
    package func offset(of index: Int) throws(OffsetTreeError) -> Double {
        guard index >= 0 && index <= count else {
            throw .indexOutOfRange(index: index, count: count)
        }
        if index == count { return totalHeight }
        var i = index
        var acc = 0.0
        var node = root
        for d in 0..<depth {
            let j = child(atIndex: &i, of: node, guess: guesses[depth - d])
            let b = j / Self.block
            if b > 0 { acc += innerBs[Int(node) * Self.nodeBlocks + b - 1] }
            if j % Self.block != 0 { acc += innerIs[Int(node) * Self.fan + j - 1] }
            node = innerChild[Int(node) * Self.fan + j]
        }
        let h = leafBlock[Int(node)]!
        let b = i / Self.block
        let r = i % Self.block
        if b > 0 { acc += (h - Self.leafBlocks)[b - 1] }
        // The heights before the item in its block, added as a tree of depth 3 rather than a chain
        // (exact in any order), as the C core does.
        let q = h + b * Self.block
        var m = SIMD8<Double>()
        for k in 0..<r { m[k] = q[k] }
        return acc + (((m[0] + m[1]) + (m[2] + m[3])) + ((m[4] + m[5]) + (m[6] + m[7])))
    }

    /// The positive-height item with `offset <= y < end` (or `offset < y <= end` when
    /// `closedRight`), exactly like the C core's `locate`. Requires `totalHeight > 0`.
    private func locate(_ y: Double, closedRight: Bool) -> Int? {
        var acc = 0.0
        var base = 0
        var node = root
        for _ in 0..<depth {
            let n = innerLen[Int(node)]
            let nb = Self.blocks(n)
            let bs = innerBs.base + Int(node) * Self.nodeBlocks
            let bc = innerBc.base + Int(node) * Self.nodeBlocks
            let fbase = Int(node) * Self.fan
            var b = 0
            if closedRight {
                for k in 0..<Self.nodeBlocks where y > acc + bs[k] { b += 1 }
            } else {
                for k in 0..<Self.nodeBlocks where y >= acc + bs[k] { b += 1 }
            }
            var j: Int
            if b >= nb {  // nothing passes y (a corrupt tree): the last positive child
                j = n - 1
                while j > 0 && !(innerSum[fbase + j] > 0) { j -= 1 }
                b = j / Self.block
            } else {
                let a = b > 0 ? acc + bs[b - 1] : acc
                let iss = innerIs.base + fbase + b * Self.block
                let len = Self.blockEnd(b, n) - b * Self.block
                var q = 0
                if closedRight {
                    for k in 0..<Self.block where y > a + iss[k] { q += 1 }
                } else {
                    for k in 0..<Self.block where y >= a + iss[k] { q += 1 }
                }
                if q >= len {  // nothing passes y (a corrupt tree): the block's last positive child
                    q = len - 1
                    while q > 0 && !(innerSum[fbase + b * Self.block + q] > 0) { q -= 1 }
                }
                j = b * Self.block + q
            }
            if b > 0 {
                acc += bs[b - 1]
                base += bc[b - 1]
            }
            if j % Self.block != 0 {
                acc += innerIs[fbase + j - 1]
                base += innerIc[fbase + j - 1]
            }
            node = innerChild[fbase + j]
        }
        let h = leafBlock[Int(node)]!
        let n = leafLen[Int(node)]
        let nb = Self.blocks(n)
        let pre = h - Self.leafBlocks
        var b = 0
        if closedRight {
            for k in 0..<Self.leafBlocks where y > acc + pre[k] { b += 1 }
        } else {
            for k in 0..<Self.leafBlocks where y >= acc + pre[k] { b += 1 }
        }
        if b >= nb {  // nothing passes y (a corrupt tree): the last block with a positive sum
            b = nb - 1
            while b > 0 && !(pre[b] > pre[b - 1]) { b -= 1 }
        }
        let a = b > 0 ? acc + pre[b - 1] : acc
        // The block's inclusive running sums, added as a tree (exact in any order), and the count
        // of those y passes, as the C core's locate does.
        let q = h + b * Self.block
        let s01 = q[0] + q[1], s45 = q[4] + q[5]
        let p3 = s01 + (q[2] + q[3]), p5 = p3 + s45
        let p = SIMD8<Double>(q[0], s01, s01 + q[2], p3, p3 + q[4], p5, p5 + q[6], p3 + (s45 + (q[6] + q[7])))
        var k = 0
        if closedRight {
            for i in 0..<Self.block where y > a + p[i] { k += 1 }
        } else {
            for i in 0..<Self.block where y >= a + p[i] { k += 1 }
        }
        let len = min(Self.block, n - b * Self.block)
        if k >= len {  // nothing passes y (a corrupt tree): the block's last positive item, if any
            k = len
            while k > 0 && !(q[k - 1] > 0) { k -= 1 }
            return k > 0 ? base + b * Self.block + k - 1 : nil
        }
        return base + b * Self.block + k
    }

    /// The item whose `[offset, offset + height)` contains `y`, or `nil`.
    /// - Complexity: O(log n).
    package func item(at y: Double) -> Int? {
        guard y >= 0 && y < totalHeight else { return nil }
        return locate(y, closedRight: false)
    }

    /// The items that intersect `range`, or `0..<0`.
    /// - Complexity: O(log n).
    package func items(intersecting range: Range<Double>) -> Range<Int> {
        let y0 = range.lowerBound
        let y1 = range.upperBound
        guard y0 < y1 && y1 > 0 && max(y0, 0) < totalHeight,
            let first = locate(max(y0, 0), closedRight: false),
            let last = locate(y1, closedRight: true)
        else { return 0..<0 }
        return first..<(max(last, first) + 1)
    }

    /// Heap bytes held: leaf blocks (the free ones included), inner-node storage, bookkeeping
    /// arrays, estimating 16 bytes of allocator bookkeeping per block.
    /// - Complexity: O(n / B), B the leaf size.
    package var memoryFootprint: Int {
        let header = 32 + 16  // array header + allocator bookkeeping per heap block
        var bytes = 0
        for (slot, block) in leafBlock.enumerated() where block != nil {
            bytes += (Self.leafBlocks + leafCap[slot]) * 8 + 16
        }
        bytes += (leafBlock.capacity + leafLen.capacity + leafCap.capacity) * 8 + 3 * header
        bytes += innerLen.capacity * 8 + header
        bytes += (innerBc.capacity + innerBs.capacity) * 8 + 2 * 16
        bytes += (innerIc.capacity + innerIs.capacity + innerSum.capacity + innerCnt.capacity) * 8 + 4 * 16
        bytes += innerChild.capacity * 4 + 16
        bytes +=
            (freeLeaf.reduce(0) { $0 + $1.capacity } + bareLeaf.capacity + freeInner.capacity) * 4
            + (Self.leafClasses + 2) * header
        return bytes + 32 * 12 + 2 * header + 64  // path buffers, the object itself
    }

    // MARK: - Edits

    /// Sets the height of the item at `index`.
    /// - Complexity: O(log n).
    package func setHeight(_ height: Double, at index: Int) throws(OffsetTreeError) {
        guard index >= 0 && index < count else {
            throw .indexOutOfRange(index: index, count: count)
        }
        guard Self.isValidHeight(height) else { throw .invalidHeight(value: height, index: index) }
        let q = Self.quantized(height)
        let (leaf, local) = descend(index)
        let h = leafBlock[Int(leaf)]!
        let delta = q - h[local]  // exact: both are multiples of 2^-16 below 2^37
        guard totalHeight + delta < Self.maximumTotalHeight else { throw .totalHeightTooLarge }
        h[local] = q
        // Counts are unchanged; every sum containing the item grows by delta (exactly), as in the
        // C core's rk_offset_tree_set: loops of fixed length over the whole array or block that add
        // 0.0 before the item's entry (no branch on where it is; the +infinity padding stays so),
        // without reading a child count.
        Self.add(delta, from: local / Self.block, to: h - Self.leafBlocks, length: Self.leafBlocks)
        var d = depth - 1
        while d >= 0 {
            let node = pathNode[d]
            let j = pathIdx[d]
            let bj = j / Self.block
            let base = Int(node) * Self.fan
            innerSum[base + j] += delta
            Self.add(delta, from: j % Self.block, to: innerIs.base + base + bj * Self.block, length: Self.block)
            Self.add(delta, from: bj, to: innerBs.base + Int(node) * Self.nodeBlocks, length: Self.nodeBlocks)
            d -= 1
        }
        totalHeight += delta
    }

    /// Adds `delta` to `a[from..<length]` and 0.0 to `a[0..<from]` (which leaves those as they
    /// are): the C core's `add_from`, a loop of fixed length with no branch on `from`.
    @inline(__always)
    private static func add(_ delta: Double, from: Int, to a: UnsafeMutablePointer<Double>, length: Int) {
        for k in 0..<length { a[k] += k >= from ? delta : 0.0 }
    }

    /// The heights of the items in `range`.
    /// - Complexity: O(log n + k) for k items.
    package func heights(in range: Range<Int>) throws(OffsetTreeError) -> [Double] {
        try checkSpan(range)
        let n = range.count
        return [Double](unsafeUninitializedCapacity: n) { heights, initialized in
            if n > 0 {
                read(root, height: depth, acc: 0, lo: range.lowerBound, hi: range.upperBound, heights.baseAddress!, nil)
            }
            initialized = n
        }
    }

    /// The offsets (each exactly `offset(of:)`'s) and heights of the items in `range`.
    /// - Complexity: O(log n + k) for k items.
    package func offsetsAndHeights(in range: Range<Int>) throws(OffsetTreeError) -> (
        offsets: [Double], heights: [Double]
    ) {
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
    package func setHeights(_ heights: [Double], startingAt index: Int) throws(OffsetTreeError) {
        guard index >= 0 && index <= count else { throw .indexOutOfRange(index: index, count: count) }
        guard heights.count <= count - index else {
            throw .indexOutOfRange(index: index + heights.count, count: count)
        }
        let sum = try Self.validatedSum(heights, offset: index)
        guard !heights.isEmpty else { return }
        let replaced = try offset(of: index + heights.count) - offset(of: index)
        guard totalHeight - replaced + sum < Self.maximumTotalHeight else { throw .totalHeightTooLarge }
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

    /// Copies items `lo..<hi` of the subtree `node` (starting at offset `acc`) to `h`, and their
    /// offsets to `off` when given, summed in `offset(of:)`'s order.
    private func read(
        _ node: Int32, height: Int, acc: Double, lo: Int, hi: Int, _ h: UnsafeMutablePointer<Double>,
        _ off: UnsafeMutablePointer<Double>?
    ) {
        if height == 0 {
            let leaf = leafBlock[Int(node)]!
            h.update(from: leaf + lo, count: hi - lo)
            guard let off else { return }
            let pre = leaf - Self.leafBlocks
            var i = lo
            while i < hi {
                let b = i / Self.block
                let end = min((b + 1) * Self.block, hi)
                var a = b > 0 ? acc + pre[b - 1] : acc
                for q in b * Self.block..<i { a += leaf[q] }
                while i < end {
                    off[i - lo] = a
                    a += leaf[i]
                    i += 1
                }
            }
            return
        }
        let base = Int(node) * Self.fan
        var start = 0
        var j = 0
        var h = h
        var off = off
        let n = innerLen[Int(node)]
        while j < n && start < hi {
            let end = start + innerCnt[base + j]
            if end > lo {
                let a = max(lo, start)
                let b = min(hi, end)
                var childAcc = acc
                if j >= Self.block { childAcc += innerBs[Int(node) * Self.nodeBlocks + j / Self.block - 1] }
                if j % Self.block != 0 { childAcc += innerIs[base + j - 1] }
                read(innerChild[base + j], height: height - 1, acc: childAcc, lo: a - start, hi: b - start, h, off)
                h += b - a
                off = off.map { $0 + (b - a) }
            }
            start = end
            j += 1
        }
    }

    /// Writes `h` over items `lo..<hi` of the subtree `node` and returns its new height sum (the
    /// C core's `set_rec`).
    private func write(_ node: Int32, height: Int, lo: Int, hi: Int, from h: UnsafePointer<Double>) -> Double {
        if height == 0 {
            let leaf = leafBlock[Int(node)]!
            for i in lo..<hi { leaf[i] = Self.quantized(h[i - lo]) }
            return leafFix(node, from: lo / Self.block)
        }
        let base = Int(node) * Self.fan
        let n = innerLen[Int(node)]
        var start = 0
        var touched = n
        var j = 0
        while j < n && start < hi {
            let end = start + innerCnt[base + j]
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
        innerFix(node, from: touched)
        return innerSumOf(node)
    }

    /// Inserts `heights` so that the first becomes the item at `index`.
    /// - Complexity: O(k + log n).
    package func insert(contentsOf heights: [Double], at index: Int) throws(OffsetTreeError) {
        try heights.withUnsafeBufferPointer { (heights) throws(OffsetTreeError) in
            try checkedInsert(heights, at: index)
        }
    }

    /// Inserts one item of height `height` at `index`, without an array.
    /// - Complexity: O(log n).
    package func insert(_ height: Double, at index: Int) throws(OffsetTreeError) {
        var value = height
        try withUnsafePointer(to: &value) { (pointer) throws(OffsetTreeError) in
            try checkedInsert(UnsafeBufferPointer(start: pointer, count: 1), at: index)
        }
    }

    /// Checks the index, the heights and the new total, then inserts: both public inserts.
    private func checkedInsert(_ heights: UnsafeBufferPointer<Double>, at index: Int) throws(OffsetTreeError) {
        guard index >= 0 && index <= count else {
            throw .indexOutOfRange(index: index, count: count)
        }
        let sum = try Self.validatedSum(heights, offset: index)
        guard totalHeight + sum < Self.maximumTotalHeight else { throw .totalHeightTooLarge }
        if heights.isEmpty { return }
        insert(heights, at: index)
    }

    private func insert(_ heights: UnsafeBufferPointer<Double>, at index: Int) {
        let k = heights.count
        if k >= count {  // rebuild: O(n + k) = O(k)
            let old = [Double](unsafeUninitializedCapacity: count) { buffer, done in
                if count > 0 { read(root, height: depth, acc: 0, lo: 0, hi: count, buffer.baseAddress!, nil) }
                done = count
            }
            old.withUnsafeBufferPointer { old in
                rebuild(
                    Segments(
                        UnsafeBufferPointer(rebasing: old[..<index]), heights,
                        UnsafeBufferPointer(rebasing: old[index...])))
            }
            return
        }
        let (leaf, off) = descend(index)
        let n = leafLen[Int(leaf)]
        let total = n + k
        if total <= Self.leafMax {
            var slot = leaf
            var fromBlock = off / Self.block
            if total > leafCap[Int(leaf)] {
                slot = newLeaf(cap: Self.roundCap(total))
                let old = leafBlock[Int(leaf)]!
                let new = leafBlock[Int(slot)]!
                new.update(from: old, count: off)
                (new + off + k).update(from: old + off, count: n - off)
                freeLeafSlot(leaf)
                fromBlock = 0
            } else {
                let h = leafBlock[Int(leaf)]!
                (h + off + k).update(from: h + off, count: n - off)
            }
            let h = leafBlock[Int(slot)]!
            for i in 0..<k { h[off + i] = Self.quantized(heights[i]) }
            leafLen[Int(slot)] = total
            let sum =
                slot == leaf && k == 1 ? leafFixAfterInsert(slot, at: off, oldCount: n) : leafFix(slot, from: fromBlock)
            fixPath(slot, sum: sum, delta: k)
            if slot != leaf { trim() }
            return
        }
        // Split the leaf into pieces, then the nodes up the path as needed.
        let old = leafBlock[Int(leaf)]!
        let segments = Segments(
            UnsafeBufferPointer(start: old, count: off), heights, UnsafeBufferPointer(start: old + off, count: n - off))
        let m = Self.pieces(total, max: Self.leafMax, fill: Self.leafFill)
        pieces.removeAll(keepingCapacity: true)
        var from = 0
        for q in 0..<m {
            let len = total / m + (q < total % m ? 1 : 0)
            let slot = newLeaf(cap: Self.roundCap(len))
            segments.copy(from: from, len, to: leafBlock[Int(slot)]!)
            leafLen[Int(slot)] = len
            from += len
            pieces.append(leafEntry(slot))
        }
        freeLeafSlot(leaf)
        var d = depth - 1
        while d >= 0 {
            let node = pathNode[d]
            let j = pathIdx[d]
            let mb = pieces.count
            defer { d -= 1 }
            if mb == 1 {
                setEntry(node, j, pieces[0])
                pieces[0] = innerEntry(node)
                continue
            }
            let n = innerLen[Int(node)]
            let tl = n - 1 + mb
            if tl <= Self.fan {
                moveEntries(node, j + mb, node, j + 1, n - j - 1)
                for q in 0..<mb { setEntry(node, j + q, pieces[q]) }
                innerLen[Int(node)] = tl
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
                innerLen[Int(dst)] = len
                start += len
                pieces.append(innerEntry(dst))
            }
        }
        while pieces.count > 1 {
            pieces = group(pieces)
            depth += 1
        }
        setRoot(pieces[0])
        trim()
    }

    /// Removes the items in `range`.
    /// - Complexity: O(k + log n).
    package func removeSubrange(_ range: Range<Int>) throws(OffsetTreeError) {
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
            rebuild(Segments())
            return
        }
        let (leaf, off) = descend(at)
        let n = leafLen[Int(leaf)]
        if off + k <= n && (depth == 0 || n - k >= Self.leafMin) {
            let left = n - k
            let want = Self.roundCap(left)
            var slot = leaf
            var fromBlock = off / Self.block
            if leafCap[Int(leaf)] > want + Self.leafStep {  // shrink to the items' capacity
                slot = newLeaf(cap: want)
                let old = leafBlock[Int(leaf)]!
                let new = leafBlock[Int(slot)]!
                new.update(from: old, count: off)
                (new + off).update(from: old + off + k, count: left - off)
                freeLeafSlot(leaf)
                fromBlock = 0
            } else {
                let h = leafBlock[Int(leaf)]!
                (h + off).update(from: h + off + k, count: left - off)
            }
            leafLen[Int(slot)] = left
            fixPath(slot, sum: leafFix(slot, from: fromBlock), delta: -k)
            if slot != leaf { trim() }
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
        trim()
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
        let n = innerLen[Int(node)]
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
                releaseSubtree(child, height: height - 1)
                continue
            }
            let l = max(lo, c0) - c0
            let u = min(hi, c1) - c0
            if height == 1 {
                let h = leafBlock[Int(child)]!
                let len = leafLen[Int(child)]
                (h + l).update(from: h + u, count: len - u)
                leafLen[Int(child)] = len - (u - l)
            } else {
                removeRecursively(child, height: height - 1, lo: l, hi: u)
            }
            setEntry(node, w, entry(of: child, height: height - 1))
            w += 1
        }
        innerLen[Int(node)] = w
        if w >= 2 { fixNode(node, height: height) }
    }

    private func isUnderfull(_ child: Int32, height: Int) -> Bool {
        height == 0 ? leafLen[Int(child)] < Self.leafMin : innerLen[Int(child)] < Self.innerMin
    }

    /// Makes child `i` of `node` (a leaf) able to hold `need` heights, moving it to a larger leaf.
    private func ensureCapacity(_ node: Int32, _ i: Int, _ need: Int) -> Int32 {
        let slot = innerChild[Int(node) * Self.fan + i]
        if leafCap[Int(slot)] >= need { return slot }
        let bigger = newLeaf(cap: Self.leafMax)
        leafBlock[Int(bigger)]!.update(from: leafBlock[Int(slot)]!, count: leafLen[Int(slot)])
        leafLen[Int(bigger)] = leafLen[Int(slot)]
        freeLeafSlot(slot)
        innerChild[Int(node) * Self.fan + i] = bigger
        return bigger
    }

    /// Merges or redistributes underfull children of `node` with a neighbour until every child
    /// meets its minimum, fixing merged nodes recursively (the C core's `fix_node`).
    private func fixNode(_ node: Int32, height: Int) {
        let ch = height - 1
        while true {
            let n = innerLen[Int(node)]
            if n < 2 { return }
            var j = 0
            while j < n && !isUnderfull(getEntry(node, j).node, height: ch) { j += 1 }
            if j == n { return }
            let a = j + 1 < n ? j : j - 1
            let b = a + 1
            if ch == 0 {
                var ea = getEntry(node, a).node
                var eb = getEntry(node, b).node
                let na = leafLen[Int(ea)]
                let nb = leafLen[Int(eb)]
                let tot = na + nb
                if tot <= Self.leafMax {
                    ea = ensureCapacity(node, a, tot)
                    (leafBlock[Int(ea)]! + na).update(from: leafBlock[Int(eb)]!, count: nb)
                    leafLen[Int(ea)] = tot
                    freeLeafSlot(eb)
                    moveEntries(node, b, node, b + 1, n - b - 1)
                    innerLen[Int(node)] = n - 1
                    setEntry(node, a, leafEntry(ea))
                } else {
                    let ta = tot / 2
                    if na < ta {
                        let mv = ta - na
                        ea = ensureCapacity(node, a, ta)
                        let hb = leafBlock[Int(eb)]!
                        (leafBlock[Int(ea)]! + na).update(from: hb, count: mv)
                        hb.update(from: hb + mv, count: nb - mv)
                    } else {
                        let mv = na - ta
                        eb = ensureCapacity(node, b, tot - ta)
                        let hb = leafBlock[Int(eb)]!
                        (hb + mv).update(from: hb, count: nb)
                        hb.update(from: leafBlock[Int(ea)]! + ta, count: mv)
                    }
                    leafLen[Int(ea)] = ta
                    leafLen[Int(eb)] = tot - ta
                    setEntry(node, a, leafEntry(ea))
                    setEntry(node, b, leafEntry(eb))
                }
            } else {
                let ea = getEntry(node, a).node
                let eb = getEntry(node, b).node
                let na = innerLen[Int(ea)]
                let nb = innerLen[Int(eb)]
                let tot = na + nb
                if tot <= Self.fan {
                    moveEntries(ea, na, eb, 0, nb)
                    innerLen[Int(ea)] = tot
                    freeInnerNode(eb)
                    moveEntries(node, b, node, b + 1, n - b - 1)
                    innerLen[Int(node)] = n - 1
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
                    innerLen[Int(ea)] = ta
                    innerLen[Int(eb)] = tot - ta
                    fixNode(ea, height: ch)
                    fixNode(eb, height: ch)
                    setEntry(node, a, innerEntry(ea))
                    setEntry(node, b, innerEntry(eb))
                }
            }
        }
    }
}
