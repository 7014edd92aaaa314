/*
 * rowkit-core.js: RowKit's row-offset tree and cell reuse pool (the C core, compiled to WebAssembly
 * in rowkit-core.wasm.js) behind a small JavaScript API. A page loads both as classic scripts (so
 * it works from file://) and then:
 *
 *   RowKitCore.load().then((core) => {
 *     const tree = core.buildTree(heights);    // Float64Array or array of numbers
 *     tree.itemAt(y); tree.offset(i); tree.range(y0, y1, out); tree.set(i, h); tree.total();
 *     const pool = core.createPool(32);
 *     const kind = pool.intern("subtitle"); pool.put(kind, node); pool.take(kind);
 *     tree.destroy(); pool.destroy();           // frees their memory inside the module
 *   });
 *
 * Under node: RowKitCore = require("./rowkit-core.js"), RowKitCore.load(require("./rowkit-core.wasm.js")).
 *
 * Conventions (the C headers in CCore/include/ are the reference for every call):
 * - Indices, counts and kinds are integers. One the module cannot represent (negative, fractional,
 *   NaN, 2^32 or more) is passed on as the largest size_t, so the C core rejects it as out of
 *   range exactly as it rejects any other index past the end.
 * - Handles (what the pool holds) are integers in [0, 2^32), e.g. indices into the page's own
 *   array of row nodes; anything else fails with RK_ERR_ARG. Capacities of 2^32 or more are held
 *   as 2^32 - 1 (no limit in practice).
 * - A call the C core refuses throws a RowKitCoreError: `status` is the C status code, `code` its
 *   name (e.g. "RK_ERR_RANGE"), `badIndex` the first invalid height's position for RK_ERR_HEIGHT.
 *   The tree or pool is then exactly as it was.
 * - "Nothing there" is a sentinel, not an error: itemAt returns -1 (RowKitCore.NOT_FOUND); take and
 *   trim return -1 when the kind holds nothing; put returns -1 when nothing was evicted; drain
 *   returns null when the pool is empty.
 * - Results are numbers or are written into an `out` array the caller passes (range, drain, read,
 *   counters), so no call allocates on its normal path. Bulk heights go through one scratch block
 *   in the module's memory, kept between calls (and released after a transfer of more than
 *   RowKitCore.SCRATCH_KEEP heights).
 * - Memory is owned explicitly: each tree and pool lives in the module's memory until its
 *   destroy(); using it afterwards throws.
 */
(function (/** @type {any} */ root) {
  "use strict";

  const STATUS_NAMES = [
    "RK_OK", "RK_ERR_RANGE", "RK_ERR_HEIGHT", "RK_ERR_NOMEM", "RK_ERR_OVERFLOW", "RK_ERR_ARG",
    "RK_ERR_EMPTY", "RK_ERR_CORRUPT", "RK_ERR_UNSUPPORTED",
  ];
  const OK = 0, ERR_RANGE = 1, ERR_HEIGHT = 2, ERR_NOMEM = 3, ERR_ARG = 5, ERR_EMPTY = 6;
  const SIZE_MAX = 0xFFFFFFFF;
  const SCRATCH_KEEP = 65536;
  const MAX_DOUBLES = 0x1FFFFFFF; // the most doubles one block of a 32-bit memory can hold

  /** A status other than RK_OK from the C core. */
  class RowKitCoreError extends Error {
    constructor(status, call, badIndex) {
      const code = STATUS_NAMES[status] || "RK_ERR_UNKNOWN";
      super(call + ": " + code);
      this.name = "RowKitCoreError";
      this.status = status;
      this.code = code;
      this.badIndex = badIndex;
    }
  }

  /** An index, count or kind as the module's size_t: itself if representable, else SIZE_MAX. */
  function index(i) {
    return (i >>> 0) === i ? i : SIZE_MAX;
  }

  /** A capacity as size_t: integers >= 2^32 are held as SIZE_MAX; negative or fractional: null. */
  function capacity(c) {
    if (typeof c !== "number" || !Number.isInteger(c) || c < 0) return null;
    return c > SIZE_MAX ? SIZE_MAX : c;
  }

  function decodeBase64(text) {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  /** One instance of the module: its memory, its exports and the scratch space the wrappers share. */
  class Core {
    constructor(instance) {
      const x = instance.exports;
      /** The module's raw exports (the C functions, malloc, free, memory), for tests and tools. */
      this.exports = x;
      this.memory = x.memory;
      this._buffer = null;
      this.refresh();
      // Out-parameters of every call: f64 at OUT, two size_t at OUT + 8 and OUT + 12, the pool's
      // counters (3 x uint64) at OUT + 16.
      this._out = x.malloc(48);
      if (this._out === 0) throw new RowKitCoreError(ERR_NOMEM, "RowKitCore.load");
      this.refresh();
      this._scratch = [0, 0];
      this._scratchCap = [0, 0];
      this._encoder = new TextEncoder();
      this._decoder = new TextDecoder();
    }

    /**
     * Re-creates the views of the module's memory after it grew. Every wrapper call that can
     * allocate does this itself; call it only after calling `exports` directly.
     */
    refresh() {
      const buffer = this.memory.buffer;
      if (buffer === this._buffer) return;
      this._buffer = buffer;
      this.f64 = new Float64Array(buffer);
      this.u32 = new Uint32Array(buffer);
      this.u8 = new Uint8Array(buffer);
    }

    /** Byte address of a scratch block (slot 0 or 1) of at least `n` doubles; 0 if none fits. */
    _scratchFor(slot, n) {
      if (n <= this._scratchCap[slot]) return this._scratch[slot];
      const x = this.exports, old = this._scratchCap[slot];
      x.free(this._scratch[slot]);
      this._scratch[slot] = 0;
      this._scratchCap[slot] = 0;
      if (n > MAX_DOUBLES) return 0;
      const cap = Math.min(Math.max(n, 2 * old, 256), MAX_DOUBLES);
      const p = x.malloc(cap * 8);
      this.refresh();
      if (p === 0) return 0;
      this._scratch[slot] = p;
      this._scratchCap[slot] = cap;
      return p;
    }

    /** Gives back a scratch block that grew beyond SCRATCH_KEEP doubles. */
    _releaseLarge(slot) {
      if (this._scratchCap[slot] <= SCRATCH_KEEP) return;
      this.exports.free(this._scratch[slot]);
      this._scratch[slot] = 0;
      this._scratchCap[slot] = 0;
    }

    /** Copies `heights` into scratch slot 0 and returns its byte address (0 for none). */
    _stage(heights, call) {
      const n = heights.length;
      if (n === 0) return 0;
      const p = this._scratchFor(0, n);
      if (p === 0) throw new RowKitCoreError(ERR_NOMEM, call);
      this.f64.set(heights, p >>> 3);
      return p;
    }

    _fail(status, call, withBadIndex) {
      const bad = withBadIndex && status === ERR_HEIGHT ? this.u32[(this._out + 8) >>> 2] : undefined;
      return new RowKitCoreError(status, call, bad);
    }

    /** A new empty tree. */
    createTree() {
      const st = this.exports.rk_offset_tree_create(this._out + 8);
      this.refresh();
      if (st !== OK) throw this._fail(st, "createTree");
      return new Tree(this, this.u32[(this._out + 8) >>> 2]);
    }

    /** A tree of copies of `heights` (a Float64Array or array of numbers). O(n). */
    buildTree(heights) {
      const p = this._stage(heights, "buildTree");
      const st = this.exports.rk_offset_tree_build(p, heights.length, this._out + 12, this._out + 8);
      this.refresh();
      this._releaseLarge(0);
      if (st !== OK) throw this._fail(st, "buildTree", true);
      return new Tree(this, this.u32[(this._out + 12) >>> 2]);
    }

    /** A new empty pool whose kinds hold up to `defaultCapacity` handles (default 32). */
    createPool(defaultCapacity) {
      const c = capacity(defaultCapacity === undefined ? 32 : defaultCapacity);
      if (c === null) throw new RowKitCoreError(ERR_ARG, "createPool");
      const st = this.exports.rk_reuse_pool_create(c, this._out + 8);
      this.refresh();
      if (st !== OK) throw this._fail(st, "createPool");
      return new Pool(this, this.u32[(this._out + 8) >>> 2]);
    }

    /** Bytes of linear memory the module holds (it grows, never shrinks; freed blocks are reused). */
    memoryBytes() {
      return this.memory.buffer.byteLength;
    }
  }

  function destroyed(what) {
    throw new Error("RowKitCore: " + what + " used after destroy()");
  }

  /** An offset tree (rk_offset_tree.h): heights of a sequence of rows, their offsets and lookups. */
  class Tree {
    constructor(core, ptr) {
      this.core = core;
      this.ptr = ptr;
      this._pair = [0, 0];
    }

    /** Number of rows. O(1). */
    count() {
      const p = this.ptr;
      if (p === 0) destroyed("tree");
      return this.core.exports.rk_offset_tree_count(p) >>> 0;
    }

    /** Sum of all heights. O(1). */
    total() {
      const p = this.ptr;
      if (p === 0) destroyed("tree");
      return this.core.exports.rk_offset_tree_total(p);
    }

    /** Height of row `i`; throws RK_ERR_RANGE unless i < count. O(log n). */
    height(i) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("tree");
      const st = core.exports.rk_offset_tree_height(p, index(i), core._out);
      if (st !== OK) throw core._fail(st, "height");
      return core.f64[core._out >>> 3];
    }

    /** Offset of row `i` (i == count gives the total); throws RK_ERR_RANGE past that. O(log n). */
    offset(i) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("tree");
      // By value (RK_NO_OFFSET, -1, past the end): no store to and load from the module's memory.
      const y = core.exports.rk_offset_tree_offset_of(p, index(i));
      if (y < 0) throw core._fail(ERR_RANGE, "offset");
      return y;
    }

    /** The row whose [offset, offset + height) holds y, or -1 (NaN, y < 0, y >= total). O(log n). */
    itemAt(y) {
      const p = this.ptr;
      if (p === 0) destroyed("tree");
      return this.core.exports.rk_offset_tree_item_at(p, y);
    }

    /**
     * The rows [first, end) that intersect [y0, y1), written to out[0] and out[1] (both 0 when none
     * do); `out` defaults to an array owned by the tree, overwritten by the next call. O(log n).
     */
    range(y0, y1, out) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("tree");
      core.exports.rk_offset_tree_range(p, y0, y1, core._out + 8, core._out + 12);
      const o = out || this._pair, w = (core._out + 8) >>> 2;
      o[0] = core.u32[w];
      o[1] = core.u32[w + 1];
      return o;
    }

    /**
     * Copies the heights of rows [first, first + n) into `heights[0..<n]` and, if given, their
     * offsets into `offsets[0..<n]` (arrays or typed arrays the caller owns). Throws RK_ERR_RANGE
     * past the end, RK_ERR_ARG for a missing `heights` with n > 0. O(log count + n).
     */
    read(first, n, heights, offsets) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("tree");
      const f = index(first), k = index(n);
      // Scratch for at most `count` rows: a larger n is refused by the C core before it writes.
      const room = Math.min(k, core.exports.rk_offset_tree_count(p) >>> 0);
      let hp = 0, op = 0;
      if (heights && room > 0) {
        hp = core._scratchFor(0, room);
        if (offsets) op = core._scratchFor(1, room);
        if (hp === 0 || (offsets && op === 0)) throw new RowKitCoreError(ERR_NOMEM, "read");
      } else if (heights) {
        hp = core._out; // a valid address for a call that copies nothing or is refused
      }
      const st = core.exports.rk_offset_tree_read(p, f, k, hp, op);
      if (st !== OK) throw core._fail(st, "read");
      const f64 = core.f64, hb = hp >>> 3, ob = op >>> 3;
      for (let j = 0; j < k; j++) heights[j] = f64[hb + j];
      if (offsets) for (let j = 0; j < k; j++) offsets[j] = f64[ob + j];
      core._releaseLarge(0);
      core._releaseLarge(1);
      return heights;
    }

    /**
     * Sets row i's height; throws RK_ERR_RANGE, RK_ERR_HEIGHT (NaN, infinite, < 0, or 2^37 or more),
     * or RK_ERR_OVERFLOW when the new total of all heights would be 2^37 or more (the tree stays as
     * it was). O(log n).
     */
    set(i, height) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("tree");
      const st = core.exports.rk_offset_tree_set(p, index(i), height);
      if (st !== OK) throw core._fail(st, "set");
    }

    /**
     * Sets rows [first, first + heights.length) to `heights`; all or nothing. Throws RK_ERR_RANGE,
     * RK_ERR_HEIGHT, or RK_ERR_OVERFLOW when the new total would be 2^37 or more. O(log count + k).
     */
    setRange(first, heights) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("tree");
      const hp = core._stage(heights, "setRange");
      const st = core.exports.rk_offset_tree_set_range(p, index(first), hp, heights.length,
                                                       core._out + 8);
      core._releaseLarge(0);
      if (st !== OK) throw core._fail(st, "setRange", true);
    }

    /**
     * Inserts rows so the first becomes row `at`: `heights` is one height (a number) or an array.
     * All or nothing; throws RK_ERR_RANGE, RK_ERR_HEIGHT, RK_ERR_OVERFLOW, RK_ERR_NOMEM. O(k + log n).
     */
    insert(at, heights) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("tree");
      let hp, k;
      if (typeof heights === "number") {
        hp = core._out;
        k = 1;
        core.f64[hp >>> 3] = heights;
      } else {
        hp = core._stage(heights, "insert");
        k = heights.length;
      }
      const st = core.exports.rk_offset_tree_insert(p, index(at), hp, k, core._out + 8);
      core.refresh();
      core._releaseLarge(0);
      if (st !== OK) throw core._fail(st, "insert", true);
    }

    /** Removes rows [at, at + k); throws RK_ERR_RANGE, RK_ERR_NOMEM. O(k + log n). */
    remove(at, k) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("tree");
      const st = core.exports.rk_offset_tree_remove(p, index(at), index(k));
      core.refresh();
      if (st !== OK) throw core._fail(st, "remove");
    }

    /** Bytes the tree holds in the module's memory (see rk_offset_tree_bytes). O(1). */
    bytes() {
      const p = this.ptr;
      if (p === 0) destroyed("tree");
      return this.core.exports.rk_offset_tree_bytes(p) >>> 0;
    }

    /** Frees the tree; calling it again does nothing. */
    destroy() {
      if (this.ptr === 0) return;
      this.core.exports.rk_offset_tree_destroy(this.ptr);
      this.ptr = 0;
    }
  }

  /** A reuse pool (rk_reuse_pool.h): per-kind LIFO queues of handles that evict their oldest. */
  class Pool {
    constructor(core, ptr) {
      this.core = core;
      this.ptr = ptr;
      this._pair = [0, 0];
      this._counters = { hits: 0, misses: 0, evictions: 0 };
    }

    /** The kind of `identifier` (a string without NUL characters), interned on first use. */
    intern(identifier) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("pool");
      const text = String(identifier);
      if (text.indexOf("\0") !== -1) throw new RowKitCoreError(ERR_ARG, "intern");
      const room = text.length * 3 + 1;
      const sp = core._scratchFor(0, Math.ceil(room / 8));
      if (sp === 0) throw new RowKitCoreError(ERR_NOMEM, "intern");
      const written = core._encoder.encodeInto(text, core.u8.subarray(sp, sp + room - 1)).written;
      core.u8[sp + written] = 0;
      const st = core.exports.rk_reuse_pool_intern(p, sp, core._out + 8);
      core.refresh();
      if (st !== OK) throw core._fail(st, "intern");
      return core.u32[(core._out + 8) >>> 2];
    }

    /** Number of interned kinds. */
    kindCount() {
      const p = this.ptr;
      if (p === 0) destroyed("pool");
      return this.core.exports.rk_reuse_pool_kind_count(p) >>> 0;
    }

    /** The identifier of `kind`, or null if it was never interned. */
    identifier(kind) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("pool");
      const s = core.exports.rk_reuse_pool_identifier(p, index(kind)) >>> 0;
      if (s === 0) return null;
      let e = s;
      while (core.u8[e] !== 0) e++;
      return core._decoder.decode(core.u8.subarray(s, e));
    }

    /**
     * Puts `handle` on top of `kind`'s queue. Returns the handle the pool hands back because the
     * kind was full (its oldest; the put handle itself at capacity 0), or -1 when none was.
     * Throws RK_ERR_RANGE for an unknown kind, RK_ERR_ARG for a handle outside [0, 2^32).
     */
    put(kind, handle) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("pool");
      if ((handle >>> 0) !== handle) throw new RowKitCoreError(ERR_ARG, "put");
      const o = core._out;
      const st = core.exports.rk_reuse_pool_put(p, index(kind), handle, o + 8, o + 12);
      core.refresh();
      if (st !== OK) throw core._fail(st, "put");
      return core.u32[(o + 8) >>> 2] !== 0 ? core.u32[(o + 12) >>> 2] : -1;
    }

    /** Takes the newest handle of `kind`, or -1 when it holds none (a miss). RK_ERR_RANGE: unknown kind. */
    take(kind) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("pool");
      const st = core.exports.rk_reuse_pool_take(p, index(kind), core._out + 8);
      if (st === ERR_EMPTY) return -1;
      if (st !== OK) throw core._fail(st, "take");
      return core.u32[(core._out + 8) >>> 2];
    }

    /** Handles `kind` holds (0 for an unknown kind). */
    count(kind) {
      const p = this.ptr;
      if (p === 0) destroyed("pool");
      return this.core.exports.rk_reuse_pool_count(p, index(kind)) >>> 0;
    }

    /** `kind`'s capacity (0 for an unknown kind). */
    capacity(kind) {
      const p = this.ptr;
      if (p === 0) destroyed("pool");
      return this.core.exports.rk_reuse_pool_capacity(p, index(kind)) >>> 0;
    }

    /** Sets `kind`'s capacity; handles beyond a smaller one stay until trimmed. */
    setCapacity(kind, cap) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("pool");
      const c = capacity(cap);
      if (c === null) throw new RowKitCoreError(ERR_ARG, "setCapacity");
      const st = core.exports.rk_reuse_pool_set_capacity(p, index(kind), c);
      if (st !== OK) throw core._fail(st, "setCapacity");
    }

    /** Hands back `kind`'s oldest handle while it holds more than its capacity, else -1. */
    trim(kind) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("pool");
      const st = core.exports.rk_reuse_pool_trim(p, index(kind), core._out + 8);
      if (st === ERR_EMPTY) return -1;
      if (st !== OK) throw core._fail(st, "trim");
      return core.u32[(core._out + 8) >>> 2];
    }

    /**
     * Hands back one handle of any kind as out[0] = kind, out[1] = handle (`out` defaults to an
     * array owned by the pool), or returns null when the pool is empty. For teardown.
     */
    drain(out) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("pool");
      const w = (core._out + 8) >>> 2;
      const st = core.exports.rk_reuse_pool_drain(p, core._out + 8, core._out + 12);
      if (st === ERR_EMPTY) return null;
      if (st !== OK) throw core._fail(st, "drain");
      const o = out || this._pair;
      o[0] = core.u32[w];
      o[1] = core.u32[w + 1];
      return o;
    }

    /** Lifetime counters {hits, misses, evictions}, written into `out` (default: the pool's own). */
    counters(out) {
      const p = this.ptr, core = this.core;
      if (p === 0) destroyed("pool");
      const at = core._out + 16;
      core.exports.rk_reuse_pool_counters(at, p); // a returned struct goes through a pointer
      const w = at >>> 2, u = core.u32, o = out || this._counters;
      o.hits = u[w] + u[w + 1] * 4294967296;
      o.misses = u[w + 2] + u[w + 3] * 4294967296;
      o.evictions = u[w + 4] + u[w + 5] * 4294967296;
      return o;
    }

    /** Frees the pool's memory (not what its handles stand for: drain first); again: nothing. */
    destroy() {
      if (this.ptr === 0) return;
      this.core.exports.rk_reuse_pool_destroy(this.ptr);
      this.ptr = 0;
    }
  }

  const RowKitCore = {
    /**
     * Instantiates the module: `source` is its bytes (Uint8Array, ArrayBuffer), its base64 text
     * or a WebAssembly.Module; by default the base64 text rowkit-core.wasm.js defines. Resolves to
     * a Core with createTree, buildTree and createPool.
     */
    load(source) {
      let s = source === undefined ? root.RowKitCoreWasm : source;
      if (s === undefined) {
        return Promise.reject(new Error("RowKitCore: load rowkit-core.wasm.js before rowkit-core.js"));
      }
      if (typeof s === "string") s = decodeBase64(s);
      return WebAssembly.instantiate(s, {}).then((r) => new Core(r.instance || r));
    },
    NOT_FOUND: -1,
    SCRATCH_KEEP: SCRATCH_KEEP,
    STATUS_NAMES: STATUS_NAMES,
    RowKitCoreError: RowKitCoreError,
  };

  if (typeof module === "object" && module.exports) module.exports = RowKitCore;
  else root.RowKitCore = RowKitCore;
})(typeof globalThis !== "undefined" ? globalThis : this);
