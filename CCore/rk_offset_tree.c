/*
 * rk_offset_tree.c: the counted B+-tree behind rk_offset_tree.h.
 *
 * Layout: leaves are variable-capacity arrays of heights (capacity rounded up to RK_LEAF_STEP, so
 * memory per item stays near 8 bytes even in half-full leaves); inner nodes hold per child a
 * pointer, a height sum and an item count. All leaves are at the same depth.
 *
 * Sums: a cached sum is always recomputed from the level below (never adjusted by deltas): a leaf's
 * with sum_doubles, an inner node's as the left-to-right running sum of its child sums, which is
 * also its last height prefix (see rk_inner). So a cached sum or prefix is bit-identical to a fresh
 * summation of its children and the checker compares them exactly. Offsets are the sum of the
 * prefixes before the path's children plus the leaf's heights before the item, left to right;
 * offset and lookup compute them the same way, so they always agree.
 *
 * All-or-nothing edits: each edit first plans its structural changes, allocates every block it
 * needs (and scratch space), and only then mutates. Removal may merge leaves into a larger leaf;
 * it pre-allocates RK_REMOVE_RESERVE full leaves for that (at most two merges or redistributions
 * involve an underfull leaf, see fix_node).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rk_internal.h"

#define RK_REMOVE_RESERVE 2
#define RK_STACK_ENTRIES (2 * RK_FAN + 8)
#define RK_STACK_NODES 32

typedef struct rk_entry {
    void *ptr;
    double sum;
    size_t cnt;
} rk_entry;

typedef struct rk_path {
    rk_inner *node[RK_MAX_DEPTH];
    uint32_t idx[RK_MAX_DEPTH];
} rk_path;

/* ---------------------------------------------------------------- small helpers */

static size_t ceil_div(size_t a, size_t b) { return a / b + (a % b != 0); }

static uint32_t round_cap(size_t n) {
    size_t c = ceil_div(n, RK_LEAF_STEP) * RK_LEAF_STEP;
    return (uint32_t)(c == 0 ? RK_LEAF_STEP : c);
}

static int valid_height(double h) { return isfinite(h) && h >= 0.0; }

/* Sum with four independent accumulators: fast, and deterministic for a given array. */
static double sum_doubles(const double *a, size_t n) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        s0 += a[i];
        s1 += a[i + 1];
        s2 += a[i + 2];
        s3 += a[i + 3];
    }
    for (; i < n; i++) s0 += a[i];
    return (s0 + s1) + (s2 + s3);
}

static size_t leaf_bytes(uint32_t cap) {
    return sizeof(rk_leaf) + (size_t)cap * sizeof(double) + RK_MALLOC_OVERHEAD;
}

static size_t inner_bytes(void) { return sizeof(rk_inner) + RK_MALLOC_OVERHEAD; }

static rk_leaf *leaf_new(rk_offset_tree *t, uint32_t cap) {
    rk_leaf *l = rk_alloc(sizeof(rk_leaf) + (size_t)cap * sizeof(double));
    if (!l) return NULL;
    l->n = 0;
    l->cap = cap;
    t->bytes += leaf_bytes(cap);
    return l;
}

static void leaf_delete(rk_offset_tree *t, rk_leaf *l) {
    t->bytes -= leaf_bytes(l->cap);
    rk_free(l);
}

static rk_inner *inner_new(rk_offset_tree *t) {
    rk_inner *n = rk_alloc(sizeof(rk_inner));
    if (!n) return NULL;
    n->n = 0;
    n->reserved = 0;
    t->bytes += inner_bytes();
    return n;
}

static void inner_delete(rk_offset_tree *t, rk_inner *n) {
    t->bytes -= inner_bytes();
    rk_free(n);
}

static void free_subtree(rk_offset_tree *t, void *node, unsigned height) {
    if (height == 0) {
        leaf_delete(t, node);
        return;
    }
    rk_inner *nd = node;
    for (uint32_t i = 0; i < nd->n; i++) free_subtree(t, nd->child[i], height - 1);
    inner_delete(t, nd);
}

static rk_entry leaf_entry(rk_leaf *l) {
    rk_entry e = {l, sum_doubles(l->h, l->n), l->n};
    return e;
}

/* Recomputes the prefixes end[from..] and cend[from..] of `nd` from its sums and counts. */
static void refresh_prefixes(rk_inner *nd, uint32_t from) {
    double s = from ? nd->end[from - 1] : 0.0;
    size_t c = from ? nd->cend[from - 1] : 0;
    for (uint32_t j = from; j < nd->n; j++) {
        s += nd->sum[j];
        c += nd->cnt[j];
        nd->end[j] = s;
        nd->cend[j] = c;
    }
}

/* The node's entry for its parent, after recomputing all of its prefixes (call after any edit). */
static rk_entry inner_entry(rk_inner *nd) {
    refresh_prefixes(nd, 0);
    rk_entry e = {nd, nd->n ? nd->end[nd->n - 1] : 0.0, nd->n ? nd->cend[nd->n - 1] : 0};
    return e;
}

/* First child j < n - 1 whose prefix count exceeds i (the last child when none does). */
static uint32_t child_for_index(const rk_inner *nd, size_t i) {
    uint32_t j = 0, last = nd->n - 1;
    while (j < last && i >= nd->cend[j]) j++;
    return j;
}

static void set_entry(rk_inner *nd, uint32_t i, rk_entry e) {
    nd->child[i] = e.ptr;
    nd->sum[i] = e.sum;
    nd->cnt[i] = e.cnt;
}

static rk_entry get_entry(const rk_inner *nd, uint32_t i) {
    rk_entry e = {nd->child[i], nd->sum[i], nd->cnt[i]};
    return e;
}

static void move_entries(rk_inner *dst, uint32_t di, rk_inner *src, uint32_t si, uint32_t n) {
    memmove(&dst->child[di], &src->child[si], n * sizeof(void *));
    memmove(&dst->sum[di], &src->sum[si], n * sizeof(double));
    memmove(&dst->cnt[di], &src->cnt[si], n * sizeof(size_t));
}

/*
 * Descends to the leaf holding position `i` (i <= count; i == count lands at the end of the last
 * leaf) and records the path. Returns the leaf; `*local` is the position inside it.
 */
static rk_leaf *descend(const rk_offset_tree *t, size_t i, rk_path *p, size_t *local) {
    void *node = t->root;
    for (unsigned d = 0; d < t->depth; d++) {
        rk_inner *nd = node;
        uint32_t j = child_for_index(nd, i);
        if (j) i -= nd->cend[j - 1];
        p->node[d] = nd;
        p->idx[d] = j;
        node = nd->child[j];
    }
    *local = i;
    return node;
}

/* Stores `e` as the child on the path at level depth-1 and recomputes every entry above it. */
static void fix_path(rk_offset_tree *t, const rk_path *p, rk_entry e) {
    for (unsigned d = t->depth; d-- > 0;) {
        rk_inner *nd = p->node[d];
        set_entry(nd, p->idx[d], e);
        e = inner_entry(nd);
    }
    t->root = e.ptr;
    t->total = e.sum;
    t->count = e.cnt;
}

/* ---------------------------------------------------------------- build */

/* The heights of a tree being built from up to three concatenated segments. */
typedef struct rk_segments {
    const double *seg[3];
    size_t len[3];
} rk_segments;

/* Copies items [from, from + n) of the concatenation into dst (normalizing -0.0 to +0.0). */
static void copy_segments(const rk_segments *s, size_t from, size_t n, double *dst) {
    for (int k = 0; k < 3 && n > 0; k++) {
        if (from >= s->len[k]) {
            from -= s->len[k];
            continue;
        }
        size_t take = s->len[k] - from;
        if (take > n) take = n;
        const double *src = s->seg[k] + from;
        for (size_t i = 0; i < take; i++) dst[i] = src[i] + 0.0;
        dst += take;
        n -= take;
        from = 0;
    }
}

/* Number of nodes `total` items or children are split into when building with fill `fill`. */
static size_t pieces_for(size_t total, size_t max, size_t fill) {
    return total <= max ? 1 : ceil_div(total, fill);
}

/*
 * Builds a fresh tree of the concatenated segments (n items) into `t` (root, depth, count, total,
 * bytes are set; `t->bytes` must start at its current value and is increased). Allocates
 * everything first; on RK_ERR_NOMEM nothing is left allocated and `t` is untouched.
 */
static rk_status build_nodes(rk_offset_tree *t, const rk_segments *s, size_t n) {
    size_t nleaves = pieces_for(n, RK_LEAF_MAX, RK_LEAF_FILL);
    size_t ninner = 0;
    unsigned depth = 0;
    for (size_t m = nleaves; m > 1; depth++) {
        m = pieces_for(m, RK_FAN, RK_INNER_FILL);
        ninner += m;
    }
    size_t nblocks = nleaves + ninner;
    void **blocks = rk_alloc(nblocks * sizeof(void *));
    rk_entry *entries = rk_alloc(nleaves * sizeof(rk_entry));
    if (!blocks || !entries) {
        rk_free(blocks);
        rk_free(entries);
        return RK_ERR_NOMEM;
    }
    /* Each leaf is filled right after its allocation, while its memory is hot in the cache (the
     * tree in `t` is not touched until everything is allocated, so a failure just frees). */
    size_t saved_bytes = t->bytes;
    size_t made = 0, from = 0;
    for (size_t q = 0; q < nleaves; q++, made++) {
        size_t len = n / nleaves + (q < n % nleaves);
        rk_leaf *l = leaf_new(t, round_cap(len));
        if (!(blocks[made] = l)) break;
        copy_segments(s, from, len, l->h);
        l->n = (uint32_t)len;
        from += len;
        entries[q] = leaf_entry(l);
    }
    for (size_t q = 0; made == q + nleaves && q < ninner; q++, made++) {
        if (!(blocks[made] = inner_new(t))) break;
    }
    if (made < nblocks) {
        for (size_t q = 0; q < made; q++) rk_free(blocks[q]);
        t->bytes = saved_bytes;
        rk_free(blocks);
        rk_free(entries);
        return RK_ERR_NOMEM;
    }
    size_t next = nleaves;
    for (size_t m = nleaves; m > 1;) {
        size_t mm = pieces_for(m, RK_FAN, RK_INNER_FILL);
        size_t start = 0;
        for (size_t q = 0; q < mm; q++) {
            rk_inner *nd = blocks[next++];
            size_t len = m / mm + (q < m % mm);
            for (size_t i = 0; i < len; i++) set_entry(nd, (uint32_t)i, entries[start + i]);
            nd->n = (uint32_t)len;
            start += len;
            entries[q] = inner_entry(nd);
        }
        m = mm;
    }
    t->root = entries[0].ptr;
    t->depth = depth;
    t->count = entries[0].cnt;
    t->total = entries[0].sum;
    rk_free(blocks);
    rk_free(entries);
    return RK_OK;
}

static rk_status validate(const double *h, size_t k, size_t *bad_index) {
    /* Branch-free first pass (vectorizes): NaN, infinities and negatives all fail the test. */
    int ok = 1;
    for (size_t i = 0; i < k; i++) ok &= (h[i] >= 0.0) & (h[i] <= DBL_MAX);
    if (ok) return RK_OK;
    for (size_t i = 0; i < k; i++) {
        if (!valid_height(h[i])) {
            if (bad_index) *bad_index = i;
            return RK_ERR_HEIGHT;
        }
    }
    return RK_OK;
}

rk_status rk_offset_tree_create(rk_offset_tree **out) {
    return rk_offset_tree_build(NULL, 0, out, NULL);
}

rk_status rk_offset_tree_build(const double *heights, size_t n, rk_offset_tree **out,
                               size_t *bad_index) {
    if (!out || (!heights && n > 0)) return RK_ERR_ARG;
    if (n > RK_OFFSET_TREE_MAX_COUNT) return RK_ERR_OVERFLOW;
    rk_status st = validate(heights, n, bad_index);
    if (st != RK_OK) return st;
    rk_offset_tree *t = rk_alloc(sizeof(rk_offset_tree));
    if (!t) return RK_ERR_NOMEM;
    t->bytes = sizeof(rk_offset_tree) + RK_MALLOC_OVERHEAD;
    rk_segments s = {{heights, NULL, NULL}, {n, 0, 0}};
    st = build_nodes(t, &s, n);
    if (st != RK_OK) {
        rk_free(t);
        return st;
    }
    *out = t;
    return RK_OK;
}

void rk_offset_tree_destroy(rk_offset_tree *t) {
    if (!t) return;
    free_subtree(t, t->root, t->depth);
    rk_free(t);
}

/* ---------------------------------------------------------------- queries */

size_t rk_offset_tree_count(const rk_offset_tree *t) { return t->count; }

double rk_offset_tree_total(const rk_offset_tree *t) { return t->total; }

size_t rk_offset_tree_bytes(const rk_offset_tree *t) { return t->bytes; }

rk_status rk_offset_tree_height(const rk_offset_tree *t, size_t index, double *out) {
    if (index >= t->count) return RK_ERR_RANGE;
    rk_path p;
    size_t local;
    rk_leaf *l = descend(t, index, &p, &local);
    *out = l->h[local];
    return RK_OK;
}

rk_status rk_offset_tree_offset(const rk_offset_tree *t, size_t index, double *out) {
    if (index > t->count) return RK_ERR_RANGE;
    if (index == t->count) {
        *out = t->total;
        return RK_OK;
    }
    double acc = 0.0;
    void *node = t->root;
    for (unsigned d = 0; d < t->depth; d++) {
        rk_inner *nd = node;
        uint32_t j = child_for_index(nd, index);
        if (j) {
            index -= nd->cend[j - 1];
            acc += nd->end[j - 1];
        }
        node = nd->child[j];
    }
    rk_leaf *l = node;
    for (size_t i = 0; i < index; i++) acc += l->h[i];
    *out = acc;
    return RK_OK;
}

/*
 * Finds the item for offset y. With `closed_right` == 0 it is the positive-height item with
 * offset <= y < offset + height; with 1 it is the one with offset < y <= offset + height. A child's
 * offset is the node's offset plus end[j - 1], exactly as rk_offset_tree_offset computes it. The
 * first child whose end passes y is never an empty one (its end exceeds the previous end, and
 * y >= the node's offset, strictly for closed_right, holds on every level). When rounding leaves no
 * child ending past y inside a chosen subtree, the subtree's last positive child or item wins.
 * Requires total > 0.
 */
static size_t locate(const rk_offset_tree *t, double y, int closed_right) {
    double acc = 0.0;
    size_t base = 0;
    void *node = t->root;
    for (unsigned d = 0; d < t->depth; d++) {
        const rk_inner *nd = node;
        const double *end = nd->end;
        uint32_t n = nd->n, j = 0;
        if (closed_right) {
            while (j < n && y > acc + end[j]) j++;
        } else {
            while (j < n && y >= acc + end[j]) j++;
        }
        if (j == n) { /* rounding: the last child with a positive sum */
            j = n - 1;
            while (j > 0 && !(nd->sum[j] > 0.0)) j--;
        }
        if (j) {
            acc += end[j - 1];
            base += nd->cend[j - 1];
        }
        node = nd->child[j];
    }
    rk_leaf *l = node;
    size_t last = RK_NOT_FOUND;
    for (uint32_t i = 0; i < l->n; i++) {
        if (l->h[i] > 0.0) {
            double end = acc + l->h[i];
            if (closed_right ? y <= end : y < end) return base + i;
            last = base + i;
        }
        acc += l->h[i];
    }
    return last;
}

size_t rk_offset_tree_item_at(const rk_offset_tree *t, double y) {
    if (!(y >= 0.0) || !(y < t->total)) return RK_NOT_FOUND;
    return locate(t, y, 0);
}

void rk_offset_tree_range(const rk_offset_tree *t, double y0, double y1, size_t *first,
                          size_t *end) {
    *first = 0;
    *end = 0;
    /* max(y0, 0) < total, not y0 < total: a negative y0 on an all-zero tree (total 0, so nothing
     * intersects) must not reach locate, which requires total > 0. */
    double from = y0 > 0.0 ? y0 : 0.0;
    if (!(y0 < y1) || !(y1 > 0.0) || !(from < t->total)) return;
    size_t f = locate(t, from, 0);
    size_t l = locate(t, y1, 1);
    if (f == RK_NOT_FOUND || l == RK_NOT_FOUND) return;
    *first = f;
    *end = (l >= f ? l : f) + 1;
}

/* ---------------------------------------------------------------- set */

rk_status rk_offset_tree_set(rk_offset_tree *t, size_t index, double height) {
    if (index >= t->count) return RK_ERR_RANGE;
    if (!valid_height(height)) return RK_ERR_HEIGHT;
    rk_path p;
    size_t local;
    rk_leaf *l = descend(t, index, &p, &local);
    l->h[local] = height + 0.0;
    /* Counts are unchanged: recompute the leaf's sum, then on each node of the path the child's sum
     * and the height prefixes from that child on (the same values inner_entry would compute). */
    double s = sum_doubles(l->h, l->n);
    for (unsigned d = t->depth; d-- > 0;) {
        rk_inner *nd = p.node[d];
        uint32_t j = p.idx[d];
        nd->sum[j] = s;
        double e = j ? nd->end[j - 1] : 0.0;
        for (uint32_t q = j; q < nd->n; q++) {
            e += nd->sum[q];
            nd->end[q] = e;
        }
        s = e;
    }
    t->total = s;
    return RK_OK;
}

/* ---------------------------------------------------------------- bulk read and set */

/* Copies items [lo, hi) of the subtree `node` (`height` inner levels above its leaves, starting at
 * offset `acc`) to `h`, and their offsets to `off` unless it is NULL; lo < hi <= the subtree's
 * count. Visits only the children that overlap the range. The offsets are summed exactly as
 * rk_offset_tree_offset sums them: acc plus end[j - 1] on each level, then the leaf's heights from
 * its first item, left to right. */
static void read_rec(const void *node, unsigned height, double acc, size_t lo, size_t hi,
                     double *h, double *off) {
    if (height == 0) {
        const rk_leaf *l = node;
        memcpy(h, &l->h[lo], (hi - lo) * sizeof(double));
        if (!off) return;
        for (size_t i = 0; i < lo; i++) acc += l->h[i];
        for (size_t i = lo; i < hi; i++) {
            off[i - lo] = acc;
            acc += l->h[i];
        }
        return;
    }
    const rk_inner *nd = node;
    size_t start = 0;
    for (uint32_t j = 0; j < nd->n && start < hi; j++) {
        size_t end = nd->cend[j];
        if (end > lo) {
            size_t a = lo > start ? lo : start, b = hi < end ? hi : end;
            read_rec(nd->child[j], height - 1, j ? acc + nd->end[j - 1] : acc, a - start,
                     b - start, h, off);
            h += b - a;
            if (off) off += b - a;
        }
        start = end;
    }
}

rk_status rk_offset_tree_read(const rk_offset_tree *t, size_t first, size_t n, double *heights,
                              double *offsets) {
    if (first > t->count || n > t->count - first) return RK_ERR_RANGE;
    if (!heights && n > 0) return RK_ERR_ARG;
    if (n > 0) read_rec(t->root, t->depth, 0.0, first, first + n, heights, offsets);
    return RK_OK;
}

/* Writes `h` over items [lo, hi) of the subtree `node` and returns its new height sum. Counts are
 * unchanged; each touched leaf's sum is recomputed with sum_doubles and each touched node's height
 * prefixes from its first touched child on, exactly the values inner_entry would compute. */
static double set_rec(void *node, unsigned height, size_t lo, size_t hi, const double *h) {
    if (height == 0) {
        rk_leaf *l = node;
        for (size_t i = lo; i < hi; i++) l->h[i] = h[i - lo] + 0.0;
        return sum_doubles(l->h, l->n);
    }
    rk_inner *nd = node;
    size_t start = 0;
    uint32_t touched = nd->n;
    for (uint32_t j = 0; j < nd->n && start < hi; j++) {
        size_t end = nd->cend[j];
        if (end > lo) {
            size_t a = lo > start ? lo : start, b = hi < end ? hi : end;
            nd->sum[j] = set_rec(nd->child[j], height - 1, a - start, b - start, h + (a - lo));
            if (touched == nd->n) touched = j;
        }
        start = end;
    }
    double e = touched ? nd->end[touched - 1] : 0.0;
    for (uint32_t q = touched; q < nd->n; q++) {
        e += nd->sum[q];
        nd->end[q] = e;
    }
    return e;
}

rk_status rk_offset_tree_set_range(rk_offset_tree *t, size_t first, const double *h, size_t n,
                                   size_t *bad_index) {
    if (first > t->count || n > t->count - first) return RK_ERR_RANGE;
    if (!h && n > 0) return RK_ERR_ARG;
    rk_status st = validate(h, n, bad_index);
    if (st != RK_OK) return st;
    if (n > 0) t->total = set_rec(t->root, t->depth, first, first + n, h);
    return RK_OK;
}

/* ---------------------------------------------------------------- insert */

/* Rebuilds the whole tree with `h` inserted at `at`: used when k >= count, so O(n + k) = O(k). */
static rk_status insert_by_rebuild(rk_offset_tree *t, size_t at, const double *h, size_t k) {
    double *old = NULL;
    if (t->count > 0) {
        old = rk_alloc(t->count * sizeof(double));
        if (!old) return RK_ERR_NOMEM;
        for (size_t q = 0; q < t->count;) {
            /* walk the leaves in order through the index descent of their first item */
            rk_path p;
            size_t local;
            rk_leaf *l = descend(t, q, &p, &local);
            memcpy(old + q, l->h, l->n * sizeof(double));
            q += l->n;
        }
    }
    rk_offset_tree fresh = {NULL, 0, 0, 0.0, 0};
    rk_segments s = {{old, h, old ? old + at : NULL}, {at, k, t->count - at}};
    rk_status st = build_nodes(&fresh, &s, t->count + k);
    rk_free(old);
    if (st != RK_OK) return st;
    free_subtree(t, t->root, t->depth);
    t->root = fresh.root;
    t->depth = fresh.depth;
    t->count = fresh.count;
    t->total = fresh.total;
    t->bytes += fresh.bytes;
    return RK_OK;
}

rk_status rk_offset_tree_insert(rk_offset_tree *t, size_t at, const double *h, size_t k,
                                size_t *bad_index) {
    if (at > t->count) return RK_ERR_RANGE;
    if (k > RK_OFFSET_TREE_MAX_COUNT - t->count) return RK_ERR_OVERFLOW;
    if (k == 0) return RK_OK;
    if (!h) return RK_ERR_ARG;
    rk_status st = validate(h, k, bad_index);
    if (st != RK_OK) return st;
    if (k >= t->count) return insert_by_rebuild(t, at, h, k);

    rk_path p;
    size_t off;
    rk_leaf *leaf = descend(t, at, &p, &off);
    const unsigned depth = t->depth;
    const size_t total = leaf->n + k;

    /* ---- plan: how many pieces each level splits into */
    size_t pieces_at[RK_MAX_DEPTH + 1];
    size_t mleaf = pieces_for(total, RK_LEAF_MAX, RK_LEAF_FILL);
    size_t ninner = 0, max_list = 0, max_pieces = mleaf, mb = mleaf;
    for (unsigned d = depth; d-- > 0 && mb > 1;) {
        size_t tl = p.node[d]->n - 1 + mb;
        size_t ml = pieces_for(tl, RK_FAN, RK_INNER_FILL);
        pieces_at[d] = ml;
        ninner += ml - 1;
        if (tl > max_list) max_list = tl;
        if (ml > max_pieces) max_pieces = ml;
        mb = ml;
    }
    if (mb > 1) { /* the root splits: new levels on top */
        for (size_t m = mb; m > 1;) {
            size_t mm = pieces_for(m, RK_FAN, RK_INNER_FILL);
            ninner += mm;
            if (m > max_list) max_list = m;
            m = mm;
        }
    }
    size_t nleaves = mleaf > 1 ? mleaf : (total > leaf->cap ? 1 : 0);

    /* ---- allocate everything */
    void *nodes_stack[RK_STACK_NODES];
    rk_entry pieces_stack[RK_STACK_ENTRIES], list_stack[RK_STACK_ENTRIES];
    void **nodes = nodes_stack;
    rk_entry *pieces = pieces_stack, *list = list_stack;
    size_t nblocks = nleaves + ninner;
    int heap_scratch = nblocks > RK_STACK_NODES || max_pieces > RK_STACK_ENTRIES ||
                       max_list > RK_STACK_ENTRIES;
    if (heap_scratch) {
        nodes = rk_alloc(nblocks * sizeof(void *));
        pieces = rk_alloc(max_pieces * sizeof(rk_entry));
        list = rk_alloc((max_list ? max_list : 1) * sizeof(rk_entry));
        if (!nodes || !pieces || !list) {
            rk_free(nodes);
            rk_free(pieces);
            rk_free(list);
            return RK_ERR_NOMEM;
        }
    }
    size_t saved_bytes = t->bytes, made = 0;
    for (; made < nleaves; made++) {
        size_t len = mleaf > 1 ? total / mleaf + (made < total % mleaf) : total;
        if (!(nodes[made] = leaf_new(t, round_cap(len)))) break;
    }
    if (made == nleaves) {
        for (; made < nblocks; made++)
            if (!(nodes[made] = inner_new(t))) break;
    }
    if (made < nblocks) {
        for (size_t q = 0; q < made; q++) rk_free(nodes[q]);
        t->bytes = saved_bytes;
        if (heap_scratch) {
            rk_free(nodes);
            rk_free(pieces);
            rk_free(list);
        }
        return RK_ERR_NOMEM;
    }

    /* ---- commit: nothing below can fail */
    size_t next = 0;
    rk_segments s = {{leaf->h, h, leaf->h + off}, {off, k, leaf->n - off}};
    if (mleaf == 1) {
        rk_leaf *l = leaf;
        if (nleaves == 1) {
            l = nodes[next++];
            copy_segments(&s, 0, total, l->h);
            leaf_delete(t, leaf);
        } else {
            memmove(l->h + off + k, l->h + off, (l->n - off) * sizeof(double));
            for (size_t i = 0; i < k; i++) l->h[off + i] = h[i] + 0.0;
        }
        l->n = (uint32_t)total;
        pieces[0] = leaf_entry(l);
    } else {
        size_t from = 0;
        for (size_t q = 0; q < mleaf; q++) {
            rk_leaf *l = nodes[next++];
            size_t len = total / mleaf + (q < total % mleaf);
            copy_segments(&s, from, len, l->h);
            l->n = (uint32_t)len;
            from += len;
            pieces[q] = leaf_entry(l);
        }
        leaf_delete(t, leaf);
    }
    mb = mleaf;
    for (unsigned d = depth; d-- > 0;) {
        rk_inner *nd = p.node[d];
        uint32_t j = p.idx[d];
        if (mb == 1) {
            set_entry(nd, j, pieces[0]);
            pieces[0] = inner_entry(nd);
            continue;
        }
        size_t tl = nd->n - 1 + mb;
        if (tl <= RK_FAN) {
            move_entries(nd, (uint32_t)(j + mb), nd, j + 1, nd->n - j - 1);
            for (size_t q = 0; q < mb; q++) set_entry(nd, (uint32_t)(j + q), pieces[q]);
            nd->n = (uint32_t)tl;
            pieces[0] = inner_entry(nd);
            mb = 1;
            continue;
        }
        size_t w = 0;
        for (uint32_t i = 0; i < j; i++) list[w++] = get_entry(nd, i);
        for (size_t q = 0; q < mb; q++) list[w++] = pieces[q];
        for (uint32_t i = j + 1; i < nd->n; i++) list[w++] = get_entry(nd, i);
        size_t ml = pieces_at[d], start = 0;
        for (size_t q = 0; q < ml; q++) {
            rk_inner *dst = q == 0 ? nd : nodes[next++];
            size_t len = tl / ml + (q < tl % ml);
            for (size_t i = 0; i < len; i++) set_entry(dst, (uint32_t)i, list[start + i]);
            dst->n = (uint32_t)len;
            start += len;
            pieces[q] = inner_entry(dst);
        }
        mb = ml;
    }
    unsigned new_depth = depth;
    while (mb > 1) {
        size_t mm = pieces_for(mb, RK_FAN, RK_INNER_FILL), start = 0;
        memcpy(list, pieces, mb * sizeof(rk_entry));
        for (size_t q = 0; q < mm; q++) {
            rk_inner *dst = nodes[next++];
            size_t len = mb / mm + (q < mb % mm);
            for (size_t i = 0; i < len; i++) set_entry(dst, (uint32_t)i, list[start + i]);
            dst->n = (uint32_t)len;
            start += len;
            pieces[q] = inner_entry(dst);
        }
        mb = mm;
        new_depth++;
    }
    t->root = pieces[0].ptr;
    t->total = pieces[0].sum;
    t->count = pieces[0].cnt;
    t->depth = new_depth;
    if (heap_scratch) {
        rk_free(nodes);
        rk_free(pieces);
        rk_free(list);
    }
    return RK_OK;
}

/* ---------------------------------------------------------------- remove */

typedef struct rk_reserve {
    rk_leaf *leaf[RK_REMOVE_RESERVE];
    int n;
} rk_reserve;

/* Returns a leaf of capacity >= cap: a reserve leaf (full capacity). */
static rk_leaf *reserve_take(rk_reserve *rs) {
    if (rs->n == 0) abort(); /* unreachable: at most RK_REMOVE_RESERVE leaf fixes per removal */
    return rs->leaf[--rs->n];
}

/* Ensures leaf child `i` of `nd` can hold `need` heights, swapping in a reserve leaf if not. */
static rk_leaf *ensure_cap(rk_offset_tree *t, rk_inner *nd, uint32_t i, size_t need,
                           rk_reserve *rs) {
    rk_leaf *l = nd->child[i];
    if (l->cap >= need) return l;
    rk_leaf *r = reserve_take(rs);
    memcpy(r->h, l->h, l->n * sizeof(double));
    r->n = l->n;
    leaf_delete(t, l);
    nd->child[i] = r;
    return r;
}

static int underfull(const void *child, unsigned child_height) {
    if (child_height == 0) return ((const rk_leaf *)child)->n < RK_LEAF_MIN;
    return ((const rk_inner *)child)->n < RK_INNER_MIN;
}

static rk_entry entry_of(void *child, unsigned child_height) {
    return child_height == 0 ? leaf_entry(child) : inner_entry(child);
}

static void remove_entry(rk_inner *nd, uint32_t i) {
    move_entries(nd, i, nd, i + 1, nd->n - i - 1);
    nd->n--;
}

/*
 * Makes every child of `nd` (at height `height`, children at height-1) meet its fill minimum by
 * merging an underfull child with a neighbour or redistributing between them, and recursively fixes
 * the merged nodes. Precondition: a child with >= 2 children has only valid descendants; a child
 * with one child may have an underfull chain below it. Only underfull leaves ever need a reserve
 * leaf, and each merge or redistribution removes at least one underfull leaf, so a removal (which
 * starts with at most two: the boundary leaves) uses at most two.
 */
static void fix_node(rk_offset_tree *t, rk_inner *nd, unsigned height, rk_reserve *rs) {
    const unsigned ch = height - 1;
    for (;;) {
        if (nd->n < 2) return;
        uint32_t j = 0;
        while (j < nd->n && !underfull(nd->child[j], ch)) j++;
        if (j == nd->n) return;
        uint32_t a = j + 1 < nd->n ? j : j - 1, b = a + 1;
        if (ch == 0) {
            rk_leaf *la = nd->child[a], *lb = nd->child[b];
            size_t tot = (size_t)la->n + lb->n;
            if (tot <= RK_LEAF_MAX) {
                la = ensure_cap(t, nd, a, tot, rs);
                memcpy(la->h + la->n, lb->h, lb->n * sizeof(double));
                la->n = (uint32_t)tot;
                leaf_delete(t, lb);
                remove_entry(nd, b);
                set_entry(nd, a, leaf_entry(la));
            } else {
                uint32_t na = (uint32_t)(tot / 2), nb = (uint32_t)(tot - na);
                if (la->n < na) {
                    uint32_t mv = na - la->n;
                    la = ensure_cap(t, nd, a, na, rs);
                    memcpy(la->h + la->n, lb->h, mv * sizeof(double));
                    memmove(lb->h, lb->h + mv, (lb->n - mv) * sizeof(double));
                } else {
                    uint32_t mv = la->n - na;
                    lb = ensure_cap(t, nd, b, nb, rs);
                    memmove(lb->h + mv, lb->h, lb->n * sizeof(double));
                    memcpy(lb->h, la->h + na, mv * sizeof(double));
                }
                la->n = na;
                lb->n = nb;
                set_entry(nd, a, leaf_entry(la));
                set_entry(nd, b, leaf_entry(lb));
            }
        } else {
            rk_inner *ia = nd->child[a], *ib = nd->child[b];
            uint32_t tot = ia->n + ib->n;
            if (tot <= RK_FAN) {
                move_entries(ia, ia->n, ib, 0, ib->n);
                ia->n = tot;
                inner_delete(t, ib);
                remove_entry(nd, b);
                fix_node(t, ia, ch, rs);
                set_entry(nd, a, inner_entry(ia));
            } else {
                uint32_t na = tot / 2, nb = tot - na;
                if (ia->n < na) {
                    uint32_t mv = na - ia->n;
                    move_entries(ia, ia->n, ib, 0, mv);
                    move_entries(ib, 0, ib, mv, ib->n - mv);
                } else {
                    uint32_t mv = ia->n - na;
                    move_entries(ib, mv, ib, 0, ib->n);
                    move_entries(ib, 0, ia, na, mv);
                }
                ia->n = na;
                ib->n = nb;
                fix_node(t, ia, ch, rs);
                fix_node(t, ib, ch, rs);
                set_entry(nd, a, inner_entry(ia));
                set_entry(nd, b, inner_entry(ib));
            }
        }
    }
}

/* Removes items [lo, hi) (relative to `nd`, partially covered) from the subtree under `nd`. */
static void remove_rec(rk_offset_tree *t, rk_inner *nd, unsigned height, size_t lo, size_t hi,
                       rk_reserve *rs) {
    uint32_t first = 0;
    size_t acc = 0;
    while (acc + nd->cnt[first] <= lo) acc += nd->cnt[first++];
    uint32_t w = first, n = nd->n;
    for (uint32_t r = first; r < n; r++) {
        size_t c0 = acc, c1 = acc + nd->cnt[r];
        acc = c1;
        if (c0 >= hi) {
            if (w != r) set_entry(nd, w, get_entry(nd, r));
            w++;
            continue;
        }
        if (lo <= c0 && c1 <= hi) {
            free_subtree(t, nd->child[r], height - 1);
            continue;
        }
        size_t l = (lo > c0 ? lo : c0) - c0, u = (hi < c1 ? hi : c1) - c0;
        void *child = nd->child[r];
        if (height == 1) {
            rk_leaf *leaf = child;
            memmove(leaf->h + l, leaf->h + u, (leaf->n - u) * sizeof(double));
            leaf->n -= (uint32_t)(u - l);
        } else {
            remove_rec(t, child, height - 1, l, u, rs);
        }
        set_entry(nd, w++, entry_of(child, height - 1));
    }
    nd->n = w;
    if (nd->n >= 2) fix_node(t, nd, height, rs);
}

rk_status rk_offset_tree_remove(rk_offset_tree *t, size_t at, size_t k) {
    if (at > t->count || k > t->count - at) return RK_ERR_RANGE;
    if (k == 0) return RK_OK;
    if (k == t->count) {
        rk_leaf *empty = leaf_new(t, RK_LEAF_STEP);
        if (!empty) return RK_ERR_NOMEM;
        free_subtree(t, t->root, t->depth);
        t->root = empty;
        t->depth = 0;
        t->count = 0;
        t->total = 0.0;
        return RK_OK;
    }
    rk_path p;
    size_t off;
    rk_leaf *leaf = descend(t, at, &p, &off);
    if (off + k <= leaf->n && (t->depth == 0 || leaf->n - k >= RK_LEAF_MIN)) {
        memmove(leaf->h + off, leaf->h + off + k, (leaf->n - off - k) * sizeof(double));
        leaf->n -= (uint32_t)k;
        uint32_t want = round_cap(leaf->n) + RK_LEAF_STEP;
        if (leaf->cap >= want + 2 * RK_LEAF_STEP) { /* shrink; on failure keep the larger leaf */
            rk_leaf *smaller = leaf_new(t, want);
            if (smaller) {
                memcpy(smaller->h, leaf->h, leaf->n * sizeof(double));
                smaller->n = leaf->n;
                leaf_delete(t, leaf);
                leaf = smaller;
            }
        }
        fix_path(t, &p, leaf_entry(leaf));
        return RK_OK;
    }
    rk_reserve rs = {{NULL, NULL}, 0};
    for (; rs.n < RK_REMOVE_RESERVE; rs.n++) {
        if (!(rs.leaf[rs.n] = leaf_new(t, RK_LEAF_MAX))) {
            while (rs.n > 0) leaf_delete(t, rs.leaf[--rs.n]);
            return RK_ERR_NOMEM;
        }
    }
    rk_inner *root = t->root;
    remove_rec(t, root, t->depth, at, at + k, &rs);
    void *node = root;
    while (t->depth > 0 && ((rk_inner *)node)->n == 1) {
        void *only = ((rk_inner *)node)->child[0];
        inner_delete(t, node);
        node = only;
        t->depth--;
    }
    rk_entry e = entry_of(node, t->depth);
    t->root = node;
    t->total = e.sum;
    t->count = e.cnt;
    while (rs.n > 0) leaf_delete(t, rs.leaf[--rs.n]);
    return RK_OK;
}

/* ---------------------------------------------------------------- checker */

#ifdef RK_INTERNAL_CHECKS
typedef struct rk_check {
    const char *msg;
    size_t bytes;
} rk_check;

static rk_entry check_node(const void *node, unsigned height, int is_root, rk_check *c) {
    rk_entry bad = {NULL, 0.0, 0};
    if (height == 0) {
        const rk_leaf *l = node;
        c->bytes += leaf_bytes(l->cap);
        if (l->n > l->cap || l->cap > RK_LEAF_MAX || l->cap % RK_LEAF_STEP != 0) {
            c->msg = "leaf count or capacity out of bounds";
            return bad;
        }
        if (!is_root && l->n < RK_LEAF_MIN) {
            c->msg = "non-root leaf below minimum fill";
            return bad;
        }
        for (uint32_t i = 0; i < l->n; i++) {
            if (!valid_height(l->h[i]) || signbit(l->h[i])) {
                c->msg = "invalid height stored";
                return bad;
            }
        }
        return leaf_entry((rk_leaf *)l);
    }
    const rk_inner *nd = node;
    c->bytes += inner_bytes();
    if (nd->n > RK_FAN || nd->n < (is_root ? 2u : (uint32_t)RK_INNER_MIN)) {
        c->msg = "inner node child count out of bounds";
        return bad;
    }
    for (uint32_t i = 0; i < nd->n; i++) {
        rk_entry e = check_node(nd->child[i], height - 1, 0, c);
        if (c->msg) return bad;
        if (e.cnt != nd->cnt[i]) {
            c->msg = "cached child count differs from the child's item count";
            return bad;
        }
        if (e.sum != nd->sum[i]) {
            c->msg = "cached child sum differs from a fresh summation";
            return bad;
        }
    }
    double s = 0.0;
    size_t n = 0;
    for (uint32_t i = 0; i < nd->n; i++) {
        s += nd->sum[i];
        n += nd->cnt[i];
        if (nd->end[i] != s || nd->cend[i] != n) {
            c->msg = "cached prefix differs from the running sum of the children";
            return bad;
        }
    }
    rk_entry e = {(void *)nd, s, n};
    return e;
}
#endif

rk_status rk_offset_tree_check(const rk_offset_tree *t, const char **message) {
#ifdef RK_INTERNAL_CHECKS
    rk_check c = {NULL, sizeof(rk_offset_tree) + RK_MALLOC_OVERHEAD};
    if (!t || !t->root) c.msg = "missing tree or root";
    if (!c.msg && t->depth >= RK_MAX_DEPTH) c.msg = "depth beyond RK_MAX_DEPTH";
    rk_entry e = {NULL, 0.0, 0};
    if (!c.msg) e = check_node(t->root, t->depth, 1, &c);
    if (!c.msg && e.cnt != t->count) c.msg = "tree count differs from the root's count";
    if (!c.msg && e.sum != t->total) c.msg = "tree total differs from the root's sum";
    if (!c.msg && t->count > RK_OFFSET_TREE_MAX_COUNT) c.msg = "count beyond maximum";
    if (!c.msg && c.bytes != t->bytes) c.msg = "byte accounting differs from the nodes held";
    if (c.msg) {
        if (message) *message = c.msg;
        return RK_ERR_CORRUPT;
    }
    return RK_OK;
#else
    (void)t;
    if (message) *message = NULL;
    return RK_OK;
#endif
}
