/*
 * test_ccore.c: plain-C differential test of the C core (run by scripts/test-c-sanitizers.sh under
 * ASan/UBSan and valgrind). Random operations on rk_offset_tree are checked against a naive array
 * after every step; every bad call is shown to leave the tree unchanged; the reuse pool is checked
 * against a naive model. Usage: test_ccore [operations] [seed]. Exit status 0 on success.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../CCore/rk_internal.h"

static uint64_t rng_state;
static uint64_t next_u64(void) { /* SeededRandom */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static size_t below(size_t n) { return n ? (size_t)(next_u64() % n) : 0; }
static double random_height(void) { /* quarter steps: every sum is exact in doubles */
    return below(8) == 0 ? 0.0 : (double)below(400) / 4.0;
}

static int failures;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond);              \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
            if (++failures > 10) exit(1);                                                          \
        }                                                                                          \
    } while (0)

typedef struct naive {
    double *h;
    size_t n, cap;
} naive;

static void naive_insert(naive *m, size_t at, const double *h, size_t k) {
    if (m->n + k > m->cap) {
        m->cap = (m->n + k) * 2;
        m->h = realloc(m->h, m->cap * sizeof(double));
    }
    memmove(m->h + at + k, m->h + at, (m->n - at) * sizeof(double));
    memcpy(m->h + at, h, k * sizeof(double));
    m->n += k;
}
static void naive_remove(naive *m, size_t at, size_t k) {
    memmove(m->h + at, m->h + at + k, (m->n - at - k) * sizeof(double));
    m->n -= k;
}

/* Compares every height, offset and lookup of the tree with the naive model. */
static void compare_all(const rk_offset_tree *t, const naive *m, const char *where) {
    const char *msg = NULL;
    CHECK(rk_offset_tree_check(t, &msg) == RK_OK, "%s: %s", where, msg);
    CHECK(rk_offset_tree_count(t) == m->n, "%s: count %zu vs %zu", where, rk_offset_tree_count(t),
          m->n);
    double acc = 0.0;
    for (size_t i = 0; i < m->n; i++) {
        double h = -1, off = -1;
        CHECK(rk_offset_tree_height(t, i, &h) == RK_OK && h == m->h[i], "%s: height %zu", where, i);
        CHECK(rk_offset_tree_offset(t, i, &off) == RK_OK && off == acc, "%s: offset %zu", where, i);
        CHECK(rk_offset_tree_offset_of(t, i) == acc, "%s: offset_of %zu", where, i);
        if (m->h[i] > 0) {
            CHECK(rk_offset_tree_item_at(t, acc) == i, "%s: item_at start of %zu", where, i);
            CHECK(rk_offset_tree_item_at(t, acc + m->h[i] * 0.5) == i, "%s: item_at mid %zu", where,
                  i);
        }
        acc += m->h[i];
    }
    CHECK(rk_offset_tree_total(t) == acc, "%s: total %g vs %g", where, rk_offset_tree_total(t), acc);
    CHECK(rk_offset_tree_item_at(t, acc) == RK_NOT_FOUND, "%s: item_at(total)", where);
    /* Bulk reads: the whole tree, then a few random spans, heights and offsets. */
    size_t cap = m->n + 1;
    double *all = malloc(cap * sizeof(double)), *offs = malloc(cap * sizeof(double));
    CHECK(rk_offset_tree_read(t, 0, m->n, all, offs) == RK_OK, "%s: read all", where);
    acc = 0.0;
    for (size_t i = 0; i < m->n; i++) {
        CHECK(all[i] == m->h[i] && offs[i] == acc, "%s: read item %zu", where, i);
        acc += m->h[i];
    }
    for (int k = 0; k < 4 && m->n > 0; k++) {
        size_t first = below(m->n + 1), room = m->n - first;
        size_t n = below((room < 2000 ? room : 2000) + 1);
        CHECK(rk_offset_tree_read(t, first, n, all, k % 2 ? offs : NULL) == RK_OK, "%s: read %zu",
              where, first);
        for (size_t i = 0; i < n; i++) {
            double expect = -1;
            rk_offset_tree_offset(t, first + i, &expect);
            CHECK(all[i] == m->h[first + i] && (k % 2 == 0 || offs[i] == expect),
                  "%s: read %zu+%zu", where, first, i);
        }
    }
    free(offs);
    free(all);
}

/* Copies the tree's heights to compare "unchanged" after a failed call. */
static void snapshot(const rk_offset_tree *t, naive *s) {
    s->n = 0;
    for (size_t i = 0; i < rk_offset_tree_count(t); i++) {
        double h;
        rk_offset_tree_height(t, i, &h);
        naive_insert(s, s->n, &h, 1);
    }
}

static void test_tree(size_t ops, size_t max_items, int full_every) {
    rk_offset_tree *t = NULL;
    CHECK(rk_offset_tree_create(&t) == RK_OK, "create");
    naive m = {0}, before = {0};
    double buf[4096] = {0}; /* the failing-allocation inserts below reuse it with other lengths */
    for (size_t step = 0; step < ops && failures == 0; step++) {
        size_t op = below(10);
        if (op < 4 && m.n < max_items) {
            size_t k = below(6) == 0 ? 1 + below(m.n < 4000 ? 4000 : 600) : 1 + below(3);
            size_t at = below(m.n + 1);
            for (size_t i = 0; i < k; i++) buf[i] = random_height();
            CHECK(rk_offset_tree_insert(t, at, buf, k, NULL) == RK_OK, "insert");
            naive_insert(&m, at, buf, k);
        } else if (op < 7 && m.n > 0) {
            size_t at = below(m.n);
            size_t k = below(6) == 0 ? 1 + below(m.n - at) : 1 + below(m.n - at < 3 ? m.n - at : 3);
            CHECK(rk_offset_tree_remove(t, at, k) == RK_OK, "remove");
            naive_remove(&m, at, k);
        } else if (op < 9 && m.n > 0) {
            size_t i = below(m.n);
            double h = random_height();
            CHECK(rk_offset_tree_set(t, i, h) == RK_OK, "set");
            m.h[i] = h;
        } else if (m.n > 0) {
            size_t first = below(m.n), room = m.n - first;
            size_t k = below(4) == 0 ? below((room < 4096 ? room : 4096) + 1) : below((room < 40 ? room : 40) + 1);
            for (size_t i = 0; i < k; i++) buf[i] = random_height();
            CHECK(rk_offset_tree_set_range(t, first, buf, k, NULL) == RK_OK, "set_range");
            memcpy(m.h + first, buf, k * sizeof(double));
        }
        if (full_every && step % (size_t)full_every == 0) compare_all(t, &m, "random ops");
        /* occasionally try a failing allocation at every point of an edit */
        if (rk_internal_checks_enabled() && below(50) == 0 && m.n > 0) {
            size_t at = below(m.n), k = 1 + below(m.n - at);
            for (long fail = 0;; fail++) {
                snapshot(t, &before);
                rk_debug_fail_alloc_after(fail);
                rk_status st = below(2) ? rk_offset_tree_remove(t, at, k < 300 ? k : 300)
                                        : rk_offset_tree_insert(t, at, buf, 1 + below(300), NULL);
                rk_debug_fail_alloc_after(-1);
                if (st == RK_OK) {
                    rk_offset_tree_destroy(t);
                    rk_offset_tree_build(m.h, m.n, &t, NULL);
                    break;
                }
                CHECK(st == RK_ERR_NOMEM, "failed edit status %s", rk_status_name(st));
                compare_all(t, &before, "after failed allocation");
            }
        }
    }
    compare_all(t, &m, "end");
    rk_offset_tree_destroy(t);
    free(m.h);
    free(before.h);
}

/* With heights that are not multiples of 2^-16 (stored rounded), every offset a bulk read returns is
 * still bit-identical to rk_offset_tree_offset's, across random edits of a multi-level tree. */
static void test_read_offsets_match_offset(void) {
    size_t n = 60000;
    double *h = malloc(n * sizeof(double)), *hs = malloc(4096 * sizeof(double)),
           *offs = malloc(4096 * sizeof(double));
    for (size_t i = 0; i < n; i++) h[i] = (double)below(1000000) / 7919.3;
    rk_offset_tree *t = NULL;
    CHECK(rk_offset_tree_build(h, n, &t, NULL) == RK_OK, "build");
    for (int round = 0; round < 400 && failures == 0; round++) {
        size_t count = rk_offset_tree_count(t), at = below(count);
        double x[3] = {(double)below(1000000) / 3.7, (double)below(1000) / 9.1, 0.1};
        if (round % 3 == 0) rk_offset_tree_insert(t, at, x, 1 + below(3), NULL);
        else if (round % 3 == 1) rk_offset_tree_remove(t, at, below(count - at < 3 ? count - at : 3));
        else rk_offset_tree_set_range(t, at, x, count - at < 3 ? count - at : 3, NULL);
        count = rk_offset_tree_count(t);
        size_t first = below(count + 1), k = below((count - first < 4096 ? count - first : 4096) + 1);
        CHECK(rk_offset_tree_read(t, first, k, hs, offs) == RK_OK, "read");
        for (size_t i = 0; i < k; i++) {
            double expect = -1, height = -1;
            rk_offset_tree_offset(t, first + i, &expect);
            rk_offset_tree_height(t, first + i, &height);
            CHECK(offs[i] == expect && hs[i] == height, "round %d item %zu: offset %.17g vs %.17g",
                  round, first + i, offs[i], expect);
        }
    }
    rk_offset_tree_destroy(t);
    free(h);
    free(hs);
    free(offs);
}

/* The nearest multiple of 2^-16 (ties to even), computed with libm as the specification. */
static double rounded(double h) { return nearbyint(h * 65536.0) / 65536.0 + 0.0; }

/* Heights that are not multiples of 2^-16 are stored rounded to the nearest one, and every offset
 * and total is then the exact sum of the stored heights, across random edits of a multi-level tree
 * (so cached sums adjusted by deltas never drift from a fresh summation). */
static void test_heights_are_quantized_and_sums_exact(void) {
    size_t n = 30000;
    double *h = malloc(n * sizeof(double));
    naive m = {0};
    for (size_t i = 0; i < n; i++) h[i] = (double)below(1000000) / 7919.3;
    rk_offset_tree *t = NULL;
    CHECK(rk_offset_tree_build(h, n, &t, NULL) == RK_OK, "build");
    for (size_t i = 0; i < n; i++) h[i] = rounded(h[i]);
    naive_insert(&m, 0, h, n);
    for (int round = 0; round < 3000 && failures == 0; round++) {
        size_t count = m.n, at = below(count);
        double x[3] = {(double)below(1000000) / 3.7, (double)below(1000) / 9.1, 1e-7};
        double q[3] = {rounded(x[0]), rounded(x[1]), rounded(x[2])};
        size_t k = count - at < 3 ? count - at : 3;
        switch (round % 4) {
        case 0:
            CHECK(rk_offset_tree_insert(t, at, x, 3, NULL) == RK_OK, "insert");
            naive_insert(&m, at, q, 3);
            break;
        case 1:
            CHECK(rk_offset_tree_remove(t, at, k) == RK_OK, "remove");
            naive_remove(&m, at, k);
            break;
        case 2:
            CHECK(rk_offset_tree_set(t, at, x[round % 3]) == RK_OK, "set");
            m.h[at] = q[round % 3];
            break;
        default:
            CHECK(rk_offset_tree_set_range(t, at, x, k, NULL) == RK_OK, "set_range");
            memcpy(m.h + at, q, k * sizeof(double));
        }
        if (round % 500 == 0) compare_all(t, &m, "quantized");
    }
    compare_all(t, &m, "quantized, end");
    rk_offset_tree_destroy(t);
    free(m.h);
    free(h);

    /* Rounding at the edges: ties go to the even multiple, below half a quantum is +0.0. */
    double q = 1.0 / 65536.0;
    double in[6] = {0.5 * q, 1.5 * q, 2.5 * q, 0.49 * q, -0.0, 3.0 + 0.75 * q};
    double want[6] = {0.0, 2 * q, 2 * q, 0.0, 0.0, 3.0 + q};
    CHECK(rk_offset_tree_build(in, 6, &t, NULL) == RK_OK, "build edges");
    for (size_t i = 0; i < 6; i++) {
        double got = -1;
        rk_offset_tree_height(t, i, &got);
        CHECK(got == want[i] && !signbit(got), "edge %zu: %.17g stored as %.17g", i, in[i], got);
    }
    rk_offset_tree_destroy(t);
}

/* The total stays below RK_OFFSET_TREE_MAX_TOTAL: a height at the limit is invalid, and a build,
 * insert, set or set_range that would bring the total to the limit fails, leaving the tree as it
 * was. Up to one quantum below the limit is fine. */
static void test_total_limit(void) {
    const double max = RK_OFFSET_TREE_MAX_TOTAL, q = RK_OFFSET_TREE_QUANTUM;
    double hs[300];
    for (int i = 0; i < 300; i++) hs[i] = random_height();
    double big[2] = {max / 2, max / 2}, fits[2] = {max / 2, max / 2 - q};
    rk_offset_tree *t = NULL;
    CHECK(rk_offset_tree_build(big, 2, &t, NULL) == RK_ERR_OVERFLOW && t == NULL, "build at max");
    CHECK(rk_offset_tree_build(fits, 2, &t, NULL) == RK_OK, "build one quantum below max");
    CHECK(rk_offset_tree_total(t) == max - q, "total just below max");
    CHECK(rk_offset_tree_item_at(t, max - 2 * q) == 1, "item_at near max");
    rk_offset_tree_destroy(t);
    CHECK(rk_offset_tree_build(hs, 300, &t, NULL) == RK_OK, "build");
    naive m = {0};
    naive_insert(&m, 0, hs, 300);
    double total = rk_offset_tree_total(t), at_max = max - total, below_max = at_max - q;
    size_t bi = 99;
    CHECK(rk_offset_tree_set(t, 3, max) == RK_ERR_HEIGHT, "set height at max");
    CHECK(rk_offset_tree_insert(t, 3, &max, 1, &bi) == RK_ERR_HEIGHT && bi == 0, "insert at max");
    CHECK(rk_offset_tree_insert(t, 3, &at_max, 1, NULL) == RK_ERR_OVERFLOW, "insert to max");
    CHECK(rk_offset_tree_insert(t, 3, big, 2, NULL) == RK_ERR_OVERFLOW, "insert two halves");
    CHECK(rk_offset_tree_set(t, 3, at_max + hs[3]) == RK_ERR_OVERFLOW, "set to max");
    double two[2] = {at_max + hs[3], hs[4]};
    CHECK(rk_offset_tree_set_range(t, 3, two, 2, NULL) == RK_ERR_OVERFLOW, "set_range to max");
    compare_all(t, &m, "after refused edits at the limit");
    CHECK(rk_offset_tree_set(t, 3, below_max + hs[3]) == RK_OK, "set to just below max");
    m.h[3] = below_max + hs[3];
    compare_all(t, &m, "one quantum below the limit");
    rk_offset_tree_destroy(t);
    free(m.h);
}

static void test_bad_calls(void) {
    double hs[300];
    for (int i = 0; i < 300; i++) hs[i] = random_height();
    rk_offset_tree *t = NULL;
    CHECK(rk_offset_tree_build(hs, 300, &t, NULL) == RK_OK, "build");
    naive m = {0};
    naive_insert(&m, 0, hs, 300);
    double bad[] = {NAN, INFINITY, -INFINITY, -1.0, -1e-300, 1e300};
    for (int b = 0; b < 6; b++) {
        double k3[3] = {1.0, bad[b], 2.0};
        size_t bi = 99;
        CHECK(rk_offset_tree_set(t, 5, bad[b]) == RK_ERR_HEIGHT, "set bad");
        CHECK(rk_offset_tree_insert(t, 5, k3, 3, &bi) == RK_ERR_HEIGHT && bi == 1, "insert bad");
        rk_offset_tree *u = NULL;
        CHECK(rk_offset_tree_build(k3, 3, &u, &bi) == RK_ERR_HEIGHT && u == NULL, "build bad");
    }
    double out = 42;
    CHECK(rk_offset_tree_set(t, 300, 1.0) == RK_ERR_RANGE, "set range");
    CHECK(rk_offset_tree_height(t, 300, &out) == RK_ERR_RANGE && out == 42, "height range");
    CHECK(rk_offset_tree_offset(t, 301, &out) == RK_ERR_RANGE && out == 42, "offset range");
    CHECK(rk_offset_tree_offset_of(t, 300) == rk_offset_tree_total(t), "offset_of count");
    CHECK(rk_offset_tree_offset_of(t, 301) == RK_NO_OFFSET, "offset_of range");
    CHECK(rk_offset_tree_offset_of(t, SIZE_MAX) == RK_NO_OFFSET, "offset_of huge");
    CHECK(rk_offset_tree_insert(t, 301, hs, 1, NULL) == RK_ERR_RANGE, "insert range");
    CHECK(rk_offset_tree_remove(t, 300, 1) == RK_ERR_RANGE, "remove range");
    CHECK(rk_offset_tree_remove(t, 1, 300) == RK_ERR_RANGE, "remove k range");
    CHECK(rk_offset_tree_remove(t, 0, SIZE_MAX) == RK_ERR_RANGE, "remove k huge");
    CHECK(rk_offset_tree_insert(t, 0, hs, SIZE_MAX, NULL) == RK_ERR_OVERFLOW, "insert overflow");
    CHECK(rk_offset_tree_insert(t, 0, hs, RK_OFFSET_TREE_MAX_COUNT - 299, NULL) == RK_ERR_OVERFLOW,
          "insert overflow by one");
    double range_out[4] = {42, 42, 42, 42}, offsets_out[4] = {42, 42, 42, 42};
    CHECK(rk_offset_tree_read(t, 299, 2, range_out, offsets_out) == RK_ERR_RANGE &&
              offsets_out[0] == 42 && range_out[0] == 42,
          "read past the end");
    CHECK(rk_offset_tree_read(t, 301, 0, range_out, NULL) == RK_ERR_RANGE, "read start range");
    CHECK(rk_offset_tree_read(t, 1, SIZE_MAX, range_out, NULL) == RK_ERR_RANGE, "read k huge");
    CHECK(rk_offset_tree_read(t, 0, 1, NULL, NULL) == RK_ERR_ARG, "read into NULL");
    CHECK(rk_offset_tree_read(t, 300, 0, NULL, NULL) == RK_OK, "read nothing at the end");
    out = 42;
    for (int b = 0; b < 6; b++) {
        double k3[3] = {1.0, 2.0, bad[b]};
        size_t bi = 99;
        CHECK(rk_offset_tree_set_range(t, 5, k3, 3, &bi) == RK_ERR_HEIGHT && bi == 2,
              "set_range bad height");
    }
    CHECK(rk_offset_tree_set_range(t, 299, hs, 2, NULL) == RK_ERR_RANGE, "set_range past the end");
    CHECK(rk_offset_tree_set_range(t, 0, hs, SIZE_MAX, NULL) == RK_ERR_RANGE, "set_range k huge");
    CHECK(rk_offset_tree_set_range(t, 0, NULL, 1, NULL) == RK_ERR_ARG, "set_range NULL");
    CHECK(rk_offset_tree_set_range(t, 300, NULL, 0, NULL) == RK_OK, "set_range nothing");
    CHECK(rk_offset_tree_item_at(t, NAN) == RK_NOT_FOUND, "item_at NaN");
    CHECK(rk_offset_tree_item_at(t, -0.5) == RK_NOT_FOUND, "item_at negative");
    CHECK(rk_offset_tree_item_at(t, INFINITY) == RK_NOT_FOUND, "item_at inf");
    compare_all(t, &m, "after bad calls");
    rk_offset_tree_destroy(t);
    free(m.h);

    /* Found by Fuzz/offset_tree_fuzz.c: a range starting below 0 on a multi-leaf tree whose
     * heights are all zero read past an inner node's children. Nothing intersects it. */
    double zeros[300] = {0};
    CHECK(rk_offset_tree_build(zeros, 300, &t, NULL) == RK_OK, "build zeros");
    size_t first = 7, end = 7;
    rk_offset_tree_range(t, -0.125, 50.0, &first, &end);
    CHECK(first == 0 && end == 0, "range below 0 on an all-zero tree: [%zu, %zu)", first, end);
    rk_offset_tree_range(t, -INFINITY, INFINITY, &first, &end);
    CHECK(first == 0 && end == 0, "unbounded range on an all-zero tree: [%zu, %zu)", first, end);
    rk_offset_tree_destroy(t);
}

/* A full leaf keeps no prefix through its last block: a range past the end whose last block holds
 * only zero heights (found by the fuzzer) must fall back to the last positive item before it. */
static void test_range_past_a_zero_last_block(void) {
    for (size_t n = 121; n <= 128; n++) {
        double h[128];
        for (size_t i = 0; i < n; i++) h[i] = i < 120 ? (i % 3 ? 0.0 : 5.5) : 0.0;
        rk_offset_tree *t;
        CHECK(rk_offset_tree_build(h, n, &t, NULL) == RK_OK, "build a leaf with a zero last block");
        size_t first, end;
        rk_offset_tree_range(t, 10.0, 1e6, &first, &end);
        CHECK(first == 3 && end == 118, "range past the end stops at the last positive item");
        rk_offset_tree_range(t, 0.0, 220.0, &first, &end);
        CHECK(first == 0 && end == 118, "range through the total");
        CHECK(rk_offset_tree_item_at(t, 219.999) == 117, "item_at just below the total");
        rk_offset_tree_destroy(t);
    }
}

static void test_pool(size_t ops) {
    rk_reuse_pool *p = NULL;
    CHECK(rk_reuse_pool_create(4, &p) == RK_OK, "pool create");
    enum { KINDS = 5, CAP = 64 };
    uintptr_t model[KINDS][CAP * 2];
    size_t len[KINDS] = {0}, cap[KINDS];
    char name[32];
    rk_reuse_kind kinds[KINDS];
    for (int k = 0; k < KINDS; k++) {
        snprintf(name, sizeof name, "cell-%d", k);
        CHECK(rk_reuse_pool_intern(p, name, &kinds[k]) == RK_OK && kinds[k] == (unsigned)k, "intern");
        cap[k] = 4;
    }
    uintptr_t next = 1;
    rk_reuse_counters want = {0, 0, 0};
    for (size_t s = 0; s < ops && failures == 0; s++) {
        int k = (int)below(KINDS);
        size_t op = below(10);
        if (op < 5) {
            int ev = -1;
            uintptr_t eh = 0, h = next++;
            CHECK(rk_reuse_pool_put(p, kinds[k], h, &ev, &eh) == RK_OK, "put");
            model[k][len[k]++] = h;
            if (len[k] > cap[k]) {
                CHECK(ev == 1 && eh == model[k][0], "evicts oldest");
                memmove(model[k], model[k] + 1, --len[k] * sizeof(uintptr_t));
                want.evictions++;
            } else {
                CHECK(ev == 0, "no eviction");
            }
        } else if (op < 9) {
            uintptr_t h = 0;
            rk_status st = rk_reuse_pool_take(p, kinds[k], &h);
            if (len[k] == 0) {
                CHECK(st == RK_ERR_EMPTY, "miss");
                want.misses++;
            } else {
                CHECK(st == RK_OK && h == model[k][--len[k]], "LIFO take");
                want.hits++;
            }
        } else {
            cap[k] = below(CAP);
            rk_reuse_pool_set_capacity(p, kinds[k], cap[k]);
            uintptr_t h;
            while (rk_reuse_pool_trim(p, kinds[k], &h) == RK_OK) {
                CHECK(h == model[k][0], "trim hands back oldest");
                memmove(model[k], model[k] + 1, --len[k] * sizeof(uintptr_t));
                want.evictions++;
            }
        }
        rk_reuse_counters c = rk_reuse_pool_counters(p);
        CHECK(c.hits == want.hits && c.misses == want.misses && c.evictions == want.evictions,
              "counters");
        CHECK(rk_reuse_pool_count(p, kinds[k]) == len[k], "count");
        CHECK(rk_reuse_pool_check(p, NULL) == RK_OK, "pool check");
    }
    for (int k = 0; k < KINDS; k++) {
        snprintf(name, sizeof name, "cell-%d", k);
        rk_reuse_kind again;
        CHECK(rk_reuse_pool_intern(p, name, &again) == RK_OK && again == kinds[k], "re-intern");
    }
    for (int i = 0; i < 1000; i++) { /* grow the hash table */
        snprintf(name, sizeof name, "extra-%d", i);
        rk_reuse_kind kk;
        CHECK(rk_reuse_pool_intern(p, name, &kk) == RK_OK && kk == (unsigned)(KINDS + i), "intern many");
    }
    CHECK(rk_reuse_pool_check(p, NULL) == RK_OK, "pool check after interning");
    size_t drained = 0, held = 0;
    for (int k = 0; k < KINDS; k++) held += len[k];
    rk_reuse_kind dk;
    uintptr_t dh;
    while (rk_reuse_pool_drain(p, &dk, &dh) == RK_OK) drained++;
    CHECK(drained == held, "drain hands back every handle (%zu of %zu)", drained, held);
    rk_reuse_pool_destroy(p);
}

int main(int argc, char **argv) {
    size_t ops = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 20000;
    rng_state = argc > 2 ? strtoull(argv[2], NULL, 10) : 1;
    test_bad_calls();
    test_read_offsets_match_offset();
    test_heights_are_quantized_and_sums_exact();
    test_total_limit();
    test_range_past_a_zero_last_block();
    test_tree(ops, 200, 1);         /* around one leaf */
    test_tree(ops, 5000, 1);        /* a few levels */
    test_tree(ops / 4, 60000, 97);  /* deeper, sampled full comparisons */
    test_pool(ops);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_ccore: all checks passed (%zu ops, seed %llu)\n", ops,
           (unsigned long long)(argc > 2 ? strtoull(argv[2], NULL, 10) : 1));
    return 0;
}
