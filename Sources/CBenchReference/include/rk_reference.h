/*
 * rk_reference.h: two plain-C structures the benchmark measures the offset tree against. They are
 * benchmark code, not part of RowKit: no RowKit target links them, only RowKitBench.
 *
 * - A Fenwick tree (binary indexed tree) over doubles: prefix sums, point updates and the
 *   descent that finds the item at an offset, each O(log n), and an O(n) build. It cannot insert
 *   or remove items; its cached sums are updated by adding deltas, so they drift with rounding.
 * - A chunked array: heights in chunks of at most RKREF_CHUNK (64), the chunks in one ordered
 *   array, and two Fenwick trees over the chunks, one of item counts and one of height sums.
 *   Inserting or removing one item moves at most 63 heights inside a chunk and updates both
 *   Fenwick trees, O(64 + log c) for c chunks; a full chunk splits in two and an empty one goes
 *   away, which moves the chunk array and rebuilds both Fenwick trees, O(c).
 *
 * Heights are not validated (callers pass finite, non-negative values) and indices are not
 * checked beyond what the measurement needs: these are yardsticks, not APIs.
 *
 * Ownership: each create function returns a structure the caller frees with its destroy function
 * (NULL when allocation fails). The build functions copy the caller's heights.
 */
#ifndef RK_REFERENCE_H
#define RK_REFERENCE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Most heights in one chunk of the chunked array. */
#define RKREF_CHUNK 64
/** Heights per chunk when the chunked array is built (3/4 full). */
#define RKREF_CHUNK_FILL 48

/* ---- Fenwick tree over doubles */

typedef struct rkref_fenwick rkref_fenwick;

/** An empty Fenwick tree, or NULL when allocation fails. */
rkref_fenwick *rkref_fenwick_create(void);

/** Frees `f` (NULL is allowed). */
void rkref_fenwick_destroy(rkref_fenwick *f);

/**
 * Replaces the contents with `heights[0..<n]` in O(n), reusing the arrays when they are large
 * enough. Returns 0, or -1 when allocation fails (then `f` is empty).
 */
int rkref_fenwick_build(rkref_fenwick *f, const double *heights, size_t n);

/** The number of items. */
size_t rkref_fenwick_count(const rkref_fenwick *f);

/** The sum of the heights of items [0, i) (i <= count). O(log n). */
double rkref_fenwick_prefix(const rkref_fenwick *f, size_t i);

/** The first item whose prefix sum through it exceeds y (the item at offset y); count when none
 *  does. O(log n). */
size_t rkref_fenwick_find(const rkref_fenwick *f, double y);

/** Sets item i's height (i < count). O(log n). */
void rkref_fenwick_set(rkref_fenwick *f, size_t i, double height);

/** Heap bytes held by `f` (its arrays, not counting the allocator's bookkeeping). */
size_t rkref_fenwick_bytes(const rkref_fenwick *f);

/* ---- chunked array with Fenwick trees over chunk counts and sums */

typedef struct rkref_chunked rkref_chunked;

/** An empty chunked array, or NULL when allocation fails. */
rkref_chunked *rkref_chunked_create(void);

/** Frees `c` and its chunks (NULL is allowed). */
void rkref_chunked_destroy(rkref_chunked *c);

/** Replaces the contents with `heights[0..<n]` in chunks of RKREF_CHUNK_FILL. Returns 0, or -1
 *  when allocation fails (then `c` is empty). */
int rkref_chunked_build(rkref_chunked *c, const double *heights, size_t n);

/** The number of items. */
size_t rkref_chunked_count(const rkref_chunked *c);

/** The sum of the heights of items [0, i) (i <= count). O(log c + 64). */
double rkref_chunked_prefix(const rkref_chunked *c, size_t i);

/** Inserts `height` so it becomes item `at` (at <= count). Returns 0, or -1 when allocation
 *  fails (then nothing changed). */
int rkref_chunked_insert(rkref_chunked *c, size_t at, double height);

/** Removes item `at` (at < count). */
void rkref_chunked_remove(rkref_chunked *c, size_t at);

#ifdef __cplusplus
}
#endif

#endif /* RK_REFERENCE_H */
