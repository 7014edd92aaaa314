/*
 * bench_ab.c: the C offset tree of two versions (A and B) side by side in one process, beside the
 * benchmark's plain-C references (Sources/CBenchReference), at 1,000,000 rows of heights 20-120.
 * scripts/bench-c-ab.sh builds each version's CCore with its global symbols renamed A_... and
 * B_... and links them here.
 *
 * Each round runs every operation on A, on the reference and on B (B first in odd rounds), each a
 * warm-up pass and a timed pass of OPS calls on 4,096 random inputs, as rowkit-bench does; a build
 * is timed once per round. The table gives medians over rounds of ns per operation, of A and B
 * against the reference (Fenwick tree: offset_of, item_at, set, build; chunked array: insert,
 * remove), and of B / A, each ratio taken within its round. Inserts and removes run in separate
 * phases, so the trees grow and shrink by OPS within a round.
 *
 *   bench_ab [ROUNDS]     default 21, at most 64
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rk_offset_tree.h"
#include "rk_reference.h"

#define DECLARE(P)                                                                                 \
    rk_status P##_rk_offset_tree_build(const double *, size_t, rk_offset_tree **, size_t *);       \
    rk_status P##_rk_offset_tree_assign(rk_offset_tree *, const double *, size_t, size_t *);       \
    rk_status P##_rk_offset_tree_offset(const rk_offset_tree *, size_t, double *);                 \
    size_t P##_rk_offset_tree_item_at(const rk_offset_tree *, double);                             \
    rk_status P##_rk_offset_tree_set(rk_offset_tree *, size_t, double);                            \
    rk_status P##_rk_offset_tree_insert(rk_offset_tree *, size_t, const double *, size_t, size_t *); \
    rk_status P##_rk_offset_tree_remove(rk_offset_tree *, size_t, size_t);                         \
    size_t P##_rk_offset_tree_count(const rk_offset_tree *);
DECLARE(A)
DECLARE(B)

#define ROWS 1000000
#define INPUTS 4096 /* a power of two */
#define OPS 20000
#define MAX_ROUNDS 64

enum { OFFSET_OF, ITEM_AT, SET, INSERT, REMOVE, BUILD, NOPS };
static const char *const names[NOPS] = {"offset_of", "item_at", "set", "insert", "remove", "build"};

static size_t indices[INPUTS];
static double offsets[INPUTS], heights[INPUTS];
static size_t next_input;
static volatile double sink_d;
static volatile size_t sink_z;

static uint64_t rng = 0x5EED;
static uint64_t next_random(void) { /* SplitMix64 */
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(const double *v, int n) {
    double copy[MAX_ROUNDS];
    for (int i = 0; i < n; i++) copy[i] = v[i];
    qsort(copy, (size_t)n, sizeof *copy, compare_doubles);
    return copy[n / 2];
}

/* ns per call of `op` on a tree of version P: a warm-up pass, then a timed one. */
#define TIME_TREE(P, tree, op, out)                                                                \
    do {                                                                                           \
        double acc = 0.0;                                                                          \
        size_t found = 0, bad;                                                                     \
        for (int pass = 0; pass < 2; pass++) {                                                     \
            double start = now_ns();                                                               \
            for (int k = 0; k < OPS; k++, next_input++) {                                          \
                size_t m = next_input & (INPUTS - 1);                                              \
                double o;                                                                          \
                switch (op) {                                                                      \
                case OFFSET_OF: P##_rk_offset_tree_offset(tree, indices[m], &o); acc += o; break;  \
                case ITEM_AT: found += P##_rk_offset_tree_item_at(tree, offsets[m]); break;        \
                case SET: P##_rk_offset_tree_set(tree, indices[m], heights[m]); break;             \
                case INSERT: P##_rk_offset_tree_insert(tree, indices[m], &heights[m], 1, &bad); break; \
                default:                                                                           \
                    P##_rk_offset_tree_remove(tree, indices[m] % P##_rk_offset_tree_count(tree), 1); \
                }                                                                                  \
            }                                                                                      \
            out = (now_ns() - start) / OPS;                                                        \
        }                                                                                          \
        sink_d = acc;                                                                              \
        sink_z = found;                                                                            \
    } while (0)

/* The same for the reference of `op`. */
static double time_reference(rkref_fenwick *f, rkref_chunked *c, int op) {
    double acc = 0.0, out = 0.0;
    size_t found = 0;
    for (int pass = 0; pass < 2; pass++) {
        double start = now_ns();
        for (int k = 0; k < OPS; k++, next_input++) {
            size_t m = next_input & (INPUTS - 1);
            switch (op) {
            case OFFSET_OF: acc += rkref_fenwick_prefix(f, indices[m]); break;
            case ITEM_AT: found += rkref_fenwick_find(f, offsets[m]); break;
            case SET: rkref_fenwick_set(f, indices[m], heights[m]); break;
            case INSERT: rkref_chunked_insert(c, indices[m], heights[m]); break;
            default: rkref_chunked_remove(c, indices[m] % rkref_chunked_count(c));
            }
        }
        out = (now_ns() - start) / OPS;
    }
    sink_d = acc;
    sink_z = found;
    return out;
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 21;
    if (rounds < 1) rounds = 1;
    if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
    double *h = malloc(ROWS * sizeof *h), total = 0.0;
    if (!h) return 1;
    for (size_t i = 0; i < ROWS; i++) {
        h[i] = (double)(20 + next_random() % 101);
        total += h[i];
    }
    for (size_t i = 0; i < INPUTS; i++) {
        indices[i] = next_random() % ROWS;
        offsets[i] = (double)(next_random() % ((uint64_t)total * 16)) / 16.0;
        heights[i] = (double)(20 + next_random() % 101);
    }
    rk_offset_tree *a, *b;
    size_t bad;
    rkref_fenwick *f = rkref_fenwick_create();
    rkref_chunked *c = rkref_chunked_create();
    if (A_rk_offset_tree_build(h, ROWS, &a, &bad) != RK_OK || B_rk_offset_tree_build(h, ROWS, &b, &bad) != RK_OK ||
        !f || !c || rkref_fenwick_build(f, h, ROWS) != 0 || rkref_chunked_build(c, h, ROWS) != 0) {
        fprintf(stderr, "bench_ab: cannot build the trees\n");
        return 1;
    }
    static double ta[NOPS][MAX_ROUNDS], tb[NOPS][MAX_ROUNDS], tr[NOPS][MAX_ROUNDS];
    static double qa[NOPS][MAX_ROUNDS], qb[NOPS][MAX_ROUNDS], qba[NOPS][MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        for (int op = 0; op < BUILD; op++) {
            if (r & 1) {
                TIME_TREE(B, b, op, tb[op][r]);
                TIME_TREE(A, a, op, ta[op][r]);
                tr[op][r] = time_reference(f, c, op);
            } else {
                TIME_TREE(A, a, op, ta[op][r]);
                tr[op][r] = time_reference(f, c, op);
                TIME_TREE(B, b, op, tb[op][r]);
            }
        }
        double start = now_ns();
        A_rk_offset_tree_assign(a, h, ROWS, &bad);
        ta[BUILD][r] = now_ns() - start;
        start = now_ns();
        rkref_fenwick_build(f, h, ROWS);
        tr[BUILD][r] = now_ns() - start;
        start = now_ns();
        B_rk_offset_tree_assign(b, h, ROWS, &bad);
        tb[BUILD][r] = now_ns() - start;
        for (int op = 0; op < NOPS; op++) {
            qa[op][r] = ta[op][r] / tr[op][r];
            qb[op][r] = tb[op][r] / tr[op][r];
            qba[op][r] = tb[op][r] / ta[op][r];
        }
    }
    printf("%d rounds at %d rows (medians; build in ns per build)\n", rounds, ROWS);
    printf("%-10s %11s %11s %11s %7s %7s %7s\n", "op", "A ns", "B ns", "ref ns", "A/ref", "B/ref", "B/A");
    for (int op = 0; op < NOPS; op++) {
        printf("%-10s %11.1f %11.1f %11.1f %6.2fx %6.2fx %7.3f\n", names[op], median(ta[op], rounds),
               median(tb[op], rounds), median(tr[op], rounds), median(qa[op], rounds),
               median(qb[op], rounds), median(qba[op], rounds));
    }
    free(h);
    return 0;
}
