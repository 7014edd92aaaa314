/// A sequence of items with finite, non-negative heights that answers "where is item i" and
/// "which item is at offset y" in logarithmic time while items are inserted and removed.
///
/// The table engine keeps one entry per row, header and footer; the offset of an item is the sum
/// of the heights before it. Two implementations run the same counted B+-tree: ``COffsetTree``
/// (the C core) and ``SwiftOffsetTree`` (a pure-Swift baseline). Code written against this
/// protocol runs on either.
///
/// Heights are stored exactly enough to add up exactly: each is rounded to the nearest multiple of
/// ``heightQuantum`` (2^-16 of a point), and the total stays below ``maximumTotalHeight`` (2^37
/// points), so every sum of heights is an integer number of quanta below 2^53, which a `Double`
/// holds exactly. A tree returns the rounded heights, and every offset is the exact sum of the
/// heights before it, however the tree was edited.
///
/// Answers that do not exist are `nil` or empty, never a sentinel index: ``item(at:)`` returns
/// `nil` for y outside `[0, totalHeight)` (and for NaN), and ``items(intersecting:)`` returns
/// `0..<0` when nothing intersects. Every throwing member leaves the tree exactly as it was when
/// it throws.
package protocol OffsetTree: AnyObject {
    /// Creates a tree holding `heights`, in order.
    /// - Throws: ``OffsetTreeError/invalidHeight(value:index:)`` for a NaN, infinite, negative or
    ///   too large height; ``OffsetTreeError/totalHeightTooLarge``; ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(n).
    init(heights: [Double]) throws(OffsetTreeError)

    /// The number of items.
    /// - Complexity: O(1).
    var count: Int { get }

    /// The sum of all heights (0 when empty).
    /// - Complexity: O(1).
    var totalHeight: Double { get }

    /// The height of the item at `index`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)`` unless `0 <= index < count`.
    /// - Complexity: O(log n).
    func height(at index: Int) throws(OffsetTreeError) -> Double

    /// The sum of the heights before `index`; `offset(of: count)` is ``totalHeight``.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)`` unless `0 <= index <= count`.
    /// - Complexity: O(log n).
    func offset(of index: Int) throws(OffsetTreeError) -> Double

    /// The item whose `[offset, offset + height)` contains `y`, or `nil` when `y` is NaN, negative
    /// or at least ``totalHeight``. Zero-height items are never returned.
    /// - Complexity: O(log n).
    func item(at y: Double) -> Int?

    /// The items that intersect `range`: from the item at `max(range.lowerBound, 0)` through the last
    /// positive-height item that starts before `range.upperBound`, including zero-height items
    /// between them; `0..<0` when nothing intersects.
    /// - Complexity: O(log n).
    func items(intersecting range: Range<Double>) -> Range<Int>

    /// Sets the height of the item at `index`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``,
    ///   ``OffsetTreeError/invalidHeight(value:index:)``, ``OffsetTreeError/totalHeightTooLarge``.
    /// - Complexity: O(log n).
    func setHeight(_ height: Double, at index: Int) throws(OffsetTreeError)

    /// The heights of the items in `range`, in order, read in one pass instead of one descent per
    /// item.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)`` unless `range` lies in
    ///   `0...count`.
    /// - Complexity: O(log n + k) for k items.
    func heights(in range: Range<Int>) throws(OffsetTreeError) -> [Double]

    /// The offsets and heights of the items in `range`, in order, read in one pass. Each offset is
    /// exactly (bit for bit) what ``offset(of:)`` returns for that item, so positions read in bulk
    /// and one at a time always agree.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)`` unless `range` lies in
    ///   `0...count`.
    /// - Complexity: O(log n + k) for k items.
    func offsetsAndHeights(in range: Range<Int>) throws(OffsetTreeError) -> (offsets: [Double], heights: [Double])

    /// Sets the heights of the items from `index` on to `heights`, in one pass instead of one
    /// ``setHeight(_:at:)`` per item.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)`` unless the items
    ///   `index..<index + heights.count` exist, ``OffsetTreeError/invalidHeight(value:index:)``
    ///   (nothing is set if any height is bad; the index is the item the bad height was for),
    ///   ``OffsetTreeError/totalHeightTooLarge``.
    /// - Complexity: O(log n + k) for k heights.
    func setHeights(_ heights: [Double], startingAt index: Int) throws(OffsetTreeError)

    /// Inserts `heights` so that the first becomes the item at `index` (`0 <= index <= count`).
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``,
    ///   ``OffsetTreeError/invalidHeight(value:index:)`` (nothing is inserted if any height is bad;
    ///   the index is the one the bad height would have had), ``OffsetTreeError/totalHeightTooLarge``,
    ///   ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(k + log n) for k heights.
    func insert(contentsOf heights: [Double], at index: Int) throws(OffsetTreeError)

    /// Inserts one item of height `height` so that it becomes the item at `index`
    /// (`0 <= index <= count`): `insert(contentsOf: [height], at: index)` without the array.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``,
    ///   ``OffsetTreeError/invalidHeight(value:index:)``, ``OffsetTreeError/totalHeightTooLarge``,
    ///   ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(log n).
    func insert(_ height: Double, at index: Int) throws(OffsetTreeError)

    /// Removes the items in `range`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)`` unless `range` lies in
    ///   `0..<count` (or is empty at `count`), ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(k + log n) for k removed items.
    func removeSubrange(_ range: Range<Int>) throws(OffsetTreeError)

    /// Replaces every item with `heights`, as a new tree of them would hold them, reusing the
    /// tree's own memory (its nodes, and the blocks it keeps for reuse) instead of allocating
    /// anew: the rebuild a view makes when it reloads everything.
    /// - Throws: ``OffsetTreeError/invalidHeight(value:index:)``,
    ///   ``OffsetTreeError/totalHeightTooLarge`` (the tree is unchanged), ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(n) for n heights.
    func replaceAll(with heights: [Double]) throws(OffsetTreeError)

    /// Heap bytes the tree holds (nodes, leaves, allocator bookkeeping estimated at 16 bytes per
    /// block).
    /// - Complexity: O(1) for ``COffsetTree``; O(n / B) for ``SwiftOffsetTree``, B the leaf size.
    var memoryFootprint: Int { get }

    /// Checks every structural invariant (counts, sums, fill bounds, depth).
    /// ``COffsetTree`` only checks when the C core is built with `RK_INTERNAL_CHECKS` (debug builds).
    /// - Throws: ``OffsetTreeError/corrupted(_:)`` naming the broken invariant.
    /// - Complexity: O(n).
    func checkInvariants() throws(OffsetTreeError)
}

extension OffsetTree {
    /// Heights are stored rounded to the nearest multiple of this: 2^-16 (1/65536 of a point).
    package static var heightQuantum: Double { 0x1p-16 }

    /// The sum of a tree's heights stays below this: 2^37 points (about 1.4 × 10^11). A height at
    /// or above it is invalid; an edit that would bring the total to it throws
    /// ``OffsetTreeError/totalHeightTooLarge``.
    package static var maximumTotalHeight: Double { 0x1p37 }

    /// Whether `height` is one a tree accepts: finite, at least 0 and below ``maximumTotalHeight``.
    package static func isValidHeight(_ height: Double) -> Bool { height >= 0 && height < maximumTotalHeight }

    /// `height` (valid) rounded to the nearest multiple of ``heightQuantum``, ties to even, -0.0 made
    /// +0.0: scaled by 2^16 (exactly), a value below 2^52 rounds to an integer when 2^52 is added
    /// and subtracted again; one from 2^52 on is an integer already. The C core's `quantize`.
    @inline(__always)
    package static func quantized(_ height: Double) -> Double {
        var x = height * 0x1p16
        if x < 0x1p52 { x = (x + 0x1p52) - 0x1p52 }
        return x * 0x1p-16 + 0.0
    }

    /// Replaces every item with `heights`: removes all, then inserts them (a conforming type that
    /// can reuse its memory overrides this).
    /// - Complexity: O(n) for n heights.
    package func replaceAll(with heights: [Double]) throws(OffsetTreeError) {
        if let bad = heights.firstIndex(where: { !Self.isValidHeight($0) }) {
            throw .invalidHeight(value: heights[bad], index: bad)
        }
        // Checked before anything is removed, so a refused call leaves the tree as it was.
        guard heights.reduce(0, { $0 + Self.quantized($1) }) < Self.maximumTotalHeight else {
            throw .totalHeightTooLarge
        }
        try removeSubrange(0..<count)
        try insert(contentsOf: heights, at: 0)
    }

    /// Inserts one item: `insert(contentsOf: [height], at: index)` (a conforming type that can
    /// insert one height without an array overrides this).
    /// - Complexity: O(log n).
    package func insert(_ height: Double, at index: Int) throws(OffsetTreeError) {
        try insert(contentsOf: [height], at: index)
    }

    /// Creates an empty tree.
    /// - Complexity: O(1).
    package init() {
        do {
            try self.init(heights: [])
        } catch {
            fatalError("cannot allocate an empty offset tree: \(error)")
        }
    }
}
