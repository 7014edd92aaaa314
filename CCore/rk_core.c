/* rk_core.c: status names, the allocation wrapper and its test hook. */
#include <stdlib.h>

#include "rk_internal.h"

#ifdef RK_INTERNAL_CHECKS
/* Allocations left before failing; negative = never fail. Thread-local for parallel tests. */
static _Thread_local long rk_fail_after = -1;
#endif

/* Whether this allocation is to fail (the test hook, counting down); never without it. */
static int alloc_fails(void) {
#ifdef RK_INTERNAL_CHECKS
    if (rk_fail_after == 0) return 1;
    if (rk_fail_after > 0) rk_fail_after--;
#endif
    return 0;
}

void *rk_alloc(size_t size) { return alloc_fails() ? NULL : malloc(size); }

void *rk_alloc_lines(size_t size) { return alloc_fails() ? NULL : aligned_alloc(RK_CACHE_LINE, size); }

void rk_free(void *p) { free(p); }

rk_status rk_debug_fail_alloc_after(long n) {
#ifdef RK_INTERNAL_CHECKS
    rk_fail_after = n < 0 ? -1 : n;
    return RK_OK;
#else
    (void)n;
    return RK_ERR_UNSUPPORTED;
#endif
}

int rk_internal_checks_enabled(void) {
#ifdef RK_INTERNAL_CHECKS
    return 1;
#else
    return 0;
#endif
}

const char *rk_status_name(rk_status status) {
    switch (status) {
    case RK_OK: return "RK_OK";
    case RK_ERR_RANGE: return "RK_ERR_RANGE";
    case RK_ERR_HEIGHT: return "RK_ERR_HEIGHT";
    case RK_ERR_NOMEM: return "RK_ERR_NOMEM";
    case RK_ERR_OVERFLOW: return "RK_ERR_OVERFLOW";
    case RK_ERR_ARG: return "RK_ERR_ARG";
    case RK_ERR_EMPTY: return "RK_ERR_EMPTY";
    case RK_ERR_CORRUPT: return "RK_ERR_CORRUPT";
    case RK_ERR_UNSUPPORTED: return "RK_ERR_UNSUPPORTED";
    }
    return "RK_ERR_UNKNOWN";
}
