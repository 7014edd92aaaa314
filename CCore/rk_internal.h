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

/** malloc, except that it fails on demand under RK_INTERNAL_CHECKS (rk_debug_fail_alloc_after). */
void *rk_alloc(size_t size);
/** free; NULL is allowed. */
void rk_free(void *p);

/* ---- offset tree ---- */

#define RK_LEAF_MAX RK_OFFSET_TREE_LEAF_MAX /* most heights in a leaf */
#define RK_LEAF_MIN 32                      /* fewest heights in a non-root leaf */
#define RK_LEAF_FILL 112                    /* heights per leaf when building or splitting in bulk */
#define RK_LEAF_STEP 16                     /* leaf capacity grows and shrinks in these steps */
#define RK_FAN 64                           /* most children of an inner node */
#define RK_INNER_MIN 16                     /* fewest children of a non-root inner node */
#define RK_INNER_FILL 56                    /* children per node when building or splitting in bulk */
#define RK_MAX_DEPTH 24                     /* far above the depth of a tree of MAX_COUNT items */

/** A leaf: `n` heights in an array of capacity `cap` (a multiple of RK_LEAF_STEP). */
typedef struct rk_leaf {
    uint32_t n;
    uint32_t cap;
    double h[];
} rk_leaf;

/** An inner node: for each child, its pointer, the sum of its heights and its item count. */
typedef struct rk_inner {
    uint32_t n;
    uint32_t reserved;
    double sum[RK_FAN];
    size_t cnt[RK_FAN];
    void *child[RK_FAN];
} rk_inner;

struct rk_offset_tree {
    void *root;      /* rk_leaf when depth == 0, else rk_inner; never NULL */
    unsigned depth;  /* number of inner levels above the leaves */
    size_t count;    /* number of items (== root's count) */
    double total;    /* sum of heights (== root's sum, computed the same way) */
    size_t bytes;    /* heap bytes held, see rk_offset_tree_bytes */
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
