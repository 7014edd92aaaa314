/*
 * rk_offset_tree.c: the counted B+-tree behind rk_offset_tree.h.
 *
 * Layout: leaves are variable-capacity arrays of heights (capacity rounded up to RK_LEAF_STEP, so
 * memory per item stays near 9 bytes even in half-full leaves; a rebuild gives each leaf one step
 * of room, built_cap) in blocks of RK_BLOCK, with the
 * running prefix of the block sums stored before the heights; a leaf starts on a cache line and
 * its header is two lines, so each block of heights is one line (see rk_leaf); inner nodes hold
 * per child a pointer, a height sum and an item count, with two-level running prefixes of both
 * (see rk_inner). All leaves are at the same depth.
 *
 * Hints: the tree also keeps, for every RK_HINT_SPAN-th position, the leaf that held it when the
 * hints were made (rk_hint). A set prefetches that leaf's lines before it descends, so the leaf's
 * cache misses overlap the descent and the updates behind them; the descent alone decides. (Reads
 * gain nothing: independent reads already overlap one leaf's miss with the next descent.)
 * Hints are made after every rebuild and again after count / RK_HINT_REFRESH inserted or removed
 * items, from the inner nodes' counts (O(count / RK_LEAF_FILL)), and are off from the moment a
 * leaf is freed until they are made again.
 *
 * Offsets: the offset of an item is the sum of one or two prefixes per level of its path (the
 * node's block prefix before its block, then the in-block prefix before its child), then in the
 * leaf the block prefix before its block and the heights before it in its block. A lookup by
 * offset compares a block array, then one block, on every level. A lookup by position guesses the
 * child on each level from the position and the level's children per item (guess[], made with the
 * hints and when the depth changes) and verifies the guess with loads issued together, searching the
 * same way only when the guess is wrong (child_at).
 *
 * Sums: heights are stored as multiples of 2^-16 (quantize) and the total stays below 2^37, so
 * every sum of heights is an integer number of quanta below 2^53 and exact in a double, whatever
 * the order of summation. So a cached sum or prefix can be adjusted by the delta of an edit
 * (rk_offset_tree_set, a leaf's block prefixes after a one-height insert, and the path above a
 * leaf an insert or removal changed) or recomputed from the level below (after structural
 * changes): both give the value a fresh summation gives, bit for bit, and the checker compares
 * them exactly. Counts are integers too: edits adjust them by the number of items inserted or
 * removed.
 *
 * Memory: the tree keeps the blocks it stops using on free lists (leaves by capacity class, inner
 * nodes) and takes blocks from there before asking malloc, so rebuilding a tree reuses its own
 * memory instead of handing it back to the allocator (which may return it to the kernel) and
 * faulting it in again. A rebuild puts the old tree's blocks on the lists and builds the new one
 * from them; between rebuilds the lists keep at most RK_FREE_MIN blocks or 1/RK_FREE_SHARE of the
 * live ones, whichever is more, for the leaves that edits grow and shrink; the rest is freed.
 *
 * All-or-nothing edits: each edit first plans its structural changes, secures every block it needs
 * (and scratch space), and only then mutates. Removal may merge leaves into a larger leaf; it
 * secures RK_REMOVE_RESERVE full leaves for that (at most two merges or redistributions involve an
 * underfull leaf, see fix_node).
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "rk_internal.h"

/* Inlining hint for the few helpers every descent calls (a plain `inline` elsewhere). */
#if defined(__GNUC__) || defined(__clang__)
#define RK_INLINE inline __attribute__((always_inline))
#else
#define RK_INLINE inline
#endif

/* A hint to fetch the cache line at `p` early (nothing where the compiler has no builtin). */
#if defined(__GNUC__) || defined(__clang__)
#define RK_PREFETCH(p) __builtin_prefetch(p)
#else
#define RK_PREFETCH(p) ((void)(p))
#endif
/* The same for a line about to be written. */
#if defined(__GNUC__) || defined(__clang__)
#define RK_PREFETCH_W(p) __builtin_prefetch((p), 1)
#else
#define RK_PREFETCH_W(p) ((void)(p))
#endif

#define RK_REMOVE_RESERVE 2
#define RK_STACK_ENTRIES (2 * RK_FAN + 8)
#define RK_STACK_NODES 32

typedef struct rk_entry {
    void *ptr;
    double sum;
    size_t cnt;
} rk_entry;

typedef struct rk_path {
    rk_inner *node[RK_MAX_DEPTH];
    uint32_t idx[RK_MAX_DEPTH];
} rk_path;

/* ---------------------------------------------------------------- small helpers */

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

static uint32_t round_cap(size_t n) {
    size_t c = ceil_div(n, RK_LEAF_STEP) * RK_LEAF_STEP;
    return (uint32_t)(c == 0 ? RK_LEAF_STEP : c);
}

static size_t blocks_of(size_t n) { return ceil_div(n, RK_BLOCK); }

/* The capacity a rebuild gives a leaf of n items: one step more than they need (up to the most), so
 * that the first insert into a built leaf does not move it to a larger block. */
static uint32_t built_cap(size_t n) {
    uint32_t c = round_cap(n + 1);
    return c < RK_LEAF_MAX ? c : RK_LEAF_MAX;
}

static uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* Sets the item count. */
static void set_count(rk_offset_tree *t, size_t count) { t->count = count; }

/* Finite, >= 0 and below the largest total (false for NaN). */
static int valid_height(double h) { return h >= 0.0 && h < RK_OFFSET_TREE_MAX_TOTAL; }

/*
 * A valid height rounded to the nearest multiple of 2^-16 (ties to even), -0.0 made +0.0. Scaled by
 * 2^16 (exact), a value below 2^52 is rounded to an integer by adding and subtracting 2^52 (the
 * ulp of doubles in [2^52, 2^53) is 1); one from 2^52 on is an integer already.
 */
static RK_INLINE double quantize(double h) {
    const double two52 = 4503599627370496.0;
    double x = h * 65536.0;
    if (x < two52) x = (x + two52) - two52;
    return x * (1.0 / 65536.0) + 0.0;
}

/*
 * RK_LEAF_BLOCKS ones, as many zeros, as many ones: multipliers that keep or drop elements of an
 * array without a branch on where the kept part starts or ends. Reading from ramp_101 + 2 *
 * RK_LEAF_BLOCKS - from gives 0.0 before `from` and 1.0 from it on; from ramp_101 + RK_LEAF_BLOCKS -
 * r, 1.0 before r and 0.0 from it on (0 <= from, r <= RK_LEAF_BLOCKS). A compiler turns a select
 * such as `k < r ? x : 0.0` into one branch per element, mispredicted when r varies from call to
 * call; these are plain loads and multiplies, exact (x * 1.0 is x, x * 0.0 a zero for finite x).
 */
static const double ramp_101[3 * RK_LEAF_BLOCKS] = {
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
    1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
};

/* The sum of one block's eight slots, pairwise. */
static double block_sum(const double *b) {
    return ((b[0] + b[1]) + (b[2] + b[3])) + ((b[4] + b[5]) + (b[6] + b[7]));
}

/* ---------------------------------------------------------------- blocks and free lists */

static int leaf_class(uint32_t cap) { return (int)(cap / RK_LEAF_STEP) - 1; }

static double *leaf_pre(rk_leaf *l) { return l->pre; }
static const double *leaf_pre_c(const rk_leaf *l) { return l->pre; }

/* Bytes requested for a leaf of capacity `cap`: header and block prefixes, heights (a multiple of
 * the cache line, as rk_alloc_lines requires: cap is a multiple of RK_LEAF_STEP). */
static size_t leaf_size(uint32_t cap) { return sizeof(rk_leaf) + (size_t)cap * sizeof(double); }
_Static_assert(RK_LEAF_STEP * sizeof(double) % RK_CACHE_LINE == 0, "leaf sizes are whole cache lines");

static size_t leaf_bytes(uint32_t cap) { return leaf_size(cap) + RK_ALIGNED_OVERHEAD; }

static size_t inner_bytes(void) { return sizeof(rk_inner) + RK_MALLOC_OVERHEAD; }

/* The next block of a free list, stored in the block's first word (a node's child count, which
 * inner_new resets). */
static void *free_next(const void *block) {
    void *next;
    memcpy(&next, block, sizeof next);
    return next;
}

static void set_free_next(void *block, void *next) { memcpy(block, &next, sizeof next); }

/* The next leaf of a free list, stored in its first height slot (n and cap stay valid). */
static rk_leaf *leaf_free_next(const rk_leaf *l) {
    rk_leaf *next;
    memcpy(&next, l->h, sizeof next);
    return next;
}

static void set_leaf_free_next(rk_leaf *l, rk_leaf *next) { memcpy(l->h, &next, sizeof next); }

/* A leaf of capacity `cap` (n = 0) from the free list or malloc; NULL when malloc fails. */
static rk_leaf *leaf_new(rk_offset_tree *t, uint32_t cap) {
    int c = leaf_class(cap);
    rk_leaf *l = t->free_leaf[c];
    if (l) {
        t->free_leaf[c] = leaf_free_next(l);
        t->nfree_leaf[c]--;
    } else {
        l = rk_alloc_lines(leaf_size(cap));
        if (!l) return NULL;
        t->bytes += leaf_bytes(cap);
        l->cap = cap;
    }
    t->live_leaf[c]++;
    l->n = 0;
    return l;
}

/* A leaf of capacity `cap` or, when that free list is empty, the smallest larger one on a free
 * list; NULL when none is (only for a rebuild, which secured enough blocks beforehand). */
static rk_leaf *leaf_take_fit(rk_offset_tree *t, uint32_t cap) {
    for (int c = leaf_class(cap); c < RK_LEAF_CLASSES; c++) {
        if (t->free_leaf[c]) return leaf_new(t, (uint32_t)(c + 1) * RK_LEAF_STEP);
    }
    return NULL;
}

/* Puts a leaf on its free list. */
static void leaf_delete(rk_offset_tree *t, rk_leaf *l) {
    int c = leaf_class(l->cap);
    set_leaf_free_next(l, t->free_leaf[c]);
    t->free_leaf[c] = l;
    t->nfree_leaf[c]++;
    t->live_leaf[c]--;
}

static rk_inner *inner_new(rk_offset_tree *t) {
    rk_inner *nd = t->free_inner;
    if (nd) {
        t->free_inner = free_next(nd);
        t->nfree_inner--;
    } else {
        nd = rk_alloc(sizeof(rk_inner));
        if (!nd) return NULL;
        t->bytes += inner_bytes();
    }
    t->live_inner++;
    nd->n = 0;
    nd->reserved = 0;
    return nd;
}

static void inner_delete(rk_offset_tree *t, rk_inner *nd) {
    set_free_next(nd, t->free_inner);
    t->free_inner = nd;
    t->nfree_inner++;
    t->live_inner--;
}

/* Puts every block of the subtree on the free lists. */
static void release_subtree(rk_offset_tree *t, void *node, unsigned height) {
    if (height == 0) {
        leaf_delete(t, node);
        return;
    }
    rk_inner *nd = node;
    for (uint32_t i = 0; i < nd->n; i++) release_subtree(t, nd->child[i], height - 1);
    inner_delete(t, nd);
}

/* Frees blocks of the free lists until each leaf class holds at most `leaves[c]` and the inner
 * list at most `inner`. */
static void free_down_to(rk_offset_tree *t, const size_t *leaves, size_t inner) {
    for (int c = 0; c < RK_LEAF_CLASSES; c++) {
        while (t->nfree_leaf[c] > leaves[c]) {
            rk_leaf *l = t->free_leaf[c];
            t->free_leaf[c] = leaf_free_next(l);
            t->nfree_leaf[c]--;
            t->bytes -= leaf_bytes(l->cap);
            rk_free(l);
            t->nhint = 0; /* a hint may point to it */
        }
    }
    while (t->nfree_inner > inner) {
        rk_inner *nd = t->free_inner;
        t->free_inner = free_next(nd);
        t->nfree_inner--;
        t->bytes -= inner_bytes();
        rk_free(nd);
    }
}

/* Keeps at most max(RK_FREE_MIN, live / RK_FREE_SHARE) free blocks, freeing the rest (the smallest
 * leaves first, inner nodes last). */
static void trim(rk_offset_tree *t) {
    size_t live = t->live_inner, nfree = t->nfree_inner;
    for (int c = 0; c < RK_LEAF_CLASSES; c++) {
        live += t->live_leaf[c];
        nfree += t->nfree_leaf[c];
    }
    size_t keep = live / RK_FREE_SHARE > RK_FREE_MIN ? live / RK_FREE_SHARE : RK_FREE_MIN;
    if (nfree <= keep) return;
    size_t leaves[RK_LEAF_CLASSES], excess = nfree - keep;
    for (int c = 0; c < RK_LEAF_CLASSES; c++) {
        size_t drop = t->nfree_leaf[c] < excess ? t->nfree_leaf[c] : excess;
        leaves[c] = t->nfree_leaf[c] - drop;
        excess -= drop;
    }
    size_t inner = t->nfree_inner - (excess < t->nfree_inner ? excess : t->nfree_inner);
    free_down_to(t, leaves, inner);
}

/* The free-list lengths before an edit secures its blocks, to undo exactly on failure. */
typedef struct rk_mark {
    size_t leaves[RK_LEAF_CLASSES];
    size_t inner;
} rk_mark;

static rk_mark mark_of(const rk_offset_tree *t) {
    rk_mark m;
    memcpy(m.leaves, t->nfree_leaf, sizeof m.leaves);
    m.inner = t->nfree_inner;
    return m;
}

/* ---------------------------------------------------------------- leaves and nodes */

/*
 * Makes the leaf's block prefixes match its heights from block b0 on: zeroes the slots after n in
 * the last block, recomputes the prefixes from b0 (adding each block's sum; a full leaf keeps no
 * prefix through its last block), and sets the prefixes past the last block to +infinity. Returns
 * the leaf's sum. Blocks before b0 must be up to date.
 */
static double leaf_fix(rk_leaf *l, size_t b0) {
    size_t n = l->n, nb = blocks_of(n);
    double *pre = leaf_pre(l);
    for (size_t i = n; i < nb * RK_BLOCK; i++) l->h[i] = 0.0;
    if (b0 > nb) b0 = nb;
    double s = b0 ? pre[b0 - 1] : 0.0;
    for (size_t b = b0; b < nb; b++) {
        s += block_sum(l->h + b * RK_BLOCK);
        if (b < RK_LEAF_PREFIXES) pre[b] = s;
    }
    for (size_t b = nb; b < RK_LEAF_PREFIXES; b++) pre[b] = INFINITY;
    return s;
}

/*
 * leaf_fix after one height was put in place at `off` of a leaf that held `old_n` (the heights
 * from off on moved up one slot, l->n is old_n + 1; blocks before off's are up to date): each
 * block prefix from off's block on gains the new height and loses the height that moved out of
 * its block's end into the next block, two exact operations where leaf_fix adds up each block (see
 * the file comment: every sum is exact, so both give the same bits). A block the insert opened
 * gets its prefix and the zeros after its one height. Returns the leaf's sum.
 */
static double leaf_fix_after_insert(rk_leaf *l, size_t off, size_t old_n) {
    size_t n = l->n, nb = blocks_of(n), b0 = off / RK_BLOCK;
    double *pre = leaf_pre(l), added = l->h[off];
    /* b + 1 < nb <= RK_LEAF_BLOCKS, so b < RK_LEAF_PREFIXES: every block here has a prefix. */
    for (size_t b = b0; b + 1 < nb; b++) pre[b] += added - l->h[(b + 1) * RK_BLOCK];
    size_t last = nb - 1;
    if (nb > blocks_of(old_n)) { /* the insert opened the last block: one height, zeros after it */
        for (size_t i = n; i < nb * RK_BLOCK; i++) l->h[i] = 0.0;
        double before = last ? pre[last - 1] : 0.0;
        if (last < RK_LEAF_PREFIXES) return pre[last] = before + l->h[last * RK_BLOCK];
        return before + l->h[last * RK_BLOCK];
    }
    if (last < RK_LEAF_PREFIXES) return pre[last] += added;
    return pre[last - 1] + block_sum(l->h + last * RK_BLOCK);
}

static rk_entry leaf_entry(rk_leaf *l) {
    rk_entry e = {l, leaf_fix(l, 0), l->n};
    return e;
}

/* The slot after the last child of block b of a node with n children. */
static uint32_t block_end(uint32_t b, uint32_t n) { return min_u32((b + 1) * RK_BLOCK, n); }

/*
 * Recomputes the node's prefixes from child `from` on: in-block prefixes from `from` (restarting
 * at each block), the padding after the last child, block prefixes from from's block, and the
 * padding after the last block. Prefixes before `from` must be up to date.
 */
static void inner_fix(rk_inner *nd, uint32_t from) {
    uint32_t n = nd->n, nb = (uint32_t)blocks_of(n);
    double s = from % RK_BLOCK ? nd->is[from - 1] : 0.0;
    size_t c = from % RK_BLOCK ? nd->ic[from - 1] : 0;
    for (uint32_t j = from; j < n; j++) {
        if (j % RK_BLOCK == 0) {
            s = 0.0;
            c = 0;
        }
        s += nd->sum[j];
        c += nd->cnt[j];
        nd->is[j] = s;
        nd->ic[j] = c;
    }
    for (uint32_t j = n; j < RK_FAN; j++) { /* child_at may read past the last block */
        nd->is[j] = INFINITY;
        nd->ic[j] = SIZE_MAX;
    }
    uint32_t b = from / RK_BLOCK;
    if (b > nb) b = nb;
    double bs = b ? nd->bs[b - 1] : 0.0;
    size_t bc = b ? nd->bc[b - 1] : 0;
    for (; b < nb; b++) {
        uint32_t last = block_end(b, n) - 1;
        bs += nd->is[last];
        bc += nd->ic[last];
        nd->bs[b] = bs;
        nd->bc[b] = bc;
    }
    for (b = nb; b < RK_NODE_BLOCKS; b++) {
        nd->bs[b] = INFINITY;
        nd->bc[b] = SIZE_MAX;
    }
}

/* The node's sum and count: its last block prefixes. */
static double inner_sum(const rk_inner *nd) { return nd->n ? nd->bs[blocks_of(nd->n) - 1] : 0.0; }
static size_t inner_count(const rk_inner *nd) { return nd->n ? nd->bc[blocks_of(nd->n) - 1] : 0; }

/* The node's entry for its parent, after recomputing all of its prefixes (call after any
 * structural edit of the node). */
static rk_entry inner_entry(rk_inner *nd) {
    inner_fix(nd, 0);
    rk_entry e = {nd, inner_sum(nd), inner_count(nd)};
    return e;
}

static void set_entry(rk_inner *nd, uint32_t i, rk_entry e) {
    nd->child[i] = e.ptr;
    nd->sum[i] = e.sum;
    nd->cnt[i] = e.cnt;
}

static rk_entry get_entry(const rk_inner *nd, uint32_t i) {
    rk_entry e = {nd->child[i], nd->sum[i], nd->cnt[i]};
    return e;
}

static void move_entries(rk_inner *dst, uint32_t di, rk_inner *src, uint32_t si, uint32_t n) {
    memmove(&dst->child[di], &src->child[si], n * sizeof(void *));
    memmove(&dst->sum[di], &src->sum[si], n * sizeof(double));
    memmove(&dst->cnt[di], &src->cnt[si], n * sizeof(size_t));
}

/* How many of the `len` counts in `a` are <= x, added in four independent chains (a single chain
 * of 16 compare-and-adds is as long as the rest of a node's search). */
static RK_INLINE uint32_t count_le(const size_t *a, uint32_t len, size_t x) {
    uint32_t c0 = 0, c1 = 0, c2 = 0, c3 = 0, k = 0;
    for (; k + 4 <= len; k += 4) {
        c0 += a[k] <= x;
        c1 += a[k + 1] <= x;
        c2 += a[k + 2] <= x;
        c3 += a[k + 3] <= x;
    }
    for (; k < len; k++) c0 += a[k] <= x;
    return (c0 + c1) + (c2 + c3);
}

/*
 * The child of `nd` holding position *i (relative to the node; *i == the node's count lands in
 * the last child), and *i made relative to that child. Compares the block prefixes, then the
 * in-block prefixes of one block; the padding past the last block and child never compares below.
 */
static RK_INLINE uint32_t child_for_index(const rk_inner *nd, size_t *i) {
    size_t x = *i;
    uint32_t nb = (uint32_t)blocks_of(nd->n), b = count_le(nd->bc, RK_NODE_BLOCKS, x);
    if (b >= nb) b = nb - 1;
    RK_PREFETCH(&nd->child[b * RK_BLOCK]); /* loads beside the in-block counts, not after them */
    if (b) x -= nd->bc[b - 1];
    const size_t *ic = nd->ic + b * RK_BLOCK;
    uint32_t len = block_end(b, nd->n) - b * RK_BLOCK, j = count_le(ic, RK_BLOCK, x);
    if (j >= len) j = len - 1;
    if (j) x -= ic[j - 1];
    *i = x;
    return b * RK_BLOCK + j;
}

/*
 * The child of `nd` holding position *i, as child_for_index finds it, with *i made relative to
 * that child. `guess` is the tree's guess[] for the node's height.
 *
 * Guess and verify: the children of the nodes on one level hold similar counts, so the child is
 * usually j = floor((*i + 1/2) * guess) (the middle of the item, so that rounding at a boundary
 * between children of equal counts does not tip the guess over it). That j depends on neither the
 * node's contents nor its header, so the child's start and end (the block prefix before its block
 * plus the in-block prefixes before and at it) and its pointer load all at once as soon as the node
 * is known, where the search loads the header and block prefixes, then one block's in-block
 * prefixes, then the pointer, each after the one before. The guess holds when j < n and
 * start <= *i < end (only the child the search finds satisfies that); otherwise, and at *i == the
 * node's count (which lands in the last child), the search decides. Entries past the last child
 * are padding (inner_fix), so a guess past it reads the node's own memory.
 */
static RK_INLINE uint32_t child_at(const rk_inner *nd, size_t *i, uint64_t guess) {
    size_t x = *i;
    /* In fixed point (guess is children per item times 2^RK_GUESS_BITS): an integer multiply and a
     * shift, where the same in doubles (two conversions, an add and a multiply) is several times
     * as long on the descent's critical path. (2x + 1) * guess stays below 2^64 while x is below
     * 2^15 times the average count of the level's children (a node has at most RK_FAN of them, so
     * only a level of very uneven children comes near); if it wraps, the guess is only wrong. */
    uint64_t g = (((uint64_t)x * 2 + 1) * guess) >> (RK_GUESS_BITS + 1);
    uint32_t j = g < RK_FAN - 1 ? (uint32_t)g : RK_FAN - 1;
    uint32_t b = j / RK_BLOCK;
    size_t base = b ? nd->bc[b - 1] : 0;
    size_t start = base + (j % RK_BLOCK ? nd->ic[j - 1] : 0), end = base + nd->ic[j];
    if (j < nd->n && start <= x && x < end) {
        *i = x - start;
        return j;
    }
    return child_for_index(nd, i);
}

/*
 * A hint for a search by offset about to go through `nd` to a leaf: fetches the leaf `share` of the
 * way through the node's children (0 <= share < 1 of its height), that leaf's header and block
 * prefixes, and the block the rest of `share` points at, so they load while the node is searched.
 * Children of a node are of similar size, so the guess is usually the leaf, or the block, the
 * search finds; a wrong guess costs only the fetch.
 */
static RK_INLINE void prefetch_leaf_guess(const rk_inner *nd, double share) {
    uint32_t n = nd->n;
    double g = share * (double)n;
    uint32_t c = g > 0.0 ? (g < (double)n ? (uint32_t)g : n - 1) : 0; /* NaN: 0 */
    const rk_leaf *leaf = nd->child[c];
    double f = g - (double)c;
    size_t cnt = nd->cnt[c];
    size_t item = f > 0.0 ? (f < 1.0 ? (size_t)(f * (double)cnt) : cnt - 1) : 0;
    RK_PREFETCH(leaf);
    RK_PREFETCH((const char *)leaf + 64);
    RK_PREFETCH(leaf->h + (item & ~(size_t)(RK_BLOCK - 1)));
}

/*
 * The same kind of hint one level higher: fetches the header and block prefixes of the inner
 * child `share` of the way through `nd`, so they load while `nd` is searched.
 */
static RK_INLINE void prefetch_node_guess(const rk_inner *nd, double share) {
    uint32_t n = nd->n;
    double g = share * (double)n;
    uint32_t c = g > 0.0 ? (g < (double)n ? (uint32_t)g : n - 1) : 0; /* NaN: 0 */
    const char *child = nd->child[c];
    for (size_t at = 0; at < offsetof(rk_inner, ic); at += 64) RK_PREFETCH(child + at);
}

/*
 * Descends to the leaf holding position `i` (i <= count; i == count lands at the end of the last
 * leaf) and records the path. Returns the leaf; `*local` is the position inside it. `edit`: 0 for
 * a read, 1 for an edit of sums (fetches their lines for writing), 2 also of counts.
 */
static RK_INLINE rk_leaf *descend_to(const rk_offset_tree *t, size_t i, rk_path *p, size_t *local,
                                     int edit) {
    void *node = t->root;
    for (unsigned d = 0; d < t->depth; d++) {
        rk_inner *nd = node;
        uint32_t j = child_at(nd, &i, t->guess[t->depth - d]);
        if (edit) { /* the sums the edit changes on its way back up load while it goes down */
            RK_PREFETCH_W(&nd->sum[j]);
            RK_PREFETCH_W(&nd->is[j]);
            RK_PREFETCH_W(&nd->bs[0]);
            RK_PREFETCH_W(&nd->bs[RK_NODE_BLOCKS - 1]);
        }
        if (edit > 1) RK_PREFETCH_W(&nd->cnt[j]); /* and the count (the prefixes were read) */
        p->node[d] = nd;
        p->idx[d] = j;
        node = nd->child[j];
    }
    *local = i;
    return node;
}

/* Descends for a read. */
static rk_leaf *descend(const rk_offset_tree *t, size_t i, rk_path *p, size_t *local) {
    return descend_to(t, i, p, local, 0);
}

/* Descends for an edit that then changes sums on the path (set). */
static rk_leaf *descend_edit(const rk_offset_tree *t, size_t i, rk_path *p, size_t *local) {
    return descend_to(t, i, p, local, 1);
}

/* Descends for an edit that then changes sums and counts on the path (insert, remove). */
static rk_leaf *descend_resize(const rk_offset_tree *t, size_t i, rk_path *p, size_t *local) {
    return descend_to(t, i, p, local, 2);
}

/*
 * Adds `delta` to a[from..<len] and 0.0 to a[0..<from], which leaves those as they are (the
 * +infinity padding past the last child or block stays +infinity); len <= RK_LEAF_BLOCKS and
 * from <= len. A loop of fixed length with no branch on `from`, which the compiler unrolls and
 * vectorizes. A loop from `from` to the end stops after a number of steps that differs from call
 * to call, and its mispredicted exit cost more than the adds; so does a select `k >= from ?
 * delta : 0.0`, compiled to one branch per element. Instead each element gets delta times a
 * multiplier from ramp_101 (0.0 before `from`, 1.0 from it on).
 */
static RK_INLINE void add_from(double *restrict a, uint32_t len, size_t from, double delta) {
    const double *ramp = ramp_101 + 2 * RK_LEAF_BLOCKS - from;
    for (uint32_t k = 0; k < len; k++) a[k] += ramp[k] * delta;
}

/*
 * After an edit inside the path's bottom child that replaced it by `child` (sum `s`) and changed
 * the item count by `dk`: on every node of the path, adds the changes of sum and count to the
 * child's entry, the in-block prefixes from it on and the block prefixes from its block on (exact,
 * see the file comment); then the tree's count and total.
 */
static void fix_path(rk_offset_tree *t, const rk_path *p, void *child, double s, ptrdiff_t dk) {
    size_t dc = (size_t)dk;
    if (t->depth == 0) t->root = child;
    else p->node[t->depth - 1]->child[p->idx[t->depth - 1]] = child;
    double ds = t->depth ? s - p->node[t->depth - 1]->sum[p->idx[t->depth - 1]] : s - t->total;
    for (unsigned d = t->depth; d-- > 0;) {
        rk_inner *nd = p->node[d];
        uint32_t j = p->idx[d], n = nd->n, b = j / RK_BLOCK, nb = (uint32_t)blocks_of(n);
        nd->sum[j] += ds;
        nd->cnt[j] += dc;
        for (uint32_t q = j, end = block_end(b, n); q < end; q++) {
            nd->is[q] += ds;
            nd->ic[q] += dc;
        }
        for (uint32_t q = b; q < nb; q++) {
            nd->bs[q] += ds;
            nd->bc[q] += dc;
        }
    }
    t->total += ds;
    set_count(t, t->count + dc);
}

/* ---------------------------------------------------------------- prefetch hints */

static size_t hint_bytes(size_t cap) { return cap ? cap * sizeof(rk_hint) + RK_MALLOC_OVERHEAD : 0; }

/* Hints for the leaf `l` holding items [start, start + n). */
static void hint_leaf(rk_offset_tree *t, const rk_leaf *l, size_t start, size_t n) {
    for (size_t g = ceil_div(start, RK_HINT_SPAN); g * RK_HINT_SPAN < start + n; g++) {
        t->hint[g].leaf = l;
        t->hint[g].start = start;
    }
}

/* Hints for the leaves below `nd` (`height` inner levels above them, first item at `start`), from
 * the nodes' child counts: the leaves themselves are not read. */
static void hint_rec(rk_offset_tree *t, const rk_inner *nd, unsigned height, size_t start) {
    for (uint32_t j = 0; j < nd->n; j++) {
        if (height == 1) hint_leaf(t, nd->child[j], start, nd->cnt[j]);
        else hint_rec(t, nd->child[j], height - 1, start);
        start += nd->cnt[j];
    }
}

/* Adds the children of `nd` (at height `h`) and of the inner nodes below it to kids[h], kids[h-1]... */
static void count_children(const rk_inner *nd, unsigned h, size_t *kids) {
    kids[h] += nd->n;
    if (h > 1)
        for (uint32_t j = 0; j < nd->n; j++) count_children(nd->child[j], h - 1, kids);
}

/* Makes the descent's guesses for the current shape (see child_at), O(inner nodes). */
static void make_guesses(rk_offset_tree *t) {
    size_t kids[RK_MAX_DEPTH + 1] = {0};
    if (t->depth) count_children(t->root, t->depth, kids);
    for (unsigned h = 0; h <= RK_MAX_DEPTH; h++)
        t->guess[h] = t->count ? (uint64_t)ldexp((double)kids[h] / (double)t->count, RK_GUESS_BITS) : 0;
}

/* Makes the hints for the current contents, O(count / RK_LEAF_FILL); without them when their
 * memory cannot be had (they are optional). */
static void make_hints(rk_offset_tree *t) {
    make_guesses(t);
    size_t need = ceil_div(t->count, RK_HINT_SPAN);
    t->nhint = 0;
    t->hint_edits = 0;
    if (need > t->hint_cap || need < t->hint_cap / 4) {
        size_t cap = need + need / 4;
        rk_hint *h = cap ? rk_alloc(cap * sizeof *h) : NULL;
        if (h || !cap) {
            rk_free(t->hint);
            t->bytes = t->bytes - hint_bytes(t->hint_cap) + hint_bytes(cap);
            t->hint = h;
            t->hint_cap = cap;
        } else if (need > t->hint_cap) {
            return;
        }
    }
    if (need == 0) return;
    if (t->depth == 0) hint_leaf(t, t->root, 0, t->count);
    else hint_rec(t, t->root, t->depth, 0);
    t->nhint = need;
}

/* Counts `k` items inserted or removed, and makes the hints again once count / RK_HINT_REFRESH
 * have been (so a run of edits pays O(1) for them per item). */
static void note_edit(rk_offset_tree *t, size_t k) {
    t->hint_edits += k;
    if (t->hint_edits > t->count / RK_HINT_REFRESH + RK_HINT_SPAN) make_hints(t);
}

/* Fetches the lines of the leaf the hints say holds position i (its header and prefixes, and the
 * line of item i), so they load while the descent finds the leaf. Nothing when the hints are off,
 * or stale enough that i is not inside the hinted leaf's largest extent. */
static RK_INLINE void prefetch_hinted_leaf(const rk_offset_tree *t, size_t i) {
    size_t g = i / RK_HINT_SPAN;
    if (g >= t->nhint) return;
    rk_hint h = t->hint[g];
    size_t at = i - h.start;
    if (at >= RK_LEAF_MAX) return;
    RK_PREFETCH(h.leaf);
    RK_PREFETCH((const char *)h.leaf + RK_CACHE_LINE);
    RK_PREFETCH(h.leaf->h + at);
}

/* ---------------------------------------------------------------- build */

/* The heights of a tree being built from up to three concatenated segments. */
typedef struct rk_segments {
    const double *seg[3];
    size_t len[3];
} rk_segments;

/* Copies items [from, from + n) of the concatenation into dst, quantized (a no-op on heights the
 * tree holds already). */
static void copy_segments(const rk_segments *s, size_t from, size_t n, double *dst) {
    for (int k = 0; k < 3 && n > 0; k++) {
        if (from >= s->len[k]) {
            from -= s->len[k];
            continue;
        }
        size_t take = s->len[k] - from;
        if (take > n) take = n;
        const double *src = s->seg[k] + from;
        for (size_t i = 0; i < take; i++) dst[i] = quantize(src[i]);
        dst += take;
        n -= take;
        from = 0;
    }
}

/* Number of nodes `total` items or children are split into when building with fill `fill`. */
static size_t pieces_for(size_t total, size_t max, size_t fill) {
    return total <= max ? 1 : ceil_div(total, fill);
}

/* The shape of a built tree of n items: leaves, then nodes per level. */
typedef struct rk_shape {
    size_t m[RK_MAX_DEPTH + 1]; /* m[0] leaves, m[d] nodes on level d (m[depth] == 1) */
    unsigned depth;
    size_t ninner;
} rk_shape;

static rk_shape shape_of(size_t n) {
    rk_shape sh;
    sh.m[0] = pieces_for(n, RK_LEAF_MAX, RK_LEAF_FILL);
    sh.depth = 0;
    sh.ninner = 0;
    while (sh.m[sh.depth] > 1) {
        sh.m[sh.depth + 1] = pieces_for(sh.m[sh.depth], RK_FAN, RK_INNER_FILL);
        sh.ninner += sh.m[sh.depth + 1];
        sh.depth++;
    }
    return sh;
}

/* Nodes being filled level by level while a build streams its leaves. */
typedef struct rk_builder {
    rk_offset_tree *t;
    const rk_shape *sh;
    rk_inner *cur[RK_MAX_DEPTH + 1];
    size_t made[RK_MAX_DEPTH + 1];
    rk_entry root;
} rk_builder;

/* Adds `e` as the next child on level d (1 = the nodes above the leaves), closing the node when it
 * has its share of children and passing it up. Blocks come from the free lists (secured). */
static void builder_push(rk_builder *bd, unsigned d, rk_entry e) {
    if (d > bd->sh->depth) {
        bd->root = e;
        return;
    }
    rk_inner *nd = bd->cur[d];
    if (!nd) nd = bd->cur[d] = inner_new(bd->t);
    set_entry(nd, nd->n++, e);
    size_t below = bd->sh->m[d - 1], here = bd->sh->m[d];
    if (nd->n == below / here + (bd->made[d] < below % here)) {
        bd->cur[d] = NULL;
        bd->made[d]++;
        builder_push(bd, d + 1, inner_entry(nd));
    }
}

/* Builds the concatenated segments (n items) in shape `sh` from blocks the free lists hold
 * (secured beforehand), as the tree's new contents. Each leaf is filled right after it is taken,
 * while its memory is hot in the cache. */
static void build_from_free(rk_offset_tree *t, const rk_segments *s, size_t n, const rk_shape *sh) {
    rk_builder bd;
    memset(&bd, 0, sizeof bd);
    bd.t = t;
    bd.sh = sh;
    size_t nleaves = sh->m[0], from = 0;
    for (size_t q = 0; q < nleaves; q++) {
        size_t len = n / nleaves + (q < n % nleaves);
        rk_leaf *l = leaf_take_fit(t, built_cap(len));
        copy_segments(s, from, len, l->h);
        l->n = (uint32_t)len;
        from += len;
        builder_push(&bd, 1, leaf_entry(l));
    }
    t->root = bd.root.ptr;
    t->depth = sh->depth;
    set_count(t, bd.root.cnt);
    t->total = bd.root.sum;
}

/*
 * Replaces the tree's contents with the concatenated segments (n items), reusing the tree's own
 * blocks (its current nodes and its free lists) and allocating only what they lack. Everything is
 * allocated before the tree is touched: on RK_ERR_NOMEM it is unchanged.
 */
static rk_status rebuild(rk_offset_tree *t, const rk_segments *s, size_t n) {
    rk_shape sh = shape_of(n);
    size_t need[RK_LEAF_CLASSES] = {0}, nleaves = sh.m[0];
    need[leaf_class(built_cap(n / nleaves))] += nleaves - n % nleaves;
    if (n % nleaves) need[leaf_class(built_cap(n / nleaves + 1))] += n % nleaves;
    /* A leaf can stand in for any smaller class, so count what each class lacks from the top. */
    size_t extra[RK_LEAF_CLASSES], spare = 0;
    for (int c = RK_LEAF_CLASSES - 1; c >= 0; c--) {
        spare += t->nfree_leaf[c] + (t->root ? t->live_leaf[c] : 0);
        extra[c] = need[c] > spare ? need[c] - spare : 0;
        spare = need[c] > spare ? 0 : spare - need[c];
    }
    size_t have_inner = t->nfree_inner + (t->root ? t->live_inner : 0);
    size_t extra_inner = sh.ninner > have_inner ? sh.ninner - have_inner : 0;
    /* Allocate what is lacking onto a private list; give it all back on failure. */
    rk_leaf *got = NULL;
    size_t got_bytes = 0;
    int failed = 0;
    for (int c = 0; c < RK_LEAF_CLASSES && !failed; c++) {
        uint32_t cap = (uint32_t)(c + 1) * RK_LEAF_STEP;
        for (size_t q = 0; q < extra[c]; q++) {
            rk_leaf *l = rk_alloc_lines(leaf_size(cap));
            if (!l) {
                failed = 1;
                break;
            }
            l->cap = cap;
            l->n = 0;
            set_leaf_free_next(l, got);
            got = l;
            got_bytes += leaf_bytes(cap);
        }
    }
    void *got_inner = NULL;
    for (size_t q = 0; q < extra_inner && !failed; q++) {
        rk_inner *nd = rk_alloc(sizeof(rk_inner));
        if (!nd) {
            failed = 1;
            break;
        }
        set_free_next(nd, got_inner);
        got_inner = nd;
        got_bytes += inner_bytes();
    }
    if (failed) {
        while (got) {
            rk_leaf *next = leaf_free_next(got);
            rk_free(got);
            got = next;
        }
        while (got_inner) {
            void *next = free_next(got_inner);
            rk_free(got_inner);
            got_inner = next;
        }
        return RK_ERR_NOMEM;
    }
    /* ---- commit: nothing below can fail */
    if (t->root) release_subtree(t, t->root, t->depth);
    t->bytes += got_bytes;
    while (got) {
        rk_leaf *l = got;
        got = leaf_free_next(l);
        t->live_leaf[leaf_class(l->cap)]++; /* leaf_delete counts it out again */
        leaf_delete(t, l);
    }
    while (got_inner) {
        rk_inner *nd = got_inner;
        got_inner = free_next(nd);
        t->live_inner++;
        inner_delete(t, nd);
    }
    build_from_free(t, s, n, &sh);
    trim(t);
    make_hints(t);
    return RK_OK;
}

/*
 * Checks that every height is valid (RK_ERR_HEIGHT, the first bad index in *bad_index) and stores
 * the sum of the quantized heights in *sum. Once a sum reaches RK_OFFSET_TREE_MAX_TOTAL it may be
 * rounded, but rounding is monotonic, so it never falls back below the limit: callers compare it
 * (plus the rest of the tree's total) with the limit.
 */
static rk_status validate(const double *h, size_t k, size_t *bad_index, double *sum) {
    /* Branch-free first pass (vectorizes): NaN, infinities, negatives and huge values all fail. */
    int ok = 1;
    for (size_t i = 0; i < k; i++) ok &= (h[i] >= 0.0) & (h[i] < RK_OFFSET_TREE_MAX_TOTAL);
    if (!ok) {
        for (size_t i = 0; i < k; i++) {
            if (!valid_height(h[i])) {
                if (bad_index) *bad_index = i;
                return RK_ERR_HEIGHT;
            }
        }
    }
    double s = 0.0;
    for (size_t i = 0; i < k; i++) s += quantize(h[i]);
    *sum = s;
    return RK_OK;
}

/* Whether a tree whose heights add up to `total` (as validate sums them) is within the limit. */
static int total_fits(double total) { return total < RK_OFFSET_TREE_MAX_TOTAL; }

rk_status rk_offset_tree_create(rk_offset_tree **out) {
    return rk_offset_tree_build(NULL, 0, out, NULL);
}

rk_status rk_offset_tree_build(const double *heights, size_t n, rk_offset_tree **out,
                               size_t *bad_index) {
    if (!out || (!heights && n > 0)) return RK_ERR_ARG;
    if (n > RK_OFFSET_TREE_MAX_COUNT) return RK_ERR_OVERFLOW;
    double sum;
    rk_status st = validate(heights, n, bad_index, &sum);
    if (st != RK_OK) return st;
    if (!total_fits(sum)) return RK_ERR_OVERFLOW;
    rk_offset_tree *t = rk_alloc(sizeof(rk_offset_tree));
    if (!t) return RK_ERR_NOMEM;
    memset(t, 0, sizeof *t);
    t->bytes = sizeof(rk_offset_tree) + RK_MALLOC_OVERHEAD;
    rk_segments s = {{heights, NULL, NULL}, {n, 0, 0}};
    st = rebuild(t, &s, n);
    if (st != RK_OK) {
        rk_free(t);
        return st;
    }
    *out = t;
    return RK_OK;
}

rk_status rk_offset_tree_assign(rk_offset_tree *t, const double *heights, size_t n,
                                size_t *bad_index) {
    if (!heights && n > 0) return RK_ERR_ARG;
    if (n > RK_OFFSET_TREE_MAX_COUNT) return RK_ERR_OVERFLOW;
    double sum;
    rk_status st = validate(heights, n, bad_index, &sum);
    if (st != RK_OK) return st;
    if (!total_fits(sum)) return RK_ERR_OVERFLOW;
    rk_segments s = {{heights, NULL, NULL}, {n, 0, 0}};
    return rebuild(t, &s, n);
}

void rk_offset_tree_destroy(rk_offset_tree *t) {
    if (!t) return;
    release_subtree(t, t->root, t->depth);
    size_t none[RK_LEAF_CLASSES] = {0};
    free_down_to(t, none, 0);
    rk_free(t->hint);
    rk_free(t);
}

/* ---------------------------------------------------------------- queries */

size_t rk_offset_tree_count(const rk_offset_tree *t) { return t->count; }

double rk_offset_tree_total(const rk_offset_tree *t) { return t->total; }

size_t rk_offset_tree_bytes(const rk_offset_tree *t) { return t->bytes; }

rk_status rk_offset_tree_height(const rk_offset_tree *t, size_t index, double *out) {
    if (index >= t->count) return RK_ERR_RANGE;
    rk_path p;
    size_t local;
    rk_leaf *l = descend(t, index, &p, &local);
    *out = l->h[local];
    return RK_OK;
}

/* The offset of item index < count. */
static RK_INLINE double offset_before(const rk_offset_tree *t, size_t index) {
    double acc = 0.0;
    const void *node = t->root;
    for (unsigned d = 0; d < t->depth; d++) {
        const rk_inner *nd = node;
        uint32_t j = child_at(nd, &index, t->guess[t->depth - d]), b = j / RK_BLOCK;
        if (b) acc += nd->bs[b - 1];
        if (j % RK_BLOCK) acc += nd->is[j - 1];
        node = nd->child[j];
    }
    const rk_leaf *l = node;
    size_t b = index / RK_BLOCK, r = index % RK_BLOCK;
    if (b) acc += leaf_pre_c(l)[b - 1];
    /* The heights before the item in its block (the block's others times 0.0, with no branch on
     * r; they are finite: heights or the 0.0 past the last item), added as a tree of depth 3
     * rather than a chain: exact in any order. */
    const double *q = l->h + b * RK_BLOCK, *keep = ramp_101 + RK_LEAF_BLOCKS - r;
    double m[RK_BLOCK];
    for (size_t k = 0; k < RK_BLOCK; k++) m[k] = q[k] * keep[k];
    return acc + (((m[0] + m[1]) + (m[2] + m[3])) + ((m[4] + m[5]) + (m[6] + m[7])));
}

rk_status rk_offset_tree_offset(const rk_offset_tree *t, size_t index, double *out) {
    if (index > t->count) return RK_ERR_RANGE;
    *out = index == t->count ? t->total : offset_before(t, index);
    return RK_OK;
}

double rk_offset_tree_offset_of(const rk_offset_tree *t, size_t index) {
    if (index >= t->count) return index == t->count ? t->total : RK_NO_OFFSET;
    return offset_before(t, index);
}

/* The last block at or before b whose sum (the difference of two prefixes) is positive; 0 when
 * none is. Blocks up to b must have prefixes (b < RK_LEAF_PREFIXES). */
static uint32_t last_positive_block(const double *pre, uint32_t b) {
    while (b > 0 && !(pre[b] > pre[b - 1])) b--;
    return b;
}

/* One past the last positive height of h[0..<len], or 0 when none is. */
static uint32_t positive_items(const double *h, uint32_t len) {
    while (len > 0 && !(h[len - 1] > 0.0)) len--;
    return len;
}

/*
 * Finds the item for offset y. With `closed_right` == 0 it is the positive-height item with
 * offset <= y < offset + height; with 1 it is the one with offset < y <= offset + height.
 *
 * On each level: the block whose prefix first passes y (counting the blocks whose prefix does
 * not), then in that block the child whose in-block prefix first passes it; in the leaf, the block
 * likewise, then in that block the item whose running sum first passes it, all counted without
 * branches. The first child, block or item that passes y is never an empty one (its prefix exceeds
 * the previous one, and y >= the node's offset, strictly for closed_right, holds on every level).
 * Sums are exact, so something inside each chosen node or block always passes y; the fallbacks
 * when nothing does (its last positive child, block or item) only keep a corrupt tree's answer in
 * range. Requires total > 0.
 */
static size_t locate(const rk_offset_tree *t, double y, int closed_right) {
    double acc = 0.0;
    size_t base = 0;
    const void *node = t->root;
    for (unsigned d = 0; d < t->depth; d++) {
        const rk_inner *nd = node;
        uint32_t n = nd->n, nb = (uint32_t)blocks_of(n), b = 0, j;
        if (d + 1 == t->depth) prefetch_leaf_guess(nd, (y - acc) / nd->bs[nb - 1]);
        else prefetch_node_guess(nd, (y - acc) / nd->bs[nb - 1]);
        if (closed_right) {
            for (uint32_t k = 0; k < RK_NODE_BLOCKS; k++) b += y > acc + nd->bs[k];
        } else {
            for (uint32_t k = 0; k < RK_NODE_BLOCKS; k++) b += y >= acc + nd->bs[k];
        }
        if (b >= nb) { /* nothing passes y: the last child with a positive sum */
            j = n - 1;
            while (j > 0 && !(nd->sum[j] > 0.0)) j--;
            b = j / RK_BLOCK;
        } else {
            RK_PREFETCH(&nd->child[b * RK_BLOCK]); /* loads beside the block's prefixes */
            double a = b ? acc + nd->bs[b - 1] : acc;
            const double *is = nd->is + b * RK_BLOCK;
            uint32_t q = 0, len = block_end(b, n) - b * RK_BLOCK;
            if (closed_right) {
                for (uint32_t k = 0; k < RK_BLOCK; k++) q += y > a + is[k];
            } else {
                for (uint32_t k = 0; k < RK_BLOCK; k++) q += y >= a + is[k];
            }
            if (q >= len) { /* nothing passes y: the block's last positive child */
                q = len - 1;
                while (q > 0 && !(nd->sum[b * RK_BLOCK + q] > 0.0)) q--;
            }
            j = b * RK_BLOCK + q;
        }
        if (b) {
            acc += nd->bs[b - 1];
            base += nd->bc[b - 1];
        }
        if (j % RK_BLOCK) {
            acc += nd->is[j - 1];
            base += nd->ic[j - 1];
        }
        node = nd->child[j];
    }
    const rk_leaf *l = node;
    const double *pre = leaf_pre_c(l);
    uint32_t n = l->n, nb = (uint32_t)blocks_of(n), b = 0;
    if (closed_right) {
        for (uint32_t k = 0; k < RK_LEAF_PREFIXES; k++) b += y > acc + pre[k];
    } else {
        for (uint32_t k = 0; k < RK_LEAF_PREFIXES; k++) b += y >= acc + pre[k];
    }
    /* b <= RK_LEAF_PREFIXES: a full leaf keeps no prefix through its last block, so y past its end
     * selects that block, and the fallback below goes back from there. */
    if (b >= nb) b = last_positive_block(pre, nb - 1); /* nothing passes y */
    double a = b ? acc + pre[b - 1] : acc;
    /* The block's inclusive running sums, added as a tree (exact in any order); the slots past n
     * hold 0.0, so their sums equal the last item's and pass y only when it does. */
    const double *h = l->h + b * RK_BLOCK;
    double p[RK_BLOCK], s01 = h[0] + h[1], s45 = h[4] + h[5];
    p[0] = h[0];
    p[1] = s01;
    p[3] = s01 + (h[2] + h[3]);
    p[2] = s01 + h[2];
    p[4] = p[3] + h[4];
    p[5] = p[3] + s45;
    p[6] = p[5] + h[6];
    p[7] = p[3] + (s45 + (h[6] + h[7]));
    uint32_t q = 0, len = min_u32(RK_BLOCK, n - b * RK_BLOCK);
    if (closed_right) {
        for (uint32_t k = 0; k < RK_BLOCK; k++) q += y > a + p[k];
    } else {
        for (uint32_t k = 0; k < RK_BLOCK; k++) q += y >= a + p[k];
    }
    if (q >= len) { /* nothing passes y: the block's last positive item, if any */
        q = positive_items(h, len);
        if (q == 0 && b == RK_LEAF_PREFIXES) {
            /* A full leaf's last block with no positive item (its prefix is not kept, so it was
             * not skipped above): the item is in the last block with a positive sum before it. */
            b = last_positive_block(pre, RK_LEAF_PREFIXES - 1);
            q = positive_items(l->h + b * RK_BLOCK, RK_BLOCK);
        }
        return q ? base + b * RK_BLOCK + q - 1 : RK_NOT_FOUND;
    }
    return base + b * RK_BLOCK + q;
}

size_t rk_offset_tree_item_at(const rk_offset_tree *t, double y) {
    if (!(y >= 0.0) || !(y < t->total)) return RK_NOT_FOUND;
    return locate(t, y, 0);
}

void rk_offset_tree_range(const rk_offset_tree *t, double y0, double y1, size_t *first,
                          size_t *end) {
    *first = 0;
    *end = 0;
    /* max(y0, 0) < total, not y0 < total: a negative y0 on an all-zero tree (total 0, so nothing
     * intersects) must not reach locate, which requires total > 0. */
    double from = y0 > 0.0 ? y0 : 0.0;
    if (!(y0 < y1) || !(y1 > 0.0) || !(from < t->total)) return;
    size_t f = locate(t, from, 0);
    size_t l = locate(t, y1, 1);
    if (f == RK_NOT_FOUND || l == RK_NOT_FOUND) return;
    *first = f;
    *end = (l >= f ? l : f) + 1;
}

/* ---------------------------------------------------------------- set */


rk_status rk_offset_tree_set(rk_offset_tree *t, size_t index, double height) {
    if (index >= t->count) return RK_ERR_RANGE;
    if (!valid_height(height)) return RK_ERR_HEIGHT;
    prefetch_hinted_leaf(t, index);
    double q = quantize(height);
    rk_path p;
    size_t local;
    rk_leaf *l = descend_edit(t, index, &p, &local);
    double delta = q - l->h[local]; /* exact: both are multiples of 2^-16 below 2^37 */
    if (!total_fits(t->total + delta)) return RK_ERR_OVERFLOW;
    l->h[local] = q;
    /* Counts are unchanged; every sum containing the item grows by delta (exactly): the leaf's
     * prefixes from its block on, and on each node of the path the child's sum, the in-block
     * prefixes from the child on and the block prefixes from its block on. Each is one add_from
     * over the whole array or block (0.0 added before the item's entry, +infinity padding past
     * the last child staying so): fixed length, no branch on where the item is, no child count.
     * The lines they write were fetched while the descent went down (descend_edit). */
    add_from(leaf_pre(l), RK_LEAF_PREFIXES, local / RK_BLOCK, delta);
    for (unsigned d = t->depth; d-- > 0;) {
        rk_inner *nd = p.node[d];
        uint32_t j = p.idx[d], bj = j / RK_BLOCK;
        nd->sum[j] += delta;
        add_from(nd->is + bj * RK_BLOCK, RK_BLOCK, j % RK_BLOCK, delta);
        add_from(nd->bs, RK_NODE_BLOCKS, bj, delta);
    }
    t->total += delta;
    return RK_OK;
}

/* ---------------------------------------------------------------- bulk read and set */

/* Copies items [lo, hi) of the subtree `node` (`height` inner levels above its leaves, starting at
 * offset `acc`) to `h`, and their offsets to `off` unless it is NULL; lo < hi <= the subtree's
 * count. Visits only the children that overlap the range. The offsets are summed exactly as
 * rk_offset_tree_offset sums them. */
static void read_rec(const void *node, unsigned height, double acc, size_t lo, size_t hi,
                     double *h, double *off) {
    if (height == 0) {
        const rk_leaf *l = node;
        memcpy(h, &l->h[lo], (hi - lo) * sizeof(double));
        if (!off) return;
        const double *pre = leaf_pre_c(l);
        size_t i = lo;
        while (i < hi) {
            size_t b = i / RK_BLOCK, end = (b + 1) * RK_BLOCK < hi ? (b + 1) * RK_BLOCK : hi;
            double a = b ? acc + pre[b - 1] : acc;
            for (size_t q = b * RK_BLOCK; q < i; q++) a += l->h[q];
            for (; i < end; i++) {
                off[i - lo] = a;
                a += l->h[i];
            }
        }
        return;
    }
    const rk_inner *nd = node;
    size_t start = 0;
    for (uint32_t j = 0; j < nd->n && start < hi; j++) {
        size_t end = start + nd->cnt[j];
        if (end > lo) {
            size_t a = lo > start ? lo : start, b = hi < end ? hi : end;
            double child_acc = acc;
            if (j >= RK_BLOCK) child_acc += nd->bs[j / RK_BLOCK - 1];
            if (j % RK_BLOCK) child_acc += nd->is[j - 1];
            read_rec(nd->child[j], height - 1, child_acc, a - start, b - start, h, off);
            h += b - a;
            if (off) off += b - a;
        }
        start = end;
    }
}

rk_status rk_offset_tree_read(const rk_offset_tree *t, size_t first, size_t n, double *heights,
                              double *offsets) {
    if (first > t->count || n > t->count - first) return RK_ERR_RANGE;
    if (!heights && n > 0) return RK_ERR_ARG;
    if (n > 0) read_rec(t->root, t->depth, 0.0, first, first + n, heights, offsets);
    return RK_OK;
}

/* Writes `h` over items [lo, hi) of the subtree `node` and returns its new height sum. Counts are
 * unchanged; each touched leaf's block prefixes are recomputed from its first touched
 * block and each touched node's prefixes from its first touched child, exactly the values a full
 * fix would compute. */
static double set_rec(void *node, unsigned height, size_t lo, size_t hi, const double *h) {
    if (height == 0) {
        rk_leaf *l = node;
        for (size_t i = lo; i < hi; i++) l->h[i] = quantize(h[i - lo]);
        return leaf_fix(l, lo / RK_BLOCK);
    }
    rk_inner *nd = node;
    size_t start = 0;
    uint32_t touched = nd->n;
    for (uint32_t j = 0; j < nd->n && start < hi; j++) {
        size_t end = start + nd->cnt[j];
        if (end > lo) {
            size_t a = lo > start ? lo : start, b = hi < end ? hi : end;
            nd->sum[j] = set_rec(nd->child[j], height - 1, a - start, b - start, h + (a - lo));
            if (touched == nd->n) touched = j;
        }
        start = end;
    }
    inner_fix(nd, touched);
    return inner_sum(nd);
}

rk_status rk_offset_tree_set_range(rk_offset_tree *t, size_t first, const double *h, size_t n,
                                   size_t *bad_index) {
    if (first > t->count || n > t->count - first) return RK_ERR_RANGE;
    if (!h && n > 0) return RK_ERR_ARG;
    double sum;
    rk_status st = validate(h, n, bad_index, &sum);
    if (st != RK_OK) return st;
    if (n == 0) return RK_OK;
    double before, after;
    rk_offset_tree_offset(t, first, &before);
    rk_offset_tree_offset(t, first + n, &after);
    if (!total_fits(t->total - (after - before) + sum)) return RK_ERR_OVERFLOW;
    t->total = set_rec(t->root, t->depth, first, first + n, h);
    return RK_OK;
}

/* ---------------------------------------------------------------- insert */

/* Rebuilds the whole tree with `h` inserted at `at`: used when k >= count, so O(n + k) = O(k). */
static rk_status insert_by_rebuild(rk_offset_tree *t, size_t at, const double *h, size_t k) {
    double *old = NULL;
    if (t->count > 0) {
        old = rk_alloc(t->count * sizeof(double));
        if (!old) return RK_ERR_NOMEM;
        read_rec(t->root, t->depth, 0.0, 0, t->count, old, NULL);
    }
    rk_segments s = {{old, h, old ? old + at : NULL}, {at, k, t->count - at}};
    rk_status st = rebuild(t, &s, t->count + k);
    rk_free(old);
    return st;
}

/* Gives back the blocks an edit secured when a later allocation failed: every block goes back on
 * its free list, then the lists are cut to their lengths at `mark` (blocks of one class are
 * interchangeable, so this frees as many as malloc gave). */
static void give_back(rk_offset_tree *t, rk_mark mark, void **blocks, size_t nleaves, size_t made) {
    for (size_t q = 0; q < made; q++) {
        if (q < nleaves) leaf_delete(t, blocks[q]);
        else inner_delete(t, blocks[q]);
    }
    free_down_to(t, mark.leaves, mark.inner);
}

/* Inserts the k heights `h` at `off` of `leaf` (reached through `p`) when the leaf can hold them
 * all: in place, or moved to a larger leaf. Inlined: it is the common case of an insert. */
static RK_INLINE rk_status insert_in_leaf(rk_offset_tree *t, const rk_path *p, rk_leaf *leaf,
                                           size_t off, const double *h, size_t k) {
    const size_t total = leaf->n + k;
    rk_leaf *l = leaf;
    size_t from_block = off / RK_BLOCK, old_n = leaf->n;
    if (total > leaf->cap) {
        l = leaf_new(t, round_cap(total));
        if (!l) return RK_ERR_NOMEM;
        memcpy(l->h, leaf->h, off * sizeof(double));
        memcpy(l->h + off + k, leaf->h + off, (leaf->n - off) * sizeof(double));
        leaf_delete(t, leaf);
        from_block = 0;
    } else {
        memmove(l->h + off + k, l->h + off, (l->n - off) * sizeof(double));
    }
    for (size_t i = 0; i < k; i++) l->h[off + i] = quantize(h[i]);
    l->n = (uint32_t)total;
    double s = l == leaf && k == 1 ? leaf_fix_after_insert(l, off, old_n) : leaf_fix(l, from_block);
    fix_path(t, p, l, s, (ptrdiff_t)k);
    if (l != leaf) trim(t);
    return RK_OK;
}

/* How an insertion of `total` heights into one leaf splits the tree: the leaf into `mleaf`
 * pieces, level d of the path into pieces_at[d] (set while a level still gets more than one piece),
 * new levels on top when the root splits; the inner blocks all that takes, and the longest entry
 * list and the most pieces a level handles. */
typedef struct rk_insert_plan {
    size_t pieces_at[RK_MAX_DEPTH + 1];
    size_t mleaf, ninner, max_list, max_pieces;
} rk_insert_plan;

static void plan_insert(const rk_path *p, unsigned depth, size_t total, rk_insert_plan *plan) {
    size_t mleaf = pieces_for(total, RK_LEAF_MAX, RK_LEAF_FILL);
    size_t ninner = 0, max_list = 0, max_pieces = mleaf, mb = mleaf;
    for (unsigned d = depth; d-- > 0 && mb > 1;) {
        size_t tl = p->node[d]->n - 1 + mb;
        size_t ml = pieces_for(tl, RK_FAN, RK_INNER_FILL);
        plan->pieces_at[d] = ml;
        ninner += ml - 1;
        if (tl > max_list) max_list = tl;
        if (ml > max_pieces) max_pieces = ml;
        mb = ml;
    }
    if (mb > 1) { /* the root splits: new levels on top */
        for (size_t m = mb; m > 1;) {
            size_t mm = pieces_for(m, RK_FAN, RK_INNER_FILL);
            ninner += mm;
            if (m > max_list) max_list = m;
            m = mm;
        }
    }
    plan->mleaf = mleaf;
    plan->ninner = ninner;
    plan->max_list = max_list;
    plan->max_pieces = max_pieces;
}

/* The scratch of an insertion that splits: the new blocks (`nodes`: the leaves, then the inner
 * blocks), the pieces of the level being built and a level's entry list; on the stack when they
 * fit, else on the heap (`heap`). */
typedef struct rk_insert_scratch {
    void *nodes_stack[RK_STACK_NODES];
    rk_entry pieces_stack[RK_STACK_ENTRIES], list_stack[RK_STACK_ENTRIES];
    void **nodes;
    rk_entry *pieces, *list;
    int heap;
} rk_insert_scratch;

static void scratch_free(rk_insert_scratch *sc) {
    if (!sc->heap) return;
    rk_free(sc->nodes);
    rk_free(sc->pieces);
    rk_free(sc->list);
}

/* Secures everything the insertion `plan` needs: the scratch arrays, then the new leaves (each
 * sized for its share of `total`) and inner blocks, in sc->nodes. Returns RK_ERR_NOMEM with
 * nothing kept (the tree and its free lists as they were, the scratch freed) when an allocation
 * fails. */
static rk_status secure_insert(rk_offset_tree *t, const rk_insert_plan *plan, size_t total,
                               rk_insert_scratch *sc) {
    size_t nleaves = plan->mleaf, nblocks = nleaves + plan->ninner;
    sc->nodes = sc->nodes_stack;
    sc->pieces = sc->pieces_stack;
    sc->list = sc->list_stack;
    sc->heap = nblocks > RK_STACK_NODES || plan->max_pieces > RK_STACK_ENTRIES ||
               plan->max_list > RK_STACK_ENTRIES;
    if (sc->heap) {
        sc->nodes = rk_alloc(nblocks * sizeof(void *));
        sc->pieces = rk_alloc(plan->max_pieces * sizeof(rk_entry));
        sc->list = rk_alloc((plan->max_list ? plan->max_list : 1) * sizeof(rk_entry));
        if (!sc->nodes || !sc->pieces || !sc->list) {
            scratch_free(sc);
            return RK_ERR_NOMEM;
        }
    }
    rk_mark mark = mark_of(t);
    size_t made = 0;
    for (; made < nleaves; made++) {
        size_t len = total / nleaves + (made < total % nleaves);
        if (!(sc->nodes[made] = leaf_new(t, round_cap(len)))) break;
    }
    if (made == nleaves) {
        for (; made < nblocks; made++)
            if (!(sc->nodes[made] = inner_new(t))) break;
    }
    if (made < nblocks) {
        give_back(t, mark, sc->nodes, nleaves, made);
        scratch_free(sc);
        return RK_ERR_NOMEM;
    }
    return RK_OK;
}

/* Splits `nd`, with its entry `j` replaced by the `mb` pieces in sc->pieces, into `ml` nodes:
 * `nd` itself, then new blocks taken from sc->nodes at *next; their entries become the pieces. */
static void split_inner(rk_inner *nd, uint32_t j, size_t mb, size_t ml, rk_insert_scratch *sc,
                        size_t *next) {
    rk_entry *pieces = sc->pieces, *list = sc->list;
    size_t tl = nd->n - 1 + mb, w = 0, start = 0;
    for (uint32_t i = 0; i < j; i++) list[w++] = get_entry(nd, i);
    for (size_t q = 0; q < mb; q++) list[w++] = pieces[q];
    for (uint32_t i = j + 1; i < nd->n; i++) list[w++] = get_entry(nd, i);
    for (size_t q = 0; q < ml; q++) {
        rk_inner *dst = q == 0 ? nd : sc->nodes[(*next)++];
        size_t len = tl / ml + (q < tl % ml);
        for (size_t i = 0; i < len; i++) set_entry(dst, (uint32_t)i, list[start + i]);
        dst->n = (uint32_t)len;
        start += len;
        pieces[q] = inner_entry(dst);
    }
}

/* Puts the `mb` pieces of a split root under new levels of blocks from sc->nodes at `next`, until
 * one piece is left; returns the number of levels added. */
static unsigned grow_root(size_t mb, rk_insert_scratch *sc, size_t next) {
    rk_entry *pieces = sc->pieces, *list = sc->list;
    unsigned levels = 0;
    while (mb > 1) {
        size_t mm = pieces_for(mb, RK_FAN, RK_INNER_FILL), start = 0;
        memcpy(list, pieces, mb * sizeof(rk_entry));
        for (size_t q = 0; q < mm; q++) {
            rk_inner *dst = sc->nodes[next++];
            size_t len = mb / mm + (q < mb % mm);
            for (size_t i = 0; i < len; i++) set_entry(dst, (uint32_t)i, list[start + i]);
            dst->n = (uint32_t)len;
            start += len;
            pieces[q] = inner_entry(dst);
        }
        mb = mm;
        levels++;
    }
    return levels;
}

/* Commits an insertion of the k heights `h` at `off` of `leaf` (reached through `p`) with the
 * blocks secure_insert made; nothing here can fail. The leaf's heights and the new ones are dealt
 * out to the new leaves, each level of the path takes the pieces below it (split where they do
 * not fit), and new levels go on top when the root splits. */
static void commit_insert(rk_offset_tree *t, const rk_path *p, rk_leaf *leaf, size_t off,
                          const double *h, size_t k, const rk_insert_plan *plan,
                          rk_insert_scratch *sc) {
    const unsigned depth = t->depth;
    const size_t total = leaf->n + k, mleaf = plan->mleaf;
    rk_entry *pieces = sc->pieces;
    size_t next = 0, from = 0;
    rk_segments s = {{leaf->h, h, leaf->h + off}, {off, k, leaf->n - off}};
    for (size_t q = 0; q < mleaf; q++) {
        rk_leaf *l = sc->nodes[next++];
        size_t len = total / mleaf + (q < total % mleaf);
        copy_segments(&s, from, len, l->h);
        l->n = (uint32_t)len;
        from += len;
        pieces[q] = leaf_entry(l);
    }
    leaf_delete(t, leaf);
    size_t mb = mleaf;
    for (unsigned d = depth; d-- > 0;) {
        rk_inner *nd = p->node[d];
        uint32_t j = p->idx[d];
        if (mb == 1) {
            set_entry(nd, j, pieces[0]);
            pieces[0] = inner_entry(nd);
            continue;
        }
        size_t tl = nd->n - 1 + mb;
        if (tl <= RK_FAN) {
            move_entries(nd, (uint32_t)(j + mb), nd, j + 1, nd->n - j - 1);
            for (size_t q = 0; q < mb; q++) set_entry(nd, (uint32_t)(j + q), pieces[q]);
            nd->n = (uint32_t)tl;
            pieces[0] = inner_entry(nd);
            mb = 1;
            continue;
        }
        split_inner(nd, j, mb, plan->pieces_at[d], sc, &next);
        mb = plan->pieces_at[d];
    }
    unsigned new_depth = depth + grow_root(mb, sc, next);
    t->root = pieces[0].ptr;
    t->total = pieces[0].sum;
    set_count(t, pieces[0].cnt);
    t->depth = new_depth;
    if (new_depth != depth) make_guesses(t); /* a new root level */
    trim(t);
}

/* Inserts the k heights `h` at `at`: into the leaf there when it can hold them, by a rebuild when
 * k is at least the count, and otherwise in two phases, securing every block first (a failure
 * leaves the tree as it was) and then committing, which cannot fail. */
static rk_status insert_items(rk_offset_tree *t, size_t at, const double *h, size_t k,
                              size_t *bad_index) {
    if (at > t->count) return RK_ERR_RANGE;
    if (k > RK_OFFSET_TREE_MAX_COUNT - t->count) return RK_ERR_OVERFLOW;
    if (k == 0) return RK_OK;
    if (!h) return RK_ERR_ARG;
    double sum;
    rk_status st = validate(h, k, bad_index, &sum);
    if (st != RK_OK) return st;
    if (!total_fits(t->total + sum)) return RK_ERR_OVERFLOW;
    if (k >= t->count) return insert_by_rebuild(t, at, h, k);

    rk_path p;
    size_t off;
    rk_leaf *leaf = descend_resize(t, at, &p, &off);
    const size_t total = leaf->n + k;
    if (total <= RK_LEAF_MAX) return insert_in_leaf(t, &p, leaf, off, h, k);

    rk_insert_plan plan;
    plan_insert(&p, t->depth, total, &plan);
    rk_insert_scratch sc;
    st = secure_insert(t, &plan, total, &sc);
    if (st != RK_OK) return st;
    commit_insert(t, &p, leaf, off, h, k, &plan, &sc);
    scratch_free(&sc);
    return RK_OK;
}

/* ---------------------------------------------------------------- remove */

typedef struct rk_reserve {
    rk_leaf *leaf[RK_REMOVE_RESERVE];
    int n;
} rk_reserve;

/* Returns a leaf of capacity >= cap: a reserve leaf (full capacity). */
static rk_leaf *reserve_take(rk_reserve *rs) {
    if (rs->n == 0) abort(); /* unreachable: at most RK_REMOVE_RESERVE leaf fixes per removal */
    return rs->leaf[--rs->n];
}

/* Ensures leaf child `i` of `nd` can hold `need` heights, swapping in a reserve leaf if not. */
static rk_leaf *ensure_cap(rk_offset_tree *t, rk_inner *nd, uint32_t i, size_t need,
                           rk_reserve *rs) {
    rk_leaf *l = nd->child[i];
    if (l->cap >= need) return l;
    rk_leaf *r = reserve_take(rs);
    memcpy(r->h, l->h, l->n * sizeof(double));
    r->n = l->n;
    leaf_delete(t, l);
    nd->child[i] = r;
    return r;
}

static int underfull(const void *child, unsigned child_height) {
    if (child_height == 0) return ((const rk_leaf *)child)->n < RK_LEAF_MIN;
    return ((const rk_inner *)child)->n < RK_INNER_MIN;
}

static rk_entry entry_of(void *child, unsigned child_height) {
    return child_height == 0 ? leaf_entry(child) : inner_entry(child);
}

static void remove_entry(rk_inner *nd, uint32_t i) {
    move_entries(nd, i, nd, i + 1, nd->n - i - 1);
    nd->n--;
}

/*
 * Makes every child of `nd` (at height `height`, children at height-1) meet its fill minimum by
 * merging an underfull child with a neighbour or redistributing between them, and recursively fixes
 * the merged nodes. Precondition: a child with >= 2 children has only valid descendants; a child
 * with one child may have an underfull chain below it. Only underfull leaves ever need a reserve
 * leaf, and each merge or redistribution removes at least one underfull leaf, so a removal (which
 * starts with at most two: the boundary leaves) uses at most two.
 */
static void fix_node(rk_offset_tree *t, rk_inner *nd, unsigned height, rk_reserve *rs) {
    const unsigned ch = height - 1;
    for (;;) {
        if (nd->n < 2) return;
        uint32_t j = 0;
        while (j < nd->n && !underfull(nd->child[j], ch)) j++;
        if (j == nd->n) return;
        uint32_t a = j + 1 < nd->n ? j : j - 1, b = a + 1;
        if (ch == 0) {
            rk_leaf *la = nd->child[a], *lb = nd->child[b];
            size_t tot = (size_t)la->n + lb->n;
            if (tot <= RK_LEAF_MAX) {
                la = ensure_cap(t, nd, a, tot, rs);
                memcpy(la->h + la->n, lb->h, lb->n * sizeof(double));
                la->n = (uint32_t)tot;
                leaf_delete(t, lb);
                remove_entry(nd, b);
                set_entry(nd, a, leaf_entry(la));
            } else {
                uint32_t na = (uint32_t)(tot / 2), nb = (uint32_t)(tot - na);
                if (la->n < na) {
                    uint32_t mv = na - la->n;
                    la = ensure_cap(t, nd, a, na, rs);
                    memcpy(la->h + la->n, lb->h, mv * sizeof(double));
                    memmove(lb->h, lb->h + mv, (lb->n - mv) * sizeof(double));
                } else {
                    uint32_t mv = la->n - na;
                    lb = ensure_cap(t, nd, b, nb, rs);
                    memmove(lb->h + mv, lb->h, lb->n * sizeof(double));
                    memcpy(lb->h, la->h + na, mv * sizeof(double));
                }
                la->n = na;
                lb->n = nb;
                set_entry(nd, a, leaf_entry(la));
                set_entry(nd, b, leaf_entry(lb));
            }
        } else {
            rk_inner *ia = nd->child[a], *ib = nd->child[b];
            uint32_t tot = ia->n + ib->n;
            if (tot <= RK_FAN) {
                move_entries(ia, ia->n, ib, 0, ib->n);
                ia->n = tot;
                inner_delete(t, ib);
                remove_entry(nd, b);
                fix_node(t, ia, ch, rs);
                set_entry(nd, a, inner_entry(ia));
            } else {
                uint32_t na = tot / 2, nb = tot - na;
                if (ia->n < na) {
                    uint32_t mv = na - ia->n;
                    move_entries(ia, ia->n, ib, 0, mv);
                    move_entries(ib, 0, ib, mv, ib->n - mv);
                } else {
                    uint32_t mv = ia->n - na;
                    move_entries(ib, mv, ib, 0, ib->n);
                    move_entries(ib, 0, ia, na, mv);
                }
                ia->n = na;
                ib->n = nb;
                fix_node(t, ia, ch, rs);
                fix_node(t, ib, ch, rs);
                set_entry(nd, a, inner_entry(ia));
                set_entry(nd, b, inner_entry(ib));
            }
        }
    }
}

/* Removes items [lo, hi) (relative to `nd`, partially covered) from the subtree under `nd`. */
static void remove_rec(rk_offset_tree *t, rk_inner *nd, unsigned height, size_t lo, size_t hi,
                       rk_reserve *rs) {
    uint32_t first = 0;
    size_t acc = 0;
    while (acc + nd->cnt[first] <= lo) acc += nd->cnt[first++];
    uint32_t w = first, n = nd->n;
    for (uint32_t r = first; r < n; r++) {
        size_t c0 = acc, c1 = acc + nd->cnt[r];
        acc = c1;
        if (c0 >= hi) {
            if (w != r) set_entry(nd, w, get_entry(nd, r));
            w++;
            continue;
        }
        if (lo <= c0 && c1 <= hi) {
            release_subtree(t, nd->child[r], height - 1);
            continue;
        }
        size_t l = (lo > c0 ? lo : c0) - c0, u = (hi < c1 ? hi : c1) - c0;
        void *child = nd->child[r];
        if (height == 1) {
            rk_leaf *leaf = child;
            memmove(leaf->h + l, leaf->h + u, (leaf->n - u) * sizeof(double));
            leaf->n -= (uint32_t)(u - l);
        } else {
            remove_rec(t, child, height - 1, l, u, rs);
        }
        set_entry(nd, w++, entry_of(child, height - 1));
    }
    nd->n = w;
    if (nd->n >= 2) fix_node(t, nd, height, rs);
}

static rk_status remove_items(rk_offset_tree *t, size_t at, size_t k) {
    if (at > t->count || k > t->count - at) return RK_ERR_RANGE;
    if (k == 0) return RK_OK;
    if (k == t->count) {
        rk_segments none = {{NULL, NULL, NULL}, {0, 0, 0}};
        return rebuild(t, &none, 0);
    }
    rk_path p;
    size_t off;
    rk_leaf *leaf = descend_resize(t, at, &p, &off);
    if (off + k <= leaf->n && (t->depth == 0 || leaf->n - k >= RK_LEAF_MIN)) {
        rk_leaf *l = leaf;
        size_t from_block = off / RK_BLOCK;
        uint32_t n = leaf->n - (uint32_t)k, want = round_cap(n);
        /* shrink to the items' capacity when more than one step is spare; on failure keep the
         * larger leaf */
        rk_leaf *smaller = leaf->cap > want + RK_LEAF_STEP ? leaf_new(t, want) : NULL;
        if (smaller) {
            memcpy(smaller->h, leaf->h, off * sizeof(double));
            memcpy(smaller->h + off, leaf->h + off + k, (n - off) * sizeof(double));
            leaf_delete(t, leaf);
            l = smaller;
            from_block = 0;
        } else {
            memmove(l->h + off, l->h + off + k, (n - off) * sizeof(double));
        }
        l->n = n;
        fix_path(t, &p, l, leaf_fix(l, from_block), -(ptrdiff_t)k);
        if (smaller) trim(t);
        return RK_OK;
    }
    rk_reserve rs = {{NULL, NULL}, 0};
    rk_mark mark = mark_of(t);
    for (; rs.n < RK_REMOVE_RESERVE; rs.n++) {
        if (!(rs.leaf[rs.n] = leaf_new(t, RK_LEAF_MAX))) {
            give_back(t, mark, (void **)rs.leaf, (size_t)rs.n, (size_t)rs.n);
            return RK_ERR_NOMEM;
        }
    }
    rk_inner *root = t->root;
    unsigned depth = t->depth;
    remove_rec(t, root, t->depth, at, at + k, &rs);
    void *node = root;
    while (t->depth > 0 && ((rk_inner *)node)->n == 1) {
        void *only = ((rk_inner *)node)->child[0];
        inner_delete(t, node);
        node = only;
        t->depth--;
    }
    rk_entry e = entry_of(node, t->depth);
    t->root = node;
    t->total = e.sum;
    set_count(t, e.cnt);
    if (t->depth != depth) make_guesses(t); /* the root level went */
    while (rs.n > 0) leaf_delete(t, rs.leaf[--rs.n]);
    trim(t);
    return RK_OK;
}

rk_status rk_offset_tree_insert(rk_offset_tree *t, size_t at, const double *h, size_t k,
                                size_t *bad_index) {
    rk_status st = insert_items(t, at, h, k, bad_index);
    if (st == RK_OK) note_edit(t, k);
    return st;
}

rk_status rk_offset_tree_remove(rk_offset_tree *t, size_t at, size_t k) {
    rk_status st = remove_items(t, at, k);
    if (st == RK_OK) note_edit(t, k);
    return st;
}

/* ---------------------------------------------------------------- checker */

#ifdef RK_INTERNAL_CHECKS
typedef struct rk_check {
    const char *msg;
    size_t bytes;
    size_t leaves[RK_LEAF_CLASSES];
    size_t inner;
} rk_check;

static rk_entry check_leaf(const rk_leaf *l, int is_root, rk_check *c) {
    rk_entry bad = {NULL, 0.0, 0};
    c->bytes += leaf_bytes(l->cap);
    if (l->n > l->cap || l->cap > RK_LEAF_MAX || l->cap == 0 || l->cap % RK_LEAF_STEP != 0) {
        c->msg = "leaf count or capacity out of bounds";
        return bad;
    }
    c->leaves[leaf_class(l->cap)]++;
    if (!is_root && l->n < RK_LEAF_MIN) {
        c->msg = "non-root leaf below minimum fill";
        return bad;
    }
    for (uint32_t i = 0; i < l->n; i++) {
        if (!valid_height(l->h[i]) || signbit(l->h[i])) {
            c->msg = "invalid height stored";
            return bad;
        }
        if (quantize(l->h[i]) != l->h[i]) {
            c->msg = "height stored is not a multiple of 2^-16";
            return bad;
        }
    }
    size_t nb = blocks_of(l->n);
    for (size_t i = l->n; i < nb * RK_BLOCK; i++) {
        if (l->h[i] != 0.0 || signbit(l->h[i])) {
            c->msg = "leaf slot after the last height is not +0.0";
            return bad;
        }
    }
    const double *pre = leaf_pre_c(l);
    double s = 0.0;
    for (size_t b = 0; b < nb; b++) {
        s += block_sum(l->h + b * RK_BLOCK);
        if (b < RK_LEAF_PREFIXES && pre[b] != s) {
            c->msg = "cached block prefix differs from the running sum of the blocks";
            return bad;
        }
    }
    for (size_t b = nb; b < RK_LEAF_PREFIXES; b++) {
        if (pre[b] != INFINITY) {
            c->msg = "block prefix after the last block is not +infinity";
            return bad;
        }
    }
    rk_entry e = {(void *)l, s, l->n};
    return e;
}

static rk_entry check_node(const void *node, unsigned height, int is_root, rk_check *c) {
    rk_entry bad = {NULL, 0.0, 0};
    if (height == 0) return check_leaf(node, is_root, c);
    const rk_inner *nd = node;
    c->bytes += inner_bytes();
    c->inner++;
    if (nd->n > RK_FAN || nd->n < (is_root ? 2u : (uint32_t)RK_INNER_MIN)) {
        c->msg = "inner node child count out of bounds";
        return bad;
    }
    for (uint32_t i = 0; i < nd->n; i++) {
        rk_entry e = check_node(nd->child[i], height - 1, 0, c);
        if (c->msg) return bad;
        if (e.cnt != nd->cnt[i]) {
            c->msg = "cached child count differs from the child's item count";
            return bad;
        }
        if (e.sum != nd->sum[i]) {
            c->msg = "cached child sum differs from a fresh summation";
            return bad;
        }
    }
    uint32_t nb = (uint32_t)blocks_of(nd->n);
    double bs = 0.0;
    size_t bc = 0;
    for (uint32_t b = 0; b < nb; b++) {
        double s = 0.0;
        size_t n = 0;
        for (uint32_t j = b * RK_BLOCK; j < block_end(b, nd->n); j++) {
            s += nd->sum[j];
            n += nd->cnt[j];
            if (nd->is[j] != s || nd->ic[j] != n) {
                c->msg = "cached in-block prefix differs from the running sum of the children";
                return bad;
            }
        }
        bs += s;
        bc += n;
        if (nd->bs[b] != bs || nd->bc[b] != bc) {
            c->msg = "cached block prefix differs from the running sum of the blocks";
            return bad;
        }
    }
    for (uint32_t j = nd->n; j < nb * RK_BLOCK; j++) {
        if (nd->is[j] != INFINITY || nd->ic[j] != SIZE_MAX) {
            c->msg = "in-block prefix after the last child is not padding";
            return bad;
        }
    }
    for (uint32_t b = nb; b < RK_NODE_BLOCKS; b++) {
        if (nd->bs[b] != INFINITY || nd->bc[b] != SIZE_MAX) {
            c->msg = "block prefix after the last block is not padding";
            return bad;
        }
    }
    rk_entry e = {(void *)nd, bs, bc};
    return e;
}

/* Adds the free lists' blocks to the byte count and checks their lengths. */
static void check_free(const rk_offset_tree *t, rk_check *c) {
    for (int k = 0; k < RK_LEAF_CLASSES && !c->msg; k++) {
        size_t n = 0;
        for (const rk_leaf *l = t->free_leaf[k]; l; l = leaf_free_next(l)) {
            if (l->cap != (uint32_t)(k + 1) * RK_LEAF_STEP) c->msg = "free leaf in the wrong class";
            c->bytes += leaf_bytes(l->cap);
            n++;
        }
        if (n != t->nfree_leaf[k]) c->msg = "free leaf list length differs from its count";
        if (c->leaves[k] != t->live_leaf[k]) c->msg = "live leaf count differs from the tree";
    }
    size_t n = 0;
    for (const rk_inner *nd = t->free_inner; nd; nd = free_next(nd)) {
        c->bytes += inner_bytes();
        n++;
    }
    if (!c->msg && n != t->nfree_inner) c->msg = "free node list length differs from its count";
    if (!c->msg && c->inner != t->live_inner) c->msg = "live node count differs from the tree";
}
#endif

#ifdef RK_INTERNAL_CHECKS
/* Adds the hints' memory to the byte count; checks their bounds, and when no item was inserted or
 * removed since they were made, that each names the leaf holding its position and that leaf's
 * first position. */
static void check_hints(const rk_offset_tree *t, rk_check *c) {
    c->bytes += hint_bytes(t->hint_cap);
    if (t->nhint > t->hint_cap || (t->nhint && !t->hint)) {
        c->msg = "more hints in use than allocated";
        return;
    }
    if (t->nhint && t->nhint != ceil_div(t->count, RK_HINT_SPAN) && t->hint_edits == 0) {
        c->msg = "fresh hints do not cover the items";
        return;
    }
    if (t->hint_edits != 0) return;
    for (size_t g = 0; g < t->nhint; g++) {
        rk_path p;
        size_t local;
        const rk_leaf *l = descend(t, g * RK_HINT_SPAN, &p, &local);
        if (t->hint[g].leaf != l || t->hint[g].start != g * RK_HINT_SPAN - local) {
            c->msg = "fresh hint does not name the leaf holding its position";
            return;
        }
    }
}
#endif

rk_status rk_offset_tree_check(const rk_offset_tree *t, const char **message) {
#ifdef RK_INTERNAL_CHECKS
    rk_check c;
    memset(&c, 0, sizeof c);
    c.bytes = sizeof(rk_offset_tree) + RK_MALLOC_OVERHEAD;
    if (!t || !t->root) c.msg = "missing tree or root";
    if (!c.msg && t->depth >= RK_MAX_DEPTH) c.msg = "depth beyond RK_MAX_DEPTH";
    rk_entry e = {NULL, 0.0, 0};
    if (!c.msg) e = check_node(t->root, t->depth, 1, &c);
    if (!c.msg) check_free(t, &c);
    if (!c.msg) check_hints(t, &c);
    if (!c.msg && e.cnt != t->count) c.msg = "tree count differs from the root's count";
    if (!c.msg && e.sum != t->total) c.msg = "tree total differs from the root's sum";
    if (!c.msg && !total_fits(t->total)) c.msg = "tree total at or beyond RK_OFFSET_TREE_MAX_TOTAL";
    if (!c.msg && t->count > RK_OFFSET_TREE_MAX_COUNT) c.msg = "count beyond maximum";
    if (!c.msg && c.bytes != t->bytes) c.msg = "byte accounting differs from the blocks held";
    if (c.msg) {
        if (message) *message = c.msg;
        return RK_ERR_CORRUPT;
    }
    return RK_OK;
#else
    (void)t;
    if (message) *message = NULL;
    return RK_OK;
#endif
}
