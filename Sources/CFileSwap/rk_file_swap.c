#if defined(__linux__)
#define _GNU_SOURCE
#endif

#include "rk_file_swap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
#endif

int rk_exchange_at(int folder, const char *a, const char *b) {
#if defined(__linux__) && defined(SYS_renameat2)
    /* The raw system call: glibc older than 2.28 has no renameat2 wrapper. */
    return (int)syscall(SYS_renameat2, folder, a, folder, b, RENAME_EXCHANGE);
#elif defined(__APPLE__)
    return renameatx_np(folder, a, folder, b, RENAME_SWAP);
#else
    (void)folder;
    (void)a;
    (void)b;
    errno = ENOSYS;
    return -1;
#endif
}
