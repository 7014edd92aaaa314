/* RowKit search: the search field of every exported listing.
 *
 * The index is a set of script files in each table's search/ folder, each one call of
 * RowKitSearch.load(key, name, data); they are loaded with <script> elements, one small file at
 * a time, so search works from file:// as from any host (nothing is fetched). The format is in
 * docs/search.md. Text from the index reaches the page through textContent and DOM properties
 * only, never as markup.
 *
 * A classic script (no `import`, so file:// works): in a page it puts its API on
 * `window.RowKitSearch`; under node, `require("./search.js")` returns the part that needs no page
 * (folding, file names, row lists, ranking, links; Tests/JS/search.test.js).
 */
(function (/** @type {any} */ root) {
  "use strict";

  // ---- Folding: the same as SearchText.words in Swift. ----
  var MAX_WORD = 24;
  var SPELLED = { "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ς": "σ" };
  var WORD_CHAR = /[\p{L}\p{N}]/u;
  var MARK = /\p{M}/u;

  function foldWords(text) {
    var folded = String(text).normalize("NFKD").toLowerCase().normalize("NFKD");
    var words = [], word = [], i, ch, spelled, j;
    var scalars = Array.from(folded);
    for (i = 0; i < scalars.length; i++) {
      ch = scalars[i];
      if (MARK.test(ch)) continue;
      if (WORD_CHAR.test(ch)) {
        spelled = Array.from(SPELLED[ch] || ch);
        for (j = 0; j < spelled.length; j++) if (word.length < MAX_WORD) word.push(spelled[j]);
      } else if (word.length) {
        words.push(word.join(""));
        word = [];
      }
    }
    if (word.length) words.push(word.join(""));
    return words;
  }

  function fileName(scalars) {
    var name = "", i, c;
    scalars = Array.from(scalars);
    for (i = 0; i < scalars.length; i++) {
      c = scalars[i];
      name += /^[a-z0-9]$/.test(c) ? c : "_" + c.codePointAt(0).toString(16) + "_";
    }
    return name;
  }

  // ---- Loading index files with script elements. ----
  // One cache for the page, shared with the one-page list (listing.js), which draws its rows
  // from the same row files: each file is loaded once, its script element removed once it ran.
  var pending = Object.create(null);
  var cache = Object.create(null);
  var loadedFiles = [];
  var version = 0;   // the listing's revision under `rowkit serve` (live.js), 0 for an exported site

  /* The data of file `name` (without .js) of table `key`, whose files are in folder `base`:
     a promise of the data, or of null when the file is missing. Files the search loads are
     listed in loadedFiles; the one-page list's (`quiet`) are not. */
  function file(base, key, name, quiet) {
    var id = key + "\n" + name;
    if (!cache[id]) {
      cache[id] = new Promise(function (resolve) {
        var script = document.createElement("script");
        function settle(data) {
          if (pending[id] === settle) delete pending[id];
          resolve(data);
        }
        pending[id] = settle;
        script.src = base + name + ".js" + (version ? "?v=" + version : "");
        script.async = true;
        script.setAttribute("data-version", String(version));
        script.onerror = function () { script.remove(); settle(null); };
        script.onload = function () { script.remove(); settle(null); };
        if (!quiet) loadedFiles.push(script.src);
        document.head.appendChild(script);
      });
    }
    return cache[id];
  }

  /* Lets the cache drop a file's data (the one-page list keeps a bounded number of row files). */
  function forget(key, name) {
    delete cache[key + "\n" + name];
  }

  function Table(key, base, hrefPrefix, root, name) {
    this.key = key;
    this.base = base;
    this.hrefPrefix = hrefPrefix;
    this.root = root;
    this.name = name;
  }

  Table.prototype.file = function (name) {
    return file(this.base, this.key, name);
  };

  function load(key, name, data) {
    // A file requested before the listing changed (setVersion) brings data of an older revision.
    var current = document.currentScript;
    if (current && current.getAttribute("data-version") !== String(version)) return;
    var settle = pending[key + "\n" + name];
    if (settle) settle(data);
  }

  /* Drops every file loaded or requested so far: the listing is now at revision `revision`
     (`rowkit serve`, live.js), whose files are requested with `?v=<revision>`, past the cache. */
  function setVersion(revision) {
    if (revision === version) return;
    version = revision;
    cache = Object.create(null);
    Object.keys(pending).forEach(function (id) { pending[id](null); });
  }

  // ---- Row lists: inline postings strings, or chunk files named by a stem. ----
  var FINAL = "0123456789abcdefghijklmnopqrstuv";
  var CONTINUING = "wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_";

  /* A postings string as runs of consecutive rows, ascending: {lo, hi}, run i being the rows
     lo[i]..hi[i]. The string holds the first row, then each gap less one; "~" and a count k after
     a row add the k rows that follow it. A string that begins with "!" is a bitmap: the first
     row, then five rows a character, bit b of the i-th character's digit for row first + 5i + b. */
  function decodeRuns(text) {
    var lo = [], hi = [], value = 0, previous = -1, run = false, i, c, digit;
    if (text.charAt(0) === "!") return decodeBitmap(text);
    for (i = 0; i < text.length; i++) {
      c = text.charAt(i);
      if (c === "~") { run = true; continue; }
      digit = FINAL.indexOf(c);
      if (digit < 0) {
        value = value * 32 + CONTINUING.indexOf(c);
        continue;
      }
      value = value * 32 + digit;
      if (run) {
        previous += value;
        if (hi.length) hi[hi.length - 1] = previous;
        run = false;
      } else {
        previous = previous < 0 ? value : previous + value + 1;
        if (hi.length && hi[hi.length - 1] === previous - 1) hi[hi.length - 1] = previous;
        else { lo.push(previous); hi.push(previous); }
      }
      value = 0;
    }
    return { lo: lo, hi: hi };
  }

  function decodeBitmap(text) {
    var lo = [], hi = [], value = 0, i, digit, start, bits, b, row;
    for (i = 1; i < text.length; i++) {
      digit = FINAL.indexOf(text.charAt(i));
      if (digit < 0) { value = value * 32 + CONTINUING.indexOf(text.charAt(i)); continue; }
      value = value * 32 + digit;
      break;
    }
    for (start = ++i; i < text.length; i++) {
      bits = FINAL.indexOf(text.charAt(i));
      for (b = 0; bits > 0; b++, bits >>= 1) {
        if (!(bits & 1)) continue;
        row = value + (i - start) * 5 + b;
        if (hi.length && hi[hi.length - 1] === row - 1) hi[hi.length - 1] = row;
        else { lo.push(row); hi.push(row); }
      }
    }
    return { lo: lo, hi: hi };
  }

  /* Every row of a postings string, ascending. */
  function decodePostings(text) {
    var runs = decodeRuns(text), rows = [], i, row;
    for (i = 0; i < runs.lo.length; i++) {
      for (row = runs.lo[i]; row <= runs.hi[i]; row++) rows.push(row);
    }
    return rows;
  }

  function lowerBound(array, value) {
    var low = 0, high = array.length, middle;
    while (low < high) {
      middle = (low + high) >> 1;
      if (array[middle] < value) low = middle + 1; else high = middle;
    }
    return low;
  }

  /* The first row >= x of runs (decodeRuns), or Infinity. */
  function seekRuns(runs, x) {
    var at = lowerBound(runs.hi, x);
    return at < runs.hi.length ? Math.max(runs.lo[at], x) : Infinity;
  }

  /* A sorted list of rows; seek(x) gives the first row >= x (Infinity past the end), loading
     only the chunk that holds it. */
  function List(table, field, stem) {
    this.table = table;
    this.count = field[0];
    if (typeof field[1] === "string") {
      this.runs = decodeRuns(field[1]);
    } else {
      this.starts = field[1];
      this.stem = stem;
      this.chunks = [];
    }
  }

  List.prototype.seek = function (x) {
    var list = this;
    if (list.runs) return Promise.resolve(seekRuns(list.runs, x));
    var chunk = lowerBound(list.starts, x + 1) - 1;
    if (chunk < 0) return Promise.resolve(list.starts[0]);
    return list.chunk(chunk).then(function (runs) {
      var found = seekRuns(runs, x);
      if (found !== Infinity) return found;
      return chunk + 1 < list.starts.length ? list.starts[chunk + 1] : Infinity;
    });
  };

  List.prototype.chunk = function (number) {
    var list = this;
    if (!list.chunks[number]) {
      list.chunks[number] = list.table.file(list.stem + "-" + number).then(function (data) {
        return decodeRuns(data || "");
      });
    }
    return list.chunks[number];
  };

  /* The union of several lists. */
  function Union(lists) { this.lists = lists; }
  Union.prototype.seek = function (x) {
    return Promise.all(this.lists.map(function (list) { return list.seek(x); })).then(function (found) {
      return Math.min.apply(Math, found.concat([Infinity]));
    });
  };

  var EMPTY = { seek: function () { return Promise.resolve(Infinity); } };

  /* The rows that have word `full` itself outside their body, from its entry's lists (`field`:
     [count, rows] or [count, rows, count, rows], the second list those rows when some rows have
     the word in their body only), given `list`, the first. */
  function wholeList(table, field, list, full) {
    return field.length > 2 ? new List(table, [field[2], field[3]], "q-" + fileName(full)) : list;
  }

  /* What one query word matches in a table: every row with a word starting with it (all), the
     rows with the word itself outside their body (whole: what ranks first), and the number of
     rows when it is known without loading them all. Walks the trie of index files from the root. */
  function resolveWord(table, word) {
    var letters = Array.from(word);
    function walk(node, depth) {
      if (!node) return null;
      var prefix = letters.slice(0, depth).join("");
      if (node.k) {
        if (depth === letters.length) {
          if (!node.a) return null;
          return {
            all: new List(table, node.a, "a-" + fileName(prefix)),
            whole: node.w ? wholeList(table, node.w, new List(table, node.w, "p-" + fileName(prefix)), prefix) : EMPTY,
            count: node.a[0]
          };
        }
        var at = node.k.indexOf(letters[depth]);
        if (at < 0) return null;
        // A small child of the root is in the root's file.
        if (node.e && node.e[at]) return walk(node.e[at], depth + 1);
        var pack = node.f ? node.f[at] : 0;
        // A child's leaf packed with its siblings' spells its words after this node's prefix.
        if (pack) return table.file("t-" + fileName(prefix + node.k[pack - 1])).then(function (leaf) { return walk(leaf, depth); });
        return table.file("t-" + fileName(prefix + letters[depth])).then(function (child) { return walk(child, depth + 1); });
      }
      var lists = [], whole = EMPTY, i, entry, full;
      for (i = 0; i < node.t.length; i++) {
        entry = node.t[i];
        full = prefix + entry[0];
        if (full.lastIndexOf(word, 0) !== 0) continue;
        var list = new List(table, [entry[1], entry[2]], "p-" + fileName(full));
        lists.push(list);
        if (full === word) whole = wholeList(table, entry.slice(1), list, full);
      }
      if (!lists.length) return null;
      return { all: lists.length === 1 ? lists[0] : new Union(lists), whole: whole, count: lists.length === 1 ? lists[0].count : null };
    }
    return table.file("t-").then(function (root) { return walk(root, 0); });
  }

  var CANDIDATE_LIMIT = 1000;
  var RESULTS_PER_STEP = 30;
  // A step of results stops before a result that would need more row files than this: results
  // spread over a listing with bodies (row files of about 54 KB) load 12 files, not 30.
  var ROW_FILES_PER_STEP = 12;
  // The count is announced once typing pauses this long, not at every key.
  var ANNOUNCE_DELAY = 500;

  /* The rows of `table` matching every word of `words`, ranked: rows matching more words whole
     first, then listing order. Returns {rows, count, exact}. */
  function query(table, words) {
    return Promise.all(words.map(function (word) { return resolveWord(table, word); })).then(function (matches) {
      if (matches.some(function (match) { return !match; })) return { rows: [], count: 0, exact: true };
      if (matches.length === 1) return single(matches[0]);
      return several(matches);
    });
  }

  function collect(stream, limit, skip) {
    var rows = [];
    function step(x) {
      if (rows.length >= limit) return Promise.resolve(false);
      return stream.seek(x).then(function (row) {
        if (row === Infinity) return true;
        if (!skip || !skip.has(row)) rows.push(row);
        return step(row + 1);
      });
    }
    return step(0).then(function (exhausted) { return { rows: rows, exhausted: exhausted }; });
  }

  /* One word: the rows with the word itself, then the others, each in listing order. */
  function single(match) {
    return collect(match.whole, CANDIDATE_LIMIT).then(function (whole) {
      var seen = new Set(whole.rows);
      return collect(match.all, CANDIDATE_LIMIT, seen).then(function (all) {
        var rows = whole.rows.concat(all.rows).slice(0, CANDIDATE_LIMIT);
        var count = match.count !== null ? match.count : (all.exhausted && whole.exhausted ? rows.length : null);
        return { rows: rows, count: count === null ? rows.length : count, exact: count !== null };
      });
    });
  }

  /* Several words: the rows in every word's list (a leapfrog join that loads only the chunks
     holding candidates), ranked by how many words they match whole. */
  function several(matches) {
    var candidates = [];
    function next(x) {
      if (candidates.length >= CANDIDATE_LIMIT) return Promise.resolve(false);
      var target = x, agreed = 0, index = 0;
      function probe() {
        return matches[index].all.seek(target).then(function (row) {
          if (row === Infinity) return true;
          if (row === target) agreed += 1; else { target = row; agreed = 1; }
          index = (index + 1) % matches.length;
          if (agreed === matches.length) {
            candidates.push(target);
            return next(target + 1);
          }
          return probe();
        });
      }
      return probe();
    }
    return next(0).then(function (exhausted) {
      return Promise.all(candidates.map(function (row) {
        return Promise.all(matches.map(function (match) { return match.whole.seek(row); })).then(function (found) {
          return found.filter(function (value) { return value === row; }).length;
        });
      })).then(function (scores) {
        return { rows: rank(candidates, scores), count: candidates.length, exact: exhausted };
      });
    });
  }

  /* `rows` (ascending) ordered by `scores` (the number of query words each matches whole, at the
     same index), highest first, then in listing order. */
  function rank(rows, scores) {
    var order = rows.map(function (_row, i) { return i; });
    order.sort(function (a, b) { return scores[b] - scores[a] || rows[a] - rows[b]; });
    return order.map(function (i) { return rows[i]; });
  }

  // ---- Excerpts: where a result's body holds a query word its cell does not show. ----
  var EXCERPT_BEFORE = 24;    // characters of the body before the first match, about (two lines at 390 px show it)
  var EXCERPT_LENGTH = 160;   // characters of an excerpt, about (the page shows two lines)
  var WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;

  /* Whether one of the folded words `folded` begins with query word `word`. */
  function begins(folded, word) {
    for (var i = 0; i < folded.length; i++) if (folded[i].lastIndexOf(word, 0) === 0) return true;
    return false;
  }

  /* The query words (folded) that no word of the row's cell (its text and detail) begins with:
     the words the row was found by elsewhere, in its body or its section's header. */
  function wordsNotInCell(data, words) {
    var shown = foldWords((data[1] || "") + " " + (data[2] || ""));
    return words.filter(function (word) { return !begins(shown, word); });
  }

  /* An excerpt of `text` around the first word that begins with one of `wanted` (folded query
     words): [[piece, marked], ...], whole words, about EXCERPT_LENGTH characters, with "…" where
     text was cut; every word in it that begins with one of `words` is marked. [] when no word of
     the text begins with one of `wanted`. Pieces are plain text, drawn with textContent. */
  function excerpt(text, wanted, words) {
    var runs = [], match, first = -1, i;
    text = String(text).replace(/\s+/g, " ").trim();
    WORD_RUN.lastIndex = 0;
    while ((match = WORD_RUN.exec(text)) !== null) {
      var folded = foldWords(match[0]);
      var marked = words.some(function (word) { return begins(folded, word); });
      runs.push({ start: match.index, end: match.index + match[0].length, marked: marked });
      if (first < 0 && wanted.some(function (word) { return begins(folded, word); })) first = runs.length - 1;
    }
    if (first < 0) return [];
    // Start at a word about EXCERPT_BEFORE characters before the match (so that the match is on
    // the excerpt's first lines, which are all a narrow page shows), end at a word's end.
    var from = first;
    while (from > 0 && runs[first].start - runs[from - 1].start <= EXCERPT_BEFORE) from--;
    var start = from === 0 ? 0 : runs[from].start;
    var to = first;
    while (to + 1 < runs.length && runs[to + 1].end - start <= EXCERPT_LENGTH) to++;
    // A short text is shown whole.
    if (text.length <= EXCERPT_LENGTH) {
      from = 0;
      start = 0;
    }
    var end = to + 1 === runs.length ? text.length : runs[to].end;
    var pieces = [], at = start;
    for (i = from; i <= to; i++) {
      if (!runs[i].marked) continue;
      if (runs[i].start > at) pieces.push([text.slice(at, runs[i].start), false]);
      pieces.push([text.slice(runs[i].start, runs[i].end), true]);
      at = runs[i].end;
    }
    if (end > at) pieces.push([text.slice(at, end), false]);
    if (start > 0) pieces.unshift(["\u2026", false]);
    if (end < text.length) pieces.push(["\u2026", false]);
    // Neighbouring plain pieces become one.
    return pieces.reduce(function (merged, piece) {
      var last = merged[merged.length - 1];
      if (last && !last[1] && !piece[1]) last[0] += piece[0]; else merged.push(piece.slice());
      return merged;
    }, []);
  }

  /* The text of a row's body, from its record: the start of a detail page's body text (field 7),
     or the text of an inline body's markup (field 6, parsed inert by `parse`, a function from
     markup to a document: DOMParser's in a page); "" for a custom row or a row without a body. */
  function bodyText(data, parse) {
    if (data[7]) return data[7];
    if (!data[6] || (data[0] & 32) || !parse) return "";
    var body = parse(data[6]).body;
    if (!body) return "";
    // Blocks end with a space, so that a paragraph's last word and the next one's first stay apart.
    Array.prototype.forEach.call(body.querySelectorAll("p,li,h1,h2,h3,h4,h5,h6,pre,blockquote,tr,th,td,dt,dd,br,div"), function (node) {
      node.appendChild(body.ownerDocument.createTextNode(" "));
    });
    return body.textContent || "";
  }

  /* The excerpt a result shows (see excerpt): [] when every query word is in its cell. */
  function resultExcerpt(data, words, parse) {
    var wanted = wordsNotInCell(data, words);
    if (!wanted.length) return [];
    var text = bodyText(data, parse);
    return text ? excerpt(text, wanted, words) : [];
  }

  // ---- Drawing results as table rows, with DOM properties only. ----
  var LAYOUTS = ["default", "value1", "value2", "subtitle"];
  // The exporter's link policy (SafeURL): http:, https:, mailto:, or no scheme (no ':' before the
  // first '/', '?' or '#'), never //host. Links here come from the exporter, which applied it already.
  var SAFE_HREF = /^(?![\/\\]{2})(?:(?:https?|mailto):|[^:\/?#]*(?:[\/?#]|$))/i;

  function element(name, className, text) {
    var node = document.createElement(name);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  /* How many of `rows` (result rows, in order) one step of results shows: at most `limit`, and
     none from a row file (`per` rows each) past the first `files` it needs; at least one. */
  function stepSize(rows, per, limit, files) {
    var seen = {}, distinct = 0, count = 0;
    for (; count < rows.length && count < limit; count++) {
      var file = Math.floor(rows[count] / per);
      if (seen[file]) continue;
      if (distinct === files && count > 0) break;
      seen[file] = true;
      distinct++;
    }
    return count;
  }

  /* The rows of each row-data file, as the root file `root` says (128 in an index that does not). */
  function rowsPerFile(root) {
    return root && root.r > 0 ? root.r : 128;
  }

  /* A row's display data, from its row-data file; the root file says how many rows each holds.
     A group of rows too large for one file is cut in parts: its file holds where each part begins
     (`{p: [0, ...]}`, indexes in the group) and part k is `r-<n>-<k>`. */
  function rowData(table, row) {
    return table.file("t-").then(function (root) {
      var per = rowsPerFile(root), number = Math.floor(row / per), index = row % per;
      return table.file("r-" + number).then(function (group) {
        if (!group) return null;
        if (Array.isArray(group)) return group[index];
        var part = partOf(group.p, index);
        return table.file("r-" + number + "-" + part).then(function (rows) {
          return rows ? rows[index - group.p[part]] : null;
        });
      });
    });
  }

  /* The part of a cut row group that holds the row at `index` in the group: the last part whose
     first row is at or before it (`starts` ascending, from 0). */
  function partOf(starts, index) {
    var low = 0, high = starts.length - 1;
    while (low < high) {
      var middle = (low + high + 1) >> 1;
      if (starts[middle] <= index) low = middle; else high = middle - 1;
    }
    return low;
  }

  /* Where a result's link goes from the page the search runs on: `href` as the row file holds it
     (relative to the table's folder) under the table's folder, an absolute one as it is; null when
     it is outside the link policy (the result is drawn without a link). A number is the list page
     of row `row` (from 0), which the result leads to its place on. */
  function resultHref(table, href, row) {
    if (typeof href === "number") {
      href = (href === 1 ? "index.html" : "page-" + href + ".html") + "#r-" + (row + 1);
    }
    if (!SAFE_HREF.test(href)) return null;
    return /^(?:https?:|mailto:)/i.test(href) ? href : table.hrefPrefix + href;
  }

  /* Where a result's image is loaded from: an absolute URL as it is, else under the site root. */
  function imageSource(table, image) {
    return /^https?:/i.test(image) ? image : table.root + image;
  }

  /* The accessories of cell code `code`, in drawing order: [class, accessible name]. */
  function accessories(code) {
    var accessory = (code >> 2) & 7, marks = [];
    if (accessory === 2) marks.push(["checkmark", "Selected"]);
    if (accessory === 3 || accessory === 4) marks.push(["info", "More Info"]);
    if (accessory === 1 || accessory === 4) marks.push(["chevron", "Show details"]);
    return marks;
  }

  /* Markup as an inert document (no script runs, nothing loads): for an inline body's text. */
  function parseMarkup(html) {
    return new DOMParser().parseFromString(html, "text/html");
  }

  /* The result of `data`, row `row` (from 0), as a row; `words` (the folded query) decide its
     excerpt. */
  function cell(table, data, row, words) {
    var code = data[0], text = data[1] || "", detail = data[2] || "";
    var href = resultHref(table, data[3] || "", row);
    var image = data[4] || "", label = data[5] || "";
    var item = element("li", "row" + (image ? " has-image" : ""));
    var link = element(href === null ? "div" : "a", "cell " + LAYOUTS[code & 3]);
    if (href !== null) /** @type {HTMLAnchorElement} */ (link).href = href;
    if (image) {
      var icon = /** @type {HTMLImageElement} */ (element("img", "icon"));
      icon.src = imageSource(table, image);
      icon.alt = label;
      icon.width = 29;
      icon.height = 29;
      link.appendChild(icon);
    }
    var labels = element("span", "labels");
    var textLabel = element("span", "text", text);
    textLabel.dir = "auto";
    labels.appendChild(textLabel);
    if (detail) {
      var detailLabel = element("span", "detail", detail);
      detailLabel.dir = "auto";
      labels.appendChild(detailLabel);
    }
    var pieces = words ? resultExcerpt(data, words, parseMarkup) : [];
    if (pieces.length) {
      var excerptLabel = element("span", "search-excerpt");
      excerptLabel.dir = "auto";
      pieces.forEach(function (piece) {
        excerptLabel.appendChild(piece[1] ? element("mark", "", piece[0]) : document.createTextNode(piece[0]));
      });
      labels.appendChild(excerptLabel);
      link.classList.add("has-excerpt");
    }
    link.appendChild(labels);
    accessories(code).forEach(function (mark) {
      var span = element("span", "accessory " + mark[0]);
      span.setAttribute("role", "img");
      span.setAttribute("aria-label", mark[1]);
      link.appendChild(span);
    });
    if (code & 64) {
      var toggle = element("span", "accessory switch");
      toggle.setAttribute("role", "switch");
      toggle.setAttribute("aria-checked", code & 128 ? "true" : "false");
      toggle.setAttribute("aria-readonly", "true");
      toggle.setAttribute("aria-label", text);
      link.appendChild(toggle);
    }
    item.appendChild(link);
    return item;
  }

  /* What screen readers hear of a search's outcome: the count, or that nothing matches `value`. */
  function summary(count, exact, value) {
    return count ? plural(count, exact) : "No results for \u201C" + String(value).trim() + "\u201D";
  }

  function plural(count, exact) {
    var number = count.toLocaleString("en-US");
    if (!exact) return "More than " + number + " results";
    return count === 1 ? "1 result" : number + " results";
  }

  var api = {
    foldWords: foldWords, fileName: fileName, decodePostings: decodePostings, decodeRuns: decodeRuns, lowerBound: lowerBound,
    Table: Table, query: query, rank: rank, resultHref: resultHref, imageSource: imageSource,
    accessories: accessories, plural: plural, summary: summary, SAFE_HREF: SAFE_HREF, CANDIDATE_LIMIT: CANDIDATE_LIMIT,
    excerpt: excerpt, wordsNotInCell: wordsNotInCell, bodyText: bodyText, resultExcerpt: resultExcerpt,
    rowData: rowData, partOf: partOf, stepSize: stepSize
  };
  if (typeof module === "object" && module.exports) module.exports = api;
  if (typeof document === "undefined") return;

  // ---- The search bar. ----
  function SearchBar(bar) {
    var self = this;
    self.bar = bar;
    self.input = bar.querySelector(".search-input");
    self.clear = bar.querySelector(".search-clear");
    self.cancel = bar.querySelector(".search-cancel");
    self.results = document.getElementById("search-results");
    self.status = self.results.querySelector(".search-status");
    self.announcement = document.querySelector(".search-announcement");
    self.announceTimer = 0;
    self.tables = self.findTables();
    self.generation = 0;
    self.timer = 0;
    bar.hidden = false;
    document.documentElement.classList.add("has-search");
    self.input.addEventListener("input", function () { self.changed(); });
    // The field's focus ring is drawn for a keyboard's focus only (Tab, `/`), as iPadOS draws it
    // with a hardware keyboard; a tap or click shows the caret and Cancel alone, as on iOS.
    var pointer = false;
    document.addEventListener("pointerdown", function () { pointer = true; }, true);
    document.addEventListener("keydown", function () { pointer = false; }, true);
    self.input.addEventListener("focus", function () {
      self.cancel.hidden = false;
      self.input.classList.toggle("keyboard-focus", !pointer);
    });
    self.input.addEventListener("blur", function () { self.input.classList.remove("keyboard-focus"); });
    // An empty search that loses the focus (but to Cancel) is no longer active: Cancel goes, as
    // UIKit's search bar ends editing, so Tab does not meet a button that cancels nothing.
    function leave(event) {
      if (!self.input.value && event.relatedTarget !== self.input && event.relatedTarget !== self.cancel) self.cancel.hidden = true;
    }
    self.input.addEventListener("blur", leave);
    self.cancel.addEventListener("blur", leave);
    self.input.addEventListener("keydown", function (event) { self.keyInField(event); });
    self.clear.addEventListener("click", function () { self.reset(true); });
    self.cancel.addEventListener("click", function () { self.reset(false); });
    self.results.addEventListener("keydown", function (event) { self.keyInResults(event); });
    document.addEventListener("keydown", function (event) {
      var target = /** @type {HTMLElement} */ (event.target);
      var typing = target && (target.isContentEditable || /^(?:INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if (event.key === "/" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        self.input.focus();
      }
    });
    if (self.input.value) self.changed();
  }

  SearchBar.prototype.findTables = function () {
    var bar = this.bar, root = bar.getAttribute("data-search-root") || "";
    var key = bar.getAttribute("data-search-key") || "";
    var links = document.querySelectorAll("a[data-search-table]");
    if (!links.length) return [new Table(key, "search/", "", root, null)];
    return Array.prototype.map.call(links, function (link) {
      var folder = link.getAttribute("data-search-table") + "/";
      var name = link.querySelector(".text");
      return new Table(link.getAttribute("data-search-table"), folder + "search/", folder, root, name ? name.textContent : folder);
    });
  };

  SearchBar.prototype.changed = function () {
    var self = this;
    self.clear.hidden = !self.input.value;
    clearTimeout(self.timer);
    self.timer = setTimeout(function () { self.run(); }, 60);
  };

  SearchBar.prototype.reset = function (keepFocus) {
    this.input.value = "";
    this.changed();
    this.run();
    if (keepFocus) {
      this.input.focus();
    } else {
      this.cancel.hidden = true;
      this.input.blur();
    }
  };

  SearchBar.prototype.run = function () {
    var self = this, generation = ++self.generation, value = self.input.value;
    var words = foldWords(value);
    clearTimeout(self.timer);
    if (!words.length) {
      self.show(false);
      return Promise.resolve();
    }
    return Promise.all(self.tables.map(function (table) {
      return query(table, words).then(function (found) { return { table: table, found: found }; });
    })).then(function (answers) {
      if (generation !== self.generation) return;
      return self.draw(answers, generation, value, words);
    });
  };

  SearchBar.prototype.show = function (searching) {
    document.body.classList.toggle("searching", searching);
    this.results.hidden = !searching;
    if (!searching) {
      this.status.textContent = "";
      this.announce("");
      this.results.removeAttribute("data-query");
      this.clearResults();
    }
  };

  /* Removes the results drawn (their sections, or the empty state). */
  SearchBar.prototype.clearResults = function () {
    Array.prototype.slice.call(this.results.querySelectorAll(".section, .search-empty")).forEach(function (node) { node.remove(); });
  };

  /* The empty state, as iOS draws a search without results: a large "No Results", centred, with
     the query under it. */
  function emptyState(query) {
    var box = element("div", "search-empty");
    box.appendChild(element("p", "search-empty-title", "No Results"));
    var line = element("p", "search-empty-query", "\u201C" + query + "\u201D");
    line.dir = "auto";
    box.appendChild(line);
    return box;
  }

  SearchBar.prototype.draw = function (answers, generation, value, words) {
    var self = this, total = 0, exact = true;
    answers.forEach(function (answer) { total += answer.found.count; exact = exact && answer.found.exact; });
    return Promise.all(answers.map(function (answer) {
      return self.section(answer.table, answer.found, answers.length > 1, words);
    })).then(function (sections) {
      if (generation !== self.generation) return;
      self.show(true);
      self.clearResults();
      sections.forEach(function (section) { if (section) self.results.appendChild(section); });
      if (!total) self.results.appendChild(emptyState(value.trim()));
      self.status.textContent = total ? plural(total, exact) : "";
      self.announce(summary(total, exact, value));
      self.results.setAttribute("data-query", value);
    });
  };

  /* Tells screen readers the count: once typing pauses (each change of a live region is read
     out, and counts of the prefixes typed on the way are not worth hearing) and only when it
     differs from the last one announced. An empty field clears it at once, so the next search's
     count is announced even when it is the same. */
  SearchBar.prototype.announce = function (text) {
    var announcement = this.announcement;
    clearTimeout(this.announceTimer);
    if (!announcement) return;
    if (!text) {
      announcement.textContent = "";
      return;
    }
    this.announceTimer = setTimeout(function () {
      if (announcement.textContent !== text) announcement.textContent = text;
    }, ANNOUNCE_DELAY);
  };

  SearchBar.prototype.section = function (table, found, titled, words) {
    if (!found.rows.length) return Promise.resolve(null);
    var section = element("section", "section");
    if (titled) section.appendChild(element("h2", "section-header", table.name));
    var list = element("ul", "rows");
    list.setAttribute("role", "list");
    section.appendChild(list);
    var shown = 0, pending = null;
    /* Scrolling "Show More Results" into view draws the next step, as an iOS list goes on as it
       scrolls: the button stays for the keyboard, and for browsers without IntersectionObserver. */
    var onScreen = typeof IntersectionObserver === "function" ? new IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) more();
    }) : null;
    /* Draws the next step of results; resolves once it is drawn. A step asked for while one loads
       is that one. A step drawn while "Show More Results" has the focus (a click, or the keyboard
       moving to it, which scrolls it into view) hands the focus on to the first result it adds. */
    function more() {
      if (pending) return pending;
      pending = table.file("t-").then(function (root) {
        var next = found.rows.slice(shown, shown + RESULTS_PER_STEP);
        var rows = next.slice(0, stepSize(next, rowsPerFile(root), RESULTS_PER_STEP, ROW_FILES_PER_STEP));
        shown += rows.length;
        return Promise.all(rows.map(function (row) { return rowData(table, row); })).then(function (data) {
          var button = list.querySelector(".search-more");
          var focused = !!button && button.contains(document.activeElement);
          if (button) {
            if (onScreen) onScreen.unobserve(button);
            button.remove();
          }
          var firstAdded = list.children.length;
          data.forEach(function (record, i) { if (record) list.appendChild(cell(table, record, rows[i], words)); });
          if (shown < found.rows.length) {
            var item = element("li", "row search-more");
            var showMore = element("button", "cell", "Show More Results");
            showMore.type = "button";
            showMore.addEventListener("click", function () {
              // Safari does not focus a button it clicks.
              showMore.focus();
              more();
            });
            item.appendChild(showMore);
            list.appendChild(item);
            if (onScreen) onScreen.observe(item);
          } else if (onScreen) {
            onScreen.disconnect();
          }
          var first = list.children[firstAdded];
          if (focused && first && first.firstChild) first.firstChild.focus();
        });
      }).then(function () {
        pending = null;
      }, function (error) {
        pending = null;
        throw error;
      });
      return pending;
    }
    return more().then(function () { return section; });
  };

  SearchBar.prototype.targets = function () {
    return Array.prototype.slice.call(this.results.querySelectorAll("a.cell, button.cell"));
  };

  SearchBar.prototype.keyInField = function (event) {
    var targets = this.targets();
    if (event.key === "Escape") {
      event.preventDefault();
      if (this.input.value) this.reset(true); else this.reset(false);
    } else if (event.key === "ArrowDown" && targets.length) {
      event.preventDefault();
      targets[0].focus();
    } else if (event.key === "Enter") {
      event.preventDefault();
      var self = this;
      self.run().then(function () {
        var first = self.targets()[0];
        if (first) first.click();
      });
    }
  };

  SearchBar.prototype.keyInResults = function (event) {
    var targets = this.targets(), at = targets.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === "ArrowDown" && at + 1 < targets.length) {
      event.preventDefault();
      targets[at + 1].focus();
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      (at > 0 ? targets[at - 1] : this.input).focus();
    } else if (event.key === "Escape") {
      event.preventDefault();
      this.reset(true);
    }
  };

  root.RowKitSearch = Object.assign(api, {
    load: load, file: file, forget: forget, loadedFiles: loadedFiles, setVersion: setVersion, parseMarkup: parseMarkup
  });

  function start() {
    var bar = document.querySelector(".search[data-search-key]");
    if (bar && document.getElementById("search-results")) root.RowKitSearch.bar = new SearchBar(bar);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
})(globalThis);
