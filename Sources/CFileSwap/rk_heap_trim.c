#include "rk_heap_trim.h"

#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int rk_heap_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
