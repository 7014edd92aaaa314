// The live script's changeset arithmetic under node (node --test Tests/JS): old -> new flat rows,
// sections, the outline after a change, the tree edits and the anchor, on synthetic payloads as
// `rowkit serve` sends them (docs/live.md). Run by scripts/test.sh.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const live = require("../../Templates/assets/live.js");
const { Outline } = require("../../Templates/assets/listing.js");

test("rows that stay keep their order: new = old - deletes before + inserts before", () => {
  // Old rows a b c d e; delete b (1) and d (3); insert x at 0 and y at 3: x a c y e.
  const map = new live.RowMap({ delete: [1, 3], insert: [[0, []], [3, []]] });
  assert.deepEqual([0, 1, 2, 3, 4].map((row) => map.map(row)), [1, -1, 2, -1, 4]);
});

test("a moved row leaves its place: the view anchors to the next row that stays", () => {
  // a b c d: b moves to the end (a c d b).
  const payload = { delete: [1], insert: [[3, []]], move: [[1, 3]] };
  const map = new live.RowMap(payload);
  assert.equal(map.moved.get(1), 3);
  assert.deepEqual([0, 1, 2, 3].map((row) => map.map(row)), [0, -1, 1, 2]);
  assert.equal(map.anchor(1, 4), 1, "the anchor goes to c, now row 1");
  assert.equal(map.anchor(0, 4), 0);
});

test("the anchor skips deleted rows forward, then backward, and says when nothing stays", () => {
  const map = new live.RowMap({ delete: [2, 3], insert: [] });
  assert.equal(map.anchor(2, 4), 1, "no row after: the last one before (row 1)");
  assert.equal(new live.RowMap({ delete: [0, 1], insert: [[0, []]] }).anchor(0, 2), -1);
  assert.equal(new live.RowMap({ delete: [1], insert: [[0, []], [1, []]] }).anchor(1, 3), 3);
});

test("100 rows inserted above the anchor move it down by 100", () => {
  const insert = Array.from({ length: 100 }, (_, i) => [i, []]);
  const map = new live.RowMap({ delete: [], insert });
  assert.equal(map.anchor(500, 1000), 600);
});

test("sections: deleted ones map to -1, the others shift around inserts", () => {
  const payload = { sections: { delete: [1], insert: [[0, 1, "n", "N", "", ""], [3, 2, "m", "", "", ""]] } };
  assert.deepEqual(live.sectionMap(payload, 4), [1, -1, 2, 4]);
});

test("the outline after a change: kept, inserted and reloaded sections, first rows from the sizes", () => {
  const old = [[0, 2, "a", "A"], [2, 3, "b", "B", "foot"], [5, 1, "c"]];
  const payload = { sections: { delete: [1], insert: [[1, 4, "d", "D", "", "D"]], reload: [[0, "a", "A2", "", "A"]] } };
  assert.deepEqual(live.applySections(old, payload, [2, 4, 1]), [
    [0, 2, "a", "A2", "", "A"], [2, 4, "d", "D", "", "D"], [6, 1, "c", "", "", ""],
  ]);
  assert.throws(() => live.applySections(old, { sections: { delete: [0] } }, [3, 1, 1]));
});

/** A seeded pseudo-random number generator (mulberry32). */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A listing: sections of row identities. */
function makeListing(next, sections, rows) {
  return Array.from({ length: sections }, (_, s) => ({ id: "s" + s, rows: Array.from({ length: rows }, () => "r" + next()) }));
}

/** The payload from `old` to `now`, as the server makes it: rows of deleted (inserted) sections
    and rows that left (arrived) are deletes (inserts); a delete and an insert of one id are a move. */
function payloadOf(old, now) {
  const flat = (listing) => listing.flatMap((section) => section.rows.map((id) => ({ id, section: section.id })));
  const before = flat(old), after = flat(now);
  const keptSections = old.map((s) => s.id).filter((id) => now.some((t) => t.id === id));
  const sectionDelete = old.map((s, i) => (keptSections.includes(s.id) ? -1 : i)).filter((i) => i >= 0);
  const sectionInsert = now.map((s, i) => (keptSections.includes(s.id) ? -1 : i)).filter((i) => i >= 0);
  // Rows that stay: the longest run in order of rows in kept sections present on both sides (greedy
  // here: the rows of the new listing in kept sections, in order, that are in order in the old).
  const oldIndex = new Map(before.map((row, i) => [row.id, i]));
  const staying = new Set();
  let last = -1;
  after.forEach((row) => {
    const i = oldIndex.get(row.id);
    if (i !== undefined && i > last && keptSections.includes(row.section) && before[i].section === row.section) {
      staying.add(row.id);
      last = i;
    }
  });
  const del = before.map((row, i) => (staying.has(row.id) ? -1 : i)).filter((i) => i >= 0);
  const ins = after.map((row, i) => (staying.has(row.id) ? -1 : i)).filter((i) => i >= 0);
  const newIndex = new Map(after.map((row, i) => [row.id, i]));
  const move = del.filter((i) => newIndex.has(before[i].id) && ins.includes(newIndex.get(before[i].id)))
    .map((i) => [i, newIndex.get(before[i].id)]);
  const starts = [];
  now.reduce((first, section, i) => { starts[i] = first; return first + section.rows.length; }, 0);
  return {
    rows: after.length,
    sections: {
      delete: sectionDelete,
      insert: sectionInsert.map((i) => [i, now[i].rows.length, now[i].id, "", "", ""]),
      reload: [], move: [],
    },
    delete: del, insert: ins.map((i) => [i, [0, after[i].id]]), reload: [], move,
  };
}

/** The outline (s-.js sections) of a listing. */
function outlineOf(listing) {
  let first = 0;
  return listing.map((section) => { const entry = [first, section.rows.length, section.id, "", "", ""]; first += section.rows.length; return entry; });
}

/** The tree's items of a listing: a header, the rows, a footer per section. */
function itemsOf(listing) {
  return listing.flatMap((section) => ["head " + section.id, ...section.rows, "foot " + section.id]);
}

test("random changes: the row map, the outline and the tree edits replay the new listing", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const rand = random(seed);
    let counter = 0;
    const next = () => counter++;
    const old = makeListing(next, 1 + Math.floor(rand() * 4), Math.floor(rand() * 6));
    // Edit: delete rows and sections, insert rows and sections, move rows.
    const now = old.map((section) => ({ id: section.id, rows: section.rows.slice() })).filter(() => rand() > 0.15);
    for (const section of now) {
      section.rows = section.rows.filter(() => rand() > 0.25);
      const adds = Math.floor(rand() * 3);
      for (let k = 0; k < adds; k++) section.rows.splice(Math.floor(rand() * (section.rows.length + 1)), 0, "r" + next());
    }
    if (rand() < 0.3) now.splice(Math.floor(rand() * (now.length + 1)), 0, { id: "n" + next(), rows: ["r" + next(), "r" + next()] });
    const all = now.flatMap((section) => section.rows);
    if (all.length > 1 && rand() < 0.5) {
      // Move one row of the old listing that is still there to another kept section's start.
      const from = now[Math.floor(rand() * now.length)], to = now[Math.floor(rand() * now.length)];
      if (from.rows.length) to.rows.unshift(from.rows.splice(Math.floor(rand() * from.rows.length), 1)[0]);
    }
    const payload = payloadOf(old, now);
    const oldFlat = old.flatMap((s) => s.rows), newFlat = now.flatMap((s) => s.rows);
    const map = new live.RowMap(payload);
    oldFlat.forEach((id, row) => {
      const to = map.map(row);
      if (to >= 0) assert.equal(newFlat[to], id, "seed " + seed + ": row " + row);
    });
    const oldOutline = outlineOf(old), newOutline = outlineOf(now);
    assert.deepEqual(live.applySections(oldOutline, payload, newOutline.map((s) => s[1])), newOutline, "seed " + seed);
    const edits = live.treeEdits(payload, new Outline(oldOutline), new Outline(newOutline), oldOutline, newOutline);
    const items = itemsOf(old), target = itemsOf(now);
    edits.remove.forEach((item) => items.splice(item, 1));
    edits.insert.forEach((item) => items.splice(item, 0, target[item]));
    assert.deepEqual(items, target, "seed " + seed);
  }
});

test("section sizes follow from the changeset when no insert lies between two kept sections", () => {
  const old = [[0, 3, "a"], [3, 2, "b"]];
  // A row inserted inside section a (between its rows 0 and 1).
  assert.deepEqual(live.sectionSizes(old, { rows: 6, insert: [[1, []]], delete: [] }), [4, 2]);
  // A row inserted at the very start and one at the very end.
  assert.deepEqual(live.sectionSizes(old, { rows: 7, insert: [[0, []], [6, []]], delete: [] }), [4, 3]);
  // Between a's last row and b's first: either could take it.
  assert.equal(live.sectionSizes(old, { rows: 6, insert: [[3, []]], delete: [] }), null);
  // A section inserted between them, of two rows: known.
  assert.deepEqual(live.sectionSizes(old, { rows: 7, insert: [[3, []], [4, []]], delete: [],
    sections: { insert: [[1, 2, "n", "", "", ""]] } }), [3, 2, 2]);
  // Every row of a kept section deleted and one inserted: unknown.
  assert.equal(live.sectionSizes(old, { rows: 4, delete: [3, 4], insert: [[3, []]] }), null);
  // Rows deleted only.
  assert.deepEqual(live.sectionSizes(old, { rows: 3, delete: [0, 4], insert: [] }), [2, 1]);
});

test("random changes: section sizes, when known, are the listing's", () => {
  let known = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const rand = random(seed);
    let counter = 0;
    const next = () => counter++;
    const old = makeListing(next, 1 + Math.floor(rand() * 4), 1 + Math.floor(rand() * 6));
    const now = old.map((section) => ({ id: section.id, rows: section.rows.slice() })).filter(() => rand() > 0.15);
    for (const section of now) {
      section.rows = section.rows.filter(() => rand() > 0.25);
      const adds = Math.floor(rand() * 3);
      for (let k = 0; k < adds; k++) section.rows.splice(Math.floor(rand() * (section.rows.length + 1)), 0, "r" + next());
    }
    if (rand() < 0.3) now.splice(Math.floor(rand() * (now.length + 1)), 0, { id: "n" + next(), rows: ["r" + next(), "r" + next()] });
    const sizes = live.sectionSizes(outlineOf(old), payloadOf(old, now));
    if (sizes === null) continue;
    known += 1;
    assert.deepEqual(sizes, now.map((section) => section.rows.length), "seed " + seed);
  }
  assert.ok(known > 100, "sizes known for " + known + " of 300 changes");
});

/** `payload` with the section each inserted row joins in `now`, as the server sends it. */
function withSections(payload, now) {
  const section = now.flatMap((s, i) => s.rows.map(() => i));
  return { ...payload, insert: payload.insert.map((entry) => [entry[0], entry[1], section[entry[0]]]) };
}

test("random changes: with the section each inserted row joins, section sizes are always known", () => {
  for (let seed = 1; seed <= 300; seed++) {
    const rand = random(seed);
    let counter = 0;
    const next = () => counter++;
    const old = makeListing(next, 1 + Math.floor(rand() * 4), Math.floor(rand() * 6));
    const now = old.map((section) => ({ id: section.id, rows: section.rows.slice() })).filter(() => rand() > 0.15);
    for (const section of now) {
      section.rows = section.rows.filter(() => rand() > 0.25);
      const adds = Math.floor(rand() * 3);
      for (let k = 0; k < adds; k++) section.rows.splice(Math.floor(rand() * (section.rows.length + 1)), 0, "r" + next());
    }
    if (rand() < 0.3) now.splice(Math.floor(rand() * (now.length + 1)), 0, { id: "n" + next(), rows: ["r" + next(), "r" + next()] });
    const payload = withSections(payloadOf(old, now), now);
    assert.deepEqual(live.sectionSizes(outlineOf(old), payload), now.map((section) => section.rows.length), "seed " + seed);
  }
});

test("an inserted row's section settles what the rows alone leave open, and is checked", () => {
  const old = [[0, 3, "a"], [3, 2, "b"]];
  // Between a's last row and b's first: the row says which section it joins.
  assert.deepEqual(live.sectionSizes(old, { rows: 6, insert: [[3, [], 0]], delete: [] }), [4, 2]);
  assert.deepEqual(live.sectionSizes(old, { rows: 6, insert: [[3, [], 1]], delete: [] }), [3, 3]);
  // Every row of b deleted and one inserted into it.
  assert.deepEqual(live.sectionSizes(old, { rows: 4, delete: [3, 4], insert: [[3, [], 1]] }), [3, 1]);
  // A row that cannot be in the section it names, or a section that does not exist.
  assert.equal(live.sectionSizes(old, { rows: 6, insert: [[1, [], 1]], delete: [] }), null);
  assert.equal(live.sectionSizes(old, { rows: 6, insert: [[5, [], 2]], delete: [] }), null);
  // An inserted section whose count differs from its rows.
  assert.equal(live.sectionSizes(old, { rows: 6, insert: [[3, [], 1]], delete: [],
    sections: { insert: [[1, 2, "n", "", "", ""]] } }), null);
});

test("a table of one page draws a change from its records only when its sections stay", () => {
  const counts = [1, 4, 3];
  const record = [0, "New"];
  // A row inserted at the end of section 1 and one deleted from section 2: drawn at once.
  assert.deepEqual(live.recordSizes(counts, { rows: 8, delete: [6], insert: [[5, record, 1]], reload: [[0, record]] }), [1, 5, 2]);
  // A section inserted, deleted or with a new header: the page exported has its anchor and index entry.
  for (const sections of [{ insert: [[3, 1, "", "New", "", ""]] }, { delete: [0] }, { reload: [[0, "", "Header", "", ""]] }, { move: [[0, 1]] }]) {
    assert.equal(live.recordSizes(counts, { rows: 8, delete: [], insert: [], sections }), null, JSON.stringify(sections));
  }
  // A row without its record, a row deleted that the page does not have, rows that do not add up.
  assert.equal(live.recordSizes(counts, { rows: 9, delete: [], insert: [[5, null, 1]] }), null);
  assert.equal(live.recordSizes(counts, { rows: 7, delete: [8], insert: [] }), null);
  assert.equal(live.recordSizes(counts, { rows: 10, delete: [], insert: [[5, record, 1]] }), null);
  // Without the sections of inserted rows (an older server), only what the rows say.
  assert.equal(live.recordSizes(counts, { rows: 9, delete: [], insert: [[5, record]] }), null);
  assert.deepEqual(live.recordSizes(counts, { rows: 9, delete: [], insert: [[3, record]] }), [1, 5, 3]);
});

test("the site's root from a page's path", () => {
  assert.equal(live.siteRootOf("index.html"), "");
  assert.equal(live.siteRootOf("contacts/page-2.html"), "../");
});

test("events apply in the order they came: an export waits for the changeset before it", async () => {
  // A changeset arrives while the step before it still runs (its export's outline loading), and
  // its own `exported` right after it: the list must apply the changeset, then take the export.
  const log = [];
  let release;
  const slow = new Promise((resolve) => { release = resolve; });
  const follower = new live.Follower({
    changeset: (payload) => { log.push("apply " + payload.revision); },
    exported: (data, current) => {
      log.push("exported " + data.revision + (current ? "" : " (not current)"));
      return data.revision === 2 ? slow : undefined;
    },
    failed: (error) => { throw error; },
  }, 1);
  follower.exported({ revision: 2 });
  follower.changeset({ revision: 3, base: 2 });
  const done = follower.exported({ revision: 3 });
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(log, ["exported 2 (not current)"], "nothing runs past a step that is not done");
  release();
  await done;
  assert.deepEqual(log, ["exported 2 (not current)", "apply 3", "exported 3"]);
});

test("a changeset waiting for its export is released by it, though the export's step comes after", async () => {
  const log = [];
  const follower = new live.Follower({
    changeset: (payload, whenExported) => whenExported(payload.revision).then(() => { log.push("apply " + payload.revision); }),
    exported: (data, current) => { log.push("exported " + data.revision + (current ? "" : " (not current)")); },
    failed: (error) => { throw error; },
  }, 1);
  follower.changeset({ revision: 2, base: 1 });
  follower.changeset({ revision: 3, base: 2 });
  follower.exported({ revision: 2 });
  await follower.exported({ revision: 3 });
  assert.deepEqual(log, ["apply 2", "apply 3", "exported 2 (not current)", "exported 3"]);
  assert.equal(follower.onDisk, 3);
});

test("a step that fails is reported and the steps after it still run", async () => {
  const log = [];
  const follower = new live.Follower({
    changeset: (payload) => { if (payload.revision === 2) throw new Error("no"); log.push("apply " + payload.revision); },
    exported: () => {},
    failed: (error) => { log.push("failed: " + error.message); },
  }, 1);
  follower.changeset({ revision: 2 });
  await follower.changeset({ revision: 3 });
  assert.deepEqual(log, ["failed: no", "apply 3"]);
});
