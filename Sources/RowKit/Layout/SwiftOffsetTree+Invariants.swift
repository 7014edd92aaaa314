extension SwiftOffsetTree {
    /// Checks counts, sums and prefixes (bit-identical to a fresh summation), block padding, fill
    /// bounds, equal leaf depth, valid heights and slot bookkeeping. Always checks, in every build
    /// configuration.
    /// - Throws: ``OffsetTreeError/corrupted(_:)`` naming the broken invariant.
    /// - Complexity: O(n).
    package func checkInvariants() throws(OffsetTreeError) {
        var liveLeaves = 0
        var liveInner = 0
        func checkLeaf(_ slot: Int32, isRoot: Bool) throws(OffsetTreeError) -> (Double, Int) {
            guard leafBlock.indices.contains(Int(slot)), let h = leafBlock[Int(slot)] else {
                throw .corrupted("bad leaf slot")
            }
            liveLeaves += 1
            let n = leafLen[Int(slot)]
            let cap = leafCap[Int(slot)]
            if n > cap || cap > Self.leafMax || cap == 0 || cap % Self.leafStep != 0 {
                throw .corrupted("leaf count or capacity out of bounds")
            }
            if !isRoot && n < Self.leafMin { throw .corrupted("non-root leaf below minimum fill") }
            for i in 0..<n where !Self.isValidHeight(h[i]) || h[i].sign == .minus {
                throw .corrupted("invalid height stored")
            }
            for i in 0..<n where Self.quantized(h[i]) != h[i] {
                throw .corrupted("height stored is not a multiple of 2^-16")
            }
            let nb = (n + Self.block - 1) / Self.block
            for i in n..<nb * Self.block where h[i] != 0 || h[i].sign == .minus {
                throw .corrupted("leaf slot after the last height is not +0.0")
            }
            let pre = h - Self.leafBlocks
            var s = 0.0
            for b in 0..<nb {
                s += Self.blockSum(h + b * Self.block)
                if pre[b] != s { throw .corrupted("cached block prefix differs from the running sum of the blocks") }
            }
            for b in nb..<Self.leafBlocks where pre[b] != .infinity {
                throw .corrupted("block prefix after the last block is not +infinity")
            }
            return (s, n)
        }
        func check(_ node: Int32, height: Int, isRoot: Bool) throws(OffsetTreeError) -> (Double, Int) {
            if height == 0 { return try checkLeaf(node, isRoot: isRoot) }
            guard innerLen.indices.contains(Int(node)) else { throw .corrupted("bad inner slot") }
            liveInner += 1
            let n = innerLen[Int(node)]
            if n > Self.fan || n < (isRoot ? 2 : Self.innerMin) {
                throw .corrupted("inner node child count out of bounds")
            }
            let base = Int(node) * Self.fan
            let bbase = Int(node) * Self.nodeBlocks
            for i in 0..<n {
                let (s, c) = try check(innerChild[base + i], height: height - 1, isRoot: false)
                if c != innerCnt[base + i] {
                    throw .corrupted("cached child count differs from the child's item count")
                }
                if s != innerSum[base + i] { throw .corrupted("cached child sum differs from a fresh summation") }
            }
            let nb = (n + Self.block - 1) / Self.block
            var bs = 0.0
            var bc = 0
            for b in 0..<nb {
                var s = 0.0
                var c = 0
                for j in b * Self.block..<min((b + 1) * Self.block, n) {
                    s += innerSum[base + j]
                    c += innerCnt[base + j]
                    if innerIs[base + j] != s || innerIc[base + j] != c {
                        throw .corrupted("cached in-block prefix differs from the running sum of the children")
                    }
                }
                bs += s
                bc += c
                if innerBs[bbase + b] != bs || innerBc[bbase + b] != bc {
                    throw .corrupted("cached block prefix differs from the running sum of the blocks")
                }
            }
            for j in n..<nb * Self.block where innerIs[base + j] != .infinity || innerIc[base + j] != .max {
                throw .corrupted("in-block prefix after the last child is not padding")
            }
            for b in nb..<Self.nodeBlocks where innerBs[bbase + b] != .infinity || innerBc[bbase + b] != .max {
                throw .corrupted("block prefix after the last block is not padding")
            }
            return (bs, bc)
        }
        let (sum, cnt) = try check(root, height: depth, isRoot: true)
        if cnt != count { throw .corrupted("tree count differs from the root's count") }
        if sum != totalHeight { throw .corrupted("tree total differs from the root's sum") }
        if !(totalHeight < Self.maximumTotalHeight) { throw .corrupted("tree total at or beyond maximumTotalHeight") }
        for (c, slots) in freeLeaf.enumerated() {
            for slot in slots where leafBlock[Int(slot)] == nil || leafCap[Int(slot)] != (c + 1) * Self.leafStep {
                throw .corrupted("free leaf in the wrong class")
            }
        }
        if liveLeaves + freeLeaf.reduce(0, { $0 + $1.count }) + bareLeaf.count != leafBlock.count {
            throw .corrupted("leaf slots leaked or double-freed")
        }
        if liveInner + freeInner.count != innerLen.count { throw .corrupted("inner slots leaked or double-freed") }
    }
}
