#!/usr/bin/env node
/*
 * differential.js: the WebAssembly offset tree and reuse pool against the native C ones.
 *
 *   node Tests/Wasm/differential.js --native BIN [--module FILE] [--seed N] [--sessions N]
 *                                   [--keep DIR]
 *
 * BIN is Tests/Wasm/native_runner.c built for this machine (scripts/test-wasm.sh builds it);
 * FILE is the module script (default Templates/assets/rowkit-core.wasm.js). Every session is a
 * seeded random sequence of operations on one tree and one pool: valid calls and bad ones (indices
 * past the end, negative or beyond 2^32, NaN/infinite/negative heights, unknown kinds, empty kinds,
 * NULL pointers through the raw exports, counts beyond RK_OFFSET_TREE_MAX_COUNT). The sequence is
 * written once, run by the native runner and by the module through Templates/assets/rowkit-core.js,
 * and the two outputs must be identical line for line: every status code, sentinel, index, count,
 * and every height, offset and total bit for bit. Prints the first difference and exits 1; --keep
 * writes each session's operations and both outputs to DIR.
 *
 * Operation language (one per line; doubles are the 16 hex digits of their IEEE bits, names the hex
 * of their UTF-8 bytes; every line prints one result line):
 *   tc | tb N H... | tg N SEED KIND    create / build from heights / build from generated heights
 *   td | tB                            destroy / build with RK_OFFSET_TREE_MAX_COUNT + 1 heights
 *   th I | to I | ti Y | tr Y0 Y1      height, offset, item_at, range
 *   tR FIRST N OFFSETS                 bulk read (checksum, values when N <= 8)
 *   ts I H | tS FIRST K H...           set, set_range
 *   tI AT K H... | tG AT K SEED KIND   insert heights / generated heights
 *   tO AT | tX AT K                    insert MAX - count + 1 items (overflow) / remove
 *   tv | tp I | tN                     whole-tree checksum / lookups at and beside offset(I) / NULLs
 *   pc CAP | pd | pi NAME | pk | pn K  pool create, destroy, intern, kind count, identifier
 *   pp K H | pt K | pm K | pD          put, take, trim, drain
 *   pC K | pK K | ps K CAP | pz        count, capacity, set_capacity, counters
 *   pM N | pN                          intern N fresh names / NULLs
 * Generated heights (KIND 0: thousandths in [0, 100), 1: integers 20-80 and zeros, 2: tiny
 * fractions and zeros) come from xorshift32, implemented here and in native_runner.c alike.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { spawnSync } = require("child_process");

const root = path.resolve(__dirname, "../..");
const args = { module: path.join(root, "Templates/assets/rowkit-core.wasm.js"), seed: 1, sessions: 24 };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, ""), value = process.argv[i + 1];
  if (!["native", "module", "seed", "sessions", "keep"].includes(key) || value === undefined) {
    console.error("usage: differential.js --native BIN [--module FILE] [--seed N] [--sessions N] [--keep DIR]");
    process.exit(2);
  }
  args[key] = key === "seed" || key === "sessions" ? Number(value) : value;
}
if (!args.native) {
  console.error("differential: --native BIN is required (scripts/test-wasm.sh builds it)");
  process.exit(2);
}

const RowKitCore = require(path.join(root, "Templates/assets/rowkit-core.js"));
const WASM_MAX_COUNT = 2 ** 28; // RK_OFFSET_TREE_MAX_COUNT where size_t has 32 bits

// ---------------------------------------------------------------- doubles as bits

const f64 = new Float64Array(1), u32 = new Uint32Array(f64.buffer);

function hex(d) {
  f64[0] = d;
  return u32[1].toString(16).padStart(8, "0") + u32[0].toString(16).padStart(8, "0");
}

function fromHex(text) {
  u32[1] = parseInt(text.slice(0, 8), 16);
  u32[0] = parseInt(text.slice(8), 16);
  return f64[0];
}

/** The adjacent double below (up = false) or above, exactly as native_runner.c's step(). */
function step(y, up) {
  f64[0] = y;
  if (y === 0) {
    u32[1] = up ? 0 : 0x80000000;
    u32[0] = 1;
  } else if ((y > 0) === up) {
    u32[0] = (u32[0] + 1) >>> 0;
    if (u32[0] === 0) u32[1] = (u32[1] + 1) >>> 0;
  } else {
    if (u32[0] === 0) u32[1] = (u32[1] - 1) >>> 0;
    u32[0] = (u32[0] - 1) >>> 0;
  }
  return f64[0];
}

function checksum(h, values, n) {
  const bits = new Uint32Array(values.buffer, values.byteOffset, n * 2);
  for (let i = 0; i < 2 * n; i++) h = Math.imul(h ^ bits[i], 16777619) >>> 0;
  return h;
}

function generated(n, seed, kind) {
  const h = new Float64Array(n);
  let x = seed >>> 0 || 0x9E3779B9;
  for (let i = 0; i < n; i++) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    if (kind === 0) h[i] = (x % 100000) / 1000;
    else if (kind === 1) h[i] = x % 8 === 0 ? 0 : 20 + (x % 61);
    else h[i] = x % 4 === 0 ? 0 : (x % 1000003) / 1e7;
  }
  return h;
}

// ---------------------------------------------------------------- the operation generator

/** SplitMix64 on BigInt is slow; a 32-bit generator (mulberry32) is enough to pick operations. */
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, below: (n) => Math.floor(next() * n), chance: (p) => next() < p };
}

const NAMES = ["default", "subtitle", "value1", "value2", "", "café", "行", "a b", "🙂", "x".repeat(300)];

/**
 * A height for an explicit list: mostly valid (thousandths, which the tree rounds to multiples of
 * 2^-16), some zeros, -0 and denormals (stored as 0), rarely 1e10; `huge` sessions sometimes add
 * 2^36, so totals reach the limit of 2^37 (RK_ERR_OVERFLOW). `badRate` of them are invalid, 2^37
 * and 1e308 (too large) among them.
 */
function height(r, badRate, huge) {
  if (r.chance(badRate)) return [NaN, Infinity, -Infinity, -1, -5e-324, -0.001, 2 ** 37, 1e308][r.below(8)];
  const k = r.below(1000);
  if (k < 80) return 0;
  if (k < 100) return -0;
  if (k < 110) return 5e-324;
  if (k < 111) return huge && r.chance(0.5) ? 2 ** 36 : 1e10 + r.below(1000);
  if (k < 250) return r.below(200);
  return r.below(100000) / 1000;
}

/** An index: mostly valid, sometimes one past, sometimes unrepresentable in the module's size_t. */
function indexFor(r, limit) {
  const k = r.below(40);
  if (k === 0) return -1;
  if (k === 1) return limit + 1 + r.below(3);
  if (k === 2) return 2 ** 32 + r.below(Math.max(1, limit)); // wraps to a valid index if truncated
  if (k === 3) return 2 ** 40 + 7;
  if (k === 4) return limit;
  return r.below(limit + 1);
}

function yFor(r, total) {
  const k = r.below(30);
  if (k === 0) return NaN;
  if (k === 1) return -r.next() * 10;
  if (k === 2) return total;
  if (k === 3) return Infinity;
  if (k === 4) return -0;
  return (r.next() * 1.02 - 0.01) * total;
}

/**
 * One session's operations. `shape` sets the tree's size: "small" (up to ~1,000 rows, leaves and
 * one level), "medium" (~20,000 rows, two levels), "large" (1,000,000 rows, three levels), "kinds"
 * (the pool's kind limit).
 */
function session(seed, shape) {
  const r = random(seed * 7919 + 17);
  const huge = seed % 8 === 5;
  const ops = [];
  let count = 0, total = 0, kinds = 0;
  const interned = new Set();
  const emitHeights = (n, badRate) => {
    const hs = [];
    let ok = true, sum = 0;
    for (let i = 0; i < n; i++) {
      const h = height(r, badRate, huge);
      if (!(h >= 0 && h < 2 ** 37)) ok = false;
      sum += h;
      hs.push(hex(h));
    }
    return { text: hs.join(" "), ok, sum };
  };
  const build = () => {
    if (shape === "large") {
      ops.push("tg 1000000 " + (seed + 1) + " " + r.below(3));
      count = 1e6;
      total = 5e7;
    } else if (shape === "medium" || r.chance(0.3)) {
      const n = shape === "medium" ? 8000 + r.below(30000) : r.below(1500);
      ops.push("tg " + n + " " + r.below(2 ** 32) + " " + r.below(3));
      count = n;
      total = n * 40;
    } else {
      const n = r.below(300);
      const h = emitHeights(n, 0.01);
      ops.push("tb " + n + (n ? " " + h.text : ""));
      if (h.ok) {
        count = n;
        total = h.sum;
      }
    }
  };

  ops.push("pc " + [0, 1, 2, 3, 8, 32, 2 ** 31, 2 ** 32 - 1][r.below(8)], "tc");
  build();
  if (shape === "kinds") {
    const hexOf = (name) => Buffer.from(name, "utf8").toString("hex");
    ops.push("pM 65537", "pk", "pi " + hexOf("m7"), "pi " + hexOf("one more"), "pn 65535", "pn 65536", "pz");
    return ops;
  }
  const length = shape === "large" ? 600 : 2500;
  for (let i = 0; i < length; i++) {
    const k = r.below(100);
    if (k < 10) ops.push("to " + indexFor(r, count));
    else if (k < 14) ops.push("th " + indexFor(r, count));
    else if (k < 22) ops.push("ti " + hex(yFor(r, total)));
    else if (k < 28) {
      const y0 = yFor(r, total);
      ops.push("tr " + hex(y0) + " " + hex(r.chance(0.8) ? y0 + r.next() * 900 : yFor(r, total)));
    } else if (k < 33) ops.push("tp " + indexFor(r, count));
    else if (k < 37) {
      const n = r.chance(0.7) ? r.below(9) : r.below(count + 2);
      ops.push("tR " + indexFor(r, Math.max(0, count - n)) + " " + (r.chance(0.05) ? -1 : n) + " " + r.below(2));
    } else if (k < 45) {
      const h = height(r, 0.1, huge);
      ops.push("ts " + indexFor(r, count - 1) + " " + hex(h));
      if (h >= 0 && h < 2 ** 37) total += h;
    } else if (k < 48) {
      const n = r.below(shape === "large" ? 3000 : 200);
      const h = emitHeights(n, 0.003);
      ops.push("tS " + indexFor(r, Math.max(0, count - n)) + " " + n + (n ? " " + h.text : ""));
    } else if (k < 56) {
      const n = r.chance(0.6) ? 1 : r.below(r.chance(0.1) ? 2000 : 150);
      const at = indexFor(r, count);
      const h = emitHeights(n, 0.004);
      ops.push("tI " + at + " " + n + (n ? " " + h.text : ""));
      if (h.ok && at >= 0 && at <= count) {
        count += n;
        total += h.sum;
      }
    } else if (k < 59) {
      const n = r.below(r.chance(0.2) && shape !== "large" ? count + 10 : 3000);
      const at = indexFor(r, count);
      ops.push("tG " + at + " " + n + " " + r.below(2 ** 32) + " " + r.below(3));
      if (at >= 0 && at <= count) {
        count += n;
        total += n * 40;
      }
    } else if (k < 67) {
      const n = r.chance(0.5) ? 1 : r.below(r.chance(0.1) ? count + 2 : 400);
      const at = indexFor(r, Math.max(0, count - n));
      ops.push("tX " + at + " " + (r.chance(0.03) ? 2 ** 32 + n : n));
      if (at >= 0 && n <= count - at) {
        total = total * (count - n) / Math.max(1, count);
        count -= n;
      }
    } else if (k < 68) ops.push(["tO " + indexFor(r, count), "tB", "tN"][r.below(3)]);
    else if (k < 69) {
      if (r.chance(0.3)) {
        ops.push("td", "tc"); // a tree always exists: the runners take it for granted
        count = 0;
        total = 0;
      } else {
        build();
      }
    } else if (k < 71) ops.push("tv");
    else {
      // the pool
      const kind = () => (r.chance(0.05) ? [kinds, kinds + 5, -1, 2 ** 32 - 1][r.below(4)] : r.below(Math.max(1, kinds)));
      const j = r.below(100);
      if (j < 8) {
        const name = NAMES[r.below(NAMES.length)];
        ops.push("pi " + Buffer.from(name, "utf8").toString("hex"));
        interned.add(name);
        kinds = interned.size;
      } else if (j < 40) ops.push("pp " + kind() + " " + r.below(2 ** 32));
      else if (j < 70) ops.push("pt " + kind());
      else if (j < 75) ops.push("pC " + kind());
      else if (j < 78) ops.push("pK " + kind());
      else if (j < 83) ops.push("ps " + kind() + " " + [0, 1, 2, 5, 16, 2 ** 32 - 1][r.below(6)]);
      else if (j < 88) ops.push("pm " + kind());
      else if (j < 91) ops.push("pD");
      else if (j < 94) ops.push("pz");
      else if (j < 96) ops.push("pk");
      else if (j < 98) ops.push("pn " + kind());
      else if (j < 99) ops.push("pN");
      else {
        ops.push("pd", "pc " + [0, 1, 4, 32][r.below(4)]);
        interned.clear();
        kinds = 0;
      }
    }
  }
  ops.push("tv", "pz", "td", "pd");
  return ops;
}

// ---------------------------------------------------------------- the module side

function runModule(core, ops) {
  const x = core.exports;
  let tree = null, pool = null;
  const out = [];
  const state = () => " c=" + tree.count() + " t=" + hex(tree.total());
  const status = (e) => {
    if (e instanceof RowKitCore.RowKitCoreError) return e.code + (e.code === "RK_ERR_HEIGHT" && e.badIndex !== undefined ? " bad=" + e.badIndex : "");
    throw e;
  };
  const item = (i) => (i === RowKitCore.NOT_FOUND ? "NOT_FOUND" : String(i));
  const name = (s) => RowKitCore.STATUS_NAMES[s];
  const pair = [0, 0], drained = [0, 0];
  const heightsOf = (t, from, k) => {
    const h = new Float64Array(k);
    for (let i = 0; i < k; i++) h[i] = fromHex(t[from + i]);
    return h;
  };
  const build = (h) => {
    try {
      const t = core.buildTree(h);
      if (tree) tree.destroy();
      tree = t;
      return "RK_OK" + state();
    } catch (e) {
      return status(e);
    }
  };
  const insert = (at, h) => {
    try {
      tree.insert(at, h.length === 1 ? h[0] : h); // one row goes as a number
      return "RK_OK" + state();
    } catch (e) {
      return status(e) + state();
    }
  };
  for (const line of ops) {
    try {
      out.push(runOne(line));
    } catch (e) {
      out.push("TRAP " + e.message); // a trap or a wrapper bug: a difference, not a crash
    }
  }
  if (tree) tree.destroy();
  if (pool) pool.destroy();
  return out;

  function runOne(line) {
    const t = line.split(" "), op = t[0], n = (i) => Number(t[i]);
    let r;
    switch (op) {
      case "tc": {
        const fresh = core.createTree();
        if (tree) tree.destroy();
        tree = fresh;
        r = "RK_OK" + state();
        break;
      }
      case "tb": r = build(heightsOf(t, 2, n(1))); break;
      case "tg": r = build(generated(n(1), n(2), n(3))); break;
      case "tB": r = name(x.rk_offset_tree_build(core._out, WASM_MAX_COUNT + 1, core._out + 8, 0)); break;
      case "td": tree.destroy(); tree = null; r = "OK"; break;
      case "th":
      case "to":
        try {
          r = "RK_OK " + hex(op === "th" ? tree.height(n(1)) : tree.offset(n(1)));
        } catch (e) {
          r = status(e);
        }
        break;
      case "ti": r = item(tree.itemAt(fromHex(t[1]))); break;
      case "tr": tree.range(fromHex(t[1]), fromHex(t[2]), pair); r = pair[0] + " " + pair[1]; break;
      case "tR": {
        const first = n(1), k = n(2), withOffsets = t[3] === "1";
        const room = Math.max(0, Math.min(k, tree.count()));
        const h = new Float64Array(room), o = new Float64Array(room);
        try {
          tree.read(first, k, h, withOffsets ? o : undefined);
          let c = checksum(2166136261, h, k);
          if (withOffsets) c = checksum(c, o, k);
          r = "RK_OK " + c.toString(16).padStart(8, "0");
          for (let i = 0; i < k && k <= 8; i++) r += " " + hex(h[i]) + (withOffsets ? "@" + hex(o[i]) : "");
        } catch (e) {
          r = status(e);
        }
        break;
      }
      case "ts":
        try {
          tree.set(n(1), fromHex(t[2]));
          r = "RK_OK" + state();
        } catch (e) {
          r = status(e) + state();
        }
        break;
      case "tS":
        try {
          tree.setRange(n(1), heightsOf(t, 3, n(2)));
          r = "RK_OK" + state();
        } catch (e) {
          r = status(e) + state();
        }
        break;
      case "tI": r = insert(n(1), heightsOf(t, 3, n(2))); break;
      case "tG": r = insert(n(1), generated(n(2), n(3), n(4))); break;
      case "tO": {
        const k = WASM_MAX_COUNT - tree.count() + 1;
        const at = (n(1) >>> 0) === n(1) ? n(1) : -1;
        r = name(x.rk_offset_tree_insert(tree.ptr, at, core._out, k, 0)) + state();
        break;
      }
      case "tX":
        try {
          tree.remove(n(1), n(2));
          r = "RK_OK" + state();
        } catch (e) {
          r = status(e) + state();
        }
        break;
      case "tv": {
        const c = tree.count(), h = new Float64Array(c), o = new Float64Array(c);
        tree.read(0, c, h, o);
        r = "RK_OK " + checksum(checksum(2166136261, h, c), o, c).toString(16).padStart(8, "0") + state();
        break;
      }
      case "tp":
        try {
          const y = tree.offset(n(1)), below = step(y, false), above = step(y, true);
          r = "RK_OK " + item(tree.itemAt(y)) + " " + item(tree.itemAt(below)) + " " + item(tree.itemAt(above));
          tree.range(below, y, pair);
          r += " " + pair[0] + "-" + pair[1];
          tree.range(y, above, pair);
          r += " " + pair[0] + "-" + pair[1];
        } catch (e) {
          r = status(e);
        }
        break;
      case "tN": {
        const p = tree.ptr, o = core._out;
        r = [
          x.rk_offset_tree_create(0), x.rk_offset_tree_build(0, 0, 0, 0), x.rk_offset_tree_build(0, 3, o + 8, 0),
          x.rk_offset_tree_read(p, 0, 1, 0, 0), x.rk_offset_tree_read(p, 0, 0, 0, 0),
          x.rk_offset_tree_set_range(p, 0, 0, 1, 0), x.rk_offset_tree_insert(p, 0, 0, 1, 0),
          x.rk_offset_tree_insert(p, 0, 0, 0, 0), x.rk_offset_tree_insert(p, 0, o, 0, 0),
        ].map(name).join(" ") + state();
        break;
      }
      case "pc": {
        const fresh = core.createPool(n(1));
        if (pool) pool.destroy();
        pool = fresh;
        r = "RK_OK";
        break;
      }
      case "pd": pool.destroy(); pool = null; r = "OK"; break;
      case "pi":
        try {
          r = "RK_OK " + pool.intern(Buffer.from(t[1] || "", "hex").toString("utf8"));
        } catch (e) {
          r = status(e);
        }
        break;
      case "pk": r = String(pool.kindCount()); break;
      case "pn": {
        const s = pool.identifier(n(1));
        r = s === null ? "NULL" : "s:" + Buffer.from(s, "utf8").toString("hex");
        break;
      }
      case "pp":
        try {
          const evicted = pool.put(n(1), n(2));
          r = "RK_OK" + (evicted === -1 ? " none" : " evicted=" + evicted);
        } catch (e) {
          r = status(e);
        }
        break;
      case "pt":
      case "pm":
        try {
          const h = op === "pt" ? pool.take(n(1)) : pool.trim(n(1));
          r = h === -1 ? "RK_ERR_EMPTY" : "RK_OK " + h;
        } catch (e) {
          r = status(e);
        }
        break;
      case "pC": r = String(pool.count(n(1))); break;
      case "pK": r = String(pool.capacity(n(1))); break;
      case "ps":
        try {
          pool.setCapacity(n(1), n(2));
          r = "RK_OK";
        } catch (e) {
          r = status(e);
        }
        break;
      case "pD": {
        const d = pool.drain(drained);
        r = d === null ? "RK_ERR_EMPTY" : "RK_OK " + d[0] + " " + d[1];
        break;
      }
      case "pz": {
        const c = pool.counters();
        r = c.hits + " " + c.misses + " " + c.evictions;
        break;
      }
      case "pM": {
        let ok = 0, last = "RK_OK";
        for (let i = 0; i < n(1); i++) {
          try {
            pool.intern("m" + i);
            ok++;
          } catch (e) {
            last = status(e);
          }
        }
        r = ok + " " + last + " kinds=" + pool.kindCount();
        break;
      }
      case "pN": {
        const p = pool.ptr, o = core._out;
        r = [
          x.rk_reuse_pool_create(4, 0), x.rk_reuse_pool_intern(p, 0, o + 8), x.rk_reuse_pool_put(p, 0, 1, 0, 0),
          x.rk_reuse_pool_put(p, 0, 1, o + 8, 0), x.rk_reuse_pool_take(p, 0, 0), x.rk_reuse_pool_trim(p, 0, 0),
          x.rk_reuse_pool_drain(p, 0, o + 12), x.rk_reuse_pool_set_capacity(0, 0, 1),
        ].map(name).join(" ");
        break;
      }
      default: r = "unknown operation " + op;
    }
    return r;
  }
}

// ---------------------------------------------------------------- the comparison

function shapeOf(i) {
  if (i === 0) return "kinds";
  if (i === 1 || i === 2) return "large";
  return i % 3 === 0 ? "medium" : "small";
}

async function main() {
  const core = await RowKitCore.load(require(path.resolve(args.module)));
  const tally = new Map();
  let operations = 0;
  for (let i = 0; i < args.sessions; i++) {
    const seed = args.seed * 1000 + i, shape = shapeOf(i);
    const ops = session(seed, shape);
    const text = ops.join("\n") + "\n";
    const native = spawnSync(args.native, [], { input: text, maxBuffer: 1 << 30, encoding: "utf8" });
    if (native.status !== 0) {
      console.error("differential: the native runner failed (" + (native.error || native.signal || native.status) + ")\n" + native.stderr);
      process.exit(1);
    }
    const expected = native.stdout.split("\n").slice(0, -1);
    const actual = runModule(core, ops);
    if (args.keep) {
      fs.mkdirSync(args.keep, { recursive: true });
      fs.writeFileSync(path.join(args.keep, "session-" + seed + ".ops"), text);
      fs.writeFileSync(path.join(args.keep, "session-" + seed + ".native"), native.stdout);
      fs.writeFileSync(path.join(args.keep, "session-" + seed + ".wasm"), actual.join("\n") + "\n");
    }
    for (let j = 0; j < Math.max(expected.length, actual.length); j++) {
      if (expected[j] !== actual[j]) {
        const shown = (s) => (s === undefined ? "(nothing)" : s.length > 300 ? s.slice(0, 300) + "..." : s);
        console.error("differential: session " + seed + " (" + shape + "), operation " + (j + 1) + " of " + ops.length + ":");
        console.error("  operation: " + shown(ops[j]));
        console.error("  native:    " + shown(expected[j]));
        console.error("  wasm:      " + shown(actual[j]));
        console.error("rerun with --seed " + args.seed + " --keep DIR to keep every session's operations and outputs");
        process.exit(1);
      }
    }
    operations += ops.length;
    for (const line of expected) {
      for (const word of line.split(" ")) {
        if (/^(RK_|NOT_FOUND|NULL|CORRUPT)/.test(word)) tally.set(word, (tally.get(word) || 0) + 1);
      }
    }
  }
  // The test only means something if the sequences reach every outcome the API has.
  const needed = ["RK_OK", "RK_ERR_RANGE", "RK_ERR_HEIGHT", "RK_ERR_OVERFLOW", "RK_ERR_ARG", "RK_ERR_EMPTY", "NOT_FOUND", "NULL"];
  const missing = needed.filter((w) => !tally.has(w));
  if (missing.length > 0) {
    console.error("differential: the sequences never produced " + missing.join(", ") + "; the generator needs fixing");
    process.exit(1);
  }
  const counts = [...tally].sort().map(([w, c]) => w + " " + c).join(", ");
  console.log("differential: " + args.sessions + " sessions, " + operations + " operations, native and WebAssembly identical (" + counts + ")");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
