// The one-page list's arithmetic under node (node --test Tests/JS): the outline's items, first
// heights, the scroll window of a tall listing, row files, anchors and Tab's search. Run by
// scripts/test.sh.
"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const listing = require("../../Templates/assets/listing.js");

test("anchorHash is FNV-1a of the slug, as OnePageIndex.hash in Swift", () => {
  assert.equal(listing.anchorHash(""), 0x811c9dc5);
  assert.equal(listing.anchorHash("a"), 0xe40c292c);
  assert.equal(listing.anchorHash("foobar"), 0xbf9cf968);
});

test("a row's own place on its list page is not drawn as a link; links follow the policy", () => {
  assert.equal(listing.isLink("page-3.html#r-1201"), false);
  assert.equal(listing.isLink("index.html#r-1"), false);
  assert.equal(listing.isLink(3), false, "a row file's list page number");
  assert.equal(listing.isLink(""), false);
  assert.equal(listing.isLink("rows/ada.html"), true);
  assert.equal(listing.isLink("https://example.com"), true);
  assert.equal(listing.isLink("javascript:alert(1)"), false);
  assert.equal(listing.isLink("//evil.example/x"), false);
});

test("a row has a tab stop through its cell's link or its markup's", () => {
  assert.equal(listing.hasTabStop([0, "A", "", "rows/a.html"]), true);
  assert.equal(listing.hasTabStop([0, "A"]), false);
  assert.equal(listing.hasTabStop([32, "", "", "rows/a.html"]), false, "a custom row has no cell");
  assert.equal(listing.hasTabStop([32, "", "", "", "", "", "<p><a href=\"x\">x</a></p>"]), true);
  assert.equal(listing.hasTabStop([0, "A", "", "", "", "", "<p><button>b</button></p>"]), true);
  assert.equal(listing.hasTabStop([0, "A", "", "", "", "", "<p><a name=\"x\">x</a></p>"]), false);
});

// Two sections: rows 0-2 (header "H", footer "F"), rows 3-4 (no header or footer).
const sections = [[0, 3, "section-a", "H", "F"], [3, 2, "section-b"]];

test("the outline maps rows, headers and footers to tree items and back", () => {
  const outline = new listing.Outline(sections);
  assert.deepEqual(Array.from(outline.headItem), [0, 5]);
  assert.deepEqual([0, 1, 2, 3, 4].map((row) => outline.itemOfRow(row)), [1, 2, 3, 6, 7]);
  assert.deepEqual([0, 1, 4, 5, 6, 8].map((item) => outline.sectionOfItem(item)), [0, 0, 0, 1, 1, 1]);
  assert.deepEqual([1, 3, 6, 7].map((item) => outline.rowOfItem(item)), [0, 2, 3, 4]);
  assert.equal(outline.rowOfItem(0), 0, "a header's row is its section's first");
  assert.equal(outline.isHeader(5), true);
  assert.equal(outline.isHeader(4), false);
  assert.equal(outline.anchors["section-b"], 1);
});

test("first heights: rows at the estimate, headers with their gap, empty footers nothing", () => {
  assert.deepEqual(Array.from(listing.initialHeights(sections, 5, "plain", 44)), [28, 44, 44, 44, 33, 0, 44, 44, 0]);
  assert.deepEqual(Array.from(listing.initialHeights(sections, 5, "insetGrouped", 50)), [60, 50, 50, 50, 25, 35, 50, 50, 0]);
});

test("the estimate is the mean of the listing's layouts", () => {
  assert.equal(listing.mixedEstimate([0, 0, 0, 0, 0]), 44);
  assert.equal(listing.mixedEstimate([1, 0, 0, 1, 0]), (44 + 53) / 2);
  assert.equal(listing.mixedEstimate([2, 0, 0, 0, 1]), (88 + 64) / 2);
});

test("spans cap the box at MAX_HEIGHT and keep a scroll range of at least one pixel", () => {
  assert.deepEqual(listing.spans(500, 800), { scroll: 1, tree: 0, view: 800 });
  assert.deepEqual(listing.spans(10000, 800), { scroll: 9200, tree: 9200, view: 800 });
  const tall = listing.spans(45e6, 800);
  assert.equal(tall.scroll, listing.MAX_HEIGHT - 800);
  assert.equal(tall.tree, 45e6 - 800);
});

test("a listing within MAX_HEIGHT scrolls 1:1", () => {
  const sp = listing.spans(10000, 800);
  let state = { treeY: 0 }, last = 0;
  for (const position of [100, 700, 5000, 4990, 9200]) {
    state = listing.follow(state.treeY, last, position, sp);
    last = position;
    assert.equal(state.treeY, position);
  }
});

test("a tall listing moves 1:1 for a step, proportionally after a jump, exactly to both ends", () => {
  const sp = listing.spans(45e6, 800);
  const at = 5e6 * sp.tree / sp.scroll;   // the proportional place of scroll position 5e6
  const step = listing.follow(at, 5e6, 5e6 + 700, sp);
  assert.ok(Math.abs(step.treeY - (at + 700)) < 1, "a step of 700 px moves the rows 700 px: " + (step.treeY - at));
  const far = listing.follow(20e6, 5e6, 5e6 + 700, sp);
  assert.ok(far.treeY < 20e6 + 700, "away from the proportional place a step converges on it");
  assert.equal(step.jumped, false);
  const jump = listing.follow(20e6, 5e6, 10e6, sp);
  assert.equal(jump.jumped, true);
  assert.equal(jump.treeY, 10e6 * sp.tree / sp.scroll);
  assert.deepEqual(listing.follow(123, 10, 0, sp), { treeY: 0, jumped: false });
  assert.deepEqual(listing.follow(123, 10, -50, sp), { treeY: -50, jumped: false });
  assert.deepEqual(listing.follow(0, sp.scroll - 10, sp.scroll, sp), { treeY: sp.tree, jumped: false });
  // Scrolling step by step from the top reaches the listing's end when the page's does.
  let treeY = 0, last = 0;
  for (let position = 700; position < sp.scroll + 700; position += 700) {
    const p = Math.min(position, sp.scroll);
    treeY = listing.follow(treeY, last, p, sp).treeY;
    last = p;
  }
  assert.equal(treeY, sp.tree);
});

test("scrollFor holds the offset within the tree and maps it onto the box", () => {
  const sp = listing.spans(45e6, 800);
  assert.deepEqual(listing.scrollFor(-5, sp), { y: 0, position: 0 });
  assert.deepEqual(listing.scrollFor(1e12, sp), { y: sp.tree, position: sp.scroll });
  assert.equal(listing.scrollFor(sp.tree / 2, sp).position, sp.scroll / 2);
  assert.deepEqual(listing.scrollFor(300, listing.spans(500, 800)), { y: 0, position: 0 });
});

test("wrappers are cut at multiples of 8192 px a screen beyond the drawn range", () => {
  assert.deepEqual(listing.cuts(10000, 11000, 800), { top: 8192, bottom: 16384 });
  assert.deepEqual(listing.cuts(0, 500, 800), { top: -8192, bottom: 8192 });
});

test("list pages of 500 rows, and pages bounded by bytes as well, given by their first rows", () => {
  assert.equal(listing.pageFirstRow(1, 500, null), 0);
  assert.equal(listing.pageFirstRow(3, 500, null), 1000);
  assert.equal(listing.pageOfRow(0, 500, null), 1);
  assert.equal(listing.pageOfRow(499, 500, null), 1);
  assert.equal(listing.pageOfRow(500, 500, null), 2);
  // Pages of 1, 2, 500 and 3 rows: the outline's `g`.
  const firstRows = [0, 1, 3, 503];
  assert.deepEqual([1, 2, 3, 4].map((page) => listing.pageFirstRow(page, 500, firstRows)), firstRows);
  assert.deepEqual([0, 1, 2, 3, 502, 503, 505].map((row) => listing.pageOfRow(row, 500, firstRows)), [1, 2, 2, 3, 3, 4, 4]);
});

test("row files and list pages", () => {
  assert.deepEqual(listing.filesOfRows(0, 127, 128), [0, 0]);
  assert.deepEqual(listing.filesOfRows(127, 128, 128), [0, 1]);
  assert.equal(listing.pageOfName(""), 1);
  assert.equal(listing.pageOfName("index.html"), 1);
  assert.equal(listing.pageOfName("page-12.html"), 12);
  assert.equal(listing.pageOfName("rows/ada.html"), 0);
  assert.equal(listing.pageOfName("page-x.html"), 0);
  assert.equal(listing.rowId("rows/ada.html", 4), "row-ada");
  assert.equal(listing.rowId("page-2.html#r-5", 4), "r-5");
  assert.equal(listing.rowId(2, 4), "r-5");
});

test("the shape of a cell changes with what it draws, not with its text", () => {
  const a = listing.shapeOf([0, "A", "", "rows/a.html"]);
  assert.equal(listing.shapeOf([0, "B", "", "rows/b.html"]), a);
  assert.notEqual(listing.shapeOf([0, "A"]), a);
  assert.notEqual(listing.shapeOf([1, "A", "", "rows/a.html"]), a);
  assert.notEqual(listing.shapeOf([4, "A", "", "rows/a.html"]), a);
  assert.notEqual(listing.shapeOf([0, "A", "D", "rows/a.html"]), a);
});

test("Tab searches the rest of the next row's file and TAB_FILES more", () => {
  const files = listing.TAB_FILES;
  assert.equal(listing.tabLimit(10, 1, 128, 1e6), (files + 1) * 128);
  assert.equal(listing.tabLimit(10, 1, 128, 500), 500);
  assert.equal(listing.tabLimit(5000, -1, 128, 1e6), (Math.floor(4999 / 128) - files) * 128 - 1);
  assert.equal(listing.tabLimit(100, -1, 128, 1e6), -1);
});

test("Tab's search finds the next row with a tab stop, or says which file it needs", () => {
  const plain = [0, "x"], linked = [0, "y", "", "rows/y.html"];
  const shards = new Map([[0, [plain, plain, linked, plain]], [2, [linked, plain, plain, plain]]]);
  assert.deepEqual(listing.tabSearch(shards, 4, 0, 1, 12), { row: 2 });
  assert.deepEqual(listing.tabSearch(shards, 4, 2, 1, 12), { row: -2, at: 4 });
  assert.deepEqual(listing.tabSearch(shards, 4, 2, 1, 4), { row: -1, at: 4 });
  assert.deepEqual(listing.tabSearch(shards, 4, 9, -1, -1), { row: 8 });
  assert.deepEqual(listing.tabSearch(shards, 4, 8, -1, -1), { row: -2, at: 7 });
  assert.deepEqual(listing.tabSearch(shards, 4, 3, -1, -1), { row: 2 });
  // A cut group's rows whose part is not in memory are null: their file is needed.
  const cut = new Map([[0, [plain, null, null, linked]]]);
  assert.deepEqual(listing.tabSearch(cut, 4, 0, 1, 4), { row: -2, at: 1 });
  assert.deepEqual(listing.tabSearch(cut, 4, 4, -1, -1), { row: 3 });
});

// A document with just what drawRow uses: elements with attributes, children and text.
function fakeDocument() {
  function element(tag) {
    return {
      tagName: tag.toUpperCase(), className: "", textContent: "", id: "", attributes: {}, children: [],
      setAttribute(name, value) { this.attributes[name] = String(value); },
      getAttribute(name) { return name in this.attributes ? this.attributes[name] : null; },
      appendChild(child) { this.children.push(child); return child; },
      removeChild(child) { this.children.splice(this.children.indexOf(child), 1); return child; },
      get firstChild() { return this.children[0] || null; },
    };
  }
  return { createElement: element };
}

function switchesIn(node) {
  const found = [];
  (function walk(n) {
    if (n.attributes && n.attributes.role === "switch") found.push(n);
    (n.children || []).forEach(walk);
  })(node);
  return found;
}

test("a switch row's record (code 64, on: +128) draws a read-only switch with its state and name", () => {
  const saved = globalThis.document;
  globalThis.document = fakeDocument();
  try {
    const node = document.createElement("li");
    listing.drawRow(node, [64 + 128, "Airplane Mode"], 0, "", "../");
    let [toggle] = switchesIn(node);
    assert.ok(toggle, "the row has a switch");
    assert.equal(toggle.className, "accessory switch");
    assert.equal(toggle.attributes["aria-checked"], "true");
    assert.equal(toggle.attributes["aria-readonly"], "true");
    assert.equal(toggle.attributes["aria-label"], "Airplane Mode");

    // The same node drawing a switch that is off, then a row without one (as the pool reuses it).
    listing.drawRow(node, [64, "Bluetooth"], 1, "", "../");
    [toggle] = switchesIn(node);
    assert.equal(toggle.attributes["aria-checked"], "false");
    assert.equal(toggle.attributes["aria-label"], "Bluetooth");
    listing.drawRow(node, [0, "General"], 2, "", "../");
    assert.equal(switchesIn(node).length, 0);
  } finally {
    globalThis.document = saved;
  }
  assert.notEqual(listing.shapeOf([64, "A"]), listing.shapeOf([0, "A"]));
  assert.notEqual(listing.shapeOf([64 + 128, "A"]), listing.shapeOf([64, "A"]));
});
