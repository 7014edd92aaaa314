#!/usr/bin/env node
/*
 * bench.js: the WebAssembly offset tree under node beside the native C tree, same machine, same
 * rows, same random sequence (scripts/bench-wasm.sh builds the native half and runs this). Rounds
 * alternate between the module and the native tree (a child process answering one round at a
 * time), so a busy machine slows both alike and the ratios stay readable.
 *
 *   node Tests/Wasm/bench.js --native BIN [--rows N] [--rounds N] [--module FILE]
 *
 * Workloads on a tree of N rows (default 1,000,000; heights 20.00-79.99), each timed in rounds
 * (10,000 operations, 1,000 for insert and remove) and reported as the median ns per operation:
 *   item_at            the row at a random offset (what a scroll position asks)
 *   offset             the offset of a random row (what a jump to a row asks)
 *   set_then_item_at   a new height for a random row, then a row at a random offset
 *   insert, remove     one row at a random position
 *   build              the whole tree from an array (ns for all rows)
 * The module is called through Templates/assets/rowkit-core.js, as a page calls it; item_at is also
 * timed through the raw export, to show what the wrapper costs.
 */
"use strict";
const path = require("path");
const { spawn } = require("child_process");
const readline = require("readline");

const root = path.resolve(__dirname, "../..");
const args = { rows: 1000000, rounds: 31, module: path.join(root, "Templates/assets/rowkit-core.wasm.js") };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, "");
  if (!["native", "rows", "rounds", "module"].includes(key) || process.argv[i + 1] === undefined) {
    console.error("usage: bench.js --native BIN [--rows N] [--rounds N] [--module FILE]");
    process.exit(2);
  }
  args[key] = key === "rows" || key === "rounds" ? Number(process.argv[i + 1]) : process.argv[i + 1];
}
const RowKitCore = require(path.join(root, "Templates/assets/rowkit-core.js"));
const BATCH = 10000, EDITS = 1000;

let x = 0x9E3779B9;
function next() {
  x = (x ^ (x << 13)) >>> 0;
  x = (x ^ (x >>> 17)) >>> 0;
  x = (x ^ (x << 5)) >>> 0;
  return x;
}
const rowHeight = () => 20 + (next() % 6000) / 100;
const now = () => Number(process.hrtime.bigint());
const median = (v) => {
  const s = [...v].sort((a, b) => a - b), n = s.length;
  return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/** The native half: one child process, asked for one build or round at a time. */
function nativeHalf(bin, rows) {
  const child = spawn(bin, [String(rows)], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async ask(command) {
      child.stdin.write(command + "\n");
      const { value, done } = await lines.next();
      if (done) throw new Error("bench: the native half stopped");
      const words = value.split(" "), result = {};
      for (let i = 0; i < words.length; i += 2) result[words[i]] = Number(words[i + 1]);
      return result;
    },
    close() {
      child.stdin.end();
    },
  };
}

async function main() {
  const core = await RowKitCore.load(require(path.resolve(args.module)));
  const raw = core.exports;
  const rows = args.rows, rounds = args.rounds;
  const native = nativeHalf(args.native, rows);
  const h = new Float64Array(rows);
  for (let i = 0; i < rows; i++) h[i] = rowHeight();
  const ops = ["item_at", "item_at_raw", "offset", "set_then_item_at", "insert", "remove", "build"];
  const t = {}, c = {};
  for (const op of ops) {
    t[op] = [];
    c[op] = [];
  }
  let tree = null, sink = 0;
  for (let r = 0; r < rounds; r++) {
    const t0 = now();
    const fresh = core.buildTree(h);
    t.build.push(now() - t0);
    if (tree) tree.destroy();
    tree = fresh;
    c.build.push((await native.ask("build")).build);
  }
  const ys = new Float64Array(BATCH), hs = new Float64Array(BATCH), is = new Uint32Array(BATCH);
  for (let r = 0; r < rounds; r++) {
    const total = tree.total();
    for (let i = 0; i < BATCH; i++) ys[i] = next() / 4294967296 * total;
    let t0 = now();
    for (let i = 0; i < BATCH; i++) sink += tree.itemAt(ys[i]);
    t.item_at.push((now() - t0) / BATCH);
    const p = tree.ptr;
    t0 = now();
    for (let i = 0; i < BATCH; i++) sink += raw.rk_offset_tree_item_at(p, ys[i]);
    t.item_at_raw.push((now() - t0) / BATCH);

    for (let i = 0; i < BATCH; i++) is[i] = next() % rows;
    t0 = now();
    for (let i = 0; i < BATCH; i++) sink += tree.offset(is[i]);
    t.offset.push((now() - t0) / BATCH);

    for (let i = 0; i < BATCH; i++) {
      is[i] = next() % rows;
      hs[i] = rowHeight();
      ys[i] = next() / 4294967296 * total;
    }
    t0 = now();
    for (let i = 0; i < BATCH; i++) {
      tree.set(is[i], hs[i]);
      sink += tree.itemAt(ys[i]);
    }
    t.set_then_item_at.push((now() - t0) / BATCH);

    let n = tree.count();
    for (let i = 0; i < EDITS; i++) {
      is[i] = next() % (n + i + 1);
      hs[i] = rowHeight();
    }
    t0 = now();
    for (let i = 0; i < EDITS; i++) tree.insert(is[i], hs[i]);
    t.insert.push((now() - t0) / EDITS);

    n = tree.count();
    for (let i = 0; i < EDITS; i++) is[i] = next() % (n - i);
    t0 = now();
    for (let i = 0; i < EDITS; i++) tree.remove(is[i], 1);
    t.remove.push((now() - t0) / EDITS);

    const round = await native.ask("round");
    for (const op of Object.keys(round)) c[op].push(round[op]);
  }
  native.close();
  c.item_at_raw = c.item_at;
  const bytes = tree.bytes(), memory = core.memoryBytes();
  tree.destroy();
  if (sink === 0.5) console.log(""); // keeps the results alive

  const fmt = (v) => (v >= 1e5 ? (v / 1e6).toFixed(2) + " ms" : v.toFixed(0) + " ns");
  console.log("WebAssembly (node " + process.version + ") vs native C, " + rows + " rows, medians of " + rounds + " alternating rounds");
  console.log("op                       wasm          C   wasm/C");
  console.log("-----------------------------------------------------");
  for (const op of ops) {
    const w = median(t[op]), n = median(c[op]);
    console.log(op.padEnd(20) + fmt(w).padStart(11) + fmt(n).padStart(11) + (w / n).toFixed(2).padStart(8) + "x");
  }
  console.log("tree bytes in the module after the edits: " + bytes + " (" + (bytes / rows).toFixed(2) + " per row); module memory " +
              (memory / 1048576).toFixed(1) + " MiB");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
