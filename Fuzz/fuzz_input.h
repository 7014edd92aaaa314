/* Shared by the C fuzz targets: reading the fuzzer's bytes as an operation stream, and the check
 * that aborts (a libFuzzer finding) with the step and the failed condition.
 * A target defines FUZZ_TARGET_NAME before including this header and keeps a `step_number`. */
#ifndef RK_FUZZ_INPUT_H
#define RK_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, FUZZ_TARGET_NAME ": step %zu: %s: ", step_number, #cond);              \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            abort();                                                                               \
        }                                                                                          \
    } while (0)

typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

/* Returns the next byte, or 0 once the input is used up. */
static inline uint8_t next_u8(input *in) {
    if (in->n == 0) return 0;
    in->n--;
    return *in->p++;
}

/* The next two bytes, little-endian (zeros once the input is used up). */
static inline size_t next_u16(input *in) {
    size_t lo = next_u8(in);
    return lo | (size_t)next_u8(in) << 8;
}

#endif
