import CCore

/// An ``OffsetTree`` backed by the C core's counted B+-tree (`rk_offset_tree`).
///
/// The only Swift file that calls the C offset-tree API: it owns the handle, destroys it in
/// `deinit`, and turns `rk_status` codes into ``OffsetTreeError``. Not `Sendable`: a mutable
/// reference type; confine each tree to one isolation domain.
package final class COffsetTree: OffsetTree {
    @usableFromInline let handle: OpaquePointer

    /// Creates a tree holding `heights`, in order.
    /// - Throws: ``OffsetTreeError/invalidHeight(value:index:)``,
    ///   ``OffsetTreeError/totalHeightTooLarge``, ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(n).
    package init(heights: [Double]) throws(OffsetTreeError) {
        var out: OpaquePointer?
        var bad = 0
        let status = heights.withUnsafeBufferPointer { buffer in
            rk_offset_tree_build(buffer.baseAddress, buffer.count, &out, &bad)
        }
        try Self.check(status, index: 0, count: 0, heights: heights, badOffset: 0, bad: bad)
        guard let out else { throw .outOfMemory }
        handle = out
    }

    deinit {
        rk_offset_tree_destroy(handle)
    }

    /// The number of items.
    /// - Complexity: O(1).
    package var count: Int { rk_offset_tree_count(handle) }

    /// The sum of all heights.
    /// - Complexity: O(1).
    package var totalHeight: Double { rk_offset_tree_total(handle) }

    /// The height of the item at `index`.
    /// - Complexity: O(log n).
    package func height(at index: Int) throws(OffsetTreeError) -> Double {
        guard index >= 0 else { throw .indexOutOfRange(index: index, count: count) }
        var value = 0.0
        try Self.check(rk_offset_tree_height(handle, index, &value), index: index, count: count)
        return value
    }

    /// The sum of the heights before `index`; `offset(of: count)` is the total.
    /// - Complexity: O(log n).
    @inlinable
    package func offset(of index: Int) throws(OffsetTreeError) -> Double {
        // By value, not through `&value`: a local whose address is taken costs every call a stack
        // guard. A negative index is a size_t past the count, so it gets RK_NO_OFFSET too.
        let value = rk_offset_tree_offset_of(handle, index)
        if value < 0 { throw .indexOutOfRange(index: index, count: count) }
        return value
    }

    /// The item whose `[offset, offset + height)` contains `y`, or `nil`.
    /// - Complexity: O(log n).
    @inlinable
    package func item(at y: Double) -> Int? {
        let found = rk_offset_tree_item_at(handle, y)
        // RK_NOT_FOUND is SIZE_MAX, which size_t-as-Int turns into -1; valid indices are < 2^48.
        return found < 0 ? nil : found
    }

    /// The items that intersect `range`, or `0..<0`.
    /// - Complexity: O(log n).
    package func items(intersecting range: Range<Double>) -> Range<Int> {
        var first = 0
        var end = 0
        rk_offset_tree_range(handle, range.lowerBound, range.upperBound, &first, &end)
        return first..<end
    }

    /// Sets the height of the item at `index`.
    /// - Complexity: O(log n).
    @inlinable
    package func setHeight(_ height: Double, at index: Int) throws(OffsetTreeError) {
        guard index >= 0 else { throw .indexOutOfRange(index: index, count: count) }
        let status = rk_offset_tree_set(handle, index, height)
        if status != RK_OK { try setFailed(status, height: height, index: index) }
    }

    /// The error for a set that `rk_offset_tree_set` refused (out of line: the inlined
    /// `setHeight(_:at:)` stays a call and a compare).
    @usableFromInline
    func setFailed(_ status: rk_status, height: Double, index: Int) throws(OffsetTreeError) {
        if status == RK_ERR_HEIGHT { throw .invalidHeight(value: height, index: index) }
        try Self.check(status, index: index, count: count)
    }

    /// The heights of the items in `range`.
    /// - Complexity: O(log n + k) for k items.
    package func heights(in range: Range<Int>) throws(OffsetTreeError) -> [Double] {
        try read(range, offsets: false).heights
    }

    /// The offsets (each exactly `offset(of:)`'s) and heights of the items in `range`.
    /// - Complexity: O(log n + k) for k items.
    package func offsetsAndHeights(in range: Range<Int>) throws(OffsetTreeError) -> (
        offsets: [Double], heights: [Double]
    ) {
        try read(range, offsets: true)
    }

    private func read(_ range: Range<Int>, offsets wantsOffsets: Bool) throws(OffsetTreeError) -> (
        offsets: [Double], heights: [Double]
    ) {
        let count = self.count
        guard range.lowerBound >= 0, range.lowerBound <= count else {
            throw .indexOutOfRange(index: range.lowerBound, count: count)
        }
        guard range.upperBound <= count else { throw .indexOutOfRange(index: range.upperBound, count: count) }
        let n = range.count
        var offsets: [Double] = []
        let heights = [Double](unsafeUninitializedCapacity: n) { heights, initialized in
            if wantsOffsets {
                offsets = [Double](unsafeUninitializedCapacity: n) { offsets, done in
                    _ = rk_offset_tree_read(handle, range.lowerBound, n, heights.baseAddress, offsets.baseAddress)
                    done = n
                }
            } else {
                _ = rk_offset_tree_read(handle, range.lowerBound, n, heights.baseAddress, nil)
            }
            initialized = n
        }
        return (offsets, heights)
    }

    /// Sets the heights of the items from `index` on to `heights`.
    /// - Complexity: O(log n + k) for k heights.
    package func setHeights(_ heights: [Double], startingAt index: Int) throws(OffsetTreeError) {
        let count = self.count
        guard index >= 0, index <= count else { throw .indexOutOfRange(index: index, count: count) }
        guard heights.count <= count - index else {
            throw .indexOutOfRange(index: index + heights.count, count: count)
        }
        var bad = 0
        let status = heights.withUnsafeBufferPointer { buffer in
            rk_offset_tree_set_range(handle, index, buffer.baseAddress, buffer.count, &bad)
        }
        try Self.check(status, index: index, count: count, heights: heights, badOffset: index, bad: bad)
    }

    /// Inserts one item of height `height` at `index`, without an array.
    /// - Complexity: O(log n).
    package func insert(_ height: Double, at index: Int) throws(OffsetTreeError) {
        guard index >= 0 else { throw .indexOutOfRange(index: index, count: count) }
        var value = height
        let status = rk_offset_tree_insert(handle, index, &value, 1, nil)
        if status == RK_OK { return }
        try Self.check(status, index: index, count: count, heights: [height], badOffset: index)
    }

    /// Inserts `heights` so that the first becomes the item at `index`.
    /// - Complexity: O(k + log n).
    package func insert(contentsOf heights: [Double], at index: Int) throws(OffsetTreeError) {
        guard index >= 0 else { throw .indexOutOfRange(index: index, count: count) }
        var bad = 0
        let status = heights.withUnsafeBufferPointer { buffer in
            rk_offset_tree_insert(handle, index, buffer.baseAddress, buffer.count, &bad)
        }
        try Self.check(
            status, index: index, count: count, heights: heights, badOffset: index, bad: bad)
    }

    /// Removes the items in `range`.
    /// - Complexity: O(k + log n).
    package func removeSubrange(_ range: Range<Int>) throws(OffsetTreeError) {
        guard range.lowerBound >= 0 else {
            throw .indexOutOfRange(index: range.lowerBound, count: count)
        }
        let status = rk_offset_tree_remove(handle, range.lowerBound, range.count)
        let culprit = range.lowerBound > count ? range.lowerBound : range.upperBound
        try Self.check(status, index: culprit, count: count)
    }

    /// Replaces every item with `heights`, reusing the C tree's nodes (`rk_offset_tree_assign`).
    /// - Complexity: O(n) for n heights.
    package func replaceAll(with heights: [Double]) throws(OffsetTreeError) {
        var bad = 0
        let status = heights.withUnsafeBufferPointer { buffer in
            rk_offset_tree_assign(handle, buffer.baseAddress, buffer.count, &bad)
        }
        try Self.check(status, index: 0, count: count, heights: heights, badOffset: 0, bad: bad)
    }

    /// Heap bytes the C tree holds, the blocks it keeps for reuse included.
    /// - Complexity: O(1).
    package var memoryFootprint: Int { rk_offset_tree_bytes(handle) }

    /// Runs `rk_offset_tree_check` (a no-op unless the C core has `RK_INTERNAL_CHECKS`).
    /// - Complexity: O(n).
    package func checkInvariants() throws(OffsetTreeError) {
        var message: UnsafePointer<CChar>?
        if rk_offset_tree_check(handle, &message) != RK_OK {
            throw .corrupted(message.map { String(cString: $0) } ?? "unknown invariant")
        }
    }

    /// Whether the C core was compiled with `RK_INTERNAL_CHECKS`.
    package static var internalChecksEnabled: Bool { rk_internal_checks_enabled() != 0 }

    /// Test hook: makes the `n`-th next C-core allocation on this thread (and all after it) fail;
    /// a negative `n` turns failures off. Returns `false` when the C core lacks the hook.
    @discardableResult
    package static func failAllocations(after n: Int) -> Bool {
        rk_debug_fail_alloc_after(n) == RK_OK
    }

    /// Turns a status into an error. `count` is only read when the status is one (it is a call
    /// into the C core, which a successful operation should not pay for).
    @inline(__always)
    private static func check(
        _ status: rk_status, index: Int, count: @autoclosure () -> Int, heights: [Double] = [], badOffset: Int = 0,
        bad: Int = 0
    ) throws(OffsetTreeError) {
        if status == RK_OK { return }
        try fail(status, index: index, count: count(), heights: heights, badOffset: badOffset, bad: bad)
    }

    @inline(never)
    private static func fail(
        _ status: rk_status, index: Int, count: Int, heights: [Double], badOffset: Int, bad: Int
    ) throws(OffsetTreeError) {
        switch status {
        case RK_OK: return
        case RK_ERR_RANGE: throw .indexOutOfRange(index: index, count: count)
        case RK_ERR_HEIGHT:
            let value = heights.indices.contains(bad) ? heights[bad] : .nan
            throw .invalidHeight(value: value, index: badOffset + bad)
        // Overflow is of the count or of the total: a count beyond RK_OFFSET_TREE_MAX_COUNT (2^48)
        // could not be allocated either, so the heights' total is what an edit can overflow.
        case RK_ERR_OVERFLOW: throw count + heights.count > 1 << 48 ? .outOfMemory : .totalHeightTooLarge
        case RK_ERR_NOMEM: throw .outOfMemory
        default: throw .corrupted("unexpected status \(String(cString: rk_status_name(status)))")
        }
    }
}
