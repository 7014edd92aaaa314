/// Why an ``OffsetTree`` call was refused. The tree is unchanged whenever one is thrown.
package enum OffsetTreeError: Error, Equatable, Sendable {
    /// `index` is outside the valid range for a tree of `count` items.
    case indexOutOfRange(index: Int, count: Int)
    /// `value` (NaN, infinite, negative, or at least ``OffsetTree/maximumTotalHeight``) was given
    /// as the height of the item at `index`.
    case invalidHeight(value: Double, index: Int)
    /// The edit would bring the sum of all heights to ``OffsetTree/maximumTotalHeight`` or beyond.
    case totalHeightTooLarge
    /// An allocation failed; nothing was changed.
    case outOfMemory
    /// The invariant checker found a broken invariant, described by the message.
    case corrupted(String)
}
