// The search script's logic under node (node --test Tests/JS): folding, index file names, row
// lists, ranking, and the link policy of results. Run by scripts/test.sh.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const search = require("../../Templates/assets/search.js");

/** A table whose index files are the object `files` (name -> data), as the page loads them. */
function table(files) {
  return { file: (name) => Promise.resolve(name in files ? files[name] : null) };
}

test("foldWords folds case, marks, ligatures and spelled letters as SearchText.words does", () => {
  assert.deepEqual(search.foldWords("Ärger in der Straße"), ["arger", "in", "der", "strasse"]);
  assert.deepEqual(search.foldWords("ﬁne Œuvre, Łódź!"), ["fine", "oeuvre", "lodz"]);
  assert.deepEqual(search.foldWords("  --  "), []);
  assert.deepEqual(search.foldWords("R2-D2"), ["r2", "d2"]);
  assert.equal(search.foldWords("a".repeat(40))[0].length, 24, "a word is cut at 24 letters");
});

test("fileName escapes every scalar but [a-z0-9] as _hex_", () => {
  assert.equal(search.fileName("ada9"), "ada9");
  assert.equal(search.fileName("é"), "_e9_");
  assert.equal(search.fileName("a_b"), "a_5f_b");
  assert.equal(search.fileName("😀"), "_1f600_");
});

test("decodePostings reads base-32 deltas", () => {
  assert.deepEqual(search.decodePostings(""), []);
  assert.deepEqual(search.decodePostings("0"), [0]);
  assert.deepEqual(search.decodePostings("05"), [0, 6]);
  assert.deepEqual(search.decodePostings("x0"), [32], "a continuing digit carries 32");
  assert.deepEqual(search.decodePostings("x0w1"), [32, 34], "a continuing 0 digit");
  assert.deepEqual(search.decodePostings("300"), [3, 4, 5]);
});

test("a run mark adds the rows that follow a row", () => {
  assert.deepEqual(search.decodePostings("3~3"), [3, 4, 5, 6]);
  assert.deepEqual(search.decodePostings("0~3" + "4"), [0, 1, 2, 3, 8], "a gap counts from the run's last row");
  assert.deepEqual(search.decodePostings("5" + "0" + "~4" + "1"), [5, 6, 7, 8, 9, 10, 12]);
  assert.deepEqual(search.decodeRuns("0~x0" + "0"), { lo: [0], hi: [33] }, "a run of 32 and a row after it, one run");
  const million = search.decodeRuns("0~-MNv");
  assert.deepEqual(million, { lo: [0], hi: [999999] }, "a word in every row of a million is one run of few characters");
});

test("a bitmap string holds its first row, then five rows a character", () => {
  // First row 3; characters "b" (11: bits 0, 1, 3), "0" (none), "v" (31: all five).
  assert.deepEqual(search.decodePostings("!3b0v"), [3, 4, 6, 13, 14, 15, 16, 17]);
  assert.deepEqual(search.decodeRuns("!3b0v"), { lo: [3, 6, 13], hi: [4, 6, 17] });
  assert.deepEqual(search.decodePostings("!x01"), [32], "a first row of continuing digits");
  assert.deepEqual(search.decodeRuns("!0vvvv"), { lo: [0], hi: [19] }, "runs join across characters");
});

test("a list of runs in chunks seeks into the runs and across chunks", async () => {
  // "every": rows 0-299,999 (chunk 0) and 500,000-999,999 (chunk 1); "odd": 1-3, 400,000, 700,000.
  const files = {
    "t-": { r: 128, t: [["every", 800000, [0, 500000]], ["odd", 5, "1~2ICPsFA-v"]] },
    "p-every-0": "0~FA-v",
    "p-every-1": "LEF0~LEEv",
  };
  const found = await search.query(table(files), ["every", "odd"]);
  assert.deepEqual(found, { rows: [1, 2, 3, 700000], count: 4, exact: true },
    "400,000 is past chunk 0's last run: the seek goes on to chunk 1's first row");
});

test("rank puts rows matching more words whole first, then listing order", () => {
  assert.deepEqual(search.rank([1, 2, 3, 4], [1, 2, 1, 2]), [2, 4, 1, 3]);
  assert.deepEqual(search.rank([], []), []);
});

// "ada" is in row 5, "adam" in row 2, "lovelace" in rows 2 and 5, "byron" in row 9.
const index = {
  "t-": { r: 128, t: [["ada", 1, "5"], ["adam", 1, "2"], ["byron", 1, "9"], ["lovelace", 2, "22"]] },
};

test("a query of several words ranks rows that match more words whole first", async () => {
  const found = await search.query(table(index), ["ada", "lovelace"]);
  assert.deepEqual(found, { rows: [5, 2], count: 2, exact: true });
});

test("a query of one word lists the rows with the word itself, then the others", async () => {
  assert.deepEqual(await search.query(table(index), ["ada"]), { rows: [5, 2], count: 2, exact: true });
  assert.deepEqual(await search.query(table(index), ["lov"]), { rows: [2, 5], count: 2, exact: true });
});

test("a word of no row finds nothing, whatever the other words find", async () => {
  assert.deepEqual(await search.query(table(index), ["ada", "zzz"]), { rows: [], count: 0, exact: true });
  assert.deepEqual(await search.query(table({}), ["ada"]), { rows: [], count: 0, exact: true });
});

test("a trie node with children walks down to the file of the next letter", async () => {
  const files = {
    "t-": { r: 128, k: "a" },
    "t-a": { k: "d", a: [2, "22"] },
    "t-ad": { t: [["a", 1, "5"], ["am", 1, "2"]] },
  };
  assert.deepEqual(await search.query(table(files), ["ada"]), { rows: [5, 2], count: 2, exact: true });
  assert.deepEqual(await search.query(table(files), ["adam"]), { rows: [2], count: 1, exact: true });
  assert.deepEqual(await search.query(table(files), ["a"]), { rows: [2, 5], count: 2, exact: true });
  assert.deepEqual(await search.query(table(files), ["b"]), { rows: [], count: 0, exact: true });
});

test("a child whose leaf is packed with its siblings' is read from the pack, after its parent's prefix", async () => {
  const files = {
    "t-": { r: 128, k: ["a"], w: 0 },
    "t-a": { k: ["b", "d", "x", "z"], f: [1, 1, 0, 1], w: 0, a: [4, "02x"] },
    // The leaves of "ab", "ad" and "az" in one file named after "ab"; "ax" is a file of its own.
    "t-ab": { t: [["ba", 1, "0"], ["d", 1, "2"], ["do", 1, "3"], ["zure", 1, "9"]] },
    "t-ax": { t: [["e", 1, "7"]] },
  };
  const loaded = [];
  const seen = { file: (name) => { loaded.push(name); return Promise.resolve(name in files ? files[name] : null); } };
  assert.deepEqual(await search.query(seen, ["ad"]), { rows: [2, 3], count: 2, exact: true });
  assert.deepEqual(loaded, ["t-", "t-a", "t-ab"], "the pack is loaded, no file of its own");
  assert.deepEqual(await search.query(seen, ["azure"]), { rows: [9], count: 1, exact: true });
  assert.deepEqual(await search.query(seen, ["abb"]), { rows: [], count: 0, exact: true });
  assert.deepEqual(await search.query(seen, ["axe"]), { rows: [7], count: 1, exact: true });
  assert.deepEqual(await search.query(seen, ["ac"]), { rows: [], count: 0, exact: true });
});

test("a list of bitmap chunks seeks into them and across them", async () => {
  // Rows 0, 2, 4, ... 98 in chunk 0 (from row 0), 1000-1009 in chunk 1 (from row 1000).
  const files = {
    "t-": { r: 128, t: [["even", 60, [0, 1000]]] },
    "p-even-0": "!0" + "la".repeat(10),
    "p-even-1": "!_8vv",
  };
  const seen = { file: (name) => Promise.resolve(name in files ? files[name] : null) };
  const expected = Array.from({ length: 50 }, (_, i) => 2 * i).concat(Array.from({ length: 10 }, (_, i) => 1000 + i));
  assert.deepEqual(await search.query(seen, ["even"]), { rows: expected, count: 60, exact: true });
});

test("a small child of the root is read from the root's file, its children from files of their own", async () => {
  const files = {
    "t-": { r: 128, k: ["a", "b"], w: 0, e: [{ k: ["d"], w: 0, a: [2, "22"] }, 0] },
    "t-ad": { t: [["a", 1, "5"], ["am", 1, "2"]] },
    "t-b": { t: [["ee", 1, "7"]] },
  };
  const loaded = [];
  const seen = { file: (name) => { loaded.push(name); return Promise.resolve(name in files ? files[name] : null); } };
  assert.deepEqual(await search.query(seen, ["ada"]), { rows: [5, 2], count: 2, exact: true });
  assert.deepEqual(loaded, ["t-", "t-ad"], "no file of the child's own");
  assert.deepEqual(await search.query(seen, ["a"]), { rows: [2, 5], count: 2, exact: true });
  assert.deepEqual(await search.query(seen, ["ac"]), { rows: [], count: 0, exact: true });
  assert.deepEqual(await search.query(seen, ["bee"]), { rows: [7], count: 1, exact: true });
  assert.ok(loaded.includes("t-b") && !loaded.includes("t-a"));
});

test("results link within the link policy only, relative links under the table's folder", () => {
  const contacts = { hrefPrefix: "contacts/", root: "../" };
  assert.equal(search.resultHref(contacts, "rows/ada.html"), "contacts/rows/ada.html");
  assert.equal(search.resultHref(contacts, "https://example.com/a"), "https://example.com/a");
  assert.equal(search.resultHref(contacts, "mailto:ada@example.com"), "mailto:ada@example.com");
  for (const bad of ["javascript:alert(1)", "JaVaScRiPt:x", "data:text/html,x", "//evil.example", "\\\\evil", "vbscript:x"]) {
    assert.equal(search.resultHref(contacts, bad), null, bad);
  }
  // A list page's number: the row's place on that page.
  assert.equal(search.resultHref(contacts, 1, 0), "contacts/index.html#r-1");
  assert.equal(search.resultHref(contacts, 7, 3011), "contacts/page-7.html#r-3012");
  assert.equal(search.imageSource(contacts, "assets/images/a.png"), "../assets/images/a.png");
  assert.equal(search.imageSource(contacts, "https://example.com/a.png"), "https://example.com/a.png");
});

test("accessories follow the cell code's accessory bits", () => {
  assert.deepEqual(search.accessories(0), []);
  assert.deepEqual(search.accessories(1 << 2), [["chevron", "Show details"]]);
  assert.deepEqual(search.accessories(2 << 2), [["checkmark", "Selected"]]);
  assert.deepEqual(search.accessories(4 << 2 | 3), [["info", "More Info"], ["chevron", "Show details"]]);
});

test("the count and the empty search read as a sentence", () => {
  assert.equal(search.plural(1, true), "1 result");
  assert.equal(search.plural(1500, true), "1,500 results");
  assert.equal(search.plural(1000, false), "More than 1,000 results");
  assert.equal(search.summary(0, true, "  zzzz "), "No results for \u201Czzzz\u201D");
  assert.equal(search.summary(3, true, "a"), "3 results");
});

// ---- Excerpts of results found by a word of their body. ----

/** The text of excerpt pieces, marked pieces in [brackets]. */
function shown(pieces) {
  return pieces.map(([text, marked]) => (marked ? "[" + text + "]" : text)).join("");
}

test("a result shows an excerpt only for query words its cell does not show", () => {
  const row = [1, "Wi-Fi", "HomeNet", "rows/wifi.html", "", "", "", "Connected to HomeNet (WPA3, 5 GHz). Other networks: CafeGuest"];
  assert.deepEqual(search.wordsNotInCell(row, ["wi", "home"]), [], "both words begin words of the text and detail");
  assert.deepEqual(search.resultExcerpt(row, ["wi", "home"]), []);
  assert.deepEqual(search.wordsNotInCell(row, ["wi", "cafe"]), ["cafe"]);
  assert.equal(shown(search.resultExcerpt(row, ["cafe"])), "Connected to HomeNet (WPA3, 5 GHz). Other networks: [CafeGuest]");
  assert.equal(shown(search.resultExcerpt(row, ["homenet", "wpa3"])), "Connected to [HomeNet] ([WPA3], 5 GHz). Other networks: CafeGuest",
    "every query word in the excerpt is marked, those the cell shows too");
  assert.deepEqual(search.resultExcerpt(row, ["zebra"]), [], "a word found in the section's header, not the body: no excerpt");
});

test("an excerpt is cut at whole words around the first match, with ellipses", () => {
  const words = [];
  for (let i = 0; i < 60; i++) words.push("word" + i);
  const text = words.join(" ");
  const pieces = search.excerpt(text, ["word30"], ["word30"]);
  const line = shown(pieces);
  assert.ok(line.startsWith("\u2026word2"), line);
  assert.ok(line.endsWith("\u2026"), line);
  assert.ok(line.includes(" [word30] "), line);
  assert.ok(line.length <= 170, "about 160 characters: " + line.length);
  const inner = line.slice(1, -1);
  for (const piece of inner.replace(/[[\]]/g, "").split(" ")) assert.match(piece, /^word\d+$/, "no word is cut: " + inner);
  assert.equal(shown(search.excerpt("Tiny body with a match", ["match"], ["match"])), "Tiny body with a [match]", "a short text is whole");
});

test("an excerpt matches by folded prefix, marks and case as the index does", () => {
  assert.equal(shown(search.excerpt("Une crème brûlée, naïvement.", ["creme", "naiv"], ["creme", "naiv"])),
    "Une [crème] brûlée, [naïvement].");
  assert.equal(shown(search.excerpt("STRASSE and Straße", ["strasse"], ["strasse"])), "[STRASSE] and [Straße]");
  assert.deepEqual(search.excerpt("nothing here", ["zzz"], ["zzz"]), []);
});

test("an excerpt's pieces are the body's text as it is: markup in it stays text", () => {
  const text = "Use <script>alert(1)</script> & <b>bold</b> here";
  const pieces = search.excerpt(text, ["alert"], ["alert"]);
  assert.equal(shown(pieces), "Use <script>[alert](1)</script> & <b>bold</b> here");
  for (const [piece] of pieces) assert.equal(typeof piece, "string");
});

test("the body text of a record: a detail page's text, an inline body's markup parsed, none for a custom row", () => {
  let parsed = null;
  const parse = (html) => {
    parsed = html;
    const nodes = [];
    const body = {
      querySelectorAll: () => nodes,
      ownerDocument: { createTextNode: (t) => t },
      textContent: "Parsed text",
    };
    return { body };
  };
  assert.equal(search.bodyText([0, "a", "", "x", "", "", "", "Detail page text"], parse), "Detail page text");
  assert.equal(search.bodyText([0, "a", "", "x", "", "", "<p>Inline</p>"], parse), "Parsed text");
  assert.equal(parsed, "<p>Inline</p>");
  parsed = null;
  assert.equal(search.bodyText([32, "", "", "", "", "", "<div>custom</div>"], parse), "");
  assert.equal(parsed, null, "a custom row's markup is not read");
  assert.equal(search.bodyText([0, "a"], parse), "");
});

test("rows that have a word in their body only rank after rows that show it", async () => {
  // "note" is in rows 1 and 7, in row 1's body only (the second list: rows 7); "nothing" in row 3.
  const files = { "t-": { r: 128, t: [["note", 2, "15", 1, "7"], ["nothing", 1, "3"]] } };
  assert.deepEqual(await search.query(table(files), ["note"]), { rows: [7, 1], count: 2, exact: true });
  assert.deepEqual(await search.query(table(files), ["not"]), { rows: [1, 3, 7], count: 3, exact: true },
    "a prefix: listing order");
  // An interior node's own word, with a long second list in chunk files named q-.
  const interior = {
    "t-": { r: 128, k: ["n"], w: 0 },
    "t-n": { k: ["o"], w: [3, "025", 1, [9]], a: [3, "025"] },
    "q-n-0": "9",
  };
  assert.deepEqual(await search.query(table(interior), ["n"]), { rows: [9, 0, 3], count: 3, exact: true });
});

test("a step of results shows 30 rows, or fewer when they need more than 12 row files", () => {
  const near = Array.from({ length: 40 }, (_, i) => 1000 + i * 7);
  assert.equal(search.stepSize(near, 576, 30, 12), 30, "rows of a few files: the whole step");
  const spread = Array.from({ length: 40 }, (_, i) => i * 500);
  assert.equal(search.stepSize(spread, 128, 30, 12), 12, "a file a row: twelve rows");
  // The step ends at the first row of a file past its limit.
  assert.equal(search.stepSize([0, 200, 1, 400, 2, 3], 128, 30, 2), 3, "not row 400, nor the rows after it");
  assert.equal(search.stepSize([0, 200, 1, 130, 2], 128, 30, 2), 5);
  assert.equal(search.stepSize([5000], 128, 30, 0), 1, "at least one row");
  assert.equal(search.stepSize([], 128, 30, 12), 0);
});

test("partOf finds the part of a cut row group that holds a row", () => {
  assert.equal(search.partOf([0], 0), 0);
  assert.equal(search.partOf([0], 127), 0);
  assert.equal(search.partOf([0, 3, 7], 2), 0);
  assert.equal(search.partOf([0, 3, 7], 3), 1);
  assert.equal(search.partOf([0, 3, 7], 6), 1);
  assert.equal(search.partOf([0, 3, 7], 7), 2);
  assert.equal(search.partOf([0, 3, 7], 127), 2);
});

test("rowData reads a row from its group's file, or from the part of a cut group", async () => {
  const files = {
    "t-": { n: 300, r: 128 },
    "r-0": [[0, "row 1"], [0, "row 2"]],
    "r-1": { p: [0, 2, 5] },
    "r-1-0": [[0, "row 129"], [0, "row 130"]],
    "r-1-1": [[0, "row 131"], [0, "row 132"], [0, "row 133"]],
    "r-1-2": [[0, "row 134"]],
  };
  const loaded = [];
  const tableOf = { file: (name) => { loaded.push(name); return Promise.resolve(name in files ? files[name] : null); } };
  assert.deepEqual(await search.rowData(tableOf, 1), [0, "row 2"]);
  assert.deepEqual(await search.rowData(tableOf, 128), [0, "row 129"]);
  assert.deepEqual(await search.rowData(tableOf, 132), [0, "row 133"]);
  loaded.length = 0;
  assert.deepEqual(await search.rowData(tableOf, 133), [0, "row 134"]);
  assert.deepEqual(loaded, ["t-", "r-1", "r-1-2"], "only the part holding the row is read");
  assert.equal(await search.rowData(tableOf, 260), null, "a missing file gives no row");
});
