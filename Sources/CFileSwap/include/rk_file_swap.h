#ifndef RK_FILE_SWAP_H
#define RK_FILE_SWAP_H

/*
 * Atomic exchange of two paths, for the exporter's site swap.
 *
 * Why a C shim: Linux's renameat2(2) with RENAME_EXCHANGE is declared by glibc only under
 * _GNU_SOURCE, which Swift's Glibc module does not define, so Swift cannot call it; macOS's
 * renamex_np(2) with RENAME_SWAP is wrapped here too so the caller has one function.
 */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Atomically exchanges the directory entries `a` and `b` (both must exist, on one file system):
 * after a successful call, `a` names what `b` named and vice versa; no observer ever sees either
 * path missing.
 *
 * Returns 0 on success. On failure returns -1, sets errno, and leaves both paths as they were;
 * errno is ENOSYS or EINVAL (or ENOTSUP) when the platform or the file system cannot exchange,
 * in which case the caller falls back to two renames. Owns and frees nothing.
 */
int rk_exchange_paths(const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif
