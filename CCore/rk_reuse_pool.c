/*
 * rk_reuse_pool.c: interned reuse kinds, each with a LIFO ring buffer of handles that evicts its
 * oldest handle when full.
 */
#include <stdlib.h>
#include <string.h>

#include "rk_internal.h"

static uint64_t hash_string(const char *s) { /* FNV-1a */
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

rk_status rk_reuse_pool_create(size_t default_capacity, rk_reuse_pool **out) {
    if (!out) return RK_ERR_ARG;
    rk_reuse_pool *p = rk_alloc(sizeof(rk_reuse_pool));
    if (!p) return RK_ERR_NOMEM;
    memset(p, 0, sizeof(*p));
    p->default_capacity = default_capacity;
    *out = p;
    return RK_OK;
}

void rk_reuse_pool_destroy(rk_reuse_pool *p) {
    if (!p) return;
    for (size_t i = 0; i < p->nkinds; i++) {
        rk_free(p->kinds[i].ring);
        rk_free(p->kinds[i].name);
    }
    rk_free(p->kinds);
    rk_free(p->table);
    rk_free(p);
}

/* Returns the table slot holding `name`, or the empty slot where it would go. */
static size_t find_slot(const uint32_t *table, size_t cap, const rk_reuse_queue *kinds,
                        const char *name, uint64_t hash) {
    size_t mask = cap - 1, i = (size_t)hash & mask;
    while (table[i] != 0) {
        const rk_reuse_queue *q = &kinds[table[i] - 1];
        if (q->hash == hash && strcmp(q->name, name) == 0) return i;
        i = (i + 1) & mask;
    }
    return i;
}

rk_status rk_reuse_pool_intern(rk_reuse_pool *p, const char *identifier, rk_reuse_kind *kind) {
    if (!p || !identifier || !kind) return RK_ERR_ARG;
    uint64_t hash = hash_string(identifier);
    if (p->table_cap > 0) {
        size_t slot = find_slot(p->table, p->table_cap, p->kinds, identifier, hash);
        if (p->table[slot] != 0) {
            *kind = p->table[slot] - 1;
            return RK_OK;
        }
    }
    if (p->nkinds >= RK_REUSE_MAX_KINDS) return RK_ERR_OVERFLOW;
    /* allocate everything first: name copy, a larger kinds array, a larger table */
    size_t len = strlen(identifier);
    char *name = rk_alloc(len + 1);
    if (!name) return RK_ERR_NOMEM;
    memcpy(name, identifier, len + 1);
    rk_reuse_queue *kinds = p->kinds;
    size_t kinds_cap = p->kinds_cap;
    if (p->nkinds == kinds_cap) {
        kinds_cap = kinds_cap ? kinds_cap * 2 : 8;
        kinds = rk_alloc(kinds_cap * sizeof(rk_reuse_queue));
        if (!kinds) {
            rk_free(name);
            return RK_ERR_NOMEM;
        }
        if (p->nkinds) memcpy(kinds, p->kinds, p->nkinds * sizeof(rk_reuse_queue));
    }
    uint32_t *table = p->table;
    size_t table_cap = p->table_cap;
    if ((p->nkinds + 1) * 2 > table_cap) { /* keep the load factor <= 1/2 */
        table_cap = table_cap ? table_cap * 2 : 16;
        table = rk_alloc(table_cap * sizeof(uint32_t));
        if (!table) {
            if (kinds != p->kinds) rk_free(kinds);
            rk_free(name);
            return RK_ERR_NOMEM;
        }
        memset(table, 0, table_cap * sizeof(uint32_t));
        for (size_t i = 0; i < p->nkinds; i++) {
            size_t slot = find_slot(table, table_cap, kinds, kinds[i].name, kinds[i].hash);
            table[slot] = (uint32_t)i + 1;
        }
    }
    /* commit */
    if (kinds != p->kinds) {
        rk_free(p->kinds);
        p->kinds = kinds;
        p->kinds_cap = kinds_cap;
    }
    if (table != p->table) {
        rk_free(p->table);
        p->table = table;
        p->table_cap = table_cap;
    }
    rk_reuse_queue *q = &p->kinds[p->nkinds];
    memset(q, 0, sizeof(*q));
    q->name = name;
    q->hash = hash;
    q->capacity = p->default_capacity;
    size_t slot = find_slot(p->table, p->table_cap, p->kinds, name, hash);
    p->table[slot] = (uint32_t)p->nkinds + 1;
    *kind = (rk_reuse_kind)p->nkinds;
    p->nkinds++;
    return RK_OK;
}

size_t rk_reuse_pool_kind_count(const rk_reuse_pool *p) { return p->nkinds; }

const char *rk_reuse_pool_identifier(const rk_reuse_pool *p, rk_reuse_kind kind) {
    return kind < p->nkinds ? p->kinds[kind].name : NULL;
}

/* Removes and returns the oldest handle of a non-empty queue. */
static uintptr_t pop_oldest(rk_reuse_queue *q) {
    uintptr_t h = q->ring[q->head];
    q->head = (q->head + 1) % q->ring_cap;
    q->len--;
    return h;
}

rk_status rk_reuse_pool_put(rk_reuse_pool *p, rk_reuse_kind kind, uintptr_t handle, int *evicted,
                            uintptr_t *evicted_handle) {
    if (!p || !evicted || !evicted_handle) return RK_ERR_ARG;
    if (kind >= p->nkinds) return RK_ERR_RANGE;
    rk_reuse_queue *q = &p->kinds[kind];
    if (q->capacity == 0) {
        *evicted = 1;
        *evicted_handle = handle;
        p->counters.evictions++;
        return RK_OK;
    }
    if (q->len >= q->capacity) { /* full (or over a lowered capacity): evict the oldest */
        uintptr_t old = pop_oldest(q);
        q->ring[(q->head + q->len) % q->ring_cap] = handle;
        q->len++;
        *evicted = 1;
        *evicted_handle = old;
        p->counters.evictions++;
        return RK_OK;
    }
    if (q->len == q->ring_cap) { /* grow the ring by doubling, up to the capacity */
        size_t cap = q->ring_cap ? q->ring_cap * 2 : 4;
        if (cap > q->capacity) cap = q->capacity;
        if (cap > SIZE_MAX / sizeof(uintptr_t)) return RK_ERR_NOMEM; /* a 32-bit size_t wraps */
        uintptr_t *ring = rk_alloc(cap * sizeof(uintptr_t));
        if (!ring) return RK_ERR_NOMEM;
        for (size_t i = 0; i < q->len; i++) ring[i] = q->ring[(q->head + i) % q->ring_cap];
        rk_free(q->ring);
        q->ring = ring;
        q->ring_cap = cap;
        q->head = 0;
    }
    q->ring[(q->head + q->len) % q->ring_cap] = handle;
    q->len++;
    *evicted = 0;
    return RK_OK;
}

rk_status rk_reuse_pool_take(rk_reuse_pool *p, rk_reuse_kind kind, uintptr_t *handle) {
    if (!p || !handle) return RK_ERR_ARG;
    if (kind >= p->nkinds) return RK_ERR_RANGE;
    rk_reuse_queue *q = &p->kinds[kind];
    if (q->len == 0) {
        p->counters.misses++;
        return RK_ERR_EMPTY;
    }
    q->len--;
    *handle = q->ring[(q->head + q->len) % q->ring_cap];
    p->counters.hits++;
    return RK_OK;
}

size_t rk_reuse_pool_count(const rk_reuse_pool *p, rk_reuse_kind kind) {
    return kind < p->nkinds ? p->kinds[kind].len : 0;
}

size_t rk_reuse_pool_capacity(const rk_reuse_pool *p, rk_reuse_kind kind) {
    return kind < p->nkinds ? p->kinds[kind].capacity : 0;
}

rk_status rk_reuse_pool_set_capacity(rk_reuse_pool *p, rk_reuse_kind kind, size_t capacity) {
    if (!p) return RK_ERR_ARG;
    if (kind >= p->nkinds) return RK_ERR_RANGE;
    p->kinds[kind].capacity = capacity;
    return RK_OK;
}

rk_status rk_reuse_pool_trim(rk_reuse_pool *p, rk_reuse_kind kind, uintptr_t *handle) {
    if (!p || !handle) return RK_ERR_ARG;
    if (kind >= p->nkinds) return RK_ERR_RANGE;
    rk_reuse_queue *q = &p->kinds[kind];
    if (q->len <= q->capacity) return RK_ERR_EMPTY;
    *handle = pop_oldest(q);
    p->counters.evictions++;
    return RK_OK;
}

rk_status rk_reuse_pool_drain(rk_reuse_pool *p, rk_reuse_kind *kind, uintptr_t *handle) {
    if (!p || !kind || !handle) return RK_ERR_ARG;
    for (size_t i = 0; i < p->nkinds; i++) {
        rk_reuse_queue *q = &p->kinds[i];
        if (q->len > 0) {
            *kind = (rk_reuse_kind)i;
            *handle = pop_oldest(q);
            return RK_OK;
        }
    }
    return RK_ERR_EMPTY;
}

rk_reuse_counters rk_reuse_pool_counters(const rk_reuse_pool *p) { return p->counters; }

rk_status rk_reuse_pool_check(const rk_reuse_pool *p, const char **message) {
#ifdef RK_INTERNAL_CHECKS
    const char *msg = NULL;
    if (!p) msg = "missing pool";
    if (!msg && p->nkinds > p->kinds_cap) msg = "more kinds than allocated";
    if (!msg && p->nkinds > 0 && p->table_cap < p->nkinds * 2) msg = "hash table overloaded";
    if (!msg && p->table_cap & (p->table_cap - 1)) msg = "hash table size not a power of two";
    size_t used = 0;
    for (size_t i = 0; !msg && i < p->table_cap; i++) {
        if (p->table[i] == 0) continue;
        used++;
        if (p->table[i] > p->nkinds) msg = "hash table names an unknown kind";
    }
    if (!msg && used != p->nkinds) msg = "hash table entry count differs from kind count";
    for (size_t i = 0; !msg && i < p->nkinds; i++) {
        const rk_reuse_queue *q = &p->kinds[i];
        if (!q->name || q->hash != hash_string(q->name)) msg = "kind name or hash corrupt";
        else if (p->table[find_slot(p->table, p->table_cap, p->kinds, q->name, q->hash)] != i + 1)
            msg = "kind not found under its own name";
        else if (q->len > q->ring_cap) msg = "queue longer than its ring";
        else if (q->ring_cap > 0 && q->head >= q->ring_cap) msg = "ring head out of bounds";
        else if ((q->ring_cap == 0) != (q->ring == NULL)) msg = "ring allocation inconsistent";
    }
    if (msg) {
        if (message) *message = msg;
        return RK_ERR_CORRUPT;
    }
    return RK_OK;
#else
    (void)p;
    if (message) *message = NULL;
    return RK_OK;
#endif
}
