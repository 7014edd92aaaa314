#ifndef RK_HEAP_TRIM_H
#define RK_HEAP_TRIM_H

/*
 * Gives the free memory of the C allocator's arenas back to the system, for the exporter's
 * memory bound (the search index's buffers freed between its spilled runs).
 *
 * Why a C shim: glibc's malloc_trim(3) is declared in <malloc.h>, which Swift's Glibc module
 * does not include. Elsewhere (macOS, musl) it does nothing.
 */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * With glibc, calls malloc_trim(0): every arena's whole free pages are handed back (the heap's
 * top is shrunk, and free pages inside it are advised away), so they stop counting in the
 * resident size. Returns 1 when memory was released, else 0. Owns and frees nothing.
 */
int rk_heap_trim(void);

#ifdef __cplusplus
}
#endif

#endif
