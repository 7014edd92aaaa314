/* rk_reference.c: the benchmark's reference structures (see rk_reference.h). */
#include "rk_reference.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Largest power of two <= n (n > 0). */
static size_t high_bit(size_t n) {
    size_t b = 1;
    while (b <= n / 2) b <<= 1;
    return b;
}

/* ---------------------------------------------------------------- Fenwick tree */

struct rkref_fenwick {
    double *t;      /* t[1..n]: t[k] = sum of heights (k - lowbit(k), k] (1-based) */
    double *h;      /* h[0..<n]: the heights, for set's delta */
    size_t n;
    size_t cap;
};

rkref_fenwick *rkref_fenwick_create(void) { return calloc(1, sizeof(rkref_fenwick)); }

void rkref_fenwick_destroy(rkref_fenwick *f) {
    if (!f) return;
    free(f->t);
    free(f->h);
    free(f);
}

int rkref_fenwick_build(rkref_fenwick *f, const double *heights, size_t n) {
    if (n > f->cap) {
        free(f->t);
        free(f->h);
        f->t = malloc((n + 1) * sizeof(double));
        f->h = malloc((n ? n : 1) * sizeof(double));
        f->n = f->cap = 0;
        if (!f->t || !f->h) return -1;
        f->cap = n;
    }
    f->n = n;
    if (!f->t) return 0;
    double *t = f->t;
    t[0] = 0.0;
    memcpy(f->h, heights, n * sizeof(double));
    memcpy(t + 1, heights, n * sizeof(double));
    for (size_t k = 1; k <= n; k++) {
        size_t parent = k + (k & (~k + 1));
        if (parent <= n) t[parent] += t[k];
    }
    return 0;
}

size_t rkref_fenwick_count(const rkref_fenwick *f) { return f->n; }

double rkref_fenwick_prefix(const rkref_fenwick *f, size_t i) {
    double s = 0.0;
    for (; i > 0; i &= i - 1) s += f->t[i];
    return s;
}

size_t rkref_fenwick_find(const rkref_fenwick *f, double y) {
    if (f->n == 0) return 0;
    size_t pos = 0;
    for (size_t step = high_bit(f->n); step > 0; step >>= 1) {
        size_t next = pos + step;
        if (next <= f->n && f->t[next] <= y) {
            pos = next;
            y -= f->t[next];
        }
    }
    return pos;
}

void rkref_fenwick_set(rkref_fenwick *f, size_t i, double height) {
    double delta = height - f->h[i];
    f->h[i] = height;
    for (size_t k = i + 1; k <= f->n; k += k & (~k + 1)) f->t[k] += delta;
}

size_t rkref_fenwick_bytes(const rkref_fenwick *f) {
    return sizeof(*f) + (f->cap ? (2 * f->cap + 1) * sizeof(double) : 0);
}

/* ---------------------------------------------------------------- chunked array */

typedef struct rkref_chunk {
    size_t n;
    double sum; /* the chunk's height sum, kept by adding deltas like the Fenwick trees */
    double h[RKREF_CHUNK];
} rkref_chunk;

struct rkref_chunked {
    rkref_chunk **chunks; /* in order, `nchunks` of `cap` */
    size_t nchunks;
    size_t cap;
    size_t *cnt;          /* Fenwick tree of chunk counts, 1-based, cap + 1 entries */
    double *sum;          /* Fenwick tree of chunk sums, 1-based */
    size_t count;
};

rkref_chunked *rkref_chunked_create(void) { return calloc(1, sizeof(rkref_chunked)); }

static void chunked_clear(rkref_chunked *c) {
    for (size_t k = 0; k < c->nchunks; k++) free(c->chunks[k]);
    c->nchunks = 0;
    c->count = 0;
}

void rkref_chunked_destroy(rkref_chunked *c) {
    if (!c) return;
    chunked_clear(c);
    free(c->chunks);
    free(c->cnt);
    free(c->sum);
    free(c);
}

/* Makes room for `need` chunks (the chunk array and both Fenwick arrays). */
static int chunked_reserve(rkref_chunked *c, size_t need) {
    if (need <= c->cap) return 0;
    size_t cap = c->cap ? c->cap : 16;
    while (cap < need) cap *= 2;
    rkref_chunk **chunks = realloc(c->chunks, cap * sizeof(*chunks));
    if (!chunks) return -1;
    c->chunks = chunks;
    size_t *cnt = realloc(c->cnt, (cap + 1) * sizeof(*cnt));
    if (!cnt) return -1;
    c->cnt = cnt;
    double *sum = realloc(c->sum, (cap + 1) * sizeof(*sum));
    if (!sum) return -1;
    c->sum = sum;
    c->cap = cap;
    return 0;
}

static double chunk_sum(const rkref_chunk *ch) {
    double s = 0.0;
    for (size_t i = 0; i < ch->n; i++) s += ch->h[i];
    return s;
}

/* Rebuilds both Fenwick trees from the chunks' counts and sums, O(c). */
static void chunked_refresh(rkref_chunked *c) {
    size_t n = c->nchunks;
    c->cnt[0] = 0;
    c->sum[0] = 0.0;
    for (size_t k = 1; k <= n; k++) {
        c->cnt[k] = c->chunks[k - 1]->n;
        c->sum[k] = c->chunks[k - 1]->sum;
    }
    for (size_t k = 1; k <= n; k++) {
        size_t parent = k + (k & (~k + 1));
        if (parent <= n) {
            c->cnt[parent] += c->cnt[k];
            c->sum[parent] += c->sum[k];
        }
    }
}

int rkref_chunked_build(rkref_chunked *c, const double *heights, size_t n) {
    chunked_clear(c);
    size_t chunks = (n + RKREF_CHUNK_FILL - 1) / RKREF_CHUNK_FILL;
    if (chunked_reserve(c, chunks) != 0) return -1;
    for (size_t k = 0; k < chunks; k++) {
        rkref_chunk *ch = malloc(sizeof(rkref_chunk));
        if (!ch) {
            chunked_clear(c);
            return -1;
        }
        size_t from = k * RKREF_CHUNK_FILL, len = n - from < RKREF_CHUNK_FILL ? n - from : RKREF_CHUNK_FILL;
        ch->n = len;
        memcpy(ch->h, heights + from, len * sizeof(double));
        ch->sum = chunk_sum(ch);
        c->chunks[c->nchunks++] = ch;
    }
    c->count = n;
    chunked_refresh(c);
    return 0;
}

size_t rkref_chunked_count(const rkref_chunked *c) { return c->count; }

/* The chunk holding item i (i < count), and i's position in it: a Fenwick descent on counts. */
static size_t chunked_locate(const rkref_chunked *c, size_t i, size_t *local) {
    size_t pos = 0;
    for (size_t step = high_bit(c->nchunks); step > 0; step >>= 1) {
        size_t next = pos + step;
        if (next <= c->nchunks && c->cnt[next] <= i) {
            pos = next;
            i -= c->cnt[next];
        }
    }
    *local = i;
    return pos;
}

double rkref_chunked_prefix(const rkref_chunked *c, size_t i) {
    if (i == 0 || c->count == 0) return 0.0;
    size_t local, k = chunked_locate(c, i - 1, &local);
    double s = 0.0;
    for (size_t q = k; q > 0; q &= q - 1) s += c->sum[q];
    const rkref_chunk *ch = c->chunks[k];
    for (size_t j = 0; j <= local; j++) s += ch->h[j];
    return s;
}

static void fenwick_add(rkref_chunked *c, size_t k, long dn, double dh) {
    for (size_t q = k + 1; q <= c->nchunks; q += q & (~q + 1)) {
        c->cnt[q] += (size_t)dn;
        c->sum[q] += dh;
    }
}

int rkref_chunked_insert(rkref_chunked *c, size_t at, double height) {
    if (c->nchunks == 0) {
        rkref_chunk *ch = malloc(sizeof(rkref_chunk));
        if (!ch || chunked_reserve(c, 1) != 0) {
            free(ch);
            return -1;
        }
        ch->n = 0;
        ch->sum = 0.0;
        c->chunks[c->nchunks++] = ch;
        chunked_refresh(c);
    }
    size_t k, local;
    if (at == c->count) {
        k = c->nchunks - 1;
        local = c->chunks[k]->n;
    } else {
        k = chunked_locate(c, at, &local);
    }
    rkref_chunk *ch = c->chunks[k];
    if (ch->n == RKREF_CHUNK) { /* split the full chunk in two halves */
        rkref_chunk *right = malloc(sizeof(rkref_chunk));
        if (!right || chunked_reserve(c, c->nchunks + 1) != 0) {
            free(right);
            return -1;
        }
        size_t half = RKREF_CHUNK / 2;
        right->n = RKREF_CHUNK - half;
        memcpy(right->h, ch->h + half, right->n * sizeof(double));
        ch->n = half;
        ch->sum = chunk_sum(ch);
        right->sum = chunk_sum(right);
        memmove(c->chunks + k + 2, c->chunks + k + 1, (c->nchunks - k - 1) * sizeof(*c->chunks));
        c->chunks[k + 1] = right;
        c->nchunks++;
        chunked_refresh(c);
        if (local > half) {
            local -= half;
            k++;
            ch = right;
        }
    }
    memmove(ch->h + local + 1, ch->h + local, (ch->n - local) * sizeof(double));
    ch->h[local] = height;
    ch->n++;
    ch->sum += height;
    c->count++;
    fenwick_add(c, k, 1, height);
    return 0;
}

void rkref_chunked_remove(rkref_chunked *c, size_t at) {
    size_t local, k = chunked_locate(c, at, &local);
    rkref_chunk *ch = c->chunks[k];
    double height = ch->h[local];
    memmove(ch->h + local, ch->h + local + 1, (ch->n - local - 1) * sizeof(double));
    ch->n--;
    ch->sum -= height;
    c->count--;
    if (ch->n == 0) { /* drop the empty chunk */
        free(ch);
        memmove(c->chunks + k, c->chunks + k + 1, (c->nchunks - k - 1) * sizeof(*c->chunks));
        c->nchunks--;
        chunked_refresh(c);
        return;
    }
    fenwick_add(c, k, -1, -height);
}
