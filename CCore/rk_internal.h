/*
 * rk_internal.h: struct bodies and helpers private to the C core. Never installed, never included
 * by anything outside CCore/ (except the plain-C test driver and fuzz targets, which test them).
 */
#ifndef RK_INTERNAL_H
#define RK_INTERNAL_H

#include "rk_offset_tree.h"
#include "rk_reuse_pool.h"

/* ---- allocation (every C core allocation goes through here, so the test hook sees it) ---- */

/** Bytes charged per heap block for the allocator's own bookkeeping in byte accounting. */
#define RK_MALLOC_OVERHEAD 16
/** The same for a block from rk_alloc_lines: glibc's heap in use grew by about 18 bytes per leaf
 *  when leaves moved to cache-line boundaries (1,000,000 items after 200,000 edits). */
#define RK_ALIGNED_OVERHEAD 32

/** malloc, except that it fails on demand under RK_INTERNAL_CHECKS (rk_debug_fail_alloc_after). */
void *rk_alloc(size_t size);
/** rk_alloc of `size` bytes (a multiple of RK_CACHE_LINE) starting on a cache line; freed with
 *  rk_free. */
void *rk_alloc_lines(size_t size);
/** free; NULL is allowed. */
void rk_free(void *p);

/* ---- offset tree ---- */

#define RK_LEAF_MAX RK_OFFSET_TREE_LEAF_MAX /* most heights in a leaf (128) */
#define RK_LEAF_MIN 32                      /* fewest heights in a non-root leaf */
#define RK_LEAF_FILL 112                    /* heights per leaf when building or splitting in bulk */
#define RK_LEAF_STEP 16                     /* leaf capacity grows and shrinks in these steps */
#define RK_LEAF_CLASSES (RK_LEAF_MAX / RK_LEAF_STEP) /* leaf capacities 16, 32, ..., 128 */
#define RK_BLOCK 8      /* heights per leaf block and children per node block (one cache line) */
#define RK_LEAF_BLOCKS (RK_LEAF_MAX / RK_BLOCK) /* blocks of a full leaf */
#define RK_LEAF_PREFIXES (RK_LEAF_BLOCKS - 1)  /* block prefixes a leaf keeps (not the last) */
#define RK_CACHE_LINE 64                       /* bytes; leaves are allocated on this boundary */
/* The inner-node shape. The fuzz build (scripts/fuzz.sh) overrides it with a fan of 16, so that its
 * inputs of at most 8,192 items reach three inner levels; everything else uses these values. */
#ifndef RK_FAN
#define RK_FAN 128          /* most children of an inner node, a multiple of RK_BLOCK */
#define RK_INNER_MIN 32     /* fewest children of a non-root inner node */
#define RK_INNER_FILL 112   /* children per node when building or splitting in bulk */
#endif
#define RK_NODE_BLOCKS (RK_FAN / RK_BLOCK)  /* blocks of an inner node */
#define RK_MAX_DEPTH 24                     /* far above the depth of a tree of MAX_COUNT items */
#define RK_GUESS_BITS 48 /* fraction bits of the descent's guesses (at most one child per item) */
#define RK_FREE_MIN 32    /* free blocks a tree may always keep for reuse */
#define RK_FREE_SHARE 64  /* ... and beyond RK_FREE_MIN, at most one per this many live blocks */

/*
 * A leaf: `n` heights in an array of capacity `cap` (a multiple of RK_LEAF_STEP), in blocks of
 * RK_BLOCK; before the heights, the inclusive running prefix of the block sums of all blocks but
 * the last possible one (RK_LEAF_PREFIXES entries, whatever the capacity, so a lookup finds them
 * without reading `cap` first: the header, prefixes and heights it needs load in parallel). No
 * lookup needs the prefix through block RK_LEAF_BLOCKS - 1 (it would be the leaf's sum, which the
 * parent holds), and without it header and prefixes fill exactly two cache lines: leaves start on
 * a cache line (rk_alloc_lines), so every block of heights is one line, not two halves. A block's
 * sum is the difference of two prefixes (exact, as every sum of heights is); the slots from n up
 * to the end of the last block hold 0.0; prefixes past the last block are +infinity, so a search
 * compares all of them without a bound check.
 */
typedef struct rk_leaf {
    uint32_t n;
    uint32_t cap;
    double pre[RK_LEAF_PREFIXES];
    double h[];
} rk_leaf;

/* Header and prefixes are two cache lines, so the heights of a line-aligned leaf start on a line. */
_Static_assert(sizeof(rk_leaf) == 2 * RK_CACHE_LINE, "a leaf's header is two cache lines");

/*
 * An inner node: for each child its pointer, height sum and item count, and running prefixes of
 * both in two levels: inside each block of RK_BLOCK children (is, ic: inclusive, restarting at
 * every block) and over the blocks (bs, bc: inclusive prefixes of the block totals). A search
 * compares one block array, then one in-block array; an edit below child j changes at most the
 * rest of j's block and the blocks after it. Entries past the last child (in-block) and past the
 * last block are +infinity and SIZE_MAX. Sums of heights are exact (see rk_offset_tree.c), so the
 * prefixes an edit adjusts by its delta equal those recomputed from sum/cnt, bit for bit.
 */
typedef struct rk_inner {
    uint32_t n;
    uint32_t reserved;
    size_t bc[RK_NODE_BLOCKS];
    double bs[RK_NODE_BLOCKS];
    size_t ic[RK_FAN];
    double is[RK_FAN];
    double sum[RK_FAN];
    size_t cnt[RK_FAN];
    void *child[RK_FAN];
} rk_inner;

/*
 * A prefetch hint: the leaf that held position g * RK_HINT_SPAN and the position of its first item,
 * when the hints were made. A set by position fetches the hinted leaf's lines while it descends
 * to the leaf it needs, which is the same one unless edits have moved items since; a
 * stale hint costs only the fetch. Hints never decide anything, and they only point to leaves the
 * tree holds (live or on a free list): freeing a leaf turns them off until they are made again.
 */
typedef struct rk_hint {
    const rk_leaf *leaf;
    size_t start;
} rk_hint;

#define RK_HINT_SPAN 64   /* positions per hint */
#define RK_HINT_REFRESH 8 /* hints are made again after count / this many edited items */

struct rk_offset_tree {
    void *root;      /* rk_leaf when depth == 0, else rk_inner; never NULL */
    unsigned depth;  /* number of inner levels above the leaves */
    size_t count;    /* number of items (== root's count) */
    double total;    /* sum of heights (== root's sum, computed the same way) */
    size_t bytes;    /* heap bytes held, see rk_offset_tree_bytes */
    /* Node memory the tree keeps for reuse instead of freeing (linked through the first word of
     * each block): leaves by capacity class, inner nodes; with the number of live blocks of each. */
    rk_leaf *free_leaf[RK_LEAF_CLASSES];
    size_t nfree_leaf[RK_LEAF_CLASSES];
    size_t live_leaf[RK_LEAF_CLASSES];
    rk_inner *free_inner;
    size_t nfree_inner;
    size_t live_inner;
    /* Prefetch hints: `nhint` of `hint_cap` entries in use (0: none), and the items inserted or
     * removed since they were made (they are made again after count / RK_HINT_REFRESH). */
    rk_hint *hint;
    size_t nhint;
    size_t hint_cap;
    size_t hint_edits;
    /* A descent by position's guess (child_at): guess[h] is the number of children of all inner
     * nodes at height h (1: the nodes above the leaves) per item, times 2^RK_GUESS_BITS, when the
     * hints were last made or the depth last changed. */
    uint64_t guess[RK_MAX_DEPTH + 1];
};

/* ---- reuse pool ---- */

/** One kind's queue: a ring buffer of handles, newest at the top. */
typedef struct rk_reuse_queue {
    uintptr_t *ring;  /* ring buffer of `ring_cap` slots (NULL while ring_cap == 0) */
    size_t ring_cap;  /* allocated slots; grows by doubling up to `capacity` */
    size_t head;      /* slot of the oldest handle */
    size_t len;       /* handles held */
    size_t capacity;  /* most handles kept before the oldest is evicted */
    char *name;       /* the interned identifier (owned) */
    uint64_t hash;
} rk_reuse_queue;

struct rk_reuse_pool {
    rk_reuse_queue *kinds;  /* kinds[kind], `nkinds` of them, `kinds_cap` allocated */
    size_t nkinds;
    size_t kinds_cap;
    uint32_t *table;        /* open-addressing hash table of kind + 1 (0 = empty slot) */
    size_t table_cap;       /* power of two */
    size_t default_capacity;
    rk_reuse_counters counters;
};

#endif /* RK_INTERNAL_H */
