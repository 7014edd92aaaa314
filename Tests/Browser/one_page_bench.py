"""The one-page list's browser benchmark: headless Chromium at 390x844 over an exported listing.

Run by scripts/bench-browser.sh, which exports the listing first; by hand:

    .build/browser-venv/bin/python Tests/Browser/one_page_bench.py --site SITE --rows N [--rounds 3] [--json FILE]

Per round, in a fresh page: time to first rows (index.html, and a deep #row- link), steady
scrolling (50 px every animation frame for 600 frames), far jumps (100 jumps to random places,
seed 15), then memory. JS time per frame is what listing.js spends in the frame (its
requestAnimationFrame callback and its ResizeObserver callbacks), timed with performance.now()
(0.1 ms steps in Chromium). The tree's share: every call into the tree is counted by kind during
the run; afterwards each kind's cost is timed over 20,000 calls on the same tree, and the frame's
tree time is the sum of counts times costs.
"""

import argparse
import json
import random
import statistics
import os

from playwright.sync_api import sync_playwright


def url(site, suffix=""):
    return "file://" + os.path.abspath(os.path.join(site, "index.html")) + suffix


def wait_ready(page):
    page.wait_for_function("() => window.RowKitListing && (window.RowKitListing.firstRows !== undefined || window.RowKitListing.error)", timeout=60000)
    error = page.evaluate("() => window.RowKitListing.error ? String(window.RowKitListing.error) : null")
    if error:
        raise RuntimeError("the one-page list failed: " + error)


# Counts calls into the tree by kind (and rows read), without changing what they do.
COUNT_TREE = """() => {
    const tree = RowKitListing.list.tree, counts = window.__treeCounts = { rows: 0 };
    for (const name of ['range', 'read', 'offset', 'itemAt', 'height', 'set', 'setRange', 'total', 'count']) {
        const original = tree[name].bind(tree);
        counts[name] = 0;
        tree[name] = function (a, b, c, d) {
            counts[name] += 1;
            if (name === 'read') counts.rows += b;
            if (name === 'setRange') counts.rows += b.length;
            return original(a, b, c, d);
        };
    }
    window.__frameCounts = [];
    const list = RowKitListing.list, frame = list.frame.bind(list);
    list.frame = function () {
        if (list.stats.recording) window.__frameCounts.push(Object.assign({}, counts));
        return frame();
    };
}"""

# Cost of each kind of tree call, in ms, timed in bulk on the same tree (original methods).
CALIBRATE = """() => {
    const list = RowKitListing.list, proto = Object.getPrototypeOf(list.tree), tree = list.tree;
    const n = proto.count.call(tree), total = proto.total.call(tree), rounds = 20000;
    const heights = new Float64Array(64), offsets = new Float64Array(64), out = [0, 0];
    const ys = new Float64Array(rounds), items = new Uint32Array(rounds);
    for (let i = 0; i < rounds; i++) { ys[i] = Math.random() * total; items[i] = Math.floor(Math.random() * n); }
    function time(body) { const t = performance.now(); for (let i = 0; i < rounds; i++) body(i); return (performance.now() - t) / rounds; }
    const cost = {};
    cost.range = time(i => proto.range.call(tree, ys[i], ys[i] + 2000, out));
    cost.read = time(i => proto.read.call(tree, Math.min(items[i], n - 40), 40, heights, offsets));
    cost.rowRead = Math.max(cost.read - cost.range, 0) / 40;
    cost.offset = time(i => proto.offset.call(tree, items[i]));
    cost.itemAt = time(i => proto.itemAt.call(tree, ys[i]));
    cost.height = time(i => proto.height.call(tree, items[i]));
    cost.set = time(i => proto.set.call(tree, items[i], proto.height.call(tree, items[i]))) - cost.height;
    cost.total = time(i => proto.total.call(tree));
    cost.count = time(i => proto.count.call(tree));
    return cost;
}"""


def percentile(values, p):
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def frame_figures(page, cost):
    frames = page.evaluate("() => RowKitListing.list.stats.frames.slice()")
    counts = page.evaluate("() => window.__frameCounts.slice()")
    js = [f[0] for f in frames]
    shares = []
    # counts[i] is the running count when frame i began; frame i's calls are counts[i+1] - counts[i].
    for i in range(min(len(frames), len(counts) - 1)):
        a, b = counts[i], counts[i + 1]
        tree_ms = sum((b[k] - a[k]) * cost[k] for k in ["range", "offset", "itemAt", "height", "set", "total", "count"])
        tree_ms += (b["read"] - a["read"]) * cost["range"] + (b["rows"] - a["rows"]) * cost["rowRead"]
        tree_ms += (b["setRange"] - a["setRange"]) * cost["range"]
        if frames[i][0] > 0:
            shares.append(min(tree_ms / frames[i][0], 1.0))
    return {"frames": len(js), "js_p50_ms": percentile(js, 50), "js_p99_ms": percentile(js, 99), "js_max_ms": max(js) if js else None,
            "tree_share_p50": percentile(shares, 50), "tree_share_mean": statistics.mean(shares) if shares else None,
            "rows_drawn_max": max((f[2] for f in frames), default=0)}


def one_round(browser, site, rows, seed):
    figures = {}
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url(site))
    wait_ready(page)
    figures["first_rows_ms"] = page.evaluate("() => window.RowKitListing.firstRows")
    figures["first_paint_ms"] = page.evaluate("() => { const p = performance.getEntriesByName('first-contentful-paint')[0]; return p ? p.startTime : null; }")
    page.evaluate(COUNT_TREE)
    # Steady scrolling: 50 px in every animation frame.
    page.evaluate("() => { RowKitListing.list.stats.frames.length = 0; RowKitListing.list.stats.recording = true; }")
    page.evaluate("""() => new Promise(done => {
        let n = 0;
        function step() { if (n++ === 600) { done(); return; } window.scrollBy(0, 50); requestAnimationFrame(step); }
        requestAnimationFrame(step);
    })""")
    page.evaluate("() => { RowKitListing.list.stats.recording = false; }")
    cost = page.evaluate(CALIBRATE)
    figures["steady"] = frame_figures(page, cost)
    # Far jumps: a random place, then three frames.
    page.evaluate("() => { RowKitListing.list.stats.frames.length = 0; window.__frameCounts.length = 0; RowKitListing.list.stats.recording = true; }")
    random.seed(seed)
    jumps = [random.random() for _ in range(100)]
    page.evaluate("""(jumps) => new Promise(done => {
        let i = 0, wait = 0;
        function step() {
            if (wait > 0) { wait--; requestAnimationFrame(step); return; }
            if (i === jumps.length) { done(); return; }
            window.scrollTo(0, jumps[i++] * (document.documentElement.scrollHeight - innerHeight));
            wait = 3;
            requestAnimationFrame(step);
        }
        requestAnimationFrame(step);
    })""", jumps)
    page.evaluate("() => { RowKitListing.list.stats.recording = false; }")
    figures["jumps"] = frame_figures(page, cost)
    page.wait_for_timeout(300)
    stats = page.evaluate("() => RowKitListing.stats()")
    page.evaluate("() => { if (window.gc) window.gc(); }")
    heap = page.evaluate("() => performance.memory ? performance.memory.usedJSHeapSize : null")
    figures.update({"row_nodes_alive": stats["drawn"] + stats["pooled"], "row_nodes_created": stats["created"],
                    "li_in_document": page.evaluate("() => document.querySelectorAll('li.row').length"),
                    "js_heap_bytes": heap, "wasm_memory_bytes": stats["moduleBytes"], "tree_bytes": stats["treeBytes"],
                    "tree_bytes_per_row": stats["treeBytes"] / rows, "cost_ns": {k: round(v * 1e6, 1) for k, v in cost.items()}})
    page.close()
    # A deep link: the first rows of a row nine tenths into the listing.
    deep = (rows * 9 // 10) // 100 * 100
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url(site, "#row-row-%d" % deep))
    wait_ready(page)
    figures["deep_link_first_rows_ms"] = page.evaluate("() => window.RowKitListing.firstRows")
    page.close()
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--rows", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--json")
    arguments = parser.parse_args()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-dev-shm-usage", "--enable-precise-memory-info", "--js-flags=--expose-gc"])
        rounds = [one_round(browser, arguments.site, arguments.rows, arguments.seed + i) for i in range(arguments.rounds)]
        browser.close()

    def med(path):
        values = []
        for r in rounds:
            value = r
            for key in path:
                value = value[key]
            if value is not None:
                values.append(value)
        return statistics.median(values) if values else None

    def spread(path, digits=2):
        values = []
        for r in rounds:
            value = r
            for key in path:
                value = value[key]
            if value is not None:
                values.append(value)
        if not values:
            return "-"
        low, high = min(values), max(values)
        return ("%.*f" % (digits, low)) if round(low, digits) == round(high, digits) else ("%.*f-%.*f" % (digits, low, digits, high))

    print("one-page list, %d rows, Chromium 390x844, %d rounds (median, range)" % (arguments.rows, len(rounds)))
    print("-" * 72)
    lines = [
        ("JS per frame, steady scroll, p50", ("steady", "js_p50_ms"), "ms"),
        ("JS per frame, steady scroll, p99", ("steady", "js_p99_ms"), "ms"),
        ("JS per frame, far jumps, p50", ("jumps", "js_p50_ms"), "ms"),
        ("JS per frame, far jumps, p99", ("jumps", "js_p99_ms"), "ms"),
        ("tree's share of a frame, steady, p50", ("steady", "tree_share_p50"), "x"),
        ("tree's share of a frame, jumps, p50", ("jumps", "tree_share_p50"), "x"),
        ("first rows, index.html", ("first_rows_ms",), "ms"),
        ("first rows, deep #row- link", ("deep_link_first_rows_ms",), "ms"),
        ("row nodes alive (drawn + pooled)", ("row_nodes_alive",), ""),
        ("row nodes created in all", ("row_nodes_created",), ""),
        ("JS heap", ("js_heap_bytes",), "B"),
        ("module memory (wasm)", ("wasm_memory_bytes",), "B"),
        ("tree bytes per row", ("tree_bytes_per_row",), "B"),
    ]
    for label, path, unit in lines:
        value = med(path)
        if unit == "x":
            text = "%.1f%%  (%s)" % (100 * value, spread(path, 3)) if value is not None else "-"
        elif unit == "B":
            text = "%.2f MB (%s)" % (value / 1e6, spread(path, 0)) if value is not None and value > 1000 else "%.2f B (%s)" % (value, spread(path))
        elif unit == "ms":
            text = "%.2f ms (%s)" % (value, spread(path))
        else:
            text = "%d (%s)" % (value, spread(path, 0))
        print("%-40s %s" % (label, text))
    memory = (med(("js_heap_bytes",)) or 0) + med(("wasm_memory_bytes",))
    print("%-40s %.1f B per row" % ("JS heap + module memory per row", memory / arguments.rows))
    print("tree call costs (ns, round 1): %s" % rounds[0]["cost_ns"])
    if arguments.json:
        with open(arguments.json, "w") as out:
            json.dump({"rows": arguments.rows, "rounds": rounds}, out, indent=1)


if __name__ == "__main__":
    main()
