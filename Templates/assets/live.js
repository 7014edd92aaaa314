/* RowKit live: an open page of a site that `rowkit serve` serves follows its listing.
 *
 * The server adds this script to every page it serves (docs/live.md), with the page's table,
 * revision, kind and path as data attributes; it is never written into an exported site, so pages
 * opened from file:// or any static host behave exactly as exported. It listens to the table's
 * event stream (`/_rowkit/events`, Server-Sent Events) and:
 * - applies each `changeset` in place, as UIKit's performBatchUpdates does: the one-page list
 *   (listing.js) through its row-offset tree and reuse pool, a table of one page through its own
 *   DOM (new rows drawn from the changeset's records with listing.js's row markup, or, when the
 *   sections change, as the server renders the exported page). The row at the top of the
 *   viewport stays where it is; inserted, deleted and moved rows animate briefly, not at all
 *   under prefers-reduced-motion;
 * - after `exported`, drops the index files cached from older revisions (search, row files); a
 *   detail page whose row changed reloads, one whose row was deleted says so and links back;
 * - reloads once on `reload` (title, style, templates or options changed, or the page is behind);
 * - shows the listing's problems (`problems`) in an overlay, cleared by an empty `problems`.
 *
 * A classic script: in a page it puts `window.RowKitLive` ({revision, applied, drawnInPlace,
 * settled, lastEvent, connected, apply(payload), exported(data)}); under node, `require("./live.js")`
 * returns the changeset arithmetic (Tests/JS/live.test.js).
 */
(function (/** @type {any} */ root) {
  "use strict";

  var ANIMATION_MS = 300;   // UIKit's .automatic row animation, about 0.3 s

  /* ---- The changeset arithmetic (docs/live.md: flat row indices, rows only, from 0). ---- */

  /* The number of entries of ascending `values` below `value`. */
  function countBelow(values, value) {
    var low = 0, high = values.length, middle;
    while (low < high) {
      middle = (low + high) >>> 1;
      if (values[middle] < value) low = middle + 1; else high = middle;
    }
    return low;
  }

  /* Old flat row -> new flat row for a changeset `payload`. A row not deleted keeps its place
     among the rows that stay: its new index is its rank among them plus the inserts before it. */
  function RowMap(payload) {
    var inserted = (payload.insert || []).map(function (entry) { return entry[0]; }), i;
    this.deleted = payload.delete || [];
    this.inserted = inserted;
    // slots[t]: how many staying rows come before insert t (non-decreasing).
    this.slots = inserted.map(function (row, t) { return row - t; });
    this.moved = new Map();
    for (i = 0; payload.move && i < payload.move.length; i++) this.moved.set(payload.move[i][0], payload.move[i][1]);
    this.deletedSet = new Set(this.deleted);
    this.insertedSet = new Set(inserted);
  }

  /* The new index of old row `old`, or -1 when it left its place (deleted, or moved: see moved). */
  RowMap.prototype.map = function (old) {
    if (this.deletedSet.has(old)) return -1;
    var rank = old - countBelow(this.deleted, old);
    return rank + countBelow(this.slots, rank + 1);
  };

  /* The new index of the row the viewport is anchored to, old row `old`: itself when it stays,
     else the next row that stays (a deleted or moved row leaves the view where it is), else the
     last one before it; -1 when no row stays. */
  RowMap.prototype.anchor = function (old, oldRows) {
    var row;
    for (row = old; row < oldRows; row++) if (!this.deletedSet.has(row)) return this.map(row);
    for (row = Math.min(old, oldRows) - 1; row >= 0; row--) if (!this.deletedSet.has(row)) return this.map(row);
    return -1;
  };

  /* Old section -> new section (-1 for a section deleted or moved away) for `payload`, over
     `oldCount` sections. */
  function sectionMap(payload, oldCount) {
    var sections = payload.sections || {}, deleted = new Set(sections.delete || []);
    var inserted = (sections.insert || []).map(function (entry) { return entry[0]; });
    var out = [], rank = 0, s, n;
    for (s = 0; s < oldCount; s++) {
      if (deleted.has(s)) { out.push(-1); continue; }
      n = rank;
      for (var t = 0; t < inserted.length && inserted[t] <= n; t++) n++;
      out.push(n);
      rank++;
    }
    return out;
  }

  /* The outline after `payload` (s-.js's [[first row, rows, anchor, header, footer, index title],
     ...]) from the outline before, `old`, and the row count of each section after, `sizes`:
     sections deleted and inserted, texts reloaded, first rows from the sizes. */
  function applySections(old, payload, sizes) {
    var sections = payload.sections || {}, map = sectionMap(payload, old.length), out = [], first = 0, s;
    for (s = 0; s < old.length; s++) if (map[s] >= 0) out[map[s]] = old[s].slice(2);
    (sections.insert || []).forEach(function (entry) { out[entry[0]] = entry.slice(2); });
    (sections.reload || []).forEach(function (entry) { out[entry[0]] = entry.slice(1); });
    if (out.length !== sizes.length) throw new Error(out.length + " sections after the change, " + sizes.length + " sizes");
    for (s = 0; s < out.length; s++) {
      if (!out[s]) throw new Error("section " + s + " is neither kept nor inserted");
      out[s] = [first, sizes[s]].concat(out[s]);
      while (out[s].length < 6) out[s].push("");
      first += sizes[s];
    }
    return out;
  }

  /* The row count of each section after `payload` when every inserted row says the section it
     joins (the third field of its entry): each kept section's rows that stay plus the rows
     inserted into it. `undefined` when an insert does not say; `null` when the numbers do not
     add up (an inserted row outside its section, a count that differs). */
  function joinedSizes(old, payload) {
    var sections = payload.sections || {}, inserts = payload.insert || [], deleted = payload.delete || [];
    if (!inserts.every(function (entry) { return typeof entry[2] === "number"; })) return undefined;
    var smap = sectionMap(payload, old.length), count = old.length - (sections.delete || []).length + (sections.insert || []).length;
    var sizes = [], s, t, first;
    for (t = 0; t < count; t++) sizes.push(0);
    for (s = 0; s < old.length; s++) {
      if ((t = smap[s]) < 0 || t >= count) continue;
      sizes[t] += old[s][1] - (countBelow(deleted, old[s][0] + old[s][1]) - countBelow(deleted, old[s][0]));
    }
    for (t = 0; t < inserts.length; t++) {
      if (inserts[t][2] < 0 || inserts[t][2] >= count) return null;
      sizes[inserts[t][2]] += 1;
    }
    if ((sections.insert || []).some(function (entry) { return sizes[entry[0]] !== entry[1]; })) return null;
    var starts = [first = 0];
    for (t = 0; t < count; t++) starts.push(first += sizes[t]);
    if (first !== payload.rows) return null;
    for (t = 0; t < inserts.length; t++) {
      s = inserts[t][2];
      if (inserts[t][0] < starts[s] || inserts[t][0] >= starts[s + 1]) return null;
    }
    return sizes;
  }

  /* The row count of each section after `payload` for a table of one page whose sections have
     `counts` rows, when the page can draw the change from its records alone: every inserted and
     reloaded row has its record, and the sections stay as they are (a new section's anchor is
     the export's). `null` when it cannot: the page then takes the change from the page exported. */
  function recordSizes(counts, payload) {
    var sections = payload.sections || {}, first = 0;
    if (["delete", "insert", "reload", "move"].some(function (name) { return (sections[name] || []).length > 0; })) return null;
    var rows = (payload.insert || []).concat(payload.reload || []);
    if (!rows.every(function (entry) { return Array.isArray(entry[1]); })) return null;
    var old = counts.map(function (count) { first += count; return [first - count, count]; });
    if ((payload.delete || []).some(function (row) { return row < 0 || row >= first; })) return null;
    return sectionSizes(old, payload);
  }

  /* The root of the site seen from the page at `path` (relative to it): "" or "../". */
  function siteRootOf(path) {
    return new Array(path.split("/").length).join("../");
  }

  /* The row count of each section after `payload`, from the outline before (`old`), when the
     changeset says it: when each inserted row names its section, joinedSizes; else inserted
     sections have theirs; a kept section spans from the row after the section before it to its
     last row that stays, and the rows inserted after that, up to the next kept section's first
     row that stays, when none can be that section's instead. `null` when it does not say (rows
     inserted between two kept sections, or a kept section none of whose rows stay): the outline
     must then come from the site (s-.js) once exported. */
  function sectionSizes(old, payload) {
    var joined = joinedSizes(old, payload);
    if (joined !== undefined) return joined;
    var sections = payload.sections || {}, map = new RowMap(payload), smap = sectionMap(payload, old.length);
    var count = old.length - (sections.delete || []).length + (sections.insert || []).length;
    var sizes = [], firstNew = [], lastNew = [], kept = [], s, t, r, n;
    for (t = 0; t < count; t++) { sizes.push(-1); firstNew.push(-1); lastNew.push(-1); kept.push(false); }
    (sections.insert || []).forEach(function (entry) { sizes[entry[0]] = entry[1]; });
    for (s = 0; s < old.length; s++) {
      if ((t = smap[s]) < 0) continue;
      kept[t] = true;
      for (r = old[s][0]; r < old[s][0] + old[s][1]; r++) {
        if ((n = map.map(r)) < 0) continue;
        if (firstNew[t] < 0) firstNew[t] = n;
        lastNew[t] = n;
      }
    }
    var at = 0;
    for (t = 0; t < count; t++) {
      if (!kept[t]) { at += sizes[t]; continue; }
      if (firstNew[t] < at) return null;
      var u = t + 1, run = 0;
      while (u < count && !kept[u]) run += sizes[u++];
      var end;
      if (u < count) {
        if (firstNew[u] < 0 || firstNew[u] - (lastNew[t] + 1) !== run) return null;
        end = lastNew[t] + 1;
      } else {
        end = payload.rows - run;
      }
      if (end <= lastNew[t]) return null;
      sizes[t] = end - at;
      at = end;
    }
    return at === payload.rows ? sizes : null;
  }

  /* The tree edits of `payload` for the one-page list: the items to remove (old item indices,
     descending) and to insert (new item indices, ascending), from the outlines before and after
     (objects with itemOfRow and headItem, as listing.js's Outline). */
  function treeEdits(payload, before, after, oldSections, newSections) {
    var remove = [], insert = [], sections = payload.sections || {};
    (payload.delete || []).forEach(function (row) { remove.push(before.itemOfRow(row)); });
    (sections.delete || []).forEach(function (s) {
      remove.push(before.headItem[s], before.headItem[s] + oldSections[s][1] + 1);
    });
    (payload.insert || []).forEach(function (entry) { insert.push(after.itemOfRow(entry[0])); });
    (sections.insert || []).forEach(function (entry) {
      var s = entry[0];
      insert.push(after.headItem[s], after.headItem[s] + newSections[s][1] + 1);
    });
    remove.sort(function (a, b) { return b - a; });
    insert.sort(function (a, b) { return a - b; });
    return { remove: remove, insert: insert };
  }

  /* ---- The order of a page's events. ---- */

  /* Follows a table's events in the order they come: each `changeset` and each `exported` is a
     step of the page (`steps.changeset(payload, whenExported)`, `steps.exported(data, current)`;
     each may return a promise), and a step starts only once the steps of the events before it
     are done, whatever they wait for (a changeset may wait for its export, the list's check of an
     export loads its outline). What the site on disk holds is known at once, though: an
     `exported` releases the changesets that wait for that revision (`whenExported`) before its
     own step runs, which is `current` when no newer export came meanwhile. `steps.failed(error)`
     hears of a step that threw or rejected (the page then reloads). `revision`: the revision of
     the site on disk when the page was served. */
  function Follower(steps, revision) {
    this.steps = steps;
    this.onDisk = revision;
    this.waiting = [];
    this.tail = Promise.resolve();
  }

  /* A promise of the site on disk holding revision `revision` or a newer one. */
  Follower.prototype.whenExported = function (revision) {
    var self = this;
    if (self.onDisk >= revision) return Promise.resolve();
    return new Promise(function (resolve) { self.waiting.push({ revision: revision, resolve: resolve }); });
  };

  /* Runs `step` after every step before it; resolves when it is done. */
  Follower.prototype.then = function (step) {
    var steps = this.steps;
    this.tail = this.tail.then(step).catch(function (error) { steps.failed(error); });
    return this.tail;
  };

  /* A `changeset` came. */
  Follower.prototype.changeset = function (payload) {
    var self = this;
    return self.then(function () { return self.steps.changeset(payload, self.whenExported.bind(self)); });
  };

  /* An `exported` came. */
  Follower.prototype.exported = function (data) {
    var self = this;
    self.onDisk = Math.max(self.onDisk, data.revision);
    self.waiting = self.waiting.filter(function (waiter) {
      if (waiter.revision > self.onDisk) return true;
      waiter.resolve();
      return false;
    });
    return self.then(function () { return self.steps.exported(data, data.revision >= self.onDisk); });
  };

  var logic = {
    RowMap: RowMap, sectionMap: sectionMap, applySections: applySections, sectionSizes: sectionSizes,
    joinedSizes: joinedSizes, recordSizes: recordSizes, siteRootOf: siteRootOf,
    treeEdits: treeEdits, countBelow: countBelow, Follower: Follower, ANIMATION_MS: ANIMATION_MS
  };
  if (typeof module === "object" && module.exports) module.exports = logic;
  if (typeof document === "undefined") return;

  /* ---- The page. ---- */
  var script = /** @type {HTMLScriptElement} */ (document.currentScript);
  if (!script || !root.EventSource) return;
  var table = script.getAttribute("data-table") || "";
  var kind = script.getAttribute("data-kind") || "list";
  var path = script.getAttribute("data-path") || "";
  var live = root.RowKitLive = Object.assign({
    revision: parseInt(script.getAttribute("data-revision"), 10) || 0,
    applied: 0, drawnInPlace: 0, settled: 0, lastEvent: null, connected: false, apply: apply, exported: receiveExported
  }, logic);
  // Changesets and exports apply one after another, in the order they came.
  var follower = new Follower({ changeset: applyChange, exported: exported, failed: failed }, live.revision);
  var whenExported = follower.whenExported.bind(follower);
  // A table of one page draws new rows with listing.js's markup: asked for now, ready before a change.
  if (kind === "list" && document.querySelector("main.table:not([data-page])")) rowMarkup();

  function reducedMotion() {
    return !!(root.matchMedia && root.matchMedia("(prefers-reduced-motion: reduce)").matches);
  }

  function element(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  var styled = false;
  /* The overlay's and the notices' style, added once. */
  function addStyle() {
    if (styled) return;
    styled = true;
    var style = element("style");
    style.textContent = [
      ".rowkit-live-overlay { position: fixed; left: 12px; right: 12px; bottom: 12px; z-index: 1000; max-height: 60vh;",
      "  overflow: auto; margin: 0 auto; max-width: 716px; padding: 14px 16px; border-radius: 12px;",
      "  background: #FFFFFF; color: #000000; box-shadow: 0 4px 24px rgba(0, 0, 0, 0.25); font: 15px/20px var(--font, sans-serif); }",
      ".rowkit-live-overlay h2 { margin: 0 0 8px; font-size: 17px; line-height: 22px; color: #C00011; }",
      ".rowkit-live-overlay pre { margin: 0 0 12px; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/18px ui-monospace, Menlo, monospace; }",
      ".rowkit-live-overlay button { min-height: 44px; padding: 0 16px; border: 0; border-radius: 10px; background: #0068DA; color: #FFFFFF; font: inherit; cursor: pointer; }",
      ".rowkit-live-notice { margin: 12px auto; max-width: 716px; padding: 12px 16px; border-radius: 10px; background: #FFFFFF; color: #000000; }",
      ".rowkit-live-notice a { color: #0068DA; }",
      "@media (prefers-color-scheme: dark) {",
      "  .rowkit-live-overlay, .rowkit-live-notice { background: #1C1C1E; color: #FFFFFF; }",
      "  .rowkit-live-overlay h2 { color: #FF6961; }",
      "  .rowkit-live-overlay button { background: #0A84FF; color: #000000; }",
      "  .rowkit-live-notice a { color: #409CFF; }",
      "}",
      "@keyframes rowkit-live-in { from { opacity: 0; translate: 0 -8px; } }",
      "@keyframes rowkit-live-out { to { opacity: 0; } }",
      ".rowkit-live-inserted { animation: rowkit-live-in " + ANIMATION_MS + "ms ease-out; }",
      ".rowkit-live-deleted { animation: rowkit-live-out " + ANIMATION_MS + "ms ease-in forwards; pointer-events: none; }",
      "@media (prefers-reduced-motion: reduce) { .rowkit-live-inserted, .rowkit-live-deleted { animation: none; } }"
    ].join("\n");
    document.head.appendChild(style);
  }

  /* ---- Problems: an overlay with the text exactly as `rowkit validate` prints it. ---- */
  var overlay = null;
  function problems(data) {
    if (!data.problems || !data.problems.length) {
      if (overlay) { overlay.remove(); overlay = null; }
      return;
    }
    addStyle();
    if (!overlay) {
      overlay = element("div", "rowkit-live-overlay");
      overlay.setAttribute("role", "alertdialog");
      overlay.setAttribute("aria-labelledby", "rowkit-live-title");
      overlay.setAttribute("aria-describedby", "rowkit-live-text");
      var title = element("h2", "", "The listing has problems");
      title.id = "rowkit-live-title";
      var text = element("pre");
      text.id = "rowkit-live-text";
      var close = element("button", "", "Dismiss");
      close.type = "button";
      close.addEventListener("click", function () { if (overlay) { overlay.remove(); overlay = null; } });
      overlay.appendChild(title);
      overlay.appendChild(text);
      overlay.appendChild(close);
      document.body.appendChild(overlay);
    }
    overlay.querySelector("pre").textContent = data.text;
  }

  /* ---- Exports: the list's row files, detail pages. ---- */

  /* The site on disk holds revision `data.revision` (a step of the follower: after the changesets
     that came before it); `current`: no newer export has come since. */
  function exported(data, current) {
    var listing = root.RowKitListing, checked = null;
    if (listing && listing.list) checked = listing.list.exported(data.revision, current);
    var details = data.details || {};
    if (kind !== "detail") return checked;
    if ((details.changed || []).indexOf(path) >= 0) {
      location.reload();
    } else if ((details.deleted || []).indexOf(path) >= 0 && !document.querySelector(".rowkit-live-notice")) {
      addStyle();
      var notice = element("p", "rowkit-live-notice", "This row was deleted. ");
      notice.setAttribute("role", "status");
      var back = /** @type {HTMLAnchorElement} */ (element("a", "", "Back to the list"));
      back.href = "../index.html";
      notice.appendChild(back);
      var main = document.querySelector("main") || document.body;
      main.insertBefore(notice, main.firstChild);
    }
  }

  /* ---- Changesets. ---- */

  /* An `exported` came (also the test hook); resolves once its step is done. */
  function receiveExported(data) {
    // Files are asked for as of this revision from now on (a changeset waiting for it loads them).
    if (root.RowKitSearch && root.RowKitSearch.setVersion) root.RowKitSearch.setVersion(data.revision);
    return follower.exported(data);
  }

  /* Applies changeset `payload` to the page (also the test hook), after the events before it.
     Resolves once it is applied. */
  function apply(payload) {
    return follower.changeset(payload);
  }

  /* Applies changeset `payload` (a step of the follower): through the one-page list when the
     page has one, else to the page's own rows. */
  function applyChange(payload, whenExported) {
    if (payload.base !== undefined && live.revision && payload.base !== live.revision) {
      location.reload();   // a changeset was missed: the page cannot follow
      return;
    }
    var listing = root.RowKitListing;
    var step = listing && listing.ready
      ? listing.ready.then(function (list) {
        return list ? list.applyChangeset(payload, logic, motion() ? animate : null, whenExported) : applyStatic(payload);
      })
      : applyStatic(payload);
    return step.then(function () {
      live.revision = payload.revision;
      live.applied += 1;
    });
  }

  /* A step failed: the page cannot follow, it reloads. */
  function failed(error) {
    live.error = error;
    if (root.console) console.error("RowKit live:", error);
    location.reload();
  }

  /* The row elements of `main` in listing order. */
  function rowsOf(main) {
    return [].slice.call(main.querySelectorAll(":scope > .section > .rows > li.row"));
  }

  /* The row at the top of the viewport (the first whose bottom is below it) and its offset. */
  function topRow(rows) {
    for (var i = 0; i < rows.length; i++) {
      var box = rows[i].getBoundingClientRect();
      if (box.bottom > 0) return { index: i, top: box.top };
    }
    return null;
  }

  /* The one-page list's script, whose row markup (drawRow) a table of one page draws its new
     rows with: the page's own when it has one, else the server's copy (`/_rowkit/listing.js`),
     asked for once. Resolves to RowKitListing, or null when it cannot be had. */
  var markup = null;
  function rowMarkup() {
    if (!markup) {
      markup = new Promise(function (resolve) {
        if (root.RowKitListing && root.RowKitListing.drawRow) return resolve(root.RowKitListing);
        var tag = document.createElement("script");
        tag.src = "/_rowkit/listing.js";
        tag.onload = function () { resolve(root.RowKitListing && root.RowKitListing.drawRow ? root.RowKitListing : null); };
        tag.onerror = function () { resolve(null); };
        document.head.appendChild(tag);
      });
    }
    return markup;
  }

  /* A table of one page applies changeset `payload` to its own rows: drawn from the changeset's
     records at once when they say it all (recordSizes: rows with the exporter's markup, through
     listing.js's drawRow), else, once the site on disk holds the revision, as the server now
     renders the page (its sections are the page's). Rows that stay keep their nodes either way. */
  function applyStatic(payload) {
    var main = document.querySelector("main.table");
    if (!main || main.hasAttribute("data-page")) return Promise.reject(new Error("no static list"));
    return rowMarkup().then(function (listing) {
      var counts = [].slice.call(main.querySelectorAll(":scope > .section")).map(function (section) {
        return section.querySelectorAll(":scope > .rows > li.row").length;
      });
      var sizes = listing ? recordSizes(counts, payload) : null;
      if (!sizes) return fetchStatic(main, payload);
      var records = new Map(), siteRoot = siteRootOf(path);
      (payload.insert || []).concat(payload.reload || []).forEach(function (entry) { records.set(entry[0], entry[1]); });
      placeStatic(main, payload, payload.rows, function (row) {
        var node = document.createElement("li");
        listing.drawRow(node, records.get(row), row, "", siteRoot);
        return node;
      }, sizes.map(function (count) { return { count: count, fresh: null }; }));
      live.drawnInPlace += 1;
      settle(main, payload.revision);
    });
  }

  /* Once the site on disk holds revision `revision`, and while the page still shows it, its rows
     are checked against the page as the server renders it, and a row whose record did not say all
     of its markup is taken from there (a switch row: a record has no switch). Off the events'
     path: later changes do not wait for it. `live.settled` is the last revision checked. */
  function settle(main, revision) {
    whenExported(revision).then(function () {
      if (live.revision > revision) return null;
      return fetch(location.pathname + "?v=" + revision, { cache: "no-store" }).then(function (response) {
        return response.ok ? response.text() : null;
      });
    }).then(function (html) {
      if (!html || live.revision !== revision) return;
      var next = new DOMParser().parseFromString(html, "text/html");
      var marker = next.querySelector("script[data-revision]"), nextMain = next.querySelector("main.table");
      if (!nextMain || (marker && parseInt(marker.getAttribute("data-revision"), 10) !== revision)) return;
      var mine = rowsOf(main), theirs = rowsOf(nextMain), i;
      if (mine.length !== theirs.length) throw new Error("the page exported has other rows");
      for (i = 0; i < mine.length; i++) {
        if (!bare(mine[i]).isEqualNode(bare(theirs[i]))) mine[i].replaceWith(document.importNode(theirs[i], true));
      }
      live.settled = revision;
    }).catch(failed);
  }

  /* A copy of `node` without the whitespace between its elements and without the live script's
     animation classes, to compare. */
  function bare(node) {
    var copy = /** @type {Element} */ (node.cloneNode(true));
    var walker = document.createTreeWalker(copy, NodeFilter.SHOW_TEXT), blank = [], text;
    while ((text = walker.nextNode())) if (!text.nodeValue.trim()) blank.push(text);
    blank.forEach(function (each) { each.parentNode.removeChild(each); });
    copy.classList.remove("rowkit-live-inserted");
    if (!copy.getAttribute("class")) copy.removeAttribute("class");
    return copy;
  }

  /* `payload` from the page as the server renders revision `payload.revision` (fetched once the
     site on disk holds it): new rows and sections, headers, footers and the index bar from it. */
  function fetchStatic(main, payload) {
    return whenExported(payload.revision).then(function () {
      return fetch(location.pathname + "?v=" + payload.revision, { cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error("HTTP " + response.status);
      return response.text();
    }).then(function (html) {
      var next = new DOMParser().parseFromString(html, "text/html");
      var marker = next.querySelector("script[data-revision]");
      if (marker && parseInt(marker.getAttribute("data-revision"), 10) !== payload.revision) throw new Error("revision moved on");
      var nextMain = next.querySelector("main.table");
      if (!nextMain) throw new Error("no list in the new page");
      var newRows = rowsOf(nextMain);
      placeStatic(main, payload, newRows.length, function (row) { return document.importNode(newRows[row], true); },
        [].slice.call(nextMain.querySelectorAll(":scope > .section")).map(function (fresh) {
          return { count: fresh.querySelectorAll(":scope > .rows > li.row").length, fresh: fresh };
        }));
      ["nav.index-bar", "nav.pagination"].forEach(function (selector) {
        var mine = document.querySelector(selector), theirs = next.querySelector(selector);
        if (mine && theirs) mine.replaceWith(document.importNode(theirs, true));
        else if (mine) mine.remove();
        else if (theirs) main.parentNode.insertBefore(document.importNode(theirs, true), selector === "nav.index-bar" ? main : main.nextSibling);
      });
      document.body.classList.toggle("has-index", next.body.classList.contains("has-index"));
    });
    });
  }

  /* Places `payload` in `main`: `total` rows after it, new row `row`'s node from `freshRow(row)`
     (inserted, moved and reloaded rows), the sections after it as `sections` ({count, fresh}: its
     rows, and the section as the new page has it, or null when it stays as it is). Rows that stay
     keep their nodes (a row without a detail page takes the id of its new place, `r-<n>`). */
  function placeStatic(main, payload, total, freshRow, sections) {
    var oldRows = rowsOf(main), map = new RowMap(payload);
    var inserted = map.inserted.length, deleted = map.deleted.length;
    if (oldRows.length - deleted + inserted !== total) throw new Error("the changeset does not match the page");
    var moving = motion();
    if (moving) addStyle();
    var anchor = topRow(oldRows), anchorNode = null;
    if (anchor) {
      var to = map.anchor(anchor.index, oldRows.length);
      anchorNode = to >= 0 ? to : -1;
    }
    // Old screen places of moved rows, for their animation.
    var movedFrom = new Map();
    map.moved.forEach(function (to, from) { if (oldRows[from]) movedFrom.set(to, oldRows[from].getBoundingClientRect().top); });
    // Ghosts of deleted rows that are not moved: fade where they were.
    var ghosts = [];
    if (moving) {
      map.deleted.forEach(function (row) {
        if (map.moved.has(row) || !oldRows[row]) return;
        var box = oldRows[row].getBoundingClientRect();
        if (box.bottom < 0 || box.top > innerHeight) return;
        var ghost = /** @type {HTMLElement} */ (oldRows[row].cloneNode(true));
        ghost.removeAttribute("id");
        ghost.setAttribute("aria-hidden", "true");
        ghost.classList.add("rowkit-live-deleted");
        ghost.style.cssText = "position:absolute;z-index:1;left:" + (box.left + scrollX) + "px;top:" + (box.top + scrollY) + "px;width:" + box.width + "px;height:" + box.height + "px;list-style:none;";
        ghosts.push(ghost);
      });
    }
    // The new order of row nodes: old nodes for rows that stay (reloaded ones replaced).
    var reloaded = new Set((payload.reload || []).map(function (entry) { return entry[0]; }));
    var nodes = new Array(total), r, n;
    for (r = 0; r < oldRows.length; r++) {
      n = map.map(r);
      if (n < 0) continue;
      nodes[n] = reloaded.has(n) ? freshRow(n) : oldRows[r];
      if (/^r-\d+$/.test(nodes[n].id) && nodes[n].id !== "r-" + (n + 1)) nodes[n].id = "r-" + (n + 1);
    }
    for (n = 0; n < total; n++) if (!nodes[n]) nodes[n] = freshRow(n);
    // Sections: kept ones keep their element (header and footer as now), new ones come new.
    var oldSections = [].slice.call(main.querySelectorAll(":scope > .section"));
    var smap = sectionMap(payload, oldSections.length), kept = new Array(sections.length), s;
    for (s = 0; s < oldSections.length; s++) if (smap[s] >= 0 && smap[s] < sections.length) kept[smap[s]] = oldSections[s];
    var index = 0, wrappers = [];
    for (s = 0; s < sections.length; s++) {
      var fresh = sections[s].fresh, wrapper = kept[s];
      if (!wrapper) {
        if (!fresh) throw new Error("section " + s + " is new");
        wrapper = document.importNode(fresh, true);
        wrapper.querySelector(".rows").textContent = "";
      } else if (fresh) {
        syncSection(wrapper, fresh);
      }
      var list = wrapper.querySelector(".rows"), count = sections[s].count;
      order(list, nodes.slice(index, index + count));
      index += count;
      wrappers.push(wrapper);
    }
    order(main, wrappers);
    ghosts.forEach(function (ghost) {
      document.body.appendChild(ghost);
      setTimeout(function () { ghost.remove(); }, ANIMATION_MS + 50);
    });
    // The row at the top stays where it was.
    if (anchor && anchorNode >= 0 && nodes[anchorNode]) {
      window.scrollBy(0, nodes[anchorNode].getBoundingClientRect().top - anchor.top);
    }
    if (!moving) return;
    map.inserted.forEach(function (row) {
      var node = nodes[row];
      if (movedFrom.has(row)) {
        var dy = movedFrom.get(row) - node.getBoundingClientRect().top;
        node.animate([{ translate: "0 " + dy + "px" }, { translate: "0 0" }], { duration: ANIMATION_MS, easing: "ease-in-out" });
      } else {
        animateIn(node);
      }
    });
  }

  function animateIn(node) {
    node.classList.add("rowkit-live-inserted");
    setTimeout(function () { node.classList.remove("rowkit-live-inserted"); }, ANIMATION_MS + 50);
  }

  function animate(node) {
    addStyle();
    animateIn(node);
  }

  function motion() {
    return !reducedMotion();
  }

  /* A kept section's header, footer and anchor as the new page has them. */
  function syncSection(wrapper, fresh) {
    if (fresh.id) wrapper.id = fresh.id; else wrapper.removeAttribute("id");
    [".section-header", ".section-footer"].forEach(function (selector) {
      var mine = wrapper.querySelector(":scope > " + selector), theirs = fresh.querySelector(":scope > " + selector);
      if (mine && theirs) { if (mine.textContent !== theirs.textContent) mine.textContent = theirs.textContent; }
      else if (mine) mine.remove();
      else if (theirs) {
        var copy = document.importNode(theirs, true);
        if (selector === ".section-header") wrapper.insertBefore(copy, wrapper.firstChild); else wrapper.appendChild(copy);
      }
    });
  }

  /* Puts `nodes` into `parent` in order, moving only nodes out of place, and removes the rest. */
  function order(parent, nodes) {
    var cursor = parent.firstElementChild, i;
    for (i = 0; i < nodes.length; i++) {
      if (nodes[i] === cursor) cursor = cursor.nextElementSibling;
      else parent.insertBefore(nodes[i], cursor);
    }
    while (cursor) {
      var next = cursor.nextElementSibling;
      cursor.remove();
      cursor = next;
    }
  }

  /* ---- The event stream. ---- */
  function on(name, handle) {
    source.addEventListener(name, function (event) {
      var data = JSON.parse(/** @type {MessageEvent} */ (event).data);
      live.lastEvent = name;
      handle(data);
    });
  }

  var source = new EventSource("/_rowkit/events?table=" + encodeURIComponent(table) + "&since=" + live.revision);
  source.addEventListener("open", function () { live.connected = true; });
  source.addEventListener("error", function () { live.connected = false; });
  on("hello", function () { live.connected = true; });
  on("changeset", function (data) {
    if (kind === "list") apply(data);
    else live.revision = data.revision;
  });
  on("exported", receiveExported);
  on("reload", function () { location.reload(); });
  on("problems", problems);
  window.addEventListener("pagehide", function () { source.close(); });
  // A page restored from the back-forward cache missed the events of its time away.
  window.addEventListener("pageshow", function (event) { if (event.persisted) location.reload(); });
})(globalThis);
