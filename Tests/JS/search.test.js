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

test("results link within the link policy only, relative links under the table's folder", () => {
  const contacts = { hrefPrefix: "contacts/", root: "../" };
  assert.equal(search.resultHref(contacts, "rows/ada.html"), "contacts/rows/ada.html");
  assert.equal(search.resultHref(contacts, "https://example.com/a"), "https://example.com/a");
  assert.equal(search.resultHref(contacts, "mailto:ada@example.com"), "mailto:ada@example.com");
  for (const bad of ["javascript:alert(1)", "JaVaScRiPt:x", "data:text/html,x", "//evil.example", "\\\\evil", "vbscript:x"]) {
    assert.equal(search.resultHref(contacts, bad), null, bad);
  }
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
