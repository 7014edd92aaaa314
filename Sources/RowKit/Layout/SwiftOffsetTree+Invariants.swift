extension SwiftOffsetTree {
    /// Checks counts, sums (bit-identical to a fresh summation), fill bounds, equal leaf depth,
    /// valid heights and slot bookkeeping. Always checks, in every build configuration.
    /// - Throws: ``OffsetTreeError/corrupted(_:)`` naming the broken invariant.
    /// - Complexity: O(n).
    public func checkInvariants() throws(OffsetTreeError) {
        var liveLeaves = 0
        var liveInner = 0
        func check(_ node: Int32, height: Int, isRoot: Bool) throws(OffsetTreeError) -> (
            Double, Int
        ) {
            if height == 0 {
                guard leaves.indices.contains(Int(node)) else { throw .corrupted("bad leaf slot") }
                liveLeaves += 1
                let leaf = leaves[Int(node)]
                if leaf.count > Self.leafMax { throw .corrupted("leaf above maximum fill") }
                if !isRoot && leaf.count < Self.leafMin {
                    throw .corrupted("non-root leaf below minimum fill")
                }
                if leaf.contains(where: { !($0.isFinite && $0 >= 0) || $0.sign == .minus }) {
                    throw .corrupted("invalid height stored")
                }
                return (leaf.withUnsafeBufferPointer(Self.sum), leaf.count)
            }
            guard innerLen.indices.contains(Int(node)) else { throw .corrupted("bad inner slot") }
            liveInner += 1
            let n = Int(innerLen[Int(node)])
            if n > Self.fan || n < (isRoot ? 2 : Self.innerMin) {
                throw .corrupted("inner node child count out of bounds")
            }
            let base = Int(node) * Self.fan
            var sums: [Double] = []
            var total = 0
            for i in 0..<n {
                let (s, c) = try check(innerChild[base + i], height: height - 1, isRoot: false)
                if c != innerCnt[base + i] {
                    throw .corrupted("cached child count differs from the child's item count")
                }
                if s != innerSum[base + i] {
                    throw .corrupted("cached child sum differs from a fresh summation")
                }
                sums.append(s)
                total += c
            }
            return (sums.withUnsafeBufferPointer(Self.sum), total)
        }
        let (sum, cnt) = try check(root, height: depth, isRoot: true)
        if cnt != count { throw .corrupted("tree count differs from the root's count") }
        if sum != totalHeight { throw .corrupted("tree total differs from the root's sum") }
        if liveLeaves + freeLeaves.count != leaves.count {
            throw .corrupted("leaf slots leaked or double-freed")
        }
        if liveInner + freeInner.count != innerLen.count {
            throw .corrupted("inner slots leaked or double-freed")
        }
        if innerSum.count != innerLen.count * Self.fan {
            throw .corrupted("inner storage stride broken")
        }
    }
}
