/*
 * rk_status.h: status codes shared by every RowKit C core API.
 *
 * Every fallible `rk_` function returns an `rk_status`. A call that returns anything other than
 * RK_OK has left its structure exactly as it was before the call.
 */
#ifndef RK_STATUS_H
#define RK_STATUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result of a fallible call. Only RK_OK means the call had an effect. */
typedef enum rk_status {
    RK_OK = 0,          /**< Success. */
    RK_ERR_RANGE = 1,   /**< An index, count or kind is outside the valid range. */
    RK_ERR_HEIGHT = 2,  /**< A height is NaN, infinite or negative. */
    RK_ERR_NOMEM = 3,   /**< An allocation failed; nothing was changed. */
    RK_ERR_OVERFLOW = 4,/**< The result would exceed the structure's maximum size. */
    RK_ERR_ARG = 5,     /**< A required pointer argument is NULL. */
    RK_ERR_EMPTY = 6,   /**< Nothing to hand back (empty reuse queue, nothing to drain). */
    RK_ERR_CORRUPT = 7, /**< The invariant checker found a broken invariant. */
    RK_ERR_UNSUPPORTED = 8 /**< Feature compiled out (e.g. test hooks without RK_INTERNAL_CHECKS). */
} rk_status;

/** Returns a static, human-readable name for `status` (never NULL; the caller frees nothing). */
const char *rk_status_name(rk_status status);

/**
 * Returns 1 when the core was compiled with RK_INTERNAL_CHECKS (the invariant checkers really
 * check and the debug hooks work), 0 otherwise.
 *
 * RK_INTERNAL_CHECKS is the one compile flag of the C core. Package.swift defines it for debug
 * builds only. With it, `rk_offset_tree_check` and `rk_reuse_pool_check` walk the whole structure
 * (O(n)); without it they return RK_OK without looking.
 */
int rk_internal_checks_enabled(void);

/**
 * Test hook: makes the `n`-th next allocation of the C core on the calling thread fail (n = 0 fails
 * the very next one), and every one after it until the hook is reset with a negative `n`.
 * The counter is thread-local, so parallel tests do not disturb each other.
 *
 * Returns RK_OK, or RK_ERR_UNSUPPORTED when compiled without RK_INTERNAL_CHECKS (then it does
 * nothing).
 */
rk_status rk_debug_fail_alloc_after(long n);

#ifdef __cplusplus
}
#endif

#endif /* RK_STATUS_H */
