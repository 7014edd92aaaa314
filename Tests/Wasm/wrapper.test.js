/*
 * wrapper.test.js: what Templates/assets/rowkit-core.js promises beyond the C API it wraps (the
 * differential test covers the C semantics): loading, JavaScript values the module cannot
 * represent, sentinels, out arrays, explicit memory, views that follow the memory as it grows.
 *   node --test Tests/Wasm/wrapper.test.js
 */
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const path = require("path");

const assets = path.resolve(__dirname, "../../Templates/assets");
const RowKitCore = require(path.join(assets, "rowkit-core.js"));
const base64 = require(path.join(assets, "rowkit-core.wasm.js"));
const load = () => RowKitCore.load(base64);

function rejects(fn, code) {
  assert.throws(fn, (e) => e instanceof RowKitCoreError && e.code === code);
}
const { RowKitCoreError } = RowKitCore;

test("load accepts the base64 text, the bytes, or a compiled module, and defaults to the page's global", async () => {
  const bytes = Buffer.from(base64, "base64");
  for (const source of [base64, new Uint8Array(bytes), new WebAssembly.Module(bytes)]) {
    const core = await RowKitCore.load(source);
    assert.equal(core.buildTree([1, 2, 3]).total(), 6);
  }
  globalThis.RowKitCoreWasm = base64; // what rowkit-core.wasm.js defines in a page
  try {
    assert.equal((await RowKitCore.load()).createTree().count(), 0);
  } finally {
    delete globalThis.RowKitCoreWasm;
  }
});

test("load without the module script rejects, naming the script to load first", async () => {
  await assert.rejects(RowKitCore.load(), /rowkit-core\.wasm\.js/);
});

test("the module imports nothing and exports only memory, malloc, free and rk_ functions", async () => {
  const module = new WebAssembly.Module(Buffer.from(base64, "base64"));
  assert.deepEqual(WebAssembly.Module.imports(module), []);
  for (const e of WebAssembly.Module.exports(module)) {
    assert.ok(["memory", "malloc", "free"].includes(e.name) || e.name.startsWith("rk_"), e.name);
  }
});

test("indices the module cannot represent are out of range, never wrapped onto a valid row", async () => {
  const tree = (await load()).buildTree([10, 20, 30]);
  for (const bad of [1.5, NaN, -1, 2 ** 32, 2 ** 32 + 1, "1", undefined, Infinity]) {
    rejects(() => tree.offset(bad), "RK_ERR_RANGE");
    rejects(() => tree.set(bad, 5), "RK_ERR_RANGE");
    rejects(() => tree.remove(bad, 1), "RK_ERR_RANGE");
    rejects(() => tree.remove(0, bad), "RK_ERR_RANGE");
  }
  assert.equal(tree.offset(-0), 0);
  assert.equal(tree.count(), 3);
  assert.equal(tree.total(), 60);
});

test("a refused edit throws RowKitCoreError with the C status and leaves the tree as it was", async () => {
  const tree = (await load()).buildTree([10, 20, 30]);
  assert.throws(() => tree.insert(1, [5, 6, NaN, 7]), (e) => {
    assert.ok(e instanceof Error && e instanceof RowKitCoreError);
    assert.equal(e.status, 2);
    assert.equal(e.code, "RK_ERR_HEIGHT");
    assert.equal(e.badIndex, 2);
    assert.match(e.message, /insert: RK_ERR_HEIGHT/);
    return true;
  });
  rejects(() => tree.set(0, -1), "RK_ERR_HEIGHT");
  rejects(() => tree.setRange(2, [1, 2]), "RK_ERR_RANGE");
  const h = [0, 0, 0], o = [0, 0, 0];
  tree.read(0, 3, h, o);
  assert.deepEqual([h, o], [[10, 20, 30], [0, 10, 30]]);
});

test("one height inserts as a number or as an array, with the same result", async () => {
  const core = await load();
  const a = core.buildTree([10, 20]), b = core.buildTree([10, 20]);
  a.insert(1, 5);
  b.insert(1, [5]);
  const ha = [], hb = [];
  a.read(0, 3, ha);
  b.read(0, 3, hb);
  assert.deepEqual(ha, [10, 5, 20]);
  assert.deepEqual(hb, ha);
  rejects(() => a.insert(0, NaN), "RK_ERR_HEIGHT");
});

test("not found is a sentinel: itemAt -1, take and trim -1, put -1 without eviction, drain null", async () => {
  const core = await load();
  const tree = core.buildTree([10, 0, 10]);
  assert.equal(RowKitCore.NOT_FOUND, -1);
  assert.deepEqual([tree.itemAt(-1), tree.itemAt(20), tree.itemAt(NaN), tree.itemAt(10)], [-1, -1, -1, 2]);
  const pool = core.createPool(1);
  const kind = pool.intern("row");
  assert.equal(pool.take(kind), -1);
  assert.equal(pool.trim(kind), -1);
  assert.equal(pool.drain(), null);
  assert.equal(pool.put(kind, 7), -1);
  assert.equal(pool.put(kind, 8), 7); // full: the oldest comes back
  assert.equal(pool.take(kind), 8);
  rejects(() => pool.take(kind + 1), "RK_ERR_RANGE");
});

test("range, drain and counters fill the caller's array, or reuse one the tree or pool owns", async () => {
  const core = await load();
  const tree = core.buildTree([10, 10, 10, 10]);
  const out = new Uint32Array(2);
  assert.equal(tree.range(5, 25, out), out);
  assert.deepEqual([...out], [0, 3]);
  const own = tree.range(0, 1);
  assert.equal(tree.range(30, 40), own); // the tree's own array, reused
  assert.deepEqual(own, [3, 4]);
  const pool = core.createPool(4);
  pool.put(pool.intern("a"), 42);
  const pair = [0, 0];
  assert.equal(pool.drain(pair), pair);
  assert.deepEqual(pair, [0, 42]);
  const c = {};
  assert.equal(pool.counters(c), c);
  assert.deepEqual(c, { hits: 0, misses: 0, evictions: 0 });
});

test("handles are integers in [0, 2^32); anything else is refused, not truncated", async () => {
  const pool = (await load()).createPool(8);
  const kind = pool.intern("cell");
  for (const bad of [-1, 1.5, 2 ** 32, NaN, "3", null]) rejects(() => pool.put(kind, bad), "RK_ERR_ARG");
  assert.equal(pool.count(kind), 0);
  pool.put(kind, 2 ** 32 - 1);
  assert.equal(pool.take(kind), 2 ** 32 - 1);
});

test("capacities: negative or fractional are refused, 2^32 and beyond are held as 2^32 - 1", async () => {
  const core = await load();
  rejects(() => core.createPool(-1), "RK_ERR_ARG");
  rejects(() => core.createPool(2.5), "RK_ERR_ARG");
  const pool = core.createPool(2 ** 40);
  assert.equal(pool.capacity(pool.intern("x")), 2 ** 32 - 1);
  pool.setCapacity(0, 3);
  assert.equal(pool.capacity(0), 3);
  assert.equal(pool.capacity(7), 0); // an unknown kind
});

test("identifiers round-trip as UTF-8; a NUL character is refused", async () => {
  const pool = (await load()).createPool();
  const names = ["subtitle", "", "café", "行 🙂"];
  const kinds = names.map((n) => pool.intern(n));
  assert.deepEqual(kinds, [0, 1, 2, 3]);
  assert.deepEqual(kinds.map((k) => pool.identifier(k)), names);
  assert.equal(pool.intern("café"), 2);
  assert.equal(pool.identifier(4), null);
  rejects(() => pool.intern("a\0b"), "RK_ERR_ARG");
  assert.equal(pool.kindCount(), 4);
  assert.equal(pool.capacity(0), 32); // the default capacity
});

test("memory is freed explicitly; a destroyed tree or pool throws, destroying twice is harmless", async () => {
  const core = await load();
  const tree = core.buildTree([1]), pool = core.createPool();
  tree.destroy();
  pool.destroy();
  tree.destroy();
  pool.destroy();
  assert.throws(() => tree.count(), /tree used after destroy/);
  assert.throws(() => pool.take(0), /pool used after destroy/);
  // Freed memory is reused: building and destroying the same tree does not grow the module.
  const heights = new Float64Array(100000).fill(30);
  core.buildTree(heights).destroy();
  const before = core.memoryBytes();
  for (let i = 0; i < 20; i++) core.buildTree(heights).destroy();
  assert.equal(core.memoryBytes(), before);
});

test("results stay right after the module's memory grows under earlier views", async () => {
  const core = await load();
  const small = core.buildTree([5, 6, 7]);
  const before = core.memoryBytes();
  const big = core.buildTree(new Float64Array(2000000).fill(1.5)); // grows the memory
  assert.ok(core.memoryBytes() > before);
  assert.equal(small.offset(2), 11);
  assert.equal(small.height(1), 6);
  assert.equal(big.offset(2000000), 3000000);
  const h = new Float64Array(3), o = new Float64Array(3);
  big.read(1999997, 3, h, o);
  assert.deepEqual([...o], [2999995.5, 2999997, 2999998.5]);
  const all = new Float64Array(2000000);
  big.read(0, 2000000, all); // more than SCRATCH_KEEP rows: the scratch is given back afterwards
  assert.equal(all[1999999], 1.5);
  assert.equal(core._scratchCap[0], 0);
});
