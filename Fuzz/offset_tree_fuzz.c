/*
 * offset_tree_fuzz.c: libFuzzer target for rk_offset_tree (run by scripts/fuzz.sh).
 *
 * The input is decoded into a stream of operations (build, insert, remove, set, the four queries,
 * bad calls and allocation failures). Every answer is compared with a naive model: an array of
 * heights with linear prefix sums. Heights are mostly multiples of 1/4, sometimes arbitrary
 * doubles, which the model rounds to multiples of 2^-16 as the tree stores them (nearbyint, an
 * independent statement of the rounding); they stay small, so every sum is exact in doubles and
 * answers are compared with ==. rk_offset_tree_check runs after every step
 * (build with -DRK_INTERNAL_CHECKS). Any mismatch abort()s, which libFuzzer reports as a crash.
 *
 * Sizes: at most MAX_ITEMS items and MAX_STEPS operations per input, so an execution stays short.
 * scripts/fuzz.sh builds the core with inner nodes of 16 children (RK_FAN=16, fill 14), so a built
 * tree of more than 14 * 112 items has two inner levels and one of more than 196 * 112 three.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rk_offset_tree.h"

#define MAX_ITEMS 8192
#define MAX_STEPS 400

#define FUZZ_TARGET_NAME "offset_tree_fuzz"
#include "fuzz_input.h"

/* A valid height: a multiple of 1/4 in [0, 49.75]; zero about a fifth of the time, and -0.0
 * (stored as +0.0) for byte 255. */
static double height_from_byte(uint8_t b) {
    if (b == 255) return -0.0;
    if (b >= 200) return 0.0;
    return b / 4.0;
}

static const double bad_heights[] = {NAN, -NAN, INFINITY, -INFINITY, -0.25, -DBL_MIN, -DBL_MAX,
                                     -4.9406564584124654e-324, RK_OFFSET_TREE_MAX_TOTAL, DBL_MAX};
#define BAD_COUNT (sizeof bad_heights / sizeof bad_heights[0])

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Fills h[0..<k] with valid heights in one of a few patterns chosen by the input. */
static void fill_heights(input *in, double *h, size_t k) {
    uint8_t mode = next_u8(in) % 5;
    if (mode == 4) { /* arbitrary doubles from a seed, most of them not multiples of 2^-16 */
        uint64_t state = next_u16(in);
        for (size_t i = 0; i < k; i++) h[i] = (double)(splitmix(&state) % 1000000) / 7919.3;
        return;
    }
    if (mode == 0) { /* byte by byte (cheap in input only for small k) */
        for (size_t i = 0; i < k; i++) h[i] = height_from_byte(next_u8(in));
    } else if (mode == 1) { /* all equal */
        double v = height_from_byte(next_u8(in));
        for (size_t i = 0; i < k; i++) h[i] = v;
    } else if (mode == 2) { /* pseudo-random from a seed */
        uint64_t state = next_u16(in);
        for (size_t i = 0; i < k; i++) h[i] = height_from_byte((uint8_t)splitmix(&state));
    } else { /* mostly zero: one positive height every `every` items */
        size_t every = 1 + next_u8(in) % 64;
        double v = height_from_byte(next_u8(in) % 200);
        for (size_t i = 0; i < k; i++) h[i] = i % every == 0 ? v : 0.0;
    }
}

/* ---------------------------------------------------------------- the naive model */

static double model[MAX_ITEMS];

/* A height as the tree stores it: the nearest multiple of 2^-16, ties to even, -0.0 as +0.0. */
static double stored(double h) { return nearbyint(h * 65536.0) / 65536.0 + 0.0; }
static size_t model_n;
static double scratch[MAX_ITEMS + 8];
static size_t step_number;
static size_t last_position; /* the position the last edit or bad call picked */

static double model_offset(size_t index) {
    double acc = 0.0;
    for (size_t i = 0; i < index; i++) acc += model[i];
    return acc;
}

static size_t model_item_at(double y) {
    double total = model_offset(model_n);
    if (!(y >= 0.0) || !(y < total)) return RK_NOT_FOUND;
    double acc = 0.0;
    for (size_t i = 0; i < model_n; i++) {
        if (model[i] > 0.0 && acc <= y && y < acc + model[i]) return i;
        acc += model[i];
    }
    return RK_NOT_FOUND;
}

/* [first, end): from the item holding max(y0, 0) to the last positive item starting before y1. */
static void model_range(double y0, double y1, size_t *first, size_t *end) {
    *first = 0;
    *end = 0;
    if (!(y0 < y1) || !(y1 > 0.0) || !(y0 < model_offset(model_n))) return;
    size_t f = model_item_at(y0 > 0.0 ? y0 : 0.0), last = RK_NOT_FOUND;
    double acc = 0.0;
    for (size_t i = 0; i < model_n && acc < y1; i++) {
        if (model[i] > 0.0) last = i;
        acc += model[i];
    }
    if (f == RK_NOT_FOUND || last == RK_NOT_FOUND) return;
    *first = f;
    *end = last + 1;
}

static void model_insert(size_t at, const double *h, size_t k) {
    memmove(model + at + k, model + at, (model_n - at) * sizeof(double));
    for (size_t i = 0; i < k; i++) model[at + i] = stored(h[i]);
    model_n += k;
}

static void model_remove(size_t at, size_t k) {
    memmove(model + at, model + at + k, (model_n - at - k) * sizeof(double));
    model_n -= k;
}

/* ---------------------------------------------------------------- comparisons */

/* After every step: the invariant checker, the count and the total. */
static void compare_cheap(const rk_offset_tree *t) {
    const char *message = NULL;
    rk_status st = rk_offset_tree_check(t, &message);
    EXPECT(st == RK_OK, "%s", message ? message : "(no message)");
    EXPECT(rk_offset_tree_count(t) == model_n, "count %zu, model %zu", rk_offset_tree_count(t),
           model_n);
    double total = model_offset(model_n);
    EXPECT(rk_offset_tree_total(t) == total, "total %g, model %g", rk_offset_tree_total(t), total);
    EXPECT(rk_offset_tree_bytes(t) > 0, "no bytes accounted");
}

/*
 * Heights, offsets and item starts, compared after edits that may have failed halfway. A tree of
 * at most FULL_COMPARE items is compared item by item; a larger one around the position the last
 * operation picked and at a stride that moves with the step number, which keeps an execution in
 * milliseconds while every position is still compared over a run.
 */
#define FULL_COMPARE 256
#define SAMPLE_WINDOW 8
#define SAMPLE_STRIDED 24

static double prefix[MAX_ITEMS + 1];

static void compare_item(const rk_offset_tree *t, size_t i) {
    double h = -1.0, off = -1.0;
    EXPECT(rk_offset_tree_height(t, i, &h) == RK_OK && h == model[i] && !signbit(h),
           "height %zu: %g, model %g", i, h, model[i]);
    EXPECT(rk_offset_tree_offset(t, i, &off) == RK_OK && off == prefix[i],
           "offset %zu: %g, model %g", i, off, prefix[i]);
    EXPECT(rk_offset_tree_offset_of(t, i) == prefix[i], "offset_of %zu: %g, model %g", i,
           rk_offset_tree_offset_of(t, i), prefix[i]);
    if (model[i] > 0.0) {
        size_t at = rk_offset_tree_item_at(t, prefix[i]);
        EXPECT(at == i, "item_at(offset of %zu) = %zu", i, at);
    }
}

static void compare_all(const rk_offset_tree *t) {
    size_t focus = last_position;
    compare_cheap(t);
    prefix[0] = 0.0;
    for (size_t i = 0; i < model_n; i++) prefix[i + 1] = prefix[i] + model[i];
    if (model_n <= FULL_COMPARE) {
        for (size_t i = 0; i < model_n; i++) compare_item(t, i);
    } else {
        size_t lo = focus > SAMPLE_WINDOW ? focus - SAMPLE_WINDOW : 0;
        for (size_t i = lo; i < model_n && i < focus + SAMPLE_WINDOW; i++) compare_item(t, i);
        size_t stride = model_n / SAMPLE_STRIDED;
        for (size_t i = step_number % stride; i < model_n; i += stride) compare_item(t, i);
        compare_item(t, 0);
        compare_item(t, model_n - 1);
    }
    double off = -1.0;
    EXPECT(rk_offset_tree_offset(t, model_n, &off) == RK_OK && off == prefix[model_n],
           "offset(count) %g", off);
    EXPECT(rk_offset_tree_item_at(t, prefix[model_n]) == RK_NOT_FOUND,
           "item_at(total) found an item");
}

/* ---------------------------------------------------------------- choosing arguments */

/* A position in [0, n]: often an end, otherwise anywhere. */
static size_t pick_position(input *in, size_t n) {
    uint8_t b = next_u8(in);
    if (b % 4 == 0) last_position = 0;
    else if (b % 4 == 1) last_position = n;
    else last_position = next_u16(in) % (n + 1);
    return last_position;
}

/* A count of items for an insert or remove, at most `room`: mostly small, sometimes large. */
static size_t pick_count(input *in, size_t room) {
    uint8_t b = next_u8(in);
    size_t k;
    if (b < 192) k = b % 9;
    else if (b < 240) k = next_u16(in) % 300;
    else k = next_u16(in);
    return k < room ? k : room;
}

/* An offset to look up: item boundaries, their neighbours, middles, values outside [0, total). */
static double pick_y(input *in) {
    uint8_t mode = next_u8(in);
    size_t i = model_n ? next_u16(in) % (model_n + 1) : 0;
    double base = model_offset(i), h = i < model_n ? model[i] : 0.0;
    switch (mode % 8) {
    case 0: return base;
    case 1: return base + 0.125;
    case 2: return base - 0.125;
    case 3: return base + h / 2;
    case 4: return base + h;
    case 5: return next_u16(in) / 8.0;
    case 6: {
        static const double special[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0, 0.0, -0.125,
                                         DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 1e300};
        return special[(mode >> 3) % (sizeof special / sizeof special[0])];
    }
    default: return model_offset(model_n);
    }
}

/* ---------------------------------------------------------------- operations */

static void op_build(input *in, rk_offset_tree **t) {
    size_t n = pick_count(in, MAX_ITEMS);
    fill_heights(in, scratch, n);
    rk_offset_tree *fresh = NULL;
    size_t bad = 12345;
    rk_status st = rk_offset_tree_build(n ? scratch : NULL, n, &fresh, &bad);
    EXPECT(st == RK_OK && fresh != NULL, "build of %zu: %s", n, rk_status_name(st));
    EXPECT(bad == 12345, "build touched bad_index on success");
    rk_offset_tree_destroy(*t);
    *t = fresh;
    model_n = 0;
    model_insert(0, scratch, n);
}

static void op_insert(input *in, rk_offset_tree *t) {
    size_t at = pick_position(in, model_n);
    size_t k = pick_count(in, MAX_ITEMS - model_n);
    fill_heights(in, scratch, k);
    rk_status st = rk_offset_tree_insert(t, at, scratch, k, NULL);
    EXPECT(st == RK_OK, "insert %zu at %zu of %zu: %s", k, at, model_n, rk_status_name(st));
    model_insert(at, scratch, k);
}

static void op_remove(input *in, rk_offset_tree *t) {
    size_t at = pick_position(in, model_n);
    size_t k = pick_count(in, model_n - at);
    rk_status st = rk_offset_tree_remove(t, at, k);
    EXPECT(st == RK_OK, "remove %zu at %zu of %zu: %s", k, at, model_n, rk_status_name(st));
    model_remove(at, k);
}

/* Sets a run of heights with one rk_offset_tree_set_range call. */
static void op_set_range(input *in, rk_offset_tree *t) {
    size_t first = pick_position(in, model_n);
    size_t k = pick_count(in, model_n - first);
    fill_heights(in, scratch, k);
    size_t bad = 12345;
    rk_status st = rk_offset_tree_set_range(t, first, k ? scratch : NULL, k, &bad);
    EXPECT(st == RK_OK && bad == 12345, "set_range %zu at %zu of %zu: %s", k, first, model_n,
           rk_status_name(st));
    for (size_t i = 0; i < k; i++) model[first + i] = stored(scratch[i]);
    compare_all(t);
}

static void op_set(input *in, rk_offset_tree *t) {
    if (next_u8(in) % 4 == 0) {
        op_set_range(in, t);
        return;
    }
    if (model_n == 0) return;
    size_t i = next_u16(in) % model_n;
    double h = height_from_byte(next_u8(in));
    rk_status st = rk_offset_tree_set(t, i, h);
    EXPECT(st == RK_OK, "set %zu: %s", i, rk_status_name(st));
    model[i] = stored(h);
}

static void op_query(input *in, const rk_offset_tree *t) {
    uint8_t which = next_u8(in) % 5;
    if (which == 4) { /* a bulk read: heights and the first item's offset */
        size_t first = pick_position(in, model_n);
        size_t k = pick_count(in, model_n - first);
        static double offsets[MAX_ITEMS];
        int with_offsets = next_u8(in) % 4 != 0;
        rk_status st = rk_offset_tree_read(t, first, k, scratch, with_offsets ? offsets : NULL);
        EXPECT(st == RK_OK, "read %zu at %zu: %s", k, first, rk_status_name(st));
        double acc = model_offset(first);
        for (size_t i = 0; i < k; i++) {
            EXPECT(scratch[i] == model[first + i] && !signbit(scratch[i]), "read height %zu: %g",
                   first + i, scratch[i]);
            EXPECT(!with_offsets || offsets[i] == acc, "read offset %zu: %g, model %g", first + i,
                   offsets[i], acc);
            acc += model[first + i];
        }
    } else if (which == 0) {
        size_t i = next_u16(in) % (model_n + 2);
        double h = 42.0;
        rk_status st = rk_offset_tree_height(t, i, &h);
        if (i < model_n) EXPECT(st == RK_OK && h == model[i], "height(%zu) = %g", i, h);
        else EXPECT(st == RK_ERR_RANGE && h == 42.0, "height(%zu) past the end: %s", i,
                    rk_status_name(st));
    } else if (which == 1) {
        size_t i = next_u16(in) % (model_n + 2);
        double off = 42.0;
        rk_status st = rk_offset_tree_offset(t, i, &off);
        if (i <= model_n) EXPECT(st == RK_OK && off == model_offset(i), "offset(%zu) = %g", i, off);
        else EXPECT(st == RK_ERR_RANGE && off == 42.0, "offset(%zu) past the end: %s", i,
                    rk_status_name(st));
    } else if (which == 2) {
        double y = pick_y(in);
        size_t got = rk_offset_tree_item_at(t, y), want = model_item_at(y);
        EXPECT(got == want, "item_at(%a) = %zu, model %zu", y, got, want);
    } else {
        double y0 = pick_y(in), y1 = next_u8(in) % 4 == 0 ? pick_y(in) : y0 + next_u16(in) / 4.0;
        size_t f = 7, e = 7, mf, me;
        rk_offset_tree_range(t, y0, y1, &f, &e);
        model_range(y0, y1, &mf, &me);
        EXPECT(f == mf && e == me, "range(%a, %a) = [%zu, %zu), model [%zu, %zu)", y0, y1, f, e, mf,
               me);
    }
}

/* Calls that must fail (or do nothing) and leave the tree exactly as it was. */
static void op_bad_call(input *in, rk_offset_tree *t) {
    uint8_t which = next_u8(in);
    double bad = bad_heights[next_u8(in) % BAD_COUNT];
    size_t bad_index = 12345;
    rk_status st;
    switch (which % 13) {
    case 0: { /* set with an invalid height (or past the end: range is checked first) */
        size_t i = model_n ? next_u16(in) % model_n : 0;
        st = rk_offset_tree_set(t, i, bad);
        EXPECT(st == (model_n ? RK_ERR_HEIGHT : RK_ERR_RANGE), "set bad height: %s",
               rk_status_name(st));
        break;
    }
    case 1: { /* set past the end */
        size_t i = model_n + next_u8(in);
        if (next_u8(in) == 255) i = SIZE_MAX;
        st = rk_offset_tree_set(t, i, 1.0);
        EXPECT(st == RK_ERR_RANGE, "set(%zu) past the end: %s", i, rk_status_name(st));
        break;
    }
    case 2: { /* insert with invalid heights: the first bad index is reported */
        size_t at = pick_position(in, model_n);
        size_t k = 1 + pick_count(in, 4000);
        fill_heights(in, scratch, k);
        size_t first_bad = next_u16(in) % k;
        scratch[first_bad] = bad;
        if (next_u8(in) % 2 && first_bad + 1 < k) scratch[k - 1] = bad_heights[0];
        st = rk_offset_tree_insert(t, at, scratch, k, &bad_index);
        EXPECT(st == RK_ERR_HEIGHT && bad_index == first_bad, "insert bad height at %zu: %s, %zu",
               first_bad, rk_status_name(st), bad_index);
        break;
    }
    case 3: { /* insert past the end */
        size_t at = model_n + 1 + next_u8(in);
        if (next_u8(in) == 255) at = SIZE_MAX;
        scratch[0] = 1.0;
        st = rk_offset_tree_insert(t, at, scratch, 1, NULL);
        EXPECT(st == RK_ERR_RANGE, "insert at %zu: %s", at, rk_status_name(st));
        break;
    }
    case 4: { /* NULL heights: an error for k > 0, a no-op for k == 0 */
        size_t at = pick_position(in, model_n), k = next_u8(in) % 3;
        st = rk_offset_tree_insert(t, at, NULL, k, NULL);
        EXPECT(st == (k ? RK_ERR_ARG : RK_OK), "insert NULL k=%zu: %s", k, rk_status_name(st));
        break;
    }
    case 5: { /* insert beyond the maximum count, checked before the heights are read */
        size_t k = RK_OFFSET_TREE_MAX_COUNT - model_n + next_u8(in) % 3 + 1;
        if (next_u8(in) % 2) k = SIZE_MAX;
        size_t at = pick_position(in, model_n);
        scratch[0] = 1.0;
        st = rk_offset_tree_insert(t, at, scratch, k, NULL);
        EXPECT(st == RK_ERR_OVERFLOW, "insert %zu items: %s", k, rk_status_name(st));
        break;
    }
    case 6: { /* remove out of range, including counts that overflow at + k */
        size_t at = pick_position(in, model_n), k;
        uint8_t how = next_u8(in) % 3;
        if (how == 0) k = model_n - at + 1 + next_u8(in);
        else if (how == 1) k = SIZE_MAX - next_u8(in) % 2;
        else {
            at = model_n + 1 + next_u8(in);
            k = next_u8(in) % 2;
        }
        st = rk_offset_tree_remove(t, at, k);
        EXPECT(st == RK_ERR_RANGE, "remove %zu at %zu of %zu: %s", k, at, model_n,
               rk_status_name(st));
        break;
    }
    case 7: { /* remove nothing */
        st = rk_offset_tree_remove(t, pick_position(in, model_n), 0);
        EXPECT(st == RK_OK, "remove 0: %s", rk_status_name(st));
        break;
    }
    case 8: { /* build with invalid heights or bad arguments: nothing is created */
        size_t k = 1 + pick_count(in, 4000);
        fill_heights(in, scratch, k);
        size_t first_bad = next_u16(in) % k;
        scratch[first_bad] = bad;
        rk_offset_tree *out = NULL;
        st = rk_offset_tree_build(scratch, k, &out, &bad_index);
        EXPECT(st == RK_ERR_HEIGHT && out == NULL && bad_index == first_bad,
               "build bad height at %zu: %s", first_bad, rk_status_name(st));
        st = rk_offset_tree_build(NULL, k, &out, NULL);
        EXPECT(st == RK_ERR_ARG && out == NULL, "build NULL heights: %s", rk_status_name(st));
        st = rk_offset_tree_build(scratch, 0, NULL, NULL);
        EXPECT(st == RK_ERR_ARG, "build into NULL: %s", rk_status_name(st));
        st = rk_offset_tree_build(NULL, 0, &out, NULL);
        EXPECT(st == RK_OK && out != NULL && rk_offset_tree_count(out) == 0, "build empty: %s",
               rk_status_name(st));
        rk_offset_tree_destroy(out);
        break;
    }
    case 10: { /* set_range with an invalid height or out of range: nothing changes */
        size_t first = pick_position(in, model_n);
        size_t k = pick_count(in, model_n - first);
        if (k == 0 || next_u8(in) % 4 == 0) {
            size_t over = next_u8(in) % 2 ? SIZE_MAX : model_n - first + 1 + next_u8(in);
            scratch[0] = 1.0;
            st = rk_offset_tree_set_range(t, first, scratch, over, NULL);
            EXPECT(st == RK_ERR_RANGE, "set_range %zu at %zu: %s", over, first, rk_status_name(st));
            st = rk_offset_tree_set_range(t, model_n + 1, scratch, 0, NULL);
            EXPECT(st == RK_ERR_RANGE, "set_range past the end: %s", rk_status_name(st));
            /* the range is checked before the pointer: NULL is RK_ERR_ARG only for a valid run */
            size_t n_null = 1 + next_u8(in) % 2;
            st = rk_offset_tree_set_range(t, first, NULL, n_null, NULL);
            EXPECT(st == (n_null <= model_n - first ? RK_ERR_ARG : RK_ERR_RANGE),
                   "set_range NULL, %zu at %zu of %zu: %s", n_null, first, model_n,
                   rk_status_name(st));
            break;
        }
        fill_heights(in, scratch, k);
        size_t first_bad = next_u16(in) % k;
        scratch[first_bad] = bad;
        st = rk_offset_tree_set_range(t, first, scratch, k, &bad_index);
        EXPECT(st == RK_ERR_HEIGHT && bad_index == first_bad, "set_range bad height at %zu: %s, %zu",
               first_bad, rk_status_name(st), bad_index);
        break;
    }
    case 12: { /* edits that would bring the total to RK_OFFSET_TREE_MAX_TOTAL: nothing changes */
        double total = model_offset(model_n), room = RK_OFFSET_TREE_MAX_TOTAL - total;
        size_t at = pick_position(in, model_n);
        scratch[0] = room; /* itself too large when the total is 0 */
        st = rk_offset_tree_insert(t, at, scratch, 1, NULL);
        EXPECT(st == (total > 0.0 ? RK_ERR_OVERFLOW : RK_ERR_HEIGHT), "insert %a: %s", room,
               rk_status_name(st));
        scratch[0] = room - 0.25;
        scratch[1] = 0.25;
        st = rk_offset_tree_insert(t, at, scratch, 2, NULL);
        EXPECT(st == RK_ERR_OVERFLOW, "insert %a and 0.25: %s", room - 0.25, rk_status_name(st));
        if (model_n > 0) {
            size_t i = next_u16(in) % model_n;
            scratch[0] = room + model[i];
            rk_status want = scratch[0] < RK_OFFSET_TREE_MAX_TOTAL ? RK_ERR_OVERFLOW : RK_ERR_HEIGHT;
            st = rk_offset_tree_set(t, i, scratch[0]);
            EXPECT(st == want, "set %zu to %a: %s", i, scratch[0], rk_status_name(st));
            st = rk_offset_tree_set_range(t, i, scratch, 1, NULL);
            EXPECT(st == want, "set_range %zu to %a: %s", i, scratch[0], rk_status_name(st));
        }
        scratch[0] = scratch[1] = RK_OFFSET_TREE_MAX_TOTAL / 2;
        rk_offset_tree *out = NULL;
        st = rk_offset_tree_build(scratch, 2, &out, NULL);
        EXPECT(st == RK_ERR_OVERFLOW && out == NULL, "build of two halves: %s", rk_status_name(st));
        break;
    }
    case 11: { /* read out of range or into NULL: nothing is written */
        double out = 42.0;
        size_t first = pick_position(in, model_n);
        size_t over = next_u8(in) % 2 ? SIZE_MAX : model_n - first + 1 + next_u8(in);
        scratch[0] = 42.0;
        st = rk_offset_tree_read(t, first, over, scratch, &out);
        EXPECT(st == RK_ERR_RANGE && out == 42.0 && scratch[0] == 42.0, "read %zu at %zu: %s",
               over, first, rk_status_name(st));
        st = rk_offset_tree_read(t, model_n + 1 + next_u8(in), 0, scratch, &out);
        EXPECT(st == RK_ERR_RANGE && out == 42.0, "read past the end: %s", rk_status_name(st));
        if (model_n > first) {
            st = rk_offset_tree_read(t, first, 1, NULL, &out);
            EXPECT(st == RK_ERR_ARG && out == 42.0, "read into NULL: %s", rk_status_name(st));
        }
        break;
    }
    default: { /* out-of-range queries leave their outputs alone */
        double out = 42.0;
        size_t i = next_u8(in) % 2 ? SIZE_MAX : model_n + 1 + next_u8(in);
        EXPECT(rk_offset_tree_height(t, i - 1 + (i == SIZE_MAX), &out) == RK_ERR_RANGE &&
                   out == 42.0,
               "height(%zu)", i);
        EXPECT(rk_offset_tree_offset(t, i, &out) == RK_ERR_RANGE && out == 42.0, "offset(%zu)", i);
        EXPECT(rk_offset_tree_offset_of(t, i) == RK_NO_OFFSET, "offset_of(%zu)", i);
        break;
    }
    }
    compare_all(t);
}

/*
 * One edit with the n-th next allocation (and every later one) failing. It either succeeds (the
 * model follows) or fails with RK_ERR_NOMEM and leaves the tree exactly as it was.
 */
static void op_alloc_failure(input *in, rk_offset_tree **t) {
    long fail_after = next_u8(in) % 24;
    uint8_t which = next_u8(in) % 4;
    size_t at = pick_position(in, model_n), k = 0;
    if (which == 0 || which == 3) {
        k = which == 0 ? pick_count(in, MAX_ITEMS - model_n) : pick_count(in, MAX_ITEMS);
        fill_heights(in, scratch, k);
    } else if (which == 1) {
        k = pick_count(in, model_n - at);
    }
    double h = height_from_byte(next_u8(in));
    rk_offset_tree *fresh = NULL;
    if (rk_debug_fail_alloc_after(fail_after) != RK_OK) abort(); /* built without the hook */
    rk_status st;
    if (which == 0) st = rk_offset_tree_insert(*t, at, scratch, k, NULL);
    else if (which == 1) st = rk_offset_tree_remove(*t, at, k);
    else if (which == 2) st = model_n ? rk_offset_tree_set(*t, at % model_n, h) : RK_OK;
    else st = rk_offset_tree_build(k ? scratch : NULL, k, &fresh, NULL);
    rk_debug_fail_alloc_after(-1);
    EXPECT(st == RK_OK || st == RK_ERR_NOMEM, "edit %u under failing allocation: %s", which,
           rk_status_name(st));
    if (st == RK_OK) {
        if (which == 0) model_insert(at, scratch, k);
        else if (which == 1) model_remove(at, k);
        else if (which == 2 && model_n) model[at % model_n] = h + 0.0;
        else if (which == 3) {
            rk_offset_tree_destroy(*t);
            *t = fresh;
            model_n = 0;
            model_insert(0, scratch, k);
        }
    } else {
        EXPECT(fresh == NULL, "failed build wrote its output");
    }
    compare_all(*t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    input in = {data, size};
    rk_debug_fail_alloc_after(-1);
    model_n = 0;
    step_number = 0;
    last_position = 0;
    rk_offset_tree *t = NULL;
    if (rk_offset_tree_create(&t) != RK_OK) abort();
    while (in.n > 0 && step_number < MAX_STEPS) {
        step_number++;
        uint8_t op = next_u8(&in);
        switch (op % 16) {
        case 0: op_build(&in, &t); break;
        case 1: case 2: case 3: op_insert(&in, t); break;
        case 4: case 5: op_remove(&in, t); break;
        case 6: case 7: op_set(&in, t); break;
        case 8: case 9: case 10: case 11: op_query(&in, t); break;
        case 12: case 13: op_bad_call(&in, t); break;
        case 14: op_alloc_failure(&in, &t); break;
        default: compare_all(t); break;
        }
        compare_cheap(t);
    }
    compare_all(t);
    rk_offset_tree_destroy(t);
    return 0;
}
