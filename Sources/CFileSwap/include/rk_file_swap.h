#ifndef RK_FILE_SWAP_H
#define RK_FILE_SWAP_H

/*
 * Atomic exchange of two names in one folder, for the exporter's site swap.
 *
 * Why a C shim: Linux's renameat2(2) with RENAME_EXCHANGE is declared by glibc only under
 * _GNU_SOURCE, which Swift's Glibc module does not define, so Swift cannot call it; macOS's
 * renameatx_np(2) with RENAME_SWAP is wrapped here too so the caller has one function.
 */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Atomically exchanges the entries `a` and `b` of the folder open as `folder` (a descriptor, or
 * AT_FDCWD for the current folder; both names must exist, on one file system): after a successful
 * call, `a` names what `b` named and vice versa; no observer ever sees either name missing.
 * Resolving both names relative to an open folder means a folder renamed or replaced on the way
 * to it cannot redirect the exchange.
 *
 * Returns 0 on success. On failure returns -1, sets errno, and leaves both names as they were;
 * errno is ENOSYS or EINVAL (or ENOTSUP) when the platform or the file system cannot exchange,
 * in which case the caller falls back to two renames. Owns and frees nothing: the caller keeps
 * `folder` open and closes it.
 */
int rk_exchange_at(int folder, const char *a, const char *b);

#ifdef __cplusplus
}
#endif

#endif
