/*
 * rk_reuse_pool.h: a pool of reusable views keyed by reuse identifier.
 *
 * Identifiers (NUL-terminated strings) are interned to small integer kinds (0, 1, 2, ... in order
 * of first use; the same string always gives the same kind). Each kind keeps a LIFO queue of opaque
 * handles (uintptr_t; the pool never dereferences them) of at most `capacity` handles. Putting into
 * a full kind EVICTS THE OLDEST handle of that kind and hands it back to the caller, who owns it
 * again and must release whatever it stands for. Every handle the pool holds is owned by the pool
 * until it is handed back by take, put (eviction), trim or drain.
 *
 * Ownership: the caller creates a pool with rk_reuse_pool_create and frees it with
 * rk_reuse_pool_destroy, which frees only the pool's own memory: drain the handles first if they
 * stand for resources. Interned strings are copied.
 *
 * Failure: every fallible call returns an rk_status; on anything but RK_OK the pool is unchanged.
 */
#ifndef RK_REUSE_POOL_H
#define RK_REUSE_POOL_H

#include "rk_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque handle to a reuse pool. */
typedef struct rk_reuse_pool rk_reuse_pool;

/** A reuse kind: the small integer an identifier is interned to. */
typedef uint32_t rk_reuse_kind;

/** Most kinds a pool interns (RK_ERR_OVERFLOW beyond). */
#define RK_REUSE_MAX_KINDS 65536u

/** Capacity of a kind that was not given one with rk_reuse_pool_set_capacity, unless overridden. */
#define RK_REUSE_DEFAULT_CAPACITY 32u

/** Lifetime counters of a pool. */
typedef struct rk_reuse_counters {
    uint64_t hits;      /**< takes that returned a handle */
    uint64_t misses;    /**< takes that found the kind empty */
    uint64_t evictions; /**< handles handed back because their kind was full */
} rk_reuse_counters;

/**
 * Creates an empty pool in `*out` whose kinds start with capacity `default_capacity`. The caller
 * owns it (rk_reuse_pool_destroy). O(1). Returns RK_ERR_ARG for NULL `out`, RK_ERR_NOMEM.
 */
rk_status rk_reuse_pool_create(size_t default_capacity, rk_reuse_pool **out);

/** Frees the pool's memory (not what its handles stand for: drain first). NULL allowed. O(kinds). */
void rk_reuse_pool_destroy(rk_reuse_pool *pool);

/**
 * Stores in `*kind` the kind of `identifier`, interning it (copying the string) on first use.
 * O(length) expected. Returns RK_ERR_ARG for NULL arguments, RK_ERR_OVERFLOW beyond
 * RK_REUSE_MAX_KINDS kinds, RK_ERR_NOMEM; on failure `*kind` is untouched.
 */
rk_status rk_reuse_pool_intern(rk_reuse_pool *pool, const char *identifier, rk_reuse_kind *kind);

/** Returns the number of interned kinds. O(1). */
size_t rk_reuse_pool_kind_count(const rk_reuse_pool *pool);

/**
 * Returns the identifier of `kind` (owned by the pool, valid until it is destroyed), or NULL if the
 * kind was never interned. O(1).
 */
const char *rk_reuse_pool_identifier(const rk_reuse_pool *pool, rk_reuse_kind kind);

/**
 * Puts `handle` on top of `kind`'s queue; the pool owns it from now on. If the queue was full, its
 * oldest handle is removed and handed back: `*evicted` is set to 1 and `*evicted_handle` to it (the
 * caller owns it again); otherwise `*evicted` is set to 0. With capacity 0 the handle put is itself
 * handed back as evicted. O(1) amortized.
 * Returns RK_ERR_RANGE for an unknown kind, RK_ERR_ARG for NULL out-pointers, RK_ERR_NOMEM when the
 * queue could not grow (then the caller still owns `handle`).
 */
rk_status rk_reuse_pool_put(rk_reuse_pool *pool, rk_reuse_kind kind, uintptr_t handle,
                            int *evicted, uintptr_t *evicted_handle);

/**
 * Takes the newest handle of `kind` into `*handle` (the caller owns it) and counts a hit; O(1).
 * Returns RK_ERR_EMPTY (and counts a miss) when the kind holds none, RK_ERR_RANGE for an unknown
 * kind, RK_ERR_ARG for NULL `handle`.
 */
rk_status rk_reuse_pool_take(rk_reuse_pool *pool, rk_reuse_kind kind, uintptr_t *handle);

/** Returns how many handles `kind` holds (0 for an unknown kind). O(1). */
size_t rk_reuse_pool_count(const rk_reuse_pool *pool, rk_reuse_kind kind);

/** Returns `kind`'s capacity (0 for an unknown kind). O(1). */
size_t rk_reuse_pool_capacity(const rk_reuse_pool *pool, rk_reuse_kind kind);

/**
 * Sets `kind`'s capacity. Handles beyond a smaller capacity stay until trimmed: call
 * rk_reuse_pool_trim until it returns RK_ERR_EMPTY to get them back, oldest first. O(1) (the ring
 * is shrunk lazily). Returns RK_ERR_RANGE for an unknown kind.
 */
rk_status rk_reuse_pool_set_capacity(rk_reuse_pool *pool, rk_reuse_kind kind, size_t capacity);

/**
 * Hands back the oldest handle of `kind` while the kind holds more than its capacity (the caller
 * owns it; counted as an eviction). Returns RK_ERR_EMPTY when the kind is within capacity,
 * RK_ERR_RANGE for an unknown kind. O(1).
 */
rk_status rk_reuse_pool_trim(rk_reuse_pool *pool, rk_reuse_kind kind, uintptr_t *handle);

/**
 * Hands back one handle of any kind (kind in `*kind`, handle in `*handle`; the caller owns it), for
 * teardown: call until it returns RK_ERR_EMPTY. Not counted as hit or eviction. O(kinds) worst case.
 */
rk_status rk_reuse_pool_drain(rk_reuse_pool *pool, rk_reuse_kind *kind, uintptr_t *handle);

/** Returns the lifetime counters. O(1). */
rk_reuse_counters rk_reuse_pool_counters(const rk_reuse_pool *pool);

/**
 * Checks every invariant (ring bounds, hash table consistency, unique identifiers) when compiled
 * with RK_INTERNAL_CHECKS, O(kinds + table); otherwise returns RK_OK without looking. Returns
 * RK_ERR_CORRUPT with a static description in `*message` (if not NULL) when one is broken.
 */
rk_status rk_reuse_pool_check(const rk_reuse_pool *pool, const char **message);

#ifdef __cplusplus
}
#endif

#endif /* RK_REUSE_POOL_H */
