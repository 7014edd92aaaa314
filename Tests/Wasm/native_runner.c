/*
 * native_runner.c: the native side of the WebAssembly differential test (Tests/Wasm/differential.js).
 * Reads operations on one offset tree and one reuse pool from stdin, one per line, runs them on the
 * native C core and prints one result line per operation. differential.js runs the same lines on
 * the WebAssembly module through Templates/assets/rowkit-core.js and requires identical output.
 * The operation language is described in differential.js. Built with RK_INTERNAL_CHECKS: `tv`
 * also runs the invariant checkers and prints CORRUPT when one fails (which the module side never
 * prints, so the test fails).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_offset_tree.h"
#include "rk_reuse_pool.h"

static rk_offset_tree *tree;
static rk_reuse_pool *pool;

/* ---- tokens */

static char *cursor;

static char *token(void) {
    while (*cursor == ' ') cursor++;
    char *start = cursor;
    while (*cursor && *cursor != ' ' && *cursor != '\n') cursor++;
    if (*cursor) *cursor++ = '\0';
    return start;
}

/* An index argument: a decimal integer, possibly negative or beyond 2^32, as size_t. */
static size_t index_arg(void) { return (size_t)strtoll(token(), NULL, 10); }

static uint64_t unsigned_arg(void) { return strtoull(token(), NULL, 10); }

static double double_arg(void) {
    uint64_t bits = strtoull(token(), NULL, 16);
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

static uint64_t bits_of(double d) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}

/* ---- output */

static const char *status_name(rk_status s) { return rk_status_name(s); }

static void print_state(void) {
    printf(" c=%zu t=%016" PRIx64, rk_offset_tree_count(tree), bits_of(rk_offset_tree_total(tree)));
}

static void print_index(size_t i) {
    if (i == RK_NOT_FOUND) printf("NOT_FOUND");
    else printf("%zu", i);
}

static uint32_t checksum(uint32_t h, const double *values, size_t n) {
    for (size_t i = 0; i < n; i++) {
        uint64_t bits = bits_of(values[i]);
        h = (h ^ (uint32_t)bits) * 16777619u;
        h = (h ^ (uint32_t)(bits >> 32)) * 16777619u;
    }
    return h;
}

/* ---- generated heights (the same generator as differential.js) */

static double *generated(size_t n, uint32_t seed, int kind) {
    double *h = malloc((n ? n : 1) * sizeof(double));
    if (!h) abort();
    uint32_t x = seed ? seed : 0x9E3779B9u;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        switch (kind) {
        case 0: h[i] = (double)(x % 100000u) / 1000.0; break;
        case 1: h[i] = x % 8u == 0 ? 0.0 : (double)(20u + x % 61u); break;
        default: h[i] = x % 4u == 0 ? 0.0 : (double)(x % 1000003u) / 1e7; break;
        }
    }
    return h;
}

static double *explicit_heights(size_t k) {
    double *h = malloc((k ? k : 1) * sizeof(double));
    if (!h) abort();
    for (size_t i = 0; i < k; i++) h[i] = double_arg();
    return h;
}

/* ---- operations */

static void build_from(const double *h, size_t n) {
    rk_offset_tree *t = NULL;
    size_t bad = SIZE_MAX;
    rk_status s = rk_offset_tree_build(h, n, &t, &bad);
    printf("%s", status_name(s));
    if (s == RK_OK) {
        rk_offset_tree_destroy(tree);
        tree = t;
        print_state();
    } else if (s == RK_ERR_HEIGHT) {
        printf(" bad=%zu", bad);
    }
}

static void insert_from(size_t at, const double *h, size_t k) {
    size_t bad = SIZE_MAX;
    rk_status s = rk_offset_tree_insert(tree, at, h, k, &bad);
    printf("%s", status_name(s));
    if (s == RK_ERR_HEIGHT) printf(" bad=%zu", bad);
    print_state();
}

static void read_op(size_t first, size_t n, int with_offsets) {
    size_t count = rk_offset_tree_count(tree);
    size_t room = n < count ? n : count;
    double *h = malloc((room ? room : 1) * sizeof(double));
    double *o = malloc((room ? room : 1) * sizeof(double));
    if (!h || !o) abort();
    rk_status s = rk_offset_tree_read(tree, first, n, h, with_offsets ? o : NULL);
    printf("%s", status_name(s));
    if (s == RK_OK) {
        uint32_t c = checksum(2166136261u, h, n);
        if (with_offsets) c = checksum(c, o, n);
        printf(" %08" PRIx32, c);
        for (size_t i = 0; i < n && n <= 8; i++) {
            printf(" %016" PRIx64, bits_of(h[i]));
            if (with_offsets) printf("@%016" PRIx64, bits_of(o[i]));
        }
    }
    free(h);
    free(o);
}

static void verify(void) {
    size_t n = rk_offset_tree_count(tree);
    double *h = malloc((n ? n : 1) * sizeof(double)), *o = malloc((n ? n : 1) * sizeof(double));
    if (!h || !o) abort();
    rk_status s = rk_offset_tree_read(tree, 0, n, h, o);
    printf("%s %08" PRIx32, status_name(s), checksum(checksum(2166136261u, h, n), o, n));
    print_state();
    const char *msg = NULL;
    if (rk_offset_tree_check(tree, &msg) != RK_OK) printf(" CORRUPT tree: %s", msg);
    if (pool && rk_reuse_pool_check(pool, &msg) != RK_OK) printf(" CORRUPT pool: %s", msg);
    free(h);
    free(o);
}

static double step(double y, int up) { /* nextafter without libm: the adjacent double */
    uint64_t b = bits_of(y);
    if (y == 0.0) b = up ? 1 : 0x8000000000000001ull;
    else b = ((y > 0.0) == (up != 0)) ? b + 1 : b - 1;
    double d;
    memcpy(&d, &b, sizeof d);
    return d;
}

static void probe(size_t i) {
    double y;
    rk_status s = rk_offset_tree_offset(tree, i, &y);
    printf("%s", status_name(s));
    if (s != RK_OK) return;
    double below = step(y, 0), above = step(y, 1);
    size_t f, e;
    printf(" ");
    print_index(rk_offset_tree_item_at(tree, y));
    printf(" ");
    print_index(rk_offset_tree_item_at(tree, below));
    printf(" ");
    print_index(rk_offset_tree_item_at(tree, above));
    rk_offset_tree_range(tree, below, y, &f, &e);
    printf(" %zu-%zu", f, e);
    rk_offset_tree_range(tree, y, above, &f, &e);
    printf(" %zu-%zu", f, e);
}

static void tree_null_args(void) {
    rk_offset_tree *t = NULL;
    double d = 1.0;
    printf("%s", status_name(rk_offset_tree_create(NULL)));
    printf(" %s", status_name(rk_offset_tree_build(NULL, 0, NULL, NULL)));
    printf(" %s", status_name(rk_offset_tree_build(NULL, 3, &t, NULL)));
    printf(" %s", status_name(rk_offset_tree_read(tree, 0, 1, NULL, NULL)));
    printf(" %s", status_name(rk_offset_tree_read(tree, 0, 0, NULL, NULL)));
    printf(" %s", status_name(rk_offset_tree_set_range(tree, 0, NULL, 1, NULL)));
    printf(" %s", status_name(rk_offset_tree_insert(tree, 0, NULL, 1, NULL)));
    printf(" %s", status_name(rk_offset_tree_insert(tree, 0, NULL, 0, NULL)));
    printf(" %s", status_name(rk_offset_tree_insert(tree, 0, &d, 0, NULL)));
    print_state();
}

static void pool_null_args(void) {
    rk_reuse_kind k = 0;
    uintptr_t h = 0;
    int ev = 0;
    printf("%s", status_name(rk_reuse_pool_create(4, NULL)));
    printf(" %s", status_name(rk_reuse_pool_intern(pool, NULL, &k)));
    printf(" %s", status_name(rk_reuse_pool_put(pool, 0, 1, NULL, NULL)));
    printf(" %s", status_name(rk_reuse_pool_put(pool, 0, 1, &ev, NULL)));
    printf(" %s", status_name(rk_reuse_pool_take(pool, 0, NULL)));
    printf(" %s", status_name(rk_reuse_pool_trim(pool, 0, NULL)));
    printf(" %s", status_name(rk_reuse_pool_drain(pool, NULL, &h)));
    printf(" %s", status_name(rk_reuse_pool_set_capacity(NULL, 0, 1)));
}

static void intern_many(uint64_t n) {
    uint64_t ok = 0;
    rk_status last = RK_OK;
    for (uint64_t i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "m%" PRIu64, i);
        rk_reuse_kind k;
        rk_status s = rk_reuse_pool_intern(pool, name, &k);
        if (s == RK_OK) ok++;
        else last = s;
    }
    printf("%" PRIu64 " %s kinds=%zu", ok, status_name(last), rk_reuse_pool_kind_count(pool));
}

static int hex_digit(char c) {
    return c >= 'a' ? c - 'a' + 10 : c - '0';
}

static void run(char *line) {
    cursor = line;
    char *op = token();
    if (!strcmp(op, "tc")) {
        rk_offset_tree *t = NULL;
        rk_status s = rk_offset_tree_create(&t);
        printf("%s", status_name(s));
        if (s == RK_OK) {
            rk_offset_tree_destroy(tree);
            tree = t;
            print_state();
        }
    } else if (!strcmp(op, "tb")) {
        size_t n = index_arg();
        double *h = explicit_heights(n);
        build_from(h, n);
        free(h);
    } else if (!strcmp(op, "tg")) {
        size_t n = index_arg();
        uint32_t seed = (uint32_t)unsigned_arg();
        int kind = (int)unsigned_arg();
        double *h = generated(n, seed, kind);
        build_from(h, n);
        free(h);
    } else if (!strcmp(op, "tB")) {
        rk_offset_tree *t = NULL;
        double d = 1.0;
        printf("%s", status_name(rk_offset_tree_build(&d, RK_OFFSET_TREE_MAX_COUNT + 1, &t, NULL)));
    } else if (!strcmp(op, "td")) {
        rk_offset_tree_destroy(tree);
        tree = NULL;
        printf("OK");
    } else if (!strcmp(op, "th") || !strcmp(op, "to")) {
        size_t i = index_arg();
        double v = -1.0;
        rk_status s = op[1] == 'h' ? rk_offset_tree_height(tree, i, &v)
                                   : rk_offset_tree_offset(tree, i, &v);
        printf("%s", status_name(s));
        if (s == RK_OK) printf(" %016" PRIx64, bits_of(v));
    } else if (!strcmp(op, "ti")) {
        print_index(rk_offset_tree_item_at(tree, double_arg()));
    } else if (!strcmp(op, "tr")) {
        double y0 = double_arg(), y1 = double_arg();
        size_t f = 7, e = 7;
        rk_offset_tree_range(tree, y0, y1, &f, &e);
        printf("%zu %zu", f, e);
    } else if (!strcmp(op, "tR")) {
        size_t first = index_arg(), n = index_arg();
        read_op(first, n, (int)unsigned_arg());
    } else if (!strcmp(op, "ts")) {
        size_t i = index_arg();
        double h = double_arg();
        printf("%s", status_name(rk_offset_tree_set(tree, i, h)));
        print_state();
    } else if (!strcmp(op, "tS")) {
        size_t first = index_arg(), k = index_arg(), bad = SIZE_MAX;
        double *h = explicit_heights(k);
        rk_status s = rk_offset_tree_set_range(tree, first, h, k, &bad);
        printf("%s", status_name(s));
        if (s == RK_ERR_HEIGHT) printf(" bad=%zu", bad);
        print_state();
        free(h);
    } else if (!strcmp(op, "tI")) {
        size_t at = index_arg(), k = index_arg();
        double *h = explicit_heights(k);
        insert_from(at, h, k);
        free(h);
    } else if (!strcmp(op, "tG")) {
        size_t at = index_arg(), k = index_arg();
        uint32_t seed = (uint32_t)unsigned_arg();
        int kind = (int)unsigned_arg();
        double *h = generated(k, seed, kind);
        insert_from(at, h, k);
        free(h);
    } else if (!strcmp(op, "tO")) {
        size_t at = index_arg();
        double d = 1.0;
        size_t k = RK_OFFSET_TREE_MAX_COUNT - rk_offset_tree_count(tree) + 1;
        printf("%s", status_name(rk_offset_tree_insert(tree, at, &d, k, NULL)));
        print_state();
    } else if (!strcmp(op, "tX")) {
        size_t at = index_arg(), k = index_arg();
        printf("%s", status_name(rk_offset_tree_remove(tree, at, k)));
        print_state();
    } else if (!strcmp(op, "tv")) {
        verify();
    } else if (!strcmp(op, "tp")) {
        probe(index_arg());
    } else if (!strcmp(op, "tN")) {
        tree_null_args();
    } else if (!strcmp(op, "pc")) {
        rk_reuse_pool *p = NULL;
        rk_status s = rk_reuse_pool_create((size_t)unsigned_arg(), &p);
        printf("%s", status_name(s));
        if (s == RK_OK) {
            rk_reuse_pool_destroy(pool);
            pool = p;
        }
    } else if (!strcmp(op, "pd")) {
        rk_reuse_pool_destroy(pool);
        pool = NULL;
        printf("OK");
    } else if (!strcmp(op, "pi")) {
        char *hex = token();
        size_t len = strlen(hex) / 2;
        char *name = malloc(len + 1);
        if (!name) abort();
        for (size_t i = 0; i < len; i++)
            name[i] = (char)(hex_digit(hex[2 * i]) * 16 + hex_digit(hex[2 * i + 1]));
        name[len] = '\0';
        rk_reuse_kind k = 0;
        rk_status s = rk_reuse_pool_intern(pool, name, &k);
        printf("%s", status_name(s));
        if (s == RK_OK) printf(" %" PRIu32, k);
        free(name);
    } else if (!strcmp(op, "pk")) {
        printf("%zu", rk_reuse_pool_kind_count(pool));
    } else if (!strcmp(op, "pn")) {
        const char *s = rk_reuse_pool_identifier(pool, (rk_reuse_kind)index_arg());
        if (!s) printf("NULL");
        else {
            printf("s:");
            for (; *s; s++) printf("%02x", (unsigned char)*s);
        }
    } else if (!strcmp(op, "pp")) {
        rk_reuse_kind k = (rk_reuse_kind)index_arg();
        uintptr_t h = (uintptr_t)unsigned_arg(), old = 0;
        int ev = -1;
        rk_status s = rk_reuse_pool_put(pool, k, h, &ev, &old);
        printf("%s", status_name(s));
        if (s == RK_OK) {
            if (ev) printf(" evicted=%" PRIuPTR, old);
            else printf(" none");
        }
    } else if (!strcmp(op, "pt") || !strcmp(op, "pm")) {
        rk_reuse_kind k = (rk_reuse_kind)index_arg();
        uintptr_t h = 0;
        rk_status s = op[1] == 't' ? rk_reuse_pool_take(pool, k, &h) : rk_reuse_pool_trim(pool, k, &h);
        printf("%s", status_name(s));
        if (s == RK_OK) printf(" %" PRIuPTR, h);
    } else if (!strcmp(op, "pC")) {
        printf("%zu", rk_reuse_pool_count(pool, (rk_reuse_kind)index_arg()));
    } else if (!strcmp(op, "pK")) {
        printf("%zu", rk_reuse_pool_capacity(pool, (rk_reuse_kind)index_arg()));
    } else if (!strcmp(op, "ps")) {
        rk_reuse_kind k = (rk_reuse_kind)index_arg();
        size_t cap = (size_t)unsigned_arg();
        printf("%s", status_name(rk_reuse_pool_set_capacity(pool, k, cap)));
    } else if (!strcmp(op, "pD")) {
        rk_reuse_kind k = 0;
        uintptr_t h = 0;
        rk_status s = rk_reuse_pool_drain(pool, &k, &h);
        printf("%s", status_name(s));
        if (s == RK_OK) printf(" %" PRIu32 " %" PRIuPTR, k, h);
    } else if (!strcmp(op, "pz")) {
        rk_reuse_counters c = rk_reuse_pool_counters(pool);
        printf("%" PRIu64 " %" PRIu64 " %" PRIu64, c.hits, c.misses, c.evictions);
    } else if (!strcmp(op, "pM")) {
        intern_many(unsigned_arg());
    } else if (!strcmp(op, "pN")) {
        pool_null_args();
    } else {
        printf("unknown operation %s", op);
    }
    printf("\n");
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) run(line);
    free(line);
    rk_offset_tree_destroy(tree);
    rk_reuse_pool_destroy(pool);
    return 0;
}
