/*
 * rk_offset_tree.h: a sequence of items with finite, non-negative heights that answers
 * "offset of item i" and "item at offset y" in O(log n) while items are inserted and removed.
 *
 * It is a counted B+-tree: leaves hold up to RK_OFFSET_TREE_LEAF_MAX heights in one array, inner
 * nodes hold each child's height sum and item count and their running prefixes.
 *
 * Exact sums: every height is stored rounded to the nearest multiple of RK_OFFSET_TREE_QUANTUM
 * (2^-16), and the total stays below RK_OFFSET_TREE_MAX_TOTAL (2^37), so every sum of stored
 * heights is a multiple of 2^-16 below 2^37: an integer number of quanta below 2^53, which a double
 * holds exactly. Sums therefore do not depend on the order of summation and never drift: an edit
 * adjusts the cached sums on its path by its delta, and every offset is the exact sum of the stored
 * heights before it.
 *
 * Ownership: a tree is created by rk_offset_tree_create/rk_offset_tree_build and owned by the
 * caller, who frees it with rk_offset_tree_destroy. The tree copies every height array it is given;
 * it never keeps or frees caller memory.
 *
 * Failure: every fallible call returns an rk_status; on anything but RK_OK the tree is exactly as it
 * was (same count, same heights, same sums). Everything an edit needs is allocated before the tree
 * is touched, and all heights of a multi-item insert are validated first.
 *
 * Heights: a valid height is finite, >= 0 and < RK_OFFSET_TREE_MAX_TOTAL. NaN, +/-infinity,
 * negative values and larger ones are rejected with RK_ERR_HEIGHT. A valid height is stored rounded
 * to the nearest multiple of RK_OFFSET_TREE_QUANTUM (ties to even; below half a quantum it becomes
 * +0.0, and -0.0 is stored as +0.0): the tree returns the stored value. An edit that would bring the
 * total to RK_OFFSET_TREE_MAX_TOTAL or beyond fails with RK_ERR_OVERFLOW.
 *
 * Not found: functions that look an item up by offset return RK_NOT_FOUND (SIZE_MAX), which is
 * never a valid index (the count is limited to RK_OFFSET_TREE_MAX_COUNT < SIZE_MAX).
 *
 * Threads: no internal locking. Concurrent reads are safe; a write needs exclusive access.
 */
#ifndef RK_OFFSET_TREE_H
#define RK_OFFSET_TREE_H

#include "rk_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque handle to an offset tree. */
typedef struct rk_offset_tree rk_offset_tree;

/** Sentinel index meaning "no such item"; never a valid index. */
#define RK_NOT_FOUND SIZE_MAX

/** What rk_offset_tree_offset_of returns for an index past the end: offsets are never negative. */
#define RK_NO_OFFSET (-1.0)

/**
 * Largest number of items a tree can hold (inserting beyond it fails with RK_ERR_OVERFLOW): 2^48
 * where size_t has 64 bits, 2^28 where it has 32 (WebAssembly), so the heights of a full tree
 * always fit in one allocation.
 */
#if SIZE_MAX > 0xFFFFFFFFu
#define RK_OFFSET_TREE_MAX_COUNT ((size_t)1 << 48)
#else
#define RK_OFFSET_TREE_MAX_COUNT ((size_t)1 << 28)
#endif

/** Heights are stored as multiples of this: 2^-16 (1/65536 of a point). */
#define RK_OFFSET_TREE_QUANTUM (1.0 / 65536.0)

/**
 * The total of a tree's heights stays below this: 2^37 (about 1.4e11 points), so that every sum of
 * heights is an exact double (an integer number of quanta below 2^53).
 */
#define RK_OFFSET_TREE_MAX_TOTAL 137438953472.0

/** Most heights one leaf holds. */
#define RK_OFFSET_TREE_LEAF_MAX 128

/**
 * Creates an empty tree in `*out`. The caller owns it and frees it with rk_offset_tree_destroy.
 * O(1). Returns RK_ERR_ARG if `out` is NULL, RK_ERR_NOMEM if allocation fails (then `*out` is
 * untouched).
 */
rk_status rk_offset_tree_create(rk_offset_tree **out);

/**
 * Creates a tree holding copies of `heights[0..<n]` in `*out` (`heights` may be NULL when n == 0).
 * The caller keeps ownership of `heights` and owns the new tree (free it with
 * rk_offset_tree_destroy). O(n).
 * Returns RK_ERR_HEIGHT if a height is invalid (the first bad index goes to `*bad_index` when
 * `bad_index` is not NULL), RK_ERR_OVERFLOW if n > RK_OFFSET_TREE_MAX_COUNT or the heights' total
 * would reach RK_OFFSET_TREE_MAX_TOTAL, RK_ERR_ARG for NULL
 * `out` (or NULL `heights` with n > 0), RK_ERR_NOMEM on allocation failure; on failure `*out` is
 * untouched and nothing is leaked.
 */
rk_status rk_offset_tree_build(const double *heights, size_t n, rk_offset_tree **out,
                               size_t *bad_index);

/**
 * Replaces the tree's contents with copies of `heights[0..<n]` (`heights` may be NULL when
 * n == 0), as rk_offset_tree_build would build them, reusing the tree's own node memory: its
 * current nodes and the blocks it keeps for reuse. Only what those lack is allocated. O(n).
 * Returns RK_ERR_HEIGHT if a height is invalid (the first bad index goes to `*bad_index` when not
 * NULL), RK_ERR_OVERFLOW if n > RK_OFFSET_TREE_MAX_COUNT or the heights' total would reach
 * RK_OFFSET_TREE_MAX_TOTAL, RK_ERR_ARG for NULL `heights` with n > 0,
 * RK_ERR_NOMEM on allocation failure; on failure the tree is unchanged.
 */
rk_status rk_offset_tree_assign(rk_offset_tree *tree, const double *heights, size_t n,
                                size_t *bad_index);

/** Frees the tree and everything it owns. NULL is allowed. O(n). */
void rk_offset_tree_destroy(rk_offset_tree *tree);

/** Returns the number of items. O(1). */
size_t rk_offset_tree_count(const rk_offset_tree *tree);

/** Returns the sum of all heights (0 for an empty tree). O(1). */
double rk_offset_tree_total(const rk_offset_tree *tree);

/**
 * Stores the height of item `index` in `*out`. O(log n).
 * Returns RK_ERR_RANGE if index >= count (then `*out` is untouched).
 */
rk_status rk_offset_tree_height(const rk_offset_tree *tree, size_t index, double *out);

/**
 * Stores the offset of item `index` (sum of the heights before it) in `*out`; index == count gives
 * the total. O(log n).
 * Returns RK_ERR_RANGE if index > count (then `*out` is untouched).
 */
rk_status rk_offset_tree_offset(const rk_offset_tree *tree, size_t index, double *out);

/**
 * Returns the offset of item `index` as rk_offset_tree_offset stores it, or RK_NO_OFFSET (-1.0, never
 * an offset) if index > count. O(log n). The same lookup without an out-parameter: a caller that
 * would pass the address of a local (Swift, which then guards the stack of every call; JavaScript
 * through a WebAssembly module's memory) gets the value in a register.
 */
double rk_offset_tree_offset_of(const rk_offset_tree *tree, size_t index);

/**
 * Returns the item whose [offset, offset + height) contains `y`. Zero-height items never contain
 * anything. Returns RK_NOT_FOUND when y is NaN, y < 0, or y >= total. O(log n).
 */
size_t rk_offset_tree_item_at(const rk_offset_tree *tree, double y);

/**
 * Stores in `*first` and `*end` the range [first, end) of items that intersect [y0, y1): it starts
 * with the item at max(y0, 0) and ends with the last positive-height item starting before y1, and
 * includes the zero-height items between them. When nothing intersects (y0 >= y1, y1 <= 0,
 * max(y0, 0) >= total, a NaN bound, an empty tree or one whose heights are all zero) both are set
 * to 0. O(log n).
 */
void rk_offset_tree_range(const rk_offset_tree *tree, double y0, double y1, size_t *first,
                          size_t *end);

/**
 * Copies the heights of the n items [first, first + n) to `heights[0..<n]` and, when `offsets` is
 * not NULL, their offsets to `offsets[0..<n]`. Each offset is bit-identical to what
 * rk_offset_tree_offset returns for that item (it is summed in the same order), so positions read
 * in bulk and one at a time always agree. O(log count + n + B): one descent, then each leaf in the
 * range is read once (B = RK_OFFSET_TREE_LEAF_MAX, for the first leaf's items before `first`).
 * Returns RK_ERR_RANGE if first > count or n > count - first, RK_ERR_ARG for NULL `heights` with
 * n > 0; on failure nothing is written.
 */
rk_status rk_offset_tree_read(const rk_offset_tree *tree, size_t first, size_t n, double *heights,
                              double *offsets);

/**
 * Sets the height of item `index`: adds the change to the cached sums on the item's path (one
 * block of prefixes per level). O(log n).
 * Returns RK_ERR_RANGE if index >= count, RK_ERR_HEIGHT if the height is invalid,
 * RK_ERR_OVERFLOW if the total would reach RK_OFFSET_TREE_MAX_TOTAL.
 */
rk_status rk_offset_tree_set(rk_offset_tree *tree, size_t index, double height);

/**
 * Sets the heights of the n items [first, first + n) to copies of `heights[0..<n]` (the caller
 * keeps ownership). O(log count + n): each leaf in the range is written once and each inner node
 * above them recomputed once, instead of n separate rk_offset_tree_set calls.
 * Returns RK_ERR_RANGE if first > count or n > count - first, RK_ERR_ARG for NULL `heights` with
 * n > 0, RK_ERR_HEIGHT if any height is invalid (the first bad one's position in `heights` goes to
 * `*bad_index` when not NULL), RK_ERR_OVERFLOW if the total would reach RK_OFFSET_TREE_MAX_TOTAL.
 * All heights are validated before the tree is touched: on failure it is unchanged.
 */
rk_status rk_offset_tree_set_range(rk_offset_tree *tree, size_t first, const double *heights,
                                   size_t n, size_t *bad_index);

/**
 * Inserts copies of `heights[0..<k]` so the first becomes item `at` (0 <= at <= count). The caller
 * keeps ownership of `heights`. O(k + log n) (a k >= count insert rebuilds, which is O(k)).
 * Returns RK_ERR_RANGE if at > count, RK_ERR_OVERFLOW if count + k > RK_OFFSET_TREE_MAX_COUNT
 * (checked before `heights` is read), RK_ERR_HEIGHT if any height is invalid (first bad one in
 * `*bad_index` when not NULL), RK_ERR_OVERFLOW if the total would reach RK_OFFSET_TREE_MAX_TOTAL,
 * RK_ERR_ARG for NULL `heights` with k > 0, RK_ERR_NOMEM on allocation failure. On failure the
 * tree is unchanged.
 */
rk_status rk_offset_tree_insert(rk_offset_tree *tree, size_t at, const double *heights, size_t k,
                                size_t *bad_index);

/**
 * Removes the k items [at, at + k). O(k + log n).
 * Returns RK_ERR_RANGE if at > count or k > count - at, RK_ERR_NOMEM on allocation failure
 * (possible because merging leaves may need a larger leaf). On failure the tree is unchanged.
 */
rk_status rk_offset_tree_remove(rk_offset_tree *tree, size_t at, size_t k);

/**
 * Returns the bytes the tree holds on the heap: every node and leaf block as requested from malloc
 * plus 16 bytes per block for the allocator's bookkeeping, plus the handle. O(1).
 */
size_t rk_offset_tree_bytes(const rk_offset_tree *tree);

/**
 * Checks every invariant (item counts, height sums against a fresh summation, leaf and node fill
 * bounds, equal leaf depth, valid heights, byte accounting) when compiled with RK_INTERNAL_CHECKS;
 * O(n). Without that flag it returns RK_OK without looking, O(1).
 * Returns RK_ERR_CORRUPT (and, if `message` is not NULL, a static description in `*message`; the
 * caller frees nothing) when an invariant is broken.
 */
rk_status rk_offset_tree_check(const rk_offset_tree *tree, const char **message);

#ifdef __cplusplus
}
#endif

#endif /* RK_OFFSET_TREE_H */
