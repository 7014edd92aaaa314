/*
 * reuse_pool_fuzz.c: libFuzzer target for rk_reuse_pool (run by scripts/fuzz.sh).
 *
 * The input is decoded into a stream of operations (intern, put, take, set_capacity, trim, drain,
 * queries, bad calls, allocation failures, recreating the pool). Every answer is compared with a
 * naive model: the interned names in order, and per kind an array of handles (oldest first), its
 * capacity, plus the three counters. Handles are numbered 1, 2, 3, ... as they are put, so a
 * handle handed back names exactly which put it came from. rk_reuse_pool_check and a comparison
 * of every kind's count and capacity run after every step (build with -DRK_INTERNAL_CHECKS). Any
 * mismatch abort()s, which libFuzzer reports as a crash.
 *
 * Sizes: at most MAX_KINDS kinds (enough to grow the hash table several times) and MAX_STEPS
 * operations per input, which also bounds the handles one kind can hold. The RK_REUSE_MAX_KINDS
 * limit is checked once per process in LLVMFuzzerInitialize.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_reuse_pool.h"

#define MAX_KINDS 256
#define MAX_STEPS 512
#define MAX_NAME 12

#define FUZZ_TARGET_NAME "reuse_pool_fuzz"
#include "fuzz_input.h"

/* ---------------------------------------------------------------- the naive model */

typedef struct model_kind {
    char name[MAX_NAME + 1];
    const char *pool_name; /* the pool's copy, which must stay valid and unchanged */
    uintptr_t handles[MAX_STEPS]; /* oldest first */
    size_t len;
    size_t capacity;
} model_kind;

static model_kind kinds[MAX_KINDS];
static size_t nkinds;
static size_t default_capacity;
static rk_reuse_counters counters;
static uintptr_t next_handle;
static size_t step_number;

static uintptr_t model_pop_oldest(model_kind *k) {
    uintptr_t h = k->handles[0];
    memmove(k->handles, k->handles + 1, --k->len * sizeof(uintptr_t));
    return h;
}

static long model_find(const char *name) {
    for (size_t i = 0; i < nkinds; i++)
        if (strcmp(kinds[i].name, name) == 0) return (long)i;
    return -1;
}

/* ---------------------------------------------------------------- comparisons */

/* Every kind's name, count and capacity, the counters and the invariant checker. O(kinds). */
static void compare(const rk_reuse_pool *p) {
    const char *message = NULL;
    rk_status st = rk_reuse_pool_check(p, &message);
    EXPECT(st == RK_OK, "%s", message ? message : "(no message)");
    EXPECT(rk_reuse_pool_kind_count(p) == nkinds, "kind count %zu, model %zu",
           rk_reuse_pool_kind_count(p), nkinds);
    for (size_t i = 0; i < nkinds; i++) {
        const model_kind *k = &kinds[i];
        const char *name = rk_reuse_pool_identifier(p, (rk_reuse_kind)i);
        EXPECT(name == k->pool_name && strcmp(name, k->name) == 0, "identifier of kind %zu", i);
        size_t count = rk_reuse_pool_count(p, (rk_reuse_kind)i);
        size_t capacity = rk_reuse_pool_capacity(p, (rk_reuse_kind)i);
        EXPECT(count == k->len, "count of kind %zu: %zu, model %zu", i, count, k->len);
        EXPECT(capacity == k->capacity, "capacity of kind %zu: %zu, model %zu", i, capacity,
               k->capacity);
    }
    rk_reuse_counters c = rk_reuse_pool_counters(p);
    EXPECT(c.hits == counters.hits && c.misses == counters.misses &&
               c.evictions == counters.evictions,
           "counters %llu/%llu/%llu, model %llu/%llu/%llu", (unsigned long long)c.hits,
           (unsigned long long)c.misses, (unsigned long long)c.evictions,
           (unsigned long long)counters.hits, (unsigned long long)counters.misses,
           (unsigned long long)counters.evictions);
}

/* ---------------------------------------------------------------- choosing arguments */

/* A kind: usually an interned one, sometimes just past the end or far beyond it. */
static rk_reuse_kind pick_kind(input *in) {
    uint8_t b = next_u8(in);
    if (b < 224) return nkinds ? (rk_reuse_kind)(b % nkinds) : 0;
    if (b < 248) return (rk_reuse_kind)(nkinds + b % 3);
    return b % 2 ? UINT32_MAX : (rk_reuse_kind)RK_REUSE_MAX_KINDS;
}

static size_t pick_capacity(input *in) {
    uint8_t b = next_u8(in);
    if (b < 200) return b % 12;
    if (b < 240) return b % 80;
    if (b < 250) return (size_t)1 << 40;
    return SIZE_MAX;
}

/* An identifier: an interned one, a new one from the input's bytes, or a numbered one. */
static void pick_name(input *in, char *name) {
    uint8_t b = next_u8(in);
    if (b % 4 == 0 && nkinds > 0) {
        strcpy(name, kinds[next_u8(in) % nkinds].name);
    } else if (b % 4 == 1) {
        snprintf(name, MAX_NAME + 1, "cell-%zu", next_u16(in) % 1000);
    } else {
        size_t len = (b >> 2) % (MAX_NAME + 1);
        for (size_t i = 0; i < len; i++) {
            uint8_t c = next_u8(in);
            name[i] = (char)(c ? c : 'z');
        }
        name[len] = '\0';
    }
}

/* ---------------------------------------------------------------- operations */

/* Interns `name`; returns the status (RK_ERR_NOMEM only under a failing allocation). */
static rk_status do_intern(rk_reuse_pool *p, const char *name, int may_fail) {
    long known = model_find(name);
    if (known < 0 && nkinds == MAX_KINDS) return RK_OK; /* keep the model bounded */
    rk_reuse_kind kind = 0xdeadbeef;
    rk_status st = rk_reuse_pool_intern(p, name, &kind);
    if (may_fail && st == RK_ERR_NOMEM) {
        EXPECT(known < 0, "interning a known name allocated");
        EXPECT(kind == 0xdeadbeef, "failed intern wrote its output");
        return st;
    }
    EXPECT(st == RK_OK, "intern \"%s\": %s", name, rk_status_name(st));
    if (known >= 0) {
        EXPECT(kind == (rk_reuse_kind)known, "\"%s\" is kind %u, model %ld", name, kind, known);
        return st;
    }
    EXPECT(kind == nkinds, "new \"%s\" is kind %u, model %zu", name, kind, nkinds);
    model_kind *k = &kinds[nkinds++];
    strcpy(k->name, name);
    k->pool_name = rk_reuse_pool_identifier(p, kind);
    EXPECT(k->pool_name != NULL && k->pool_name != name, "the identifier is not a copy");
    k->len = 0;
    k->capacity = default_capacity;
    return st;
}

static rk_status do_put(rk_reuse_pool *p, rk_reuse_kind kind, int may_fail) {
    uintptr_t handle = ++next_handle, evicted_handle = 0xdead;
    int evicted = -1;
    rk_status st = rk_reuse_pool_put(p, kind, handle, &evicted, &evicted_handle);
    if (kind >= nkinds) {
        EXPECT(st == RK_ERR_RANGE, "put into unknown kind %u: %s", kind, rk_status_name(st));
        return st;
    }
    if (may_fail && st == RK_ERR_NOMEM) return st;
    EXPECT(st == RK_OK, "put into kind %u: %s", kind, rk_status_name(st));
    model_kind *k = &kinds[kind];
    if (k->capacity == 0) {
        EXPECT(evicted == 1 && evicted_handle == handle, "capacity 0 keeps what was put");
        counters.evictions++;
    } else if (k->len >= k->capacity) {
        uintptr_t oldest = model_pop_oldest(k);
        EXPECT(evicted == 1 && evicted_handle == oldest,
               "full kind %u: evicted %d handle %llu, model %llu", kind, evicted,
               (unsigned long long)evicted_handle, (unsigned long long)oldest);
        k->handles[k->len++] = handle;
        counters.evictions++;
    } else {
        EXPECT(evicted == 0, "kind %u with %zu of %zu evicted", kind, k->len, k->capacity);
        k->handles[k->len++] = handle;
    }
    return st;
}

static void op_take(input *in, rk_reuse_pool *p) {
    rk_reuse_kind kind = pick_kind(in);
    uintptr_t handle = 0xdead;
    rk_status st = rk_reuse_pool_take(p, kind, &handle);
    if (kind >= nkinds) {
        EXPECT(st == RK_ERR_RANGE && handle == 0xdead, "take from unknown kind %u: %s", kind,
               rk_status_name(st));
        return;
    }
    model_kind *k = &kinds[kind];
    if (k->len == 0) {
        EXPECT(st == RK_ERR_EMPTY && handle == 0xdead, "take from empty kind %u: %s", kind,
               rk_status_name(st));
        counters.misses++;
        return;
    }
    uintptr_t newest = k->handles[--k->len];
    EXPECT(st == RK_OK && handle == newest, "take from kind %u: %s %llu, model %llu", kind,
           rk_status_name(st), (unsigned long long)handle, (unsigned long long)newest);
    counters.hits++;
}

static void op_set_capacity(input *in, rk_reuse_pool *p) {
    rk_reuse_kind kind = pick_kind(in);
    size_t capacity = pick_capacity(in);
    rk_status st = rk_reuse_pool_set_capacity(p, kind, capacity);
    if (kind >= nkinds) {
        EXPECT(st == RK_ERR_RANGE, "set_capacity of unknown kind %u: %s", kind, rk_status_name(st));
        return;
    }
    EXPECT(st == RK_OK, "set_capacity: %s", rk_status_name(st));
    kinds[kind].capacity = capacity;
}

/* Trims once, or until the kind is within its capacity. */
static void op_trim(input *in, rk_reuse_pool *p) {
    rk_reuse_kind kind = pick_kind(in);
    int all = next_u8(in) % 2;
    for (;;) {
        uintptr_t handle = 0xdead;
        rk_status st = rk_reuse_pool_trim(p, kind, &handle);
        if (kind >= nkinds) {
            EXPECT(st == RK_ERR_RANGE, "trim unknown kind %u: %s", kind, rk_status_name(st));
            return;
        }
        model_kind *k = &kinds[kind];
        if (k->len <= k->capacity) {
            EXPECT(st == RK_ERR_EMPTY && handle == 0xdead, "trim kind %u within capacity: %s",
                   kind, rk_status_name(st));
            return;
        }
        uintptr_t oldest = model_pop_oldest(k);
        EXPECT(st == RK_OK && handle == oldest, "trim kind %u: %s %llu, model %llu", kind,
               rk_status_name(st), (unsigned long long)handle, (unsigned long long)oldest);
        counters.evictions++;
        if (!all) return;
    }
}

/* Drain hands back the oldest handle of the first non-empty kind; it counts nothing. */
static int drain_one(rk_reuse_pool *p) {
    rk_reuse_kind kind = 0xdeadbeef;
    uintptr_t handle = 0xdead;
    rk_status st = rk_reuse_pool_drain(p, &kind, &handle);
    size_t i = 0;
    while (i < nkinds && kinds[i].len == 0) i++;
    if (i == nkinds) {
        EXPECT(st == RK_ERR_EMPTY, "drain of an empty pool: %s", rk_status_name(st));
        return 0;
    }
    uintptr_t oldest = model_pop_oldest(&kinds[i]);
    EXPECT(st == RK_OK && kind == i && handle == oldest,
           "drain: %s kind %u handle %llu, model %zu %llu", rk_status_name(st), kind,
           (unsigned long long)handle, i, (unsigned long long)oldest);
    return 1;
}

static void op_queries(input *in, const rk_reuse_pool *p) {
    rk_reuse_kind kind = pick_kind(in);
    if (kind < nkinds) return; /* known kinds are compared after every step */
    EXPECT(rk_reuse_pool_identifier(p, kind) == NULL, "identifier of unknown kind %u", kind);
    EXPECT(rk_reuse_pool_count(p, kind) == 0, "count of unknown kind %u", kind);
    EXPECT(rk_reuse_pool_capacity(p, kind) == 0, "capacity of unknown kind %u", kind);
}

/* Calls with NULL arguments: each fails with RK_ERR_ARG and changes nothing. */
static void op_bad_call(input *in, rk_reuse_pool *p) {
    rk_reuse_kind kind = nkinds ? pick_kind(in) % (rk_reuse_kind)nkinds : 0;
    rk_reuse_kind out_kind;
    uintptr_t handle;
    int evicted;
    rk_status st;
    switch (next_u8(in) % 9) {
    case 0: st = rk_reuse_pool_intern(p, NULL, &out_kind); break;
    case 1: st = rk_reuse_pool_intern(p, "cell", NULL); break;
    case 2: st = rk_reuse_pool_intern(NULL, "cell", &out_kind); break;
    case 3: st = rk_reuse_pool_put(p, kind, 1, NULL, &handle); break;
    case 4: st = rk_reuse_pool_put(p, kind, 1, &evicted, NULL); break;
    case 5: st = rk_reuse_pool_take(p, kind, NULL); break;
    case 6: st = rk_reuse_pool_trim(p, kind, NULL); break;
    case 7: st = rk_reuse_pool_drain(p, &out_kind, NULL); break;
    default: st = rk_reuse_pool_create(4, NULL); break;
    }
    EXPECT(st == RK_ERR_ARG, "NULL argument: %s", rk_status_name(st));
}

/*
 * An intern of a new name or a put with the n-th next allocation (and every later one) failing:
 * it succeeds (the model follows) or fails with RK_ERR_NOMEM and leaves the pool as it was.
 */
static void op_alloc_failure(input *in, rk_reuse_pool *p) {
    long fail_after = next_u8(in) % 6;
    int intern = next_u8(in) % 2;
    char name[MAX_NAME + 1];
    rk_reuse_kind kind = 0;
    if (intern) pick_name(in, name);
    else kind = pick_kind(in);
    if (rk_debug_fail_alloc_after(fail_after) != RK_OK) abort(); /* built without the hook */
    if (intern) do_intern(p, name, 1);
    else do_put(p, kind, 1);
    rk_debug_fail_alloc_after(-1);
}

/* Drains everything (checking the order), destroys the pool and creates a new one. */
static void op_recreate(input *in, rk_reuse_pool **p) {
    while (drain_one(*p)) {
    }
    compare(*p);
    rk_reuse_pool_destroy(*p);
    *p = NULL;
    nkinds = 0;
    counters = (rk_reuse_counters){0, 0, 0};
    default_capacity = pick_capacity(in);
    rk_reuse_pool *fresh = NULL;
    if (next_u8(in) % 4 == 0) { /* a failing create leaves its output alone */
        rk_debug_fail_alloc_after(0);
        rk_status st = rk_reuse_pool_create(default_capacity, &fresh);
        rk_debug_fail_alloc_after(-1);
        EXPECT(st == RK_ERR_NOMEM && fresh == NULL, "create under failing allocation: %s",
               rk_status_name(st));
    }
    if (rk_reuse_pool_create(default_capacity, &fresh) != RK_OK) abort();
    *p = fresh;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Once per process, since it is too slow for every input: a pool takes exactly RK_REUSE_MAX_KINDS
 * kinds, refuses the next new one with RK_ERR_OVERFLOW (leaving the pool as it was) and still
 * finds the ones it has.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    rk_reuse_pool *p = NULL;
    if (rk_reuse_pool_create(1, &p) != RK_OK) abort();
    char name[32];
    rk_reuse_kind kind;
    for (uint32_t i = 0; i < RK_REUSE_MAX_KINDS; i++) {
        snprintf(name, sizeof name, "k%u", i);
        EXPECT(rk_reuse_pool_intern(p, name, &kind) == RK_OK && kind == i, "intern kind %u", i);
    }
    kind = 0xdeadbeef;
    rk_status st = rk_reuse_pool_intern(p, "one too many", &kind);
    EXPECT(st == RK_ERR_OVERFLOW && kind == 0xdeadbeef, "kind beyond the maximum: %s",
           rk_status_name(st));
    EXPECT(rk_reuse_pool_kind_count(p) == RK_REUSE_MAX_KINDS, "kind count after overflow");
    EXPECT(rk_reuse_pool_intern(p, "k65535", &kind) == RK_OK && kind == RK_REUSE_MAX_KINDS - 1,
           "a known name after overflow");
    EXPECT(rk_reuse_pool_check(p, NULL) == RK_OK, "check after overflow");
    rk_reuse_pool_destroy(p);
    return 0;
}


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    input in = {data, size};
    rk_debug_fail_alloc_after(-1);
    nkinds = 0;
    counters = (rk_reuse_counters){0, 0, 0};
    next_handle = 0;
    step_number = 0;
    default_capacity = pick_capacity(&in);
    rk_reuse_pool *p = NULL;
    if (rk_reuse_pool_create(default_capacity, &p) != RK_OK) abort();
    while (in.n > 0 && step_number < MAX_STEPS) {
        step_number++;
        uint8_t op = next_u8(&in);
        switch (op % 16) {
        case 0: case 1: {
            char name[MAX_NAME + 1];
            pick_name(&in, name);
            do_intern(p, name, 0);
            break;
        }
        case 2: { /* many numbered kinds at once: grows the kinds array and the hash table */
            size_t n = next_u8(&in) % 64;
            char name[MAX_NAME + 1];
            for (size_t i = 0; i < n; i++) {
                snprintf(name, sizeof name, "bulk-%zu", i);
                do_intern(p, name, 0);
            }
            break;
        }
        case 3: case 4: case 5: case 6: do_put(p, pick_kind(&in), 0); break;
        case 7: case 8: case 9: op_take(&in, p); break;
        case 10: op_set_capacity(&in, p); break;
        case 11: op_trim(&in, p); break;
        case 12: drain_one(p); break;
        case 13: op_queries(&in, p); op_bad_call(&in, p); break;
        case 14: op_alloc_failure(&in, p); break;
        default: op_recreate(&in, &p); break;
        }
        compare(p);
    }
    while (drain_one(p)) {
    }
    compare(p);
    rk_reuse_pool_destroy(p);
    return 0;
}
