/*
 * bench_native.c: the native half of scripts/bench-wasm.sh. Runs the same workloads as
 * Tests/Wasm/bench.js on the native C tree (same rows, same random sequence), one round per
 * command, so bench.js can alternate rounds of the module and of the native tree and both see the
 * same load. Reads "build" or "round" lines from stdin and answers each with one line:
 * "build NS" (the whole build), or "item_at NS offset NS set_then_item_at NS insert NS remove NS"
 * (ns per operation in that round). Usage: bench_native ROWS
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rk_offset_tree.h"

#define BATCH 10000
#define EDITS 1000

static uint32_t x = 0x9E3779B9u;
static uint32_t next(void) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}
static double row_height(void) { return 20.0 + (double)(next() % 6000u) / 100.0; }

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static volatile size_t sink;

int main(int argc, char **argv) {
    size_t rows = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 1000000;
    double *h = malloc(rows * sizeof(double));
    double *ys = malloc(BATCH * sizeof(double)), *hs = malloc(BATCH * sizeof(double));
    size_t *is = malloc(BATCH * sizeof(size_t));
    if (!h || !ys || !hs || !is) return 1;
    for (size_t i = 0; i < rows; i++) h[i] = row_height();
    rk_offset_tree *tree = NULL;
    char command[32];
    while (fgets(command, sizeof command, stdin)) {
        if (command[0] == 'b') { /* build */
            rk_offset_tree *t = NULL;
            double t0 = now_ns();
            if (rk_offset_tree_build(h, rows, &t, NULL) != RK_OK) return 1;
            printf("build %.0f\n", now_ns() - t0);
            rk_offset_tree_destroy(tree);
            tree = t;
            fflush(stdout);
            continue;
        }
        double total = rk_offset_tree_total(tree);
        for (int i = 0; i < BATCH; i++) ys[i] = (double)next() / 4294967296.0 * total;
        double t0 = now_ns();
        for (int i = 0; i < BATCH; i++) sink += rk_offset_tree_item_at(tree, ys[i]);
        printf("item_at %.1f", (now_ns() - t0) / BATCH);

        for (int i = 0; i < BATCH; i++) is[i] = next() % rows;
        double off = 0, acc = 0;
        t0 = now_ns();
        for (int i = 0; i < BATCH; i++) {
            rk_offset_tree_offset(tree, is[i], &off);
            acc += off;
        }
        printf(" offset %.1f", (now_ns() - t0) / BATCH);
        sink += (size_t)acc;

        for (int i = 0; i < BATCH; i++) {
            is[i] = next() % rows;
            hs[i] = row_height();
            ys[i] = (double)next() / 4294967296.0 * total;
        }
        t0 = now_ns();
        for (int i = 0; i < BATCH; i++) {
            rk_offset_tree_set(tree, is[i], hs[i]);
            sink += rk_offset_tree_item_at(tree, ys[i]);
        }
        printf(" set_then_item_at %.1f", (now_ns() - t0) / BATCH);

        size_t n = rk_offset_tree_count(tree);
        for (int i = 0; i < EDITS; i++) {
            is[i] = next() % (n + (size_t)i + 1);
            hs[i] = row_height();
        }
        t0 = now_ns();
        for (int i = 0; i < EDITS; i++) rk_offset_tree_insert(tree, is[i], &hs[i], 1, NULL);
        printf(" insert %.1f", (now_ns() - t0) / EDITS);

        n = rk_offset_tree_count(tree);
        for (int i = 0; i < EDITS; i++) is[i] = next() % (n - (size_t)i);
        t0 = now_ns();
        for (int i = 0; i < EDITS; i++) rk_offset_tree_remove(tree, is[i], 1);
        printf(" remove %.1f\n", (now_ns() - t0) / EDITS);
        fflush(stdout);
    }
    rk_offset_tree_destroy(tree);
    free(h);
    free(ys);
    free(hs);
    free(is);
    return 0;
}
