/* RowKit one-page list: a listing of several pages becomes one scroll when JavaScript runs.
 *
 * The rows' display data are the search index's row files (search/r-<n>.js, 128 to 1,024 rows each, or
 * parts of about a MiB of a group of large rows, loaded with <script> elements so file:// works),
 * the sections and the anchors of detail pages are search/s-.js and search/i-<n>.js
 * (docs/one-page.md). Positions come from RowKit's row-offset
 * tree and row nodes are recycled through its reuse pool, both the C core compiled to WebAssembly
 * (assets/rowkit-core.js). Without JavaScript, or when anything here is missing, the page stays
 * the paginated page it was exported as.
 *
 * The tree holds one item per row and two per section (its header, with the gap above it, and its
 * footer), so its total is the listing's height and any offset maps to a row, header or footer.
 * Heights start as estimates per cell layout, and every drawn row, header and footer is measured
 * (ResizeObserver) and set in the tree. The page is as tall as the tree, up to MAX_HEIGHT; a
 * taller listing maps the scroll position onto the tree (1:1 while scrolling, proportional after
 * a far jump and at both ends). Text from the index reaches the page through textContent and DOM
 * properties; only a row's `html` field (the exporter's own Markdown or custom-row markup, as
 * the static page holds it) is inserted as markup.
 *
 * A classic script (no `import`, so file:// works): in a page it puts its API on
 * `window.RowKitListing`; under node, `require("./listing.js")` returns the arithmetic that needs
 * no page (the outline's items, the scroll window, row files, anchors, Tab's search;
 * Tests/JS/listing.test.js).
 */
(function (/** @type {any} */ root) {
  "use strict";

  var MAX_HEIGHT = 15000000;   // CSS pixels; below the largest element height of every engine
  var OVERSCAN = 600;          // pixels drawn above and below the viewport
  var CUT = 8192;               // a long section's wrapper is cut to the drawn range at multiples of this
  var FILL_BUDGET = 12;        // rows outside the viewport newly drawn per frame, at most
  var POOL_CAPACITY = 48;      // spare row nodes kept per cell layout (about a screen of rows)
  var ROWS_KEPT = 65536;       // rows of the row files kept in memory (512 files of 128 rows)
  var PIECES_KEPT = 8;         // parts of cut row groups kept in memory (up to about a MiB each)
  var LAYOUTS = ["default", "value1", "value2", "subtitle"];
  var GUESS = [44, 44, 44, 53]; // first height estimates per layout, before any row is measured
  var BODY_GUESS = 64;          // added for a row with an inline body
  // The exporter's link policy (SafeURL): http:, https:, mailto:, or no scheme (no ':' before the
  // first '/', '?' or '#'), never //host. Links here come from the exporter, which applied it already.
  var SAFE_HREF = /^(?![\/\\]{2})(?:(?:https?|mailto):|[^:\/?#]*(?:[\/?#]|$))/i;
  var TAB_FILES = 16;           // row files Tab searches past the focused row's own for the next row with a link
  // What Tab stops at in a row (its cell's link, or an element of its markup), and how the markup
  // of a row not drawn says it holds one.
  var FOCUSABLE = "a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable]";
  var FOCUSABLE_MARKUP = /<(?:a|area)\s[^>]*\bhref\s*=|<(?:button|input|select|textarea|iframe|summary)\b|<[a-z][^>]*\s(?:tabindex\s*=\s*["']?\d|contenteditable\b)/i;

  function upperBound(array, value, count) {
    var low = 0, high = count, middle;
    while (low < high) {
      middle = (low + high) >>> 1;
      if (array[middle] <= value) low = middle + 1; else high = middle;
    }
    return low;
  }

  // FNV-1a, 32 bits, of a slug's UTF-8 bytes (slugs are ASCII): OnePageIndex.hash in Swift.
  function anchorHash(slug) {
    var hash = 0x811c9dc5, i;
    for (i = 0; i < slug.length; i++) hash = Math.imul(hash ^ slug.charCodeAt(i), 0x01000193) >>> 0;
    return hash >>> 0;
  }

  /* Whether a row's href is drawn as its cell's link: not the row's own place on its list page
     (the static page draws that row as a <div>; its row file has the page's number, or from a
     link the page's anchor), and within the link policy. */
  function isLink(href) {
    return typeof href === "string" && !!href && !/^(?:index|page-\d+)\.html#r-\d+$/.test(href) &&
      SAFE_HREF.test(href);
  }

  /* Whether the row of display data `data` draws something Tab stops at: its cell's link (a custom
     row has no cell), or a link or control in its markup. */
  function hasTabStop(data) {
    return (!(data[0] & 32) && isLink(data[3] || "")) || FOCUSABLE_MARKUP.test(data[6] || "");
  }

  /* ---- The outline: one tree item per row, two per section (its header, with the gap above
     it, and its footer). ---- */

  /* The item arrays of outline `sections` ([[first row, rows, anchor, header, footer, index
     title], ...] of s-.js): first row, rows and header item of each section, and the sections by
     anchor. */
  function Outline(sections) {
    var count = sections.length, i;
    this.count = count;
    this.first = new Float64Array(count);
    this.size = new Float64Array(count);
    this.headItem = new Float64Array(count);
    this.anchors = Object.create(null);
    for (i = 0; i < count; i++) {
      this.first[i] = sections[i][0];
      this.size[i] = sections[i][1];
      this.headItem[i] = sections[i][0] + 2 * i;
      this.anchors[sections[i][2]] = i;
    }
  }

  /* The section of tree item `item`. */
  Outline.prototype.sectionOfItem = function (item) {
    return upperBound(this.headItem, item, this.count) - 1;
  };

  /* The section of row `row`. */
  Outline.prototype.sectionOfRow = function (row) {
    return upperBound(this.first, row, this.count) - 1;
  };

  /* The tree item of row `row`. */
  Outline.prototype.itemOfRow = function (row) {
    return row + 2 * this.sectionOfRow(row) + 1;
  };

  /* The row of tree item `item`: itself for a row, its section's first row for a header, the row
     after its section's last for a footer. */
  Outline.prototype.rowOfItem = function (item) {
    return item - 2 * this.sectionOfItem(item) - 1 + (this.isHeader(item) ? 1 : 0);
  };

  /* Whether tree item `item` is a section's header item. */
  Outline.prototype.isHeader = function (item) {
    var s = this.sectionOfItem(item);
    return s >= 0 && this.headItem[s] === item;
  };

  /* The mean height of a row of the listing, from its mix of layouts `k` ([rows per layout:
     default, value1, value2, subtitle; rows with an inline body]). */
  function mixedEstimate(k) {
    var mixed = 0, rows = 0, i;
    for (i = 0; i < 4; i++) { mixed += k[i] * GUESS[i]; rows += k[i]; }
    return rows ? (mixed + k[4] * BODY_GUESS) / rows : GUESS[0];
  }

  /* The first heights of every tree item: `rowHeight` for a row; a header its section's gap and
     the header's height, a footer the footer's (none without text), in table style `style`. */
  function initialHeights(sections, rows, style, rowHeight) {
    var count = sections.length, gap = style === "plain" ? 0 : 35, i, head = 0;
    var heights = new Float64Array(rows + 2 * count).fill(rowHeight);
    for (i = 0; i < count; i++) {
      head = sections[i][0] + 2 * i;
      heights[head] = gap + (sections[i][3] ? (style === "plain" ? 28 : 25) : 0);
      heights[head + sections[i][1] + 1] = sections[i][4] ? (style === "plain" ? 33 : 25) : 0;
    }
    return heights;
  }

  /* ---- The scroll window: the page's scroll position (box pixels) against tree offsets. ---- */

  /* The scroll range of the box and of the tree, for a tree `total` high in a viewport `view`
     high. */
  function spans(total, view) {
    return { scroll: Math.max(Math.min(total, MAX_HEIGHT) - view, 1), tree: Math.max(total - view, 0), view: view };
  }

  /* The tree offset at the viewport's top after the scroll position moved from `last` to
     `position`, with `treeY` the offset before: 1:1 for steps, proportional after a jump (more
     than three screens, or from above the list), converging on the proportional place toward
     both ends so the first and the last row are always reachable. Returns {treeY, jumped}. */
  function follow(treeY, last, position, sp) {
    var delta = position - last, target;
    if (position <= 0 || sp.tree <= 0) return { treeY: position, jumped: false };
    if (position >= sp.scroll) return { treeY: sp.tree + (position - sp.scroll), jumped: false };
    target = position * sp.tree / sp.scroll;
    if (Math.abs(delta) > 3 * sp.view || treeY < 0) return { treeY: target, jumped: true };
    var next = treeY + delta;
    var distance = Math.min(position, sp.scroll - position);
    return { treeY: next + (target - next) * (Math.abs(delta) / (distance + Math.abs(delta))), jumped: false };
  }

  /* The scroll position (box pixels) that shows tree offset `y` at the viewport's top, `y` held
     within the tree's scroll range. */
  function scrollFor(y, sp) {
    y = Math.max(0, Math.min(y, sp.tree));
    return { y: y, position: sp.tree > 0 ? y * sp.scroll / sp.tree : 0 };
  }

  /* Where a long section's wrapper is cut: multiples of CUT a screen beyond the first and last
     drawn offsets. */
  function cuts(firstOffset, lastOffset, view) {
    return { top: Math.floor((firstOffset - view) / CUT) * CUT, bottom: Math.ceil((lastOffset + view) / CUT) * CUT };
  }

  /* The row files ([first, last] numbers) holding rows [firstRow, lastRow]. */
  function filesOfRows(firstRow, lastRow, perShard) {
    return [Math.floor(firstRow / perShard), Math.floor(lastRow / perShard)];
  }

  /* The first row (from 0) of list page `page` (from 1): from the pages' first rows (the outline's
     `g`, given when pages are bounded by bytes as well as rows), else (page - 1) x page size. */
  function pageFirstRow(page, pageSize, firstRows) {
    if (!firstRows) return (page - 1) * pageSize;
    return firstRows[Math.min(Math.max(page, 1), firstRows.length) - 1];
  }

  /* The list page (from 1) that row `row` (from 0) is on; `firstRows` as for pageFirstRow. */
  function pageOfRow(row, pageSize, firstRows) {
    if (!firstRows) return Math.floor(row / pageSize) + 1;
    return Math.max(upperBound(firstRows, row, firstRows.length), 1);
  }

  /* The page of the file name `name` in a table's folder ("" and index.html are page 1), or 0 when
     it is not one of its list pages. */
  function pageOfName(name) {
    return name === "" || name === "index.html" ? 1 : +((/^page-(\d+)\.html$/.exec(name) || [0, 0])[1]);
  }

  /* The bound of Tab's search from row `row` (step 1 or -1): the rest of the next row's file and
     TAB_FILES more, within the listing's `rows`; the row past the last looked at. */
  function tabLimit(row, step, perShard, rows) {
    var n = Math.floor((row + step) / perShard);
    return step < 0 ? Math.max((n - TAB_FILES) * perShard, 0) - 1 : Math.min((n + 1 + TAB_FILES) * perShard, rows);
  }

  /* Looks through the row files in `shards` (file number -> rows) from row `row` + step on (step 1
     or -1) up to row `limit` (excluded) for a row with a tab stop: { row } for that row;
     { row: -1, at: limit } when there is none; { row: -2, at } when the file of row `at` is not in
     `shards`. */
  function tabSearch(shards, perShard, row, step, limit) {
    var r, data, number = -1;
    for (r = row + step; r !== limit; r += step) {
      if (Math.floor(r / perShard) !== number) {
        number = Math.floor(r / perShard);
        data = shards.get(number);
        if (!data) return { row: -2, at: r };
      }
      // null: the row is in a part of a cut group that is not in memory (see List.piece).
      if (data[r % perShard] === null) return { row: -2, at: r };
      if (data[r % perShard] && hasTabStop(data[r % perShard])) return { row: r };
    }
    return { row: -1, at: limit };
  }

  /* The id a row's node takes: `row-<slug>` for a row with a detail page, else `r-<n>`. */
  function rowId(href, row) {
    var slug = typeof href === "string" ? /^rows\/(.+)\.html$/.exec(href) : null;
    return slug ? "row-" + slug[1] : "r-" + (row + 1);
  }

  /* The shape of a row's cell (link, image, detail, body, accessory, layout): a pooled node that
     drew the same shape keeps its elements. */
  function shapeOf(data) {
    var code = data[0], linked = isLink(data[3] || "");
    return (linked ? 1 : 0) | (data[4] ? 2 : 0) | (data[2] ? 4 : 0) | (data[6] ? 8 : 0) | (((code >> 2) & 7) << 4) |
      ((code & 3) << 8) | (((code >> 6) & 3) << 10);
  }

  /* Draws the row of display data `data` (row `row` of the listing, from 0) into `node`, an <li>,
     with the exporter's row markup (Templates/row.mustache), `place` added to its class and image
     paths under `siteRoot`. A node that drew a row of the same shape (link or not, image, detail,
     accessory, body) keeps its elements and gets the new row's text, links and image. Also what
     live.js draws a one-page table's new rows with. */
  function drawRow(node, data, row, place, siteRoot) {
    var code = data[0], text = data[1] || "", detail = data[2] || "", href = data[3] || "";
    var image = data[4] || "", label = data[5] || "", html = data[6] || "";
    node.id = rowId(href, row);
    node.className = "row" + (image ? " has-image" : "") + place;
    if (code & 32) {
      node.rowkitShape = -1;
      node.innerHTML = html;
      return;
    }
    var linked = isLink(href);
    var accessory = (code >> 2) & 7;
    var shape = shapeOf(data);
    var parts = node.rowkitParts;
    if (node.rowkitShape !== shape) {
      while (node.firstChild) node.removeChild(node.firstChild);
      parts = node.rowkitParts = {};
      var cell = parts.cell = element(linked ? "a" : "div", "cell " + LAYOUTS[code & 3]);
      if (image) {
        parts.icon = element("img", "icon");
        parts.icon.width = 29;
        parts.icon.height = 29;
        cell.appendChild(parts.icon);
      }
      var labels = element("span", "labels");
      parts.text = element("span", "text");
      parts.text.dir = "auto";
      labels.appendChild(parts.text);
      if (detail) {
        parts.detail = element("span", "detail");
        parts.detail.dir = "auto";
        labels.appendChild(parts.detail);
      }
      cell.appendChild(labels);
      // The info button and the chevron are named only in a row that links (as on the page).
      var mark = function (kind, name) {
        var span = element("span", "accessory " + kind);
        if (linked || kind === "checkmark") {
          span.setAttribute("role", "img");
          span.setAttribute("aria-label", name);
        } else {
          span.setAttribute("aria-hidden", "true");
        }
        cell.appendChild(span);
      };
      if (accessory === 2) mark("checkmark", "Selected");
      if (accessory === 3 || accessory === 4) mark("info", "More Info");
      if (accessory === 1 || accessory === 4) mark("chevron", "Show details");
      // A switch row's switch (code 64; 128: on), shown and read out with its state but not
      // operable, as on the page.
      if (code & 64) {
        parts.toggle = element("span", "accessory switch");
        parts.toggle.setAttribute("role", "switch");
        parts.toggle.setAttribute("aria-checked", code & 128 ? "true" : "false");
        parts.toggle.setAttribute("aria-readonly", "true");
        cell.appendChild(parts.toggle);
      }
      node.appendChild(cell);
      if (html) {
        parts.body = element("div", "body");
        node.appendChild(parts.body);
      }
      node.rowkitShape = shape;
    }
    if (linked) parts.cell.href = href;
    if (image) {
      parts.icon.src = /^https?:/i.test(image) ? image : siteRoot + image;
      parts.icon.alt = label;
    }
    parts.text.textContent = text;
    if (parts.toggle) parts.toggle.setAttribute("aria-label", text);
    if (detail) parts.detail.textContent = detail;
    if (html) parts.body.innerHTML = html;
  }

  var logic = {
    MAX_HEIGHT: MAX_HEIGHT, TAB_FILES: TAB_FILES, upperBound: upperBound, anchorHash: anchorHash,
    isLink: isLink, hasTabStop: hasTabStop, Outline: Outline, mixedEstimate: mixedEstimate,
    initialHeights: initialHeights, spans: spans, follow: follow, scrollFor: scrollFor, cuts: cuts,
    filesOfRows: filesOfRows, pageOfName: pageOfName, pageFirstRow: pageFirstRow, pageOfRow: pageOfRow,
    tabLimit: tabLimit, tabSearch: tabSearch, rowId: rowId, shapeOf: shapeOf, drawRow: drawRow
  };
  if (typeof module === "object" && module.exports) module.exports = logic;
  if (typeof document === "undefined") return;
  root.RowKitListing = root.RowKitListing || logic;   // a page of one list page: live.js's row markup

  var main = document.querySelector("main.table[data-page]");
  var bar = document.querySelector(".search[data-search-key]");
  if (!main || !bar || !root.RowKitCore || !root.RowKitSearch || !root.ResizeObserver) return;

  var key = bar.getAttribute("data-search-key") || "";
  var siteRoot = bar.getAttribute("data-search-root") || "";
  var style = (/\btable-(\w+)/.exec(document.body.className) || [0, "plain"])[1];
  var pageNumber = parseInt(main.getAttribute("data-page"), 10) || 1;
  var gap = style === "plain" ? 0 : 35;  // .section's margin-top in grouped styles

  function file(name) {
    return root.RowKitSearch.file("search/", key, name, true);
  }

  function element(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  function isTabStop(node) {
    return node.tabIndex >= 0 && !node.disabled && node.type !== "hidden";
  }

  /* The first of `nodes` after `from` in document order that Tab stops at (with `back`, the last
     before it that is not one of its ancestors), passing over those `skip` (if any) rejects. */
  function stopBeside(nodes, from, back, skip) {
    var found = null, i, node, position;
    for (i = 0; i < nodes.length; i++) {
      node = nodes[i];
      if (node === from || !isTabStop(node) || (skip && skip(node))) continue;
      position = from.compareDocumentPosition(node);
      if (back) {
        if (position & Node.DOCUMENT_POSITION_PRECEDING && !(position & Node.DOCUMENT_POSITION_CONTAINS)) found = node;
      } else if (position & Node.DOCUMENT_POSITION_FOLLOWING) {
        return node;
      }
    }
    return found;
  }

  /* ---- The list. ---- */
  function List(core, outline) {
    var self = this;
    self.core = core;
    self.rows = outline.n;
    self.perShard = outline.r;
    self.pageSize = outline.p;
    self.pageFirstRows = outline.g || null;
    self.buckets = outline.b;
    self.sections = outline.s;
    self.outline = new Outline(outline.s);
    self.sectionCount = self.outline.count;
    self.first = self.outline.first;
    self.size = self.outline.size;
    self.headItem = self.outline.headItem;
    self.anchors = self.outline.anchors;
    // Estimates: the listing's mix of layouts until a row file says which a row is.
    self.learned = GUESS.map(function (h) { return { sum: h, count: 1 }; });
    self.learnedBody = { sum: BODY_GUESS, count: 1 };
    self.mixed = mixedEstimate(outline.k);
    var heights = initialHeights(self.sections, self.rows, style, self.mixed), items = heights.length;
    self.tree = core.buildTree(heights);
    self.measured = new Uint8Array(items);
    self.estimated = new Uint8Array(Math.ceil(self.rows / self.perShard));
    self.pool = core.createPool(POOL_CAPACITY);
    self.kinds = LAYOUTS.map(function (name) { return self.pool.intern(name); });
    self.kinds.push(self.pool.intern("custom"), self.pool.intern("loading"));
    self.nodes = [];        // handle -> row node (a <li>), for the pool
    self.freeHandles = [];
    self.shards = new Map(); // shard number -> rows (insertion order = recency)
    self.loading = Object.create(null);
    self.groupStarts = new Map(); // a cut group's number -> the index of each part's first row
    self.pieces = new Map();      // "<group>-<part>" of the parts in memory (insertion order = recency)
    self.drawn = new Map();  // item -> node, rows only
    self.parts = new Map();  // section -> {wrap, list, header, footer}
    self.focused = -1;       // the item (row, or section header) holding the focus: kept drawn out of range
    self.away = false;       // that item is outside the drawn range (kept, placed by placeKept)
    self.tabbed = null;      // the node focusItem made focusable (tabindex="-1"), until the focus leaves it
    self.focusJump = false;  // the next hashchange is a jump the user asked for: focus goes there
    self.treeY = 0;          // tree offset at the viewport's top edge (negative above the list)
    self.hidden = false;     // true while search results take the list's place
    self.lastPosition = 0;
    self.frameScheduled = false;
    self.range = [0, 0];
    self.preRange = [0, 0];
    self.stats = { frames: [], treeCalls: 0, created: 0, recording: false, began: false, js: 0 };
    self.heights = null;     // the heights and offsets of the items drawn, read in bulk each frame
    self.revision = 0;       // changesets applied (live.js): row files requested before are stale
    self.awaiting = 0;       // a revision applied before its export: no row file is requested until it is on disk
    self.offsets = null;

    self.box = element("div", "one-page");
    self.box.setAttribute("role", "presentation");
    self.resize = new ResizeObserver(function (entries) { self.measure(entries); });
  }

  List.prototype.sectionOfItem = function (item) {
    return this.outline.sectionOfItem(item);
  };

  List.prototype.sectionOfRow = function (row) {
    return this.outline.sectionOfRow(row);
  };

  List.prototype.itemOfRow = function (row) {
    return this.outline.itemOfRow(row);
  };

  /* ---- Geometry: scroll position, tree offsets and the box's coordinates. ---- */
  List.prototype.listTop = function () {
    return this.box.getBoundingClientRect().top + window.scrollY;
  };

  List.prototype.boxHeight = function () {
    return Math.min(this.tree.total(), MAX_HEIGHT);
  };

  /* The scroll range of the list (box pixels) and of the tree. */
  List.prototype.spans = function () {
    return spans(this.tree.total(), window.innerHeight);
  };

  /* Follows the scroll position: 1:1 for steps, proportional after a jump; converges on the
     proportional position toward both ends, so the first and the last row are always reachable. */
  List.prototype.follow = function () {
    var position = window.scrollY - this.top;
    var followed = follow(this.treeY, this.lastPosition, position, this.spans());
    this.lastPosition = position;
    this.treeY = followed.treeY;
    if (followed.jumped) this.jumped = true;
  };

  /* The box coordinate of tree offset y. */
  List.prototype.boxY = function (y) {
    return y - this.treeY + this.lastPosition;
  };

  /* Scrolls so that tree offset y is at the viewport's top. */
  List.prototype.scrollToTreeY = function (y) {
    this.box.style.height = this.boxHeight() + "px";   // the page can scroll as far as the tree
    var sp = this.spans(), place = scrollFor(y, sp);
    this.top = this.listTop();
    window.scrollTo(0, this.top + place.position);
    this.lastPosition = window.scrollY - this.top;
    if (this.lastPosition <= 0) this.treeY = this.lastPosition;
    else if (Math.abs(this.lastPosition - place.position) > 1) this.treeY = this.lastPosition * sp.tree / sp.scroll;
    else this.treeY = place.y;
    this.draw();
  };

  /* ---- Row files. ---- */
  List.prototype.shard = function (number) {
    var self = this, rows = self.shards.get(number);
    if (rows) {
      self.shards.delete(number);
      self.shards.set(number, rows);
      return rows;
    }
    if (!self.loading[number] && !self.awaiting) {
      var revision = self.revision;
      self.loading[number] = file("r-" + number).then(function (data) {
        if (revision !== self.revision) return null;   // a file of the listing before a change
        delete self.loading[number];
        if (!data) return null;
        if (!Array.isArray(data)) {
          // A group cut in parts (rows with large inline bodies): its rows are null until the
          // part holding them is in (List.piece).
          if (!Array.isArray(data.p)) return null;
          self.groupStarts.set(number, data.p);
          data = [];
          for (var end = Math.min((number + 1) * self.perShard, self.rows), r = number * self.perShard; r < end; r++) data.push(null);
        }
        self.shards.set(number, data);
        if (self.shards.size * self.perShard > ROWS_KEPT) {
          var oldest = self.shards.keys().next().value;
          self.shards.delete(oldest);
          root.RowKitSearch.forget(key, "r-" + oldest);
          self.dropPieces(oldest);
        }
        self.estimate(number, data);
        self.schedule();
        return data;
      });
    }
    return null;
  };

  /* Loads part `part` of the cut group `number` (file r-<number>-<part>) into the group's rows;
     only PIECES_KEPT parts stay in memory, the others' rows going back to null. */
  List.prototype.piece = function (number, part) {
    var self = this, name = number + "-" + part, starts = self.groupStarts.get(number);
    if (self.pieces.has(name)) {
      self.pieces.delete(name);
      self.pieces.set(name, true);
      return;
    }
    if (!starts || self.loading[name] || self.awaiting) return;
    var revision = self.revision;
    self.loading[name] = file("r-" + name).then(function (data) {
      if (revision !== self.revision) return null;
      delete self.loading[name];
      var rows = self.shards.get(number);
      if (!data || !rows || self.groupStarts.get(number) !== starts) return null;
      for (var k = 0; k < data.length && starts[part] + k < rows.length; k++) rows[starts[part] + k] = data[k];
      self.pieces.set(name, true);
      if (self.pieces.size > PIECES_KEPT) self.dropPiece(self.pieces.keys().next().value);
      self.estimate(number, data, starts[part]);
      self.schedule();
      return data;
    });
  };

  /* Lets the part `name` ("<group>-<part>") go: its rows are null again and its file forgotten. */
  List.prototype.dropPiece = function (name) {
    var split = name.split("-"), number = +split[0], part = +split[1];
    var starts = this.groupStarts.get(number), rows = this.shards.get(number);
    this.pieces.delete(name);
    root.RowKitSearch.forget(key, "r-" + name);
    if (!starts || !rows) return;
    var end = part + 1 < starts.length ? starts[part + 1] : rows.length;
    for (var index = starts[part]; index < end; index++) rows[index] = null;
  };

  /* Lets every part of group `number` go (the group left memory or changed). */
  List.prototype.dropPieces = function (number) {
    var self = this, prefix = number + "-";
    Array.from(self.pieces.keys()).forEach(function (name) { if (name.indexOf(prefix) === 0) self.dropPiece(name); });
    self.groupStarts.delete(number);
  };

  List.prototype.rowData = function (row) {
    var number = Math.floor(row / this.perShard), rows = this.shard(number), index = row % this.perShard;
    if (!rows) return null;
    if (rows[index] === null) {
      var starts = this.groupStarts.get(number);
      if (starts) this.piece(number, root.RowKitSearch.partOf(starts, index));
      return null;
    }
    return rows[index] || null;
  };

  /* Loads the row files of rows [first, end) (and the parts of cut groups holding them); resolves
     when all are in. */
  List.prototype.load = function (first, end) {
    var self = this, waits = [], n;
    function pieces(number) { return function () { return self.loadPieces(number, first, end); }; }
    for (n = Math.floor(first / self.perShard); n * self.perShard < end; n++) {
      if (self.shard(n)) waits.push(self.loadPieces(n, first, end));
      else if (self.loading[n]) waits.push(self.loading[n].then(pieces(n)));
    }
    return Promise.all(waits);
  };

  /* Loads the parts of group `number`, when it is cut, that hold rows of [first, end). */
  List.prototype.loadPieces = function (number, first, end) {
    var self = this, starts = self.groupStarts.get(number), rows = self.shards.get(number), waits = [];
    if (!starts || !rows) return Promise.resolve();
    var from = Math.max(first - number * self.perShard, 0), to = Math.min(end - number * self.perShard, rows.length);
    for (var part = root.RowKitSearch.partOf(starts, from); part < starts.length && starts[part] < to; part++) {
      self.piece(number, part);
      if (self.loading[number + "-" + part]) waits.push(self.loading[number + "-" + part]);
    }
    return Promise.all(waits);
  };

  /* A row file's rows get the estimate of their own layout (those not measured yet); `from`: the
     index in group `number` of data's first row, for a part of a cut group (estimated as each
     part comes in; a null row is one whose part is not in). */
  List.prototype.estimate = function (number, data, from) {
    if (from === undefined) {
      if (this.estimated[number]) return;
      this.estimated[number] = 1;
    }
    var first = number * this.perShard + (from || 0), self = this;
    this.keepAnchor(function () {
      var run = [], start = -1, i, item, row;
      function flush() {
        if (run.length) self.tree.setRange(start, run);
        run = [];
      }
      for (i = 0; i < data.length; i++) {
        if (!data[i]) { flush(); start = -1; continue; }
        row = first + i;
        item = self.itemOfRow(row);
        if (self.measured[item] || (start >= 0 && item !== start + run.length)) {
          flush();
          if (self.measured[item]) continue;
        }
        if (!run.length) start = item;
        run.push(self.guess(data[i]));
      }
      flush();
    });
  };

  List.prototype.guess = function (data) {
    var layout = data[0] & 3, learned = this.learned[layout];
    var height = learned.sum / learned.count;
    if (data[6] && !(data[0] & 32)) height += this.learnedBody.sum / this.learnedBody.count;
    return height;
  };

  /* Runs `change` (which sets heights in the tree) keeping the row at the viewport's top where
     it is on the screen. */
  List.prototype.keepAnchor = function (change) {
    if (this.treeY <= 0) {
      change();
      return;
    }
    var old = this.spans();
    if (this.lastPosition >= old.scroll - 1) {
      // At the end the last row stays at the bottom, and the window stays at the list's end as
      // the list grows (rows measured taller than their estimates), or End would stop short.
      change();
      this.box.style.height = this.boxHeight() + "px";
      var now = this.spans(), past = Math.max(this.lastPosition - old.scroll, 0);
      if (now.scroll !== old.scroll) {
        window.scrollTo(0, this.top + now.scroll + past);
        this.lastPosition = window.scrollY - this.top;
        past = Math.max(this.lastPosition - now.scroll, 0);
      }
      this.treeY = now.tree + past;
      return;
    }
    var anchor = this.tree.itemAt(this.treeY);
    var before = anchor >= 0 ? this.tree.offset(anchor) : 0;
    change();
    if (anchor >= 0) this.treeY += this.tree.offset(anchor) - before;
    this.stats.treeCalls += 3;
  };

  /* ---- Drawing. ---- */
  List.prototype.schedule = function () {
    var self = this;
    if (self.frameScheduled) return;
    self.frameScheduled = true;
    requestAnimationFrame(function () {
      self.frameScheduled = false;
      self.frame();
    });
  };

  /* One animation frame: follow the scroll position and draw. With stats.recording, each frame
     records [JS ms of the frame before (its draw and its ResizeObserver callbacks), tree calls,
     rows drawn]. */
  List.prototype.frame = function () {
    var stats = this.stats, start = performance.now();
    if (this.hidden) return;
    if (stats.recording && stats.began) stats.frames.push([stats.js, stats.treeCalls, this.drawn.size]);
    stats.began = stats.recording;
    stats.js = 0;
    stats.treeCalls = 0;
    if (this.topChanged) {
      this.topChanged = false;
      this.top = this.listTop();
    }
    this.follow();
    this.draw();
    stats.js += performance.now() - start;
  };

  /* Draws the rows, headers and footers that intersect the viewport and OVERSCAN around it.
     With `reuseOnly` (inside the ResizeObserver's callback) it only moves what is drawn, so no
     new node is observed in the middle of a notification, and draws the rest next frame. */
  List.prototype.draw = function (reuseOnly) {
    var self = this, tree = self.tree, view = window.innerHeight;
    if (tree.count() === 0) return;
    // After a far jump the first frame draws the viewport alone and the next one the rows
    // around it, so no frame replaces every row of both.
    var over = self.jumped ? 0 : OVERSCAN;
    if (self.jumped) {
      self.jumped = false;
      self.schedule();
    }
    var y0 = Math.max(self.treeY - over, 0), y1 = self.treeY + view + over;
    var range = tree.range(y0, y1, self.range), first = range[0], end = range[1];
    self.stats.treeCalls += 1;
    self.prefetch(view);
    if (end <= first && tree.count() > 0) { first = Math.max(0, tree.count() - 1); end = tree.count(); }
    var count = end - first;
    if (!self.heights || self.heights.length < count) {
      self.heights = new Float64Array(count * 2);
      self.offsets = new Float64Array(count * 2);
    }
    if (count > 0) tree.read(first, count, self.heights, self.offsets);
    self.stats.treeCalls += 1;
    self.box.style.height = self.boxHeight() + "px";

    // Rows leaving the range go back to the pool, but for the focused row's: its node stays,
    // placed where it belongs, so that the focus stays with it (as on a page that draws every row).
    // So does a focused section header (or the section, when it has none), with its wrapper.
    self.drawn.forEach(function (node, item) {
      if ((item < first || item >= end) && item !== self.focused) self.release(item, node);
    });
    var sFirst = self.sectionOfItem(first), sLast = self.sectionOfItem(Math.max(end - 1, first));
    var kept = self.focused, keptSection = -1, keptHead = false;
    if (kept >= 0 && (kept < first || kept >= end)) {
      keptSection = self.sectionOfItem(kept);
      keptHead = kept === self.headItem[keptSection];
      // A header is drawn with its section's wrapper; a plain style's header while its section
      // is in range (it sticks to the top).
      if (keptHead ? !self.parts.has(keptSection) || (style === "plain" && keptSection >= sFirst && keptSection <= sLast)
                   : !self.drawn.has(kept)) keptSection = -1;
    }
    self.away = keptSection >= 0;
    self.parts.forEach(function (part, s) {
      if ((s < sFirst || s > sLast) && s !== keptSection) {
        part.wrap.remove();
        self.parts.delete(s);
      }
    });
    var s, part, rows = [], missed = false, budget = FILL_BUDGET;
    for (s = sFirst; s <= sLast; s++) {
      if (reuseOnly && !self.parts.has(s)) { missed = true; continue; }
      part = self.part(s);
      var head = self.headItem[s], foot = head + self.size[s] + 1;
      var top = (head >= first ? self.offsets[head - first] : tree.offset(head)) + gap;
      var bottom = foot < end ? self.offsets[foot - first] + self.heights[foot - first] : tree.offset(foot + 1);
      // A section far above or below is cut to the drawn range, so the wrapper stays small;
      // a plain style's header sticks to the top of the viewport within its section.
      // Cuts are at multiples of CUT, so a wrapper, and the rows placed in it, move only when
      // the scroll crosses one.
      var cut = cuts(self.offsets[0], self.offsets[count - 1], view);
      var wrapTop = Math.max(top, cut.top), wrapBottom = Math.min(bottom, cut.bottom);
      var header = self.sections[s][3], headKept = keptHead && s === keptSection;
      var showHeader = header && (head >= first || style === "plain" || headKept);
      // The wrapper is placed in the box; its rows, header and footer in it by tree offsets alone,
      // so a frame that maps the scroll onto the tree anew moves the wrapper, not every row.
      part.y = wrapTop;
      part.wrap.style.top = self.boxY(wrapTop) + "px";   // not a transform: sticky headers follow layout
      part.wrap.style.height = Math.max(wrapBottom - wrapTop, 0) + "px";
      if (!reuseOnly || part.header || !showHeader) self.headerShown(part, s, showHeader ? header : null);
      if (headKept && part.header) {
        self.placeKept(part.header, part, false);
      } else if (part.header && part.header.rowkitY) {
        part.header.rowkitY = 0;   // placed while kept; in range it is at its wrapper's top
        part.header.style.transform = "";
      }
      var footer = foot < end && self.sections[s][4] ? self.sections[s][4] : null;
      if (!reuseOnly || part.footer || !footer) {
        self.footerShown(part, s, footer, foot < end ? self.offsets[foot - first] - wrapTop : 0);
      }
      rows.length = 0;
      var item = Math.max(first, head + 1), last = Math.min(end, foot);
      for (; item < last; item++) {
        if (reuseOnly && !self.drawn.has(item)) { missed = true; continue; }
        // Rows in view are always drawn; rows around it at most FILL_BUDGET a frame.
        var offset = self.offsets[item - first], height = self.heights[item - first];
        var inView = offset < self.treeY + view && offset + height > self.treeY;
        var node = self.row(item, s, part, offset, height, inView || budget > 0);
        if (node === null) { missed = true; continue; }
        if (node.rowkitFilled) { node.rowkitFilled = false; if (!inView) budget--; }
        rows.push(node);
      }
      if (s === keptSection && !keptHead) {
        node = self.drawn.get(kept);
        self.placeKept(node, part, false);
        if (kept < first) rows.unshift(node); else rows.push(node);
      }
      self.order(part.list, rows);
    }
    if (keptSection >= 0 && (keptSection < sFirst || keptSection > sLast)) {
      // The kept item's section is out of range too: its wrapper holds that row, or that header,
      // alone (a section without a header, focused itself, is its wrapper alone).
      part = self.part(keptSection);
      self.headerShown(part, keptSection, keptHead ? self.sections[keptSection][3] : null);
      self.footerShown(part, keptSection, null, 0);
      node = keptHead ? part.header || part.wrap : self.drawn.get(kept);
      self.placeKept(node, part, true);
      self.order(part.list, keptHead ? [] : [node]);
    }
    if (missed || self.deferred) self.schedule();
    self.deferred = false;
  };

  /* Places the node of the focused row or section header (or the section's wrapper, focused in a
     section without a header), kept while it is outside the drawn range, in `part` at its tree
     offset (a header's below the gap above its section); in a listing taller than the box, within
     the box (placed below it, the node would make the page taller). `alone`: the item's section is
     out of range, and its wrapper, holding that node alone, is placed with it. */
  List.prototype.placeKept = function (node, part, alone) {
    var item = node.rowkitItem, offset = this.tree.offset(item), height = this.tree.height(item);
    if (item === this.headItem[this.sectionOfItem(item)]) {
      offset += gap;
      height = Math.max(height - gap, 0);
    }
    var y = Math.max(0, Math.min(this.boxY(offset), this.boxHeight() - height));
    this.stats.treeCalls += 2;
    if (alone) {
      part.y = offset;
      part.wrap.style.top = y + "px";
      part.wrap.style.height = height + "px";
      if (node === part.wrap) return;
      y = 0;
    } else {
      y -= this.boxY(part.y);
    }
    if (node.rowkitY !== y) {
      node.rowkitY = y;
      node.style.transform = "translateY(" + y + "px)";
    }
  };

  /* Starts loading the row files of the rows within two screens above and three below the
     viewport (a step of the scroll wheel or a key press brings rows past the drawn range). */
  List.prototype.prefetch = function (view) {
    var pre = this.tree.range(Math.max(this.treeY - 2 * view, 0), this.treeY + 3 * view, this.preRange);
    if (pre[1] <= pre[0]) return;
    var firstRow = Math.max(pre[0] - 2 * this.sectionOfItem(pre[0]) - 1, 0);
    var lastRow = Math.min(Math.max(pre[1] - 1 - 2 * this.sectionOfItem(pre[1] - 1) - 1, 0), this.rows - 1);
    var files = filesOfRows(firstRow, lastRow, this.perShard);
    for (var n = files[0]; n <= files[1]; n++) {
      if (!this.shards.has(n)) this.shard(n);
    }
  };

  /* The wrapper of section s: <section> with its header, its <ul> of rows and its footer. */
  List.prototype.part = function (s) {
    var part = this.parts.get(s);
    if (part) return part;
    var wrap = element("section", "section");
    var list = element("ul", "rows");
    list.setAttribute("role", "list");
    wrap.appendChild(list);
    if (this.sections[s][2]) wrap.setAttribute("data-anchor", this.sections[s][2]);
    wrap.rowkitItem = this.headItem[s];   // focused itself after a jump when it has no header
    part = { wrap: wrap, list: list, header: null, footer: null, y: 0 };
    this.parts.set(s, part);
    // Sections in order in the document, so reading and Tab order follow the listing.
    var next = null, nextSection = -1;
    this.parts.forEach(function (other, t) {
      if (t > s && (nextSection < 0 || t < nextSection)) { nextSection = t; next = other.wrap; }
    });
    this.box.insertBefore(wrap, next);
    return part;
  };

  List.prototype.headerShown = function (part, s, text) {
    if (!text) {
      if (part.header) { this.resize.unobserve(part.header); part.header.remove(); part.header = null; }
      return;
    }
    if (!part.header) {
      part.header = element("h2", "section-header", text);
      part.header.dir = "auto";
      part.header.rowkitItem = this.headItem[s];
      part.wrap.insertBefore(part.header, part.wrap.firstChild);
      this.resize.observe(part.header);
    }
  };

  List.prototype.footerShown = function (part, s, text, y) {
    if (!text) {
      if (part.footer) { this.resize.unobserve(part.footer); part.footer.remove(); part.footer = null; }
      return;
    }
    if (!part.footer) {
      part.footer = element("p", "section-footer", text);
      part.footer.dir = "auto";
      part.footer.rowkitItem = this.headItem[s] + this.size[s] + 1;
      part.wrap.appendChild(part.footer);
      this.resize.observe(part.footer);
    }
    part.footer.style.transform = "translateY(" + y + "px)";
  };

  /* Puts `nodes` into `list` in order, moving only nodes out of place. */
  List.prototype.order = function (list, nodes) {
    var cursor = list.firstChild, i;
    for (i = 0; i < nodes.length; i++) {
      if (nodes[i] === cursor) cursor = cursor.nextSibling;
      else list.insertBefore(nodes[i], cursor);
    }
    while (cursor) {
      var next = cursor.nextSibling;
      cursor.remove();
      cursor = next;
    }
  };

  /* The node of row item `item`, drawn with its data (or as a row still loading). A drawn row
     whose file is being loaded again (dropped while the row was kept out of range, holding the
     focus) goes on showing what it shows: the listing does not change. */
  List.prototype.row = function (item, s, part, offset, height, mayFill) {
    var node = this.drawn.get(item), row = item - 2 * s - 1, data = this.rowData(row);
    var kind = data ? (data[0] & 32 ? 4 : data[0] & 3) : node ? node.rowkitKind : 5;
    if (!mayFill && (!node || node.rowkitKind !== kind)) {
      this.deferred = true;
      if (!node) return null;
      kind = node.rowkitKind;   // drawn as loading a little longer
    }
    if (node && node.rowkitKind !== kind) {
      this.release(item, node);
      node = null;
    }
    if (!node) {
      node = this.take(kind);
      node.rowkitItem = item;
      node.rowkitFilled = true;
      this.fill(node, data, row, s);
      this.drawn.set(item, node);
      if (kind === 5) {
        node.style.height = height + "px";
      } else {
        node.style.height = "";
        // Observing again reports the node's size even when it equals its previous row's.
        this.resize.unobserve(node);
        this.resize.observe(node);
      }
    }
    var y = offset - part.y;
    if (node.rowkitY !== y) {
      node.rowkitY = y;
      node.style.transform = "translateY(" + y + "px)";
    }
    return node;
  };

  List.prototype.take = function (kind) {
    var handle = this.pool.take(this.kinds[kind]), node;
    if (handle >= 0) {
      node = this.nodes[handle];
      return node;
    }
    node = element("li", "row");
    node.rowkitKind = kind;
    node.rowkitHandle = this.freeHandles.length ? this.freeHandles.pop() : this.nodes.length;
    this.nodes[node.rowkitHandle] = node;
    this.stats.created += 1;
    return node;
  };

  List.prototype.release = function (item, node) {
    if (node === this.tabbed) this.untab();
    this.drawn.delete(item);
    node.remove();
    node.rowkitItem = -1;
    if (node.rowkitKind !== 5) this.resize.unobserve(node);
    var evicted = this.pool.put(this.kinds[node.rowkitKind], node.rowkitHandle);
    if (evicted >= 0) {
      this.nodes[evicted] = null;
      this.freeHandles.push(evicted);
    }
  };

  /* Draws row `row` of section s into `node`: the cell as the exporter draws it. A node taken
     from the pool that drew a row of the same shape (link or not, image, detail, accessory,
     body) keeps its elements and gets the new row's text, links and image. */
  List.prototype.fill = function (node, data, row, s) {
    var first = this.first[s], size = this.size[s], posinset = row - first + 1;
    node.setAttribute("aria-setsize", size);
    node.setAttribute("aria-posinset", posinset);
    var place = (posinset === 1 ? " first" : "") + (posinset === size ? " last" : "");
    if (!data) {
      node.className = "row loading" + place;
      node.id = "";
      node.setAttribute("aria-busy", "true");
      if (!node.firstChild) node.appendChild(element("div", "cell"));
      return;
    }
    node.removeAttribute("aria-busy");
    drawRow(node, data, row, place, siteRoot);
  };

  /* ResizeObserver: drawn rows, headers and footers set their measured heights in the tree. */
  List.prototype.measure = function (entries) {
    var self = this, start = performance.now(), changed = false;
    if (self.hidden) return;   // search results shown: the list is not laid out
    self.keepAnchor(function () {
      entries.forEach(function (entry) {
        var node = entry.target, item = node.rowkitItem;
        if (item === undefined || item < 0 || node.rowkitKind === 5 || !node.isConnected) return;
        var box = entry.borderBoxSize && entry.borderBoxSize[0];
        var height = box ? box.blockSize : node.offsetHeight;
        var s = self.sectionOfItem(item);
        if (item === self.headItem[s]) height += gap;
        self.stats.treeCalls += 2;
        if (!self.measured[item] && node.rowkitKind !== undefined && node.rowkitKind < 4) {
          var data = self.rowData(item - 2 * s - 1);
          if (data && data[6]) {
            self.learnedBody.sum += Math.max(height - self.learned[node.rowkitKind].sum / self.learned[node.rowkitKind].count, 0);
            self.learnedBody.count += 1;
          } else {
            self.learned[node.rowkitKind].sum += height;
            self.learned[node.rowkitKind].count += 1;
          }
        }
        self.measured[item] = 1;
        if (self.tree.height(item) !== height) {
          self.tree.set(item, height);
          changed = true;
        }
      });
    });
    if (changed) self.draw(true);
    self.stats.js += performance.now() - start;
  };

  /* ---- Live changes (live.js, when `rowkit serve` serves the page). ---- */

  /* Applies changeset `payload` (docs/live.md) as performBatchUpdates does, with `live` the
     changeset arithmetic of live.js and `animate(node)` the animation of an inserted row: loads
     the outline after it (s-.js of its revision), removes the deleted rows, headers and footers
     from the tree and inserts the new ones at their estimates, carries the row data and
     measurements of the rows that stay, redraws, and keeps the row at the top of the viewport
     where it is (the next row that stays when it left). Rejects when the outline does not match the
     changeset (the page then reloads). */
  List.prototype.applyChangeset = function (payload, live, animate, whenExported) {
    var self = this, sizes = live.sectionSizes(self.sections, payload);
    if (sizes) {
      // At once, before the export: the rows the files on disk do not have yet are drawn as
      // loading until it is on disk (see exported).
      var sections = live.applySections(self.sections, payload, sizes);
      self.awaiting = Math.max(self.awaiting, payload.revision);
      self.applyOutline({ n: payload.rows, r: self.perShard, p: self.pageSize, g: self.pageFirstRows, b: self.buckets, s: sections }, payload, live, animate);
      return Promise.resolve();
    }
    return whenExported(payload.revision).then(function () { return file("s-"); }).then(function (outline) {
      if (!outline || outline.n !== payload.rows || outline.r !== self.perShard) throw new Error("the outline does not match the changeset");
      self.applyOutline(outline, payload, live, animate);
    });
  };

  /* The site on disk holds revision `revision` (live.js, in the order of the events: the list
     has applied the changesets before it): row files are requested again (of it), and, when
     `current` (no newer export came since), its outline must be the one the list applied, else
     the page reloads. Resolves once checked. */
  List.prototype.exported = function (revision, current) {
    var self = this;
    if (!self.awaiting || revision < self.awaiting) return Promise.resolve();
    self.awaiting = 0;
    self.revision += 1;
    self.loading = Object.create(null);
    // The export may have cut the groups differently: cut groups load again.
    Array.from(self.groupStarts.keys()).forEach(function (number) { self.dropPieces(number); self.shards.delete(number); });
    self.schedule();
    if (!current) return Promise.resolve();
    var rows = self.rows, mine = self.sections.map(function (section) { return section.concat(["", "", "", ""]).slice(0, 6); });
    return file("s-").then(function (outline) {
      var theirs = outline && outline.s.map(function (section) { return section.concat(["", "", "", ""]).slice(0, 6); });
      // Rows per file may change with the first rows' size: the row files are cut anew then.
      if (!outline || outline.n !== rows || outline.r !== self.perShard || JSON.stringify(mine) !== JSON.stringify(theirs)) {
        location.reload();
        return;
      }
      if (self.rows !== rows) return;
      self.buckets = outline.b;
      self.pageSize = outline.p;
      self.pageFirstRows = outline.g || null;
    });
  };

  List.prototype.applyOutline = function (outline, payload, live, animate) {
    var self = this, map = new live.RowMap(payload), before = self.outline, after = new Outline(outline.s);
    var oldSections = self.sections, oldRows = self.rows, smap = live.sectionMap(payload, oldSections.length);
    var expected = live.applySections(oldSections, payload, outline.s.map(function (section) { return section[1]; }));
    var padded = outline.s.map(function (section) { return section.concat(["", "", "", ""]).slice(0, 6); });
    if (JSON.stringify(expected) !== JSON.stringify(padded)) {
      throw new Error("the outline does not match the changeset's sections");
    }
    // The anchor: the row at the top of the viewport (or the one after a header or footer there).
    var anchorRow = -1, delta = 0, motion = !!animate;
    if (self.treeY > 0 && oldRows > 0) {
      var top = self.tree.itemAt(self.treeY);
      if (top >= 0) {
        anchorRow = Math.min(before.rowOfItem(top), oldRows - 1);
        delta = self.treeY - self.tree.offset(before.itemOfRow(anchorRow));
        var moved = map.map(anchorRow) < 0;
        anchorRow = map.anchor(anchorRow, oldRows);
        if (moved) delta = 0;
      }
    }
    // Ghosts of the deleted rows in view, and where moved rows were on the screen.
    var ghosts = [], movedFrom = new Map();
    self.drawn.forEach(function (node, item) {
      var row = before.rowOfItem(item);
      if (before.isHeader(item) || map.map(row) >= 0) return;
      var box = node.getBoundingClientRect();
      if (map.moved.has(row)) movedFrom.set(map.moved.get(row), box.top);
      else if (motion && box.bottom > 0 && box.top < window.innerHeight) ghosts.push(self.ghost(node, box));
    });
    // The tree: removes (descending old items), then inserts (ascending new items).
    var edits = live.treeEdits(payload, before, after, oldSections, outline.s);
    edits.remove.forEach(function (item) { self.tree.remove(item, 1); });
    var records = new Map();
    (payload.insert || []).forEach(function (entry) { records.set(entry[0], entry[1]); });
    (payload.reload || []).forEach(function (entry) { records.set(entry[0], entry[1]); });
    var heights = initialHeights(outline.s, outline.n, style, self.mixed);
    edits.insert.forEach(function (item) {
      var s = after.sectionOfItem(item), row = item - 2 * s - 1;
      var height = item === after.headItem[s] || item === after.headItem[s] + outline.s[s][1] + 1 ? heights[item] : self.guess(records.get(row) || [0]);
      self.tree.insert(item, height);
    });
    if (self.tree.count() !== outline.n + 2 * outline.s.length) throw new Error("the tree does not match the outline");
    // Measurements of the items that stay.
    var measured = new Uint8Array(self.tree.count()), i, row, n;
    for (i = 0; i < self.measured.length; i++) {
      if (!self.measured[i]) continue;
      var s0 = before.sectionOfItem(i);
      if (i === before.headItem[s0]) { if (smap[s0] >= 0) measured[after.headItem[smap[s0]]] = 1; continue; }
      row = i - 2 * s0 - 1;
      if (row >= before.first[s0] + before.size[s0]) { if (smap[s0] >= 0) measured[after.headItem[smap[s0]] + outline.s[smap[s0]][1] + 1] = 1; continue; }
      n = map.map(row);
      if (n >= 0 && !records.has(n)) measured[after.itemOfRow(n)] = 1;
    }
    // Row data: the rows that stay from the files in memory, the others from the changeset; only
    // complete files are kept (the rest load again, of the new revision).
    var per = self.perShard, known = new Map(records);
    self.shards.forEach(function (data, number) {
      for (var k = 0; k < data.length; k++) {
        var to = map.map(number * per + k);
        if (to >= 0 && data[k] && !known.has(to)) known.set(to, data[k]);
      }
    });
    var shards = new Map(), files = Math.ceil(outline.n / per);
    known.forEach(function (_data, to) {
      var number = Math.floor(to / per);
      if (shards.has(number)) return;
      var rows = [], end = Math.min((number + 1) * per, outline.n);
      for (var r = number * per; r < end; r++) {
        if (!known.has(r)) { rows = null; break; }
        rows.push(known.get(r));
      }
      shards.set(number, rows);
    });
    self.revision += 1;
    self.loading = Object.create(null);
    self.shards = new Map();
    self.groupStarts = new Map();
    self.pieces = new Map();
    self.estimated = new Uint8Array(files);
    shards.forEach(function (rows, number) { if (rows) { self.shards.set(number, rows); self.estimated[number] = 1; } });
    // Drawn rows that stay keep their nodes (and the focus), under their new items.
    var drawn = new Map(), focused = -1, focusedRow = -1;
    if (self.focused >= 0) {
      var fs = before.sectionOfItem(self.focused);
      if (self.focused === before.headItem[fs]) focused = smap[fs] >= 0 ? after.headItem[smap[fs]] : -1;
      else if ((focusedRow = map.map(self.focused - 2 * fs - 1)) >= 0) focused = after.itemOfRow(focusedRow);
    }
    self.drawn.forEach(function (node, item) {
      var s = before.sectionOfItem(item), to = item === before.headItem[s] ? -1 : map.map(item - 2 * s - 1);
      if (to < 0 || records.has(to)) { self.release(item, node); return; }
      node.rowkitItem = after.itemOfRow(to);
      drawn.set(node.rowkitItem, node);
    });
    self.drawn = drawn;
    var parts = new Map();
    self.parts.forEach(function (part, s) {
      if (smap[s] < 0) { part.wrap.remove(); return; }
      var t = smap[s], head = after.headItem[t];
      part.wrap.rowkitItem = head;
      if (part.header) { part.header.rowkitItem = head; part.header.textContent = outline.s[t][3] || ""; }
      if (part.footer) { part.footer.rowkitItem = head + outline.s[t][1] + 1; part.footer.textContent = outline.s[t][4] || ""; }
      if (outline.s[t][2]) part.wrap.setAttribute("data-anchor", outline.s[t][2]); else part.wrap.removeAttribute("data-anchor");
      parts.set(t, part);
    });
    self.parts = parts;
    self.focused = focused;
    self.measured = measured;
    self.rows = outline.n;
    self.pageSize = outline.p;
    self.pageFirstRows = outline.g || null;
    self.buckets = outline.b;
    self.sections = outline.s;
    self.outline = after;
    self.sectionCount = after.count;
    self.first = after.first;
    self.size = after.size;
    self.headItem = after.headItem;
    self.anchors = after.anchors;
    // Rows of the new listing drawn by the node they had refill their place in their section.
    self.drawn.forEach(function (node, item) {
      var s = after.sectionOfItem(item), data = self.rowData(item - 2 * s - 1);
      if (data) self.fill(node, data, item - 2 * s - 1, s);
    });
    self.indexBar();
    // The anchored row stays where it was on the screen; then the new rows draw.
    // (While search results replace the list, it is not laid out: it draws when they go.)
    if (self.hidden) self.treeY = anchorRow >= 0 ? self.tree.offset(after.itemOfRow(anchorRow)) + delta : self.treeY;
    else if (anchorRow >= 0) self.scrollToTreeY(self.tree.offset(after.itemOfRow(anchorRow)) + delta);
    else self.draw();
    ghosts.forEach(function (ghost) {
      document.body.appendChild(ghost);
      setTimeout(function () { ghost.remove(); }, 350);
    });
    if (!motion) return;
    (payload.insert || []).forEach(function (entry) {
      var node = self.drawn.get(after.itemOfRow(entry[0]));
      if (!node) return;
      if (movedFrom.has(entry[0])) {
        var dy = movedFrom.get(entry[0]) - node.getBoundingClientRect().top;
        node.animate([{ translate: "0 " + dy + "px" }, { translate: "0 0" }], { duration: 300, easing: "ease-in-out" });
      } else {
        animate(node);
      }
    });
  };

  /* A copy of row node `node` drawn over the page where it is (`box`), fading out: a deleted row. */
  List.prototype.ghost = function (node, box) {
    var ghost = /** @type {HTMLElement} */ (node.cloneNode(true));
    ghost.removeAttribute("id");
    ghost.setAttribute("aria-hidden", "true");
    ghost.classList.add("rowkit-live-deleted");
    ghost.style.cssText = "position:absolute;z-index:1;margin:0;list-style:none;transform:none;left:" + (box.left + window.scrollX)
      + "px;top:" + (box.top + window.scrollY) + "px;width:" + box.width + "px;height:" + box.height + "px";
    return ghost;
  };

  /* The index bar after a change of the sections: an entry per section with an index title, to
     its anchor on the page it starts on. */
  List.prototype.indexBar = function () {
    var list = document.querySelector("nav.index-bar ol"), self = this;
    if (!list) return;
    var items = [];
    self.sections.forEach(function (section) {
      if (!section[5]) return;
      var page = pageOfRow(section[0], self.pageSize, self.pageFirstRows);
      var name = page === pageNumber ? "" : page === 1 ? "index.html" : "page-" + page + ".html";
      var item = element("li"), link = /** @type {HTMLAnchorElement} */ (element("a", "", section[5]));
      link.setAttribute("href", name + "#" + section[2]);
      item.appendChild(link);
      items.push(item);
    });
    list.replaceChildren.apply(list, items);
  };

  /* ---- Jumps: #r-<n>, #row-<slug>, #section-<slug>; links to this table's list pages. ---- */

  /* The tree item of `hash` (without #), or -1; a promise. */
  List.prototype.resolve = function (hash) {
    var self = this, match = /^r-(\d+)$/.exec(hash), s;
    if (match) {
      var row = parseInt(match[1], 10) - 1;
      return Promise.resolve(row >= 0 && row < self.rows ? self.itemOfRow(row) : -1);
    }
    if (hash in self.anchors) {
      s = self.anchors[hash];
      return Promise.resolve(self.headItem[s]);
    }
    match = /^row-(.+)$/.exec(hash);
    if (!match || !self.buckets) return Promise.resolve(-1);
    var slug = match[1], h = anchorHash(slug);
    return file("i-" + (h % self.buckets)).then(function (pairs) {
      var candidates = [], i;
      for (i = 0; pairs && i < pairs.length; i += 2) if (pairs[i] === h) candidates.push(pairs[i + 1]);
      return candidates.reduce(function (found, row) {
        return found.then(function (item) {
          if (item >= 0) return item;
          return self.load(row, row + 1).then(function () {
            var data = self.rowData(row);
            return data && data[3] === "rows/" + slug + ".html" ? self.itemOfRow(row) : -1;
          });
        });
      }, Promise.resolve(-1));
    });
  };

  /* Scrolls to tree item `item` (a row, or a section's header). */
  List.prototype.jump = function (item) {
    var s = this.sectionOfItem(item), y = this.tree.offset(item);
    if (item === this.headItem[s]) {
      y += gap;
    } else if (style === "plain" && this.sections[s][3]) {
      y -= this.tree.height(this.headItem[s]);  // below the section's pinned header
    }
    this.scrollToTreeY(y);
  };

  /* Scrolls row item `item` to the middle of the viewport, with its neighbours drawn around it. */
  List.prototype.reveal = function (item) {
    this.scrollToTreeY(this.tree.offset(item) - (window.innerHeight - this.tree.height(item)) / 2);
  };

  /* ---- Tab: the keyboard goes on to the next row with a link, drawn or not. ---- */

  /* Tab (Shift+Tab with `back`) from `active`, the focused row or section header of item `item`
     (-1: <main> itself, before the first row), as on a page that draws every row: on to the next
     (previous) row with a tab stop in listing order. When the browser's own next stop is that
     row's, it is left to the browser; otherwise the key's default is prevented and the list goes
     to that row, loading row files one at a time when needed, through the rest of the focused
     row's file and TAB_FILES more. With no such row in the listing, or none within that bound,
     the focus leaves the list as it would from the last row drawn. Tabs pressed while the list is
     on its way are dropped. Runs on the key press alone. */
  List.prototype.tab = function (event, active, item) {
    var self = this, back = event.shiftKey;
    if (self.tabbing) {
      event.preventDefault();
      return;
    }
    var next = self.browserStop(active, back);
    var own = item >= 0 ? self.drawn.get(item) : null;
    if (next && own && own.contains(next)) return;   // another link of the same row (its body's)
    var row;
    if (item < 0) {
      if (back) return;
      row = -1;
    } else {
      var s = self.sectionOfItem(item);
      row = item === self.headItem[s] ? (back ? self.first[s] : self.first[s] - 1) : item - 2 * s - 1;
    }
    var step = back ? -1 : 1, limit = tabLimit(row, step, self.perShard, self.rows);
    // The row files in memory first: most Tabs end here, without waiting.
    var found = self.tabSearch(row, step, limit);
    if (found.row >= 0) {
      var target = self.drawn.get(self.itemOfRow(found.row));
      if (next && target && target.contains(next)) return;
      event.preventDefault();
      self.land(self.itemOfRow(found.row), back);
      return;
    }
    if (found.row === -1) {
      // None up to the bound: as from the last row drawn, past whatever else is drawn.
      if (next && found.at !== (back ? -1 : self.rows)) {
        event.preventDefault();
        self.leave(back);
      }
      return;
    }
    event.preventDefault();
    self.tabbing = true;
    var wait = function (from) {
      var number = Math.floor(from / self.perShard);
      return self.load(from, from + 1).then(function () {
        var rows = self.shards.get(number);
        if (!rows || rows[from % self.perShard] === null) return { row: -3 };   // the file did not load: the focus stays
        var more = self.tabSearch(from - step, step, limit);
        return more.row === -2 ? wait(more.at) : more;
      });
    };
    wait(found.at).then(function (result) {
      self.tabbing = false;
      if (document.activeElement !== active || self.hidden || result.row === -3) return;
      if (result.row >= 0) self.land(self.itemOfRow(result.row), back);
      else self.leave(back);
    }, function () {
      self.tabbing = false;
    });
  };

  /* Looks through the row files in memory from row `row` + step on (step 1 or -1) up to row `limit`
     (excluded) for a row with a tab stop: { row } for that row; { row: -1, at: limit } when there is
     none; { row: -2, at } when the file of row `at` is not in memory. */
  List.prototype.tabSearch = function (row, step, limit) {
    return tabSearch(this.shards, this.perShard, row, step, limit);
  };

  /* The element of the list the browser's Tab (Shift+Tab with `back`) goes to from `active`. */
  List.prototype.browserStop = function (active, back) {
    return stopBeside(this.box.querySelectorAll(FOCUSABLE), active, back, null);
  };

  /* Shows row item `item` in the middle of the viewport and focuses its first tab stop (its last
     with `back`, as Shift+Tab does). */
  List.prototype.land = function (item, back) {
    this.reveal(item);
    this.frame();   // draws the place revealed now, so that the row's node exists
    var node = this.drawn.get(item);
    if (!node) return;
    var stops = [].filter.call(node.querySelectorAll(FOCUSABLE), isTabStop);
    var stop = back ? stops[stops.length - 1] : stops[0];
    if (stop) stop.focus({ preventScroll: true });
  };

  /* Moves the focus out of the list: to the first tab stop after it in the document (the last
     before it with `back`), or, when there is none, to the document itself, as Tab from the last
     stop of a page does. */
  List.prototype.leave = function (back) {
    var box = this.box;
    var found = stopBeside(document.querySelectorAll(FOCUSABLE), box, back, function (node) {
      return box.contains(node) || node.contains(box) || !node.getClientRects().length
        || getComputedStyle(node).visibility === "hidden";
    });
    if (found) found.focus();
    else if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  };

  /* Resolves `hash`, loads the rows around it, then jumps (and with `focus`, moves the focus
     there); resolves to whether it found it. */
  List.prototype.go = function (hash, focus) {
    var self = this;
    return self.resolve(hash).then(function (item) {
      if (item < 0) return false;
      var s = self.sectionOfItem(item), row = Math.max(item - 2 * s - 1, self.first[s]);
      return self.load(Math.max(row - 8, 0), Math.min(row + 40, self.rows)).then(function () {
        self.jump(item);
        if (focus) self.focusItem(item);
        return true;
      });
    });
  };

  /* Focuses item `item` after a jump the user asked for (the index bar, a search result, a link
     within the page): its row's link, else the row, or the section's header. Following a link
     to an anchor of a static page moves where Tab continues from to the anchor; here the anchor
     is drawn by the script, and the link followed (a search result) may be gone, so without
     this Tab and a screen reader would go on from the index bar or from the top of the page. */
  List.prototype.focusItem = function (item) {
    this.frame();   // draws the place jumped to now, so that its nodes exist
    var s = this.sectionOfItem(item), part = this.parts.get(s), node;
    if (item === this.headItem[s]) node = part && (part.header || part.wrap);
    else node = this.drawn.get(item);
    if (!node) return;
    var link = node.querySelector && node.querySelector("a.cell");
    var tabbed = !link && !node.hasAttribute("tabindex");
    if (tabbed) node.setAttribute("tabindex", "-1");
    (link || node).focus({ preventScroll: true });
    // Set after focusing: the focusout of the node focused before removes that node's tabindex.
    if (tabbed) this.tabbed = node;
  };

  /* Takes back the tabindex focusItem gave a row, header or section to focus it, once the focus
     has left it (or its node goes back to the pool): a node that keeps it, reused for other rows,
     would make them take the focus on a click, which a row without a link does not. */
  List.prototype.untab = function () {
    this.tabbed.removeAttribute("tabindex");
    this.tabbed = null;
  };

  /* A link to one of this table's list pages: the hash to go to ("" for a page's first row). */
  function listPageTarget(link) {
    if (!link.href || link.target || link.hasAttribute("download")) return null;
    var here = location.href.replace(/#.*$/, ""), there = link.href.replace(/#.*$/, "");
    // The skip link, to <main> itself: the browser follows it (scrolls to the list, focuses it).
    if (there === here && main.id && link.hash === "#" + main.id) return null;
    var folder = here.replace(/[^\/]*$/, "");
    if (there.lastIndexOf(folder, 0) !== 0) return null;
    var name = there.slice(folder.length);
    var page = pageOfName(name);
    if (!page) return null;
    var hash = link.hash ? decodeURIComponent(link.hash.slice(1)) : "";
    return { page: page, hash: hash };
  }

  /* Loads page `page`'s first rows; resolves to a function that shows them. */
  List.prototype.pagePlace = function (page) {
    var row = Math.min(pageFirstRow(page, this.pageSize, this.pageFirstRows), Math.max(this.rows - 1, 0)), self = this;
    return self.load(row, Math.min(row + 40, self.rows)).then(function () {
      return function () {
        if (page > 1) {
          self.jump(self.itemOfRow(row));
        } else {
          window.scrollTo(0, 0);
          self.frame();
        }
      };
    });
  };

  List.prototype.goToPage = function (page) {
    return this.pagePlace(page).then(function (show) { show(); });
  };

  /* Where the page opens: a place saved in its history entry (Back, reload), else the hash, else
     the page's first row. Loads what it shows, then resolves to a function that shows it. */
  List.prototype.opening = function () {
    var self = this, hash = decodeURIComponent(location.hash.slice(1));
    var navigation = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType && performance.getEntriesByType("navigation")[0]);
    var state = history.state || {};
    if (typeof state.rowkitRow === "number" && navigation && navigation.type !== "navigate") {
      var row = Math.max(0, Math.min(state.rowkitRow, self.rows - 1));
      return self.load(row, Math.min(row + 40, self.rows)).then(function () {
        return function () { self.scrollToTreeY(self.tree.offset(self.itemOfRow(row)) + (state.rowkitDelta || 0)); };
      });
    }
    if (!hash) return self.pagePlace(pageNumber);
    return self.resolve(hash).then(function (item) {
      if (item < 0) return self.pagePlace(pageNumber);
      var s = self.sectionOfItem(item), row = Math.max(item - 2 * s - 1, self.first[s]);
      return self.load(Math.max(row - 8, 0), Math.min(row + 40, self.rows)).then(function () {
        return function () { self.jump(item); };
      });
    });
  };

  /* Remembers the row at the top of the viewport in the history entry, for Back. */
  List.prototype.save = function () {
    if (this.treeY <= 0) return;
    var item = this.tree.itemAt(this.treeY);
    if (item < 0) return;
    var s = this.sectionOfItem(item), row = Math.max(item - 2 * s - 1, this.first[s]);
    var state = Object.assign({}, history.state || {}, {
      rowkitRow: Math.min(row, this.rows - 1), rowkitDelta: this.treeY - this.tree.offset(this.itemOfRow(Math.min(row, this.rows - 1)))
    });
    try { history.replaceState(state, ""); } catch (error) { /* a browser refusing it keeps the hash */ }
  };

  /* Swaps the page's own sections for the whole listing, shows the place `show` shows (see
     opening) and wires scrolling, links and Back. A row of the page that held the focus hands it
     to its node in the list. */
  List.prototype.start = function (show) {
    var self = this;
    if ("scrollRestoration" in history) history.scrollRestoration = "manual";
    var active = document.activeElement, had = active && main.contains(active) ? active.closest("li.row[id]") : null;
    while (main.firstChild) main.removeChild(main.firstChild);
    main.appendChild(self.box);
    document.documentElement.classList.add("one-page-list");
    self.top = self.listTop();
    self.box.style.height = self.boxHeight() + "px";
    window.addEventListener("scroll", function () { self.schedule(); }, { passive: true });
    // Where the list starts is read again only when what is above it changes size (a layout
    // read in every frame would wait for the layout of the frame's own changes).
    self.topChanged = false;
    function moved() { self.topChanged = true; self.schedule(); }
    window.addEventListener("resize", moved);
    var navbar = document.querySelector("header.navbar");
    if (navbar) new ResizeObserver(moved).observe(navbar);
    window.addEventListener("hashchange", function () {
      var hash = decodeURIComponent(location.hash.slice(1)), focus = self.focusJump;
      self.focusJump = false;
      if (hash) self.go(hash, focus);
    });
    window.addEventListener("pagehide", function () { self.save(); });
    // The row or section header holding the focus keeps its node while it is scrolled out of the
    // drawn range (see draw), until the focus leaves it. During focusout, document.activeElement
    // is already where the focus goes (<body> until the focusin), except when the window loses
    // the focus: the row keeps it then, and gets it back with the window.
    function focusMoved() {
      var active = document.activeElement;
      if (self.tabbed && self.tabbed !== active) self.untab();
      // The list's own nodes only: a custom row's markup may hold a <section> or an <h2>.
      var holder = active && self.box.contains(active)
        ? active.closest("li.row, .one-page > .section, .one-page > .section > .section-header") : null;
      var item = holder && holder.rowkitItem >= 0 ? holder.rowkitItem : -1;
      if (item === self.focused) return;
      self.focused = item;
      self.schedule();   // releases a node kept out of range
    }
    document.addEventListener("focusin", focusMoved);
    document.addEventListener("focusout", focusMoved);
    // Tab and Shift+Tab from a focused row or section header (or from <main>, after the skip
    // link) go on to the next (previous) row with a link, drawn or not (see tab).
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Tab" || self.hidden || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      var active = document.activeElement;
      if (active === main) self.tab(event, active, -1);
      else if (self.focused >= 0 && active && self.box.contains(active)) self.tab(event, active, self.focused);
    });
    // End goes to the end at once: the browser's own End animates toward the height the page had
    // when the key was pressed, and the rows it passes are measured on the way, so it stopped
    // short. Once there, keepAnchor keeps the window at the end while the last rows are measured.
    document.addEventListener("keydown", function (event) {
      if (self.hidden || event.defaultPrevented || event.key !== "End" || event.altKey || event.metaKey || event.shiftKey) return;
      var target = /** @type {HTMLElement} */ (event.target);
      if (target && (target.isContentEditable || /^(?:INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
      event.preventDefault();
      window.scrollTo(0, document.documentElement.scrollHeight);
      self.schedule();
    });
    // While search results replace the list (body.searching), the list keeps its place: the one
    // it had when the search field took the focus (which scrolls the field into view).
    var place = null;
    function remember() {
      var item = self.treeY > 0 ? self.tree.itemAt(self.treeY) : -1;
      place = item >= 0 ? { item: item, delta: self.treeY - self.tree.offset(item) } : null;
    }
    bar.addEventListener("focusin", function () { if (!self.hidden) remember(); });
    new MutationObserver(function () {
      var hidden = document.body.classList.contains("searching");
      if (hidden === self.hidden) return;
      if (hidden) {
        if (!place) remember();
        self.hidden = true;
      } else {
        self.hidden = false;
        if (place) self.scrollToTreeY(self.tree.offset(place.item) + place.delta);
        else window.scrollTo(0, 0);
        place = null;
        self.schedule();
      }
    }).observe(document.body, { attributes: true, attributeFilter: ["class"] });
    document.title = document.title.replace(/ \u2013 Page \d+ of \d+$/, "");
    document.addEventListener("click", function (event) {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      var clicked = /** @type {Element} */ (event.target);
      var link = /** @type {HTMLAnchorElement} */ (clicked.closest && clicked.closest("a[href]"));
      if (!link) return;
      var target = listPageTarget(link);
      if (!target) {
        self.save();
        return;
      }
      event.preventDefault();
      var search = root.RowKitSearch.bar;
      if (search && link.closest("#search-results")) search.reset(false);
      if (target.hash && ("#" + target.hash) !== location.hash) {
        self.focusJump = true;
        location.hash = target.hash;   // hashchange jumps; Back returns to the previous place
      } else if (target.hash) {
        self.go(target.hash, true);
      } else {
        self.goToPage(target.page);
      }
    });
    show();
    if (had) self.refocus(had.id);
  };

  /* Focuses the row whose static node (id `id`) held the focus when the list replaced the page's
     rows: its new node when it is drawn at the place shown, else the list goes to it, as a jump
     to #id does. Either way Tab goes on from that row, as it would have on the static page. */
  List.prototype.refocus = function (id) {
    var node = document.getElementById(id);
    if (node && this.box.contains(node) && node.rowkitItem >= 0) this.focusItem(node.rowkitItem);
    else this.go(id, true);
  };

  var started = performance.now();
  /** @type {any} */
  var api = root.RowKitListing = Object.assign({ started: started }, logic);
  // The row file the page opens at is requested now, beside the module and the outline (the page
  // says how many rows a file holds, as the outline does).
  var opening = /^#r-(\d+)$/.exec(location.hash), pageSize = parseInt(main.getAttribute("data-page-size"), 10) || 0;
  var firstRow = parseInt(main.getAttribute("data-first-row") || "", 10);
  var openingRow = opening ? parseInt(opening[1], 10) - 1 : firstRow >= 0 ? firstRow : (pageNumber - 1) * pageSize;
  var rowsPerFile = parseInt(main.getAttribute("data-rows-per-file"), 10) || 0;
  if (openingRow >= 0 && rowsPerFile > 0) file("r-" + Math.floor(openingRow / rowsPerFile));
  api.ready = Promise.all([root.RowKitCore.load(), file("s-")]).then(function (loaded) {
    var core = loaded[0], outline = loaded[1];
    if (!outline) return null;
    var list = new List(core, outline);
    api.list = list;
    // The static rows stay until the rows to show are in, then the list takes their place.
    return list.opening().then(function (show) {
      list.start(show);
      api.firstRows = performance.now();   // milliseconds since the navigation started
      return list;
    });
  }).catch(function (error) {
    api.error = error;
    if (window.console) console.error("RowKit one-page list:", error);
    return null;
  });
  api.stats = function () {
    var list = api.list;
    if (!list) return null;
    return {
      rows: list.rows, drawn: list.drawn.size, created: list.stats.created,
      pooled: list.kinds.reduce(function (sum, kind) { return sum + list.pool.count(kind); }, 0),
      treeBytes: list.tree.bytes(), moduleBytes: list.core.memoryBytes(), total: list.tree.total(),
      boxHeight: list.boxHeight(), shards: list.shards.size, treeY: list.treeY
    };
  };
})(globalThis);
