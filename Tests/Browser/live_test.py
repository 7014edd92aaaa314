"""Live listings in Debian's Chromium: pages served by `rowkit serve` follow edits of their listing
(Templates/assets/live.js, docs/live.md), driven by Playwright for Python.

    .build/browser-venv/bin/python Tests/Browser/live_test.py --rowkit .build/debug/rowkit [--shots DIR]

Serves, from a temporary folder, a copy of Examples/settings.yaml (a table of one page, with detail
pages) and a generated CSV listing of 2,000 rows in 10 sections (four list pages: the one-page
list), edits them, and checks that:
- an open page updates without a reload (a `window` property set before the edit survives), the
  edited row shows its new text, and RowKitLive counts the changeset as applied in place;
- the row at the top of the viewport does not move when 100 rows are inserted above it (one-page
  list, and the static page of one page with rows inserted above), nor when rows above it are
  deleted;
- a broken save shows the problems overlay with `rowkit validate`'s text, and fixing it clears it;
- a detail page whose row changed reloads itself; one whose row was deleted says so and links back;
- under prefers-reduced-motion no row animates.
The last line printed is a JSON object with the failures; exit status 1 when any check failed.
"""

import argparse
import os
import random
import re
import shutil
import subprocess
import tempfile
import threading
import time

from playwright.sync_api import sync_playwright

from accessibility_checks import axe_violations
from browser_checks import check, finish

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def open_one_page(browser, base):
    """Opens page-3.html of the served one-page list at 390 x 844, once the list has started and
    the event stream is connected; returns the page and the list its script errors go to."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/page-3.html")
    page.wait_for_function("() => window.RowKitListing && window.RowKitListing.firstRows !== undefined", timeout=30000)
    page.wait_for_function("() => window.RowKitLive && window.RowKitLive.connected", timeout=15000)
    return page, errors


def serve(rowkit, folder, arguments):
    """Starts `rowkit serve ARGUMENTS... -o site --port 0` in `folder`; returns (process, base URL)."""
    server = subprocess.Popen([rowkit, "serve"] + arguments + ["-o", "site", "--port", "0"], cwd=folder,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 120
    while time.time() < deadline:
        line = server.stdout.readline()
        match = re.search(r"at (http://127\.0\.0\.1:\d+)/", line)
        if match:
            threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
            return server, match.group(1)
        if not line and server.poll() is not None:
            break
    raise RuntimeError("rowkit serve printed no address")


def write(path, text):
    """Replaces the file at `path` by a rename, as editors save."""
    with open(path + ".tmp", "w", encoding="utf-8") as file:
        file.write(text)
    os.replace(path + ".tmp", path)


def wait_applied(page, count, timeout=30000):
    page.wait_for_function("(n) => window.RowKitLive && window.RowKitLive.applied >= n", arg=count, timeout=timeout)
    page.wait_for_timeout(400)   # the animation's end


def csv(sections, per, extra_top=0):
    """A CSV listing: `per` rows in each of `sections` sections, `extra_top` more at the top."""
    lines = ["id,section,text"]
    for k in range(extra_top):
        lines.append("new-%d,S00,New row %d" % (k, k))
    for s in range(sections):
        for r in range(per):
            lines.append("row-%d-%d,S%02d,Row %d of section %d" % (s, r, s, r, s))
    return "\n".join(lines) + "\n"


def texts(listing_csv):
    """The row texts of a CSV listing of `csv`'s columns, in listing order."""
    return [line.split(",", 2)[2] for line in listing_csv.splitlines()[1:]]


def top_row(page):
    """The text and screen top of the first row whose bottom is below the top of the window."""
    return page.evaluate("""() => {
        const rows = [...document.querySelectorAll('main li.row')].filter(li => li.getBoundingClientRect().bottom > 1)
            .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
        const row = rows[0];
        return row ? { text: row.querySelector('.text').textContent, top: Math.round(row.getBoundingClientRect().top) } : null;
    }""")


# The rows whose box intersects the viewport, each with what a reader sees of it: its text
# (innerText, which is empty for a row whose content is skipped, as `content-visibility: auto`
# skips it off screen), what is drawn at a point inside it, left of its middle (elementFromPoint:
# another row, a row ghost, or nothing means a row drawn over it or not at all) and its box.
VIEWPORT_ROWS = """() => {
    const height = innerHeight;
    return [...document.querySelectorAll('main li.row')].map((row) => [row, row.getBoundingClientRect()])
        .filter(([row, box]) => box.height > 0 && box.bottom > 0.5 && box.top < height - 0.5)
        .map(([row, box]) => {
            const y = (Math.max(box.top, 0) + Math.min(box.bottom, height)) / 2;
            const hit = document.elementFromPoint(box.left + Math.min(40, box.width / 2), y);
            const owner = hit && hit.closest('li.row');
            return {id: row.id, top: box.top, bottom: box.bottom, text: row.innerText.trim(),
                    loading: row.classList.contains('loading'),
                    hit: owner === row ? 'itself' : owner ? 'another row' : hit ? hit.localName : 'nothing',
                    label: row.querySelector('.text') ? row.querySelector('.text').textContent : null};
        }).sort((a, b) => a.top - b.top);
}"""


def viewport_problems(page, expected=None):
    """What is wrong with the rows in the viewport: a row without its text (blank: not drawn, or
    its content skipped), one drawn over by another or not hit at all (a sticky section header
    above it aside), two rows overlapping, a row still loading; with `expected` (the listing's row
    texts in order), rows in view that are not a run of it. Not a full-page screenshot's view:
    there, rows far from the viewport are left blank by `content-visibility: auto`, by design."""
    rows = page.evaluate(VIEWPORT_ROWS)
    problems = []
    for row in rows:
        if row["loading"]:
            problems.append("%s is still loading" % (row["id"] or "a row"))
        elif not row["text"]:
            problems.append("%s is blank at %d" % (row["id"] or "a row", row["top"]))
        elif row["hit"] not in ("itself", "h2"):
            problems.append("%s has %s drawn over it at %d" % (row["id"], row["hit"], row["top"]))
    for above, below in zip(rows, rows[1:]):
        if below["top"] < above["bottom"] - 1:
            problems.append("%s [%d, %d] overlaps %s [%d, %d]" % (above["id"], above["top"], above["bottom"], below["id"], below["top"], below["bottom"]))
    labels = [row["label"] for row in rows if row["label"] is not None and not row["loading"]]
    if expected is not None and labels and not any(expected[k:k + len(labels)] == labels for k in range(len(expected)) if expected[k] == labels[0]):
        problems.append("the rows in view are not the listing's: %s" % labels[:6])
    return problems, len(rows)


def check_viewport(page, name, expected=None, one_page=False):
    """Checks the rows in the viewport (viewport_problems) once the change has settled: for the
    one-page list, once the export is in and the rows it loads again are drawn."""
    if one_page:
        try:
            page.wait_for_function("""() => RowKitListing.list.awaiting === 0 && ![...document.querySelectorAll('main li.row.loading')]
                .some((row) => { const box = row.getBoundingClientRect(); return box.bottom > 0 && box.top < innerHeight; })""", timeout=15000)
        except Exception:
            pass   # reported below as rows still loading
    problems, count = viewport_problems(page, expected)
    check(count > 0 and not problems, "%s: every row in the viewport is drawn with its text, none over another (%d rows): %s" % (name, count, problems[:4]))


def same_as_export(page):
    """Once the site on disk holds the page's revision, the page as the server then renders it
    against the page's own DOM: main and the index bar, element by element with their attributes
    and text (the whitespace between elements aside). Returns (same, detail)."""
    found = page.evaluate("""async () => {
        const norm = (node) => {
            if (node.nodeType === Node.TEXT_NODE) return node.data.trim() === '' ? '' : JSON.stringify(node.data);
            if (node.nodeType !== Node.ELEMENT_NODE) return '';
            const attributes = [...node.attributes].map(a => a.name + '=' + JSON.stringify(a.value)).sort().join(' ');
            return '<' + node.localName + (attributes ? ' ' + attributes : '') + '>' + [...node.childNodes].map(norm).join('') + '</' + node.localName + '>';
        };
        const parts = (doc) => ['main.table', 'nav.index-bar'].map(selector => { const n = doc.querySelector(selector); return n ? norm(n) : ''; });
        for (let attempt = 0; attempt < 150; attempt++) {
            const response = await fetch(location.pathname + '?check=' + Date.now(), {cache: 'no-store'});
            const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
            const script = doc.querySelector('script[data-revision]');
            if (script && parseInt(script.getAttribute('data-revision'), 10) >= window.RowKitLive.revision) {
                return {mine: parts(document), theirs: parts(doc)};
            }
            await new Promise(resolve => setTimeout(resolve, 100));
        }
        return null;
    }""")
    if found is None:
        return False, "the export never came"
    for mine, theirs in zip(found["mine"], found["theirs"]):
        if mine != theirs:
            at = next((i for i in range(min(len(mine), len(theirs))) if mine[i] != theirs[i]), min(len(mine), len(theirs)))
            return False, "page %r... exported %r..." % (mine[max(at - 80, 0):at + 120], theirs[max(at - 80, 0):at + 120])
    return True, ""


def check_same(page, name):
    same, detail = same_as_export(page)
    check(same, "%s: %s" % (name, detail) if detail else name)


def one_page_checks(browser, rowkit, work, shots=None):
    folder = os.path.join(work, "big")
    os.makedirs(folder)
    listing = os.path.join(folder, "big.csv")
    write(listing, csv(10, 200))
    server, base = serve(rowkit, folder, ["big.csv", "--section-by", "section"])
    try:
        page, errors = open_one_page(browser, base)
        page.evaluate("() => { window.scrollBy(0, 300); window.marker = 'kept'; }")
        page.wait_for_timeout(300)
        before = top_row(page)
        write(listing, csv(10, 200, extra_top=100))
        wait_applied(page, 1)
        after = top_row(page)
        check_viewport(page, "one page: 100 rows inserted above", texts(csv(10, 200, extra_top=100)), one_page=True)
        state = page.evaluate("() => ({marker: window.marker, rows: RowKitListing.list.rows, applied: RowKitLive.applied})")
        check(state["marker"] == "kept" and state["rows"] == 2100 and state["applied"] == 1,
              "one page: the list takes 100 inserted rows in place, without a reload: %s" % state)
        check(before is not None and after == before,
              "one page: the row at the top stays where it is when 100 rows are inserted above it: %s -> %s" % (before, after))
        page.evaluate("(hash) => RowKitListing.list.go(hash, false)", "r-1")
        page.wait_for_timeout(300)
        first = page.evaluate("() => document.getElementById('r-1') && document.getElementById('r-1').textContent")
        check(first is not None and "New row 0" in first, "one page: the inserted rows are drawn at the top: %r" % first)
        page.evaluate("(hash) => RowKitListing.list.go(hash, false)", "r-1500")
        page.wait_for_timeout(300)
        before = top_row(page)
        write(listing, csv(10, 200))
        wait_applied(page, 2)
        after = top_row(page)
        check(before is not None and after == before,
              "one page: the row at the top stays where it is when 100 rows above it are deleted: %s -> %s" % (before, after))
        check_viewport(page, "one page: 100 rows deleted above", texts(csv(10, 200)), one_page=True)
        # A row moved to the start of its section: drawn there, the others shifted by one.
        lines = csv(10, 200).splitlines()
        row = lines.pop(1 + 5 * 200 + 10)
        lines.insert(1 + 5 * 200, row)
        page.evaluate("(hash) => RowKitListing.list.go(hash, false)", "r-995")
        page.wait_for_timeout(300)
        write(listing, "\n".join(lines) + "\n")
        wait_applied(page, 3)
        check_viewport(page, "one page: a row moved", [line.split(",", 2)[2] for line in lines[1:]], one_page=True)
        drawn = page.evaluate("""() => ['r-1001', 'r-1002', 'r-1011', 'r-1012'].map(id => {
            const row = document.getElementById(id); return row ? row.querySelector('.text').textContent : null; })""")
        check(drawn == ["Row 10 of section 5", "Row 0 of section 5", "Row 9 of section 5", "Row 11 of section 5"],
              "one page: a moved row is drawn at its new place, the rows between shifted: %s" % drawn)

        # A search after the change finds the listing as it is now.
        page.fill(".search-input", "New row")
        page.wait_for_function("() => document.getElementById('search-results').getAttribute('data-query') === 'New row'", timeout=15000)
        found = page.evaluate("() => document.querySelectorAll('#search-results li.row:not(.search-more)').length")
        check(found == 0, "one page: search follows the change (the deleted rows are not found): %d" % found)
        check(errors == [], "one page: no script errors: %s" % errors)
        page.close()
        ordered_events_check(browser, base)
        edit_series_checks(browser, base, listing, lines, shots)
    finally:
        server.send_signal(2)
        server.wait(timeout=30)


def ordered_events_check(browser, base):
    """A changeset and its `exported` arriving back to back (as when an edit is saved during the
    previous export) apply in that order: the list draws the edit, then takes the export and
    loads row files again (it would wait for that export forever if it took it first)."""
    page, _ = open_one_page(browser, base)
    page.wait_for_timeout(300)
    state = page.evaluate("""async () => {
        const list = RowKitListing.list, live = RowKitLive;
        const items = [...list.drawn.keys()].filter((item) => !list.outline.isHeader(item)).sort((a, b) => a - b);
        const row = list.outline.rowOfItem(items[0]);
        const record = list.rowData(row).slice();
        record[1] = "Ordered edit";
        const revision = live.revision;
        live.apply({ table: "", revision: revision + 1, base: revision, rows: list.rows, pages: Math.ceil(list.rows / 500),
                     sections: { delete: [], insert: [], reload: [], move: [] }, delete: [], insert: [], reload: [[row, record]], move: [] });
        await live.exported({ table: "", revision: revision + 1, details: { changed: [], deleted: [] } });
        const shown = [...document.querySelectorAll("li.row .text")].some((e) => e.textContent === "Ordered edit");
        return { awaiting: list.awaiting, shown: shown, applied: live.applied };
    }""")
    check(state["shown"] and state["applied"] == 1, "events in order: the changeset is drawn: %s" % state)
    check(state["awaiting"] == 0, "events in order: the export after the changeset is taken, rows load again: %s" % state)
    page.evaluate("(hash) => RowKitListing.list.go(hash, false)", "r-1990")
    try:
        page.wait_for_function("() => !!document.getElementById('r-1990') && document.getElementById('r-1990').textContent.includes('Row')", timeout=10000)
        loaded = True
    except Exception:
        loaded = False
    check(loaded, "events in order: a row far away loads after the export")
    page.close()


def edit_series_checks(browser, base, listing, lines, shots=None):
    """Many edits of all kinds in a row, on one open page of the one-page list (seeded): the
    text of rows in view, 100 rows inserted at the top, rows deleted in view and above it, rows
    moved, rows inserted in the middle of the view, a whole section deleted, with scrolls and jumps
    between them. After each, once applied and exported, every row in the viewport is drawn with
    its text, in the listing's order, none over another (check_viewport), and the page was never
    reloaded. Its viewport (not the full page: content-visibility) is in live-one-page-edits.png."""
    rng = random.Random(35)
    header, rows = lines[0], lines[1:]
    page, errors = open_one_page(browser, base)
    page.evaluate("() => { window.marker = 'kept'; }")
    page.wait_for_timeout(300)
    kinds = ["text", "top", "delete", "move", "middle", "section", "text", "delete", "top", "move"]
    for step, kind in enumerate(kinds):
        in_view = [int(row["id"][2:]) - 1 for row in page.evaluate(VIEWPORT_ROWS) if re.match(r"^r-\d+$", row["id"])]
        at = rng.choice(in_view) if in_view else rng.randrange(len(rows))
        if kind == "text":
            fields = rows[at].split(",", 2)
            rows[at] = "%s,%s,Edited %d%s" % (fields[0], fields[1], step, " word" * rng.randrange(0, 30))
        elif kind == "top":
            section = rows[0].split(",", 2)[1]
            rows[0:0] = ["top-%d-%d,%s,Top %d of edit %d" % (step, k, section, k, step) for k in range(100)]
        elif kind == "delete":
            del rows[at:at + rng.randrange(1, 8)]
            del rows[max(at - 40, 0):max(at - 30, 0)]
        elif kind == "move":
            # Within its section: a CSV listing grouped by its section column keeps its runs.
            row = rows.pop(at)
            section = row.split(",", 2)[1]
            same = [k for k, other in enumerate(rows) if other.split(",", 2)[1] == section]
            rows.insert(same[0] if rng.random() < 0.5 else same[-1] + 1, row)
        elif kind == "middle":
            section = rows[at].split(",", 2)[1]
            rows[at:at] = ["mid-%d-%d,%s,Middle %d of edit %d" % (step, k, section, k, step) for k in range(12)]
        elif kind == "section":
            section = rows[at].split(",", 2)[1]
            rows = [row for row in rows if row.split(",", 2)[1] != section]
        applied = page.evaluate("RowKitLive.applied")
        write(listing, "\n".join([header] + rows) + "\n")
        wait_applied(page, applied + 1)
        if step % 3 == 2:
            page.mouse.wheel(0, rng.choice([-1, 1]) * rng.randrange(400, 3000))
        elif step % 3 == 1:
            page.evaluate("(hash) => RowKitListing.list.go(hash, false)", "r-%d" % rng.randrange(1, len(rows) + 1))
        page.wait_for_timeout(300)
        check_viewport(page, "edit series: %s (edit %d)" % (kind, step + 1), [row.split(",", 2)[2] for row in rows], one_page=True)
    check(page.evaluate("window.marker") == "kept" and errors == [],
          "edit series: the page followed every edit without a reload or a script error: %s" % errors)
    if shots:
        page.screenshot(path=os.path.join(shots, "live-one-page-edits.png"))
    page.close()


def static_checks(browser, rowkit, work, shots=None):
    folder = os.path.join(work, "settings")
    shutil.copytree(os.path.join(ROOT, "Examples/icons"), os.path.join(folder, "icons"))
    listing = os.path.join(folder, "settings.yaml")
    with open(os.path.join(ROOT, "Examples/settings.yaml"), encoding="utf-8") as file:
        original = file.read()
    write(listing, original)
    server, base = serve(rowkit, folder, ["settings.yaml"])
    try:
        context = browser.new_context(viewport={"width": 390, "height": 600})
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(base + "/index.html")
        page.wait_for_function("() => window.RowKitLive && window.RowKitLive.connected", timeout=15000)
        page.evaluate("() => { window.marker = 'kept'; }")
        detail = context.new_page()
        detail.goto(base + "/rows/wifi.html")
        detail.wait_for_function("() => window.RowKitLive && window.RowKitLive.connected", timeout=15000)
        detail.evaluate("() => { window.marker = 'old'; }")
        gone = context.new_page()
        gone.goto(base + "/rows/cellular.html")
        gone.wait_for_function("() => window.RowKitLive && window.RowKitLive.connected", timeout=15000)

        # An edit of a row's text: the list updates in place; the row's detail page reloads.
        page.evaluate("() => window.scrollTo(0, 400)")
        page.wait_for_timeout(200)
        before = top_row(page)
        edited = original.replace("text: Wi-Fi\n", "text: Wireless\n")
        write(listing, edited)
        wait_applied(page, 1)
        check_viewport(page, "settings: after an edited row")
        state = page.evaluate("""() => ({marker: window.marker, texts: [...document.querySelectorAll('main li.row .text')].map(t => t.textContent)})""")
        check(state["marker"] == "kept" and "Wireless" in state["texts"] and "Wi-Fi" not in state["texts"],
              "settings: an edited row shows its new text without a reload: %s" % state)
        check(top_row(page) == before, "settings: the row at the top stays where it is: %s -> %s" % (before, top_row(page)))
        check(page.evaluate("window.RowKitLive.drawnInPlace") == 1,
              "settings: the edited row is drawn from the changeset's record, not from the page exported")
        check_same(page, "settings: after an edit of a row, the page shows what the export then writes")
        detail.wait_for_function("() => window.marker === undefined && document.querySelector('h1').textContent === 'Wireless'", timeout=15000)
        check(True, "settings: the detail page of the edited row reloads itself")

        # Rows inserted above the row in view: it does not move.
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        page.wait_for_timeout(200)
        before = top_row(page)
        rows = "".join("      - id: extra-%d\n        text: Extra %d\n" % (k, k) for k in range(100))
        grown = edited.replace("    rows:\n      - id: account\n", "    rows:\n" + rows + "      - id: account\n", 1)
        write(listing, grown)
        wait_applied(page, 2)
        check_viewport(page, "settings: after 100 rows inserted above the row in view")
        after = top_row(page)
        count = page.evaluate("() => document.querySelectorAll('main li.row').length")
        check(before is not None and after == before and page.evaluate("window.marker") == "kept",
              "settings: 100 rows inserted above the row in view leave it where it is (%d rows): %s -> %s" % (count, before, after))
        check(page.evaluate("window.RowKitLive.drawnInPlace") == 2, "settings: the inserted rows are drawn from the changeset's records")
        check_same(page, "settings: after 100 rows inserted, the page shows what the export then writes")

        # A row deleted: its detail page says so and links back.
        start = grown.index("      - id: cellular\n")
        shrunk = grown[:start] + grown[grown.index("  - header: Notifications"):]
        write(listing, shrunk)
        wait_applied(page, 3)
        check_viewport(page, "settings: after a row deleted")
        check(page.evaluate("window.RowKitLive.drawnInPlace") == 3 and page.evaluate("document.getElementById('row-cellular')") is None,
              "settings: a deleted row goes, in place")
        check_same(page, "settings: after a row deleted, the page shows what the export then writes")
        gone.wait_for_selector(".rowkit-live-notice", timeout=15000)
        notice = gone.evaluate("() => { const n = document.querySelector('.rowkit-live-notice'); return [n.textContent, n.querySelector('a').getAttribute('href')]; }")
        check(notice[0].startswith("This row was deleted.") and notice[1] == "../index.html",
              "settings: the detail page of a deleted row says so and links back: %s" % notice)

        # A row moved (Bluetooth before Airplane Mode): it slides to its place, the others stay.
        start, end = shrunk.index("      - id: bluetooth\n"), shrunk.index("  - header: Notifications")
        bluetooth = shrunk[start:end]
        moved = shrunk[:start] + shrunk[end:]
        moved = moved.replace("      - id: airplane\n", bluetooth + "      - id: airplane\n", 1)
        write(listing, moved)
        wait_applied(page, 4)
        check_viewport(page, "settings: after a row moved")
        texts = page.evaluate("() => [...document.querySelectorAll('main li.row .text')].map(t => t.textContent)")
        at = texts.index("Bluetooth") if "Bluetooth" in texts else -1
        check(at >= 0 and texts[at + 1] == "Airplane Mode" and texts.count("Bluetooth") == 1 and page.evaluate("window.marker") == "kept",
              "settings: a moved row goes to its new place in place: %s" % texts[max(at - 1, 0):at + 3])
        check(page.evaluate("window.RowKitLive.drawnInPlace") == 4, "settings: a moved row is placed without the page exported")
        check_same(page, "settings: after a row moved, the page shows what the export then writes")

        # A row at the end of a section (by its flat index it could open the next one) is drawn in place.
        before = top_row(page)
        appended = shrunk.replace("  - header: Notifications", "      - id: appended\n        text: Appended\n        accessory: disclosureIndicator\n  - header: Notifications", 1)
        write(listing, appended)
        wait_applied(page, 5)
        check_viewport(page, "settings: after a row appended to a section")
        drawn = page.evaluate("""() => { const row = [...document.querySelectorAll('main li.row')].find(li => li.textContent.includes('Appended'));
            return row ? [row.closest('.section').id, row === row.parentNode.lastElementChild, window.RowKitLive.drawnInPlace] : null; }""")
        check(drawn == ["section-connections", True, 5] and top_row(page) == before and page.evaluate("window.marker") == "kept",
              "settings: a row appended to a section is drawn in place at its end: %s" % drawn)
        check_same(page, "settings: after a row appended to a section, the page shows what the export then writes")
        if shots:
            page.evaluate("() => [...document.querySelectorAll('main li.row')].find(li => li.textContent.includes('Appended')).scrollIntoView({block: 'center'})")
            page.wait_for_timeout(300)   # rows skipped by content-visibility are drawn a frame later
            page.screenshot(path=os.path.join(shots, "live-static-appended.png"))
        shrunk = appended

        # A switch row: its record has no switch, so the page takes the row from the page exported
        # once it is on disk.
        switched = shrunk.replace("  - header: Notifications", "      - id: flight-sounds\n        text: Flight Sounds\n        switch: true\n  - header: Notifications", 1)
        write(listing, switched)
        wait_applied(page, 6)
        check_viewport(page, "settings: after a switch row inserted")
        page.wait_for_function("() => window.RowKitLive.settled >= window.RowKitLive.revision", timeout=15000)
        state = page.evaluate("""() => { const row = [...document.querySelectorAll('main li.row')].find(li => li.textContent.includes('Flight Sounds'));
            const knob = row && row.querySelector('[role=switch]'); return [knob ? knob.getAttribute('aria-checked') : null, window.marker]; }""")
        check(state == ["true", "kept"], "settings: an inserted switch row gets its switch from the page exported, without a reload: %s" % state)
        check_same(page, "settings: after a switch row inserted, the page shows what the export then writes")
        shrunk = switched
        shrunk = moved

        # A broken save shows the problems; fixing it clears them.
        write(listing, shrunk.replace("version: 1\n", "version: 1\nsections: [\n", 1))
        page.wait_for_selector(".rowkit-live-overlay", timeout=15000)
        overlay = page.evaluate("""() => { const o = document.querySelector('.rowkit-live-overlay');
            return {role: o.getAttribute('role'), text: o.querySelector('pre').textContent}; }""")
        check(overlay["role"] == "alertdialog" and re.search(r"settings\.yaml:\d+:\d+: ", overlay["text"]) is not None,
              "settings: a broken save shows the problems, file:line:column: %s" % overlay)
        for scheme in ["light", "dark"]:
            page.emulate_media(color_scheme=scheme)
            found = axe_violations(page)
            check(not found, "settings %s: with the problems overlay, axe-core finds violations: %s" % (scheme, found))
            if shots:
                page.screenshot(path=os.path.join(shots, "live-problems-%s.png" % scheme))
        page.emulate_media(color_scheme="light")
        write(listing, shrunk)
        page.wait_for_selector(".rowkit-live-overlay", state="detached", timeout=15000)
        check(page.evaluate("window.marker") == "kept", "settings: fixing the listing clears the overlay, without a reload")
        check(errors == [], "settings: no script errors: %s" % errors)
        context.close()

        # A changeset applies from its records without waiting for its export: one made up here,
        # for a revision the server never exports, is drawn at once with the exporter's markup.
        context = browser.new_context(viewport={"width": 390, "height": 600}, reduced_motion="reduce")
        page = context.new_page()
        page.goto(base + "/index.html")
        page.wait_for_function("() => window.RowKitLive && window.RowKitLive.connected && window.RowKitListing && window.RowKitListing.drawRow", timeout=15000)
        # The markup as Templates/row.mustache writes such a row (without the whitespace between elements).
        expected = ('<li class="row has-image" id="row-injected"><a class="cell value1" href="rows/injected.html">'
                    '<img class="icon" src="assets/images/none.png" alt="Icon" width="29" height="29">'
                    '<span class="labels"><span class="text" dir="auto">Injected &lt;b&gt;</span><span class="detail" dir="auto">Detail &amp; more</span></span>'
                    '<span class="accessory chevron" role="img" aria-label="Show details"></span></a></li>')
        result = page.evaluate("""async (expected) => {
            const live = window.RowKitLive, rows = document.querySelectorAll('main li.row').length;
            const second = document.querySelectorAll('main li.row')[1].querySelector('.text').textContent;
            await Promise.race([live.apply({table: '', revision: live.revision + 1, base: live.revision, rows: rows + 1, pages: 1,
                sections: {delete: [], insert: [], reload: [], move: []}, delete: [], reload: [], move: [],
                insert: [[1, [5, 'Injected <b>', 'Detail & more', 'rows/injected.html', 'assets/images/none.png', 'Icon'], 0]]}),
                new Promise(resolve => setTimeout(resolve, 5000))]);
            const node = document.querySelectorAll('main li.row')[1];
            const template = document.createElement('ul');
            template.innerHTML = expected;
            return {applied: live.applied, inPlace: live.drawnInPlace, html: node.outerHTML, same: node.isEqualNode(template.firstChild),
                    next: document.querySelectorAll('main li.row')[2].querySelector('.text').textContent, second: second,
                    nextId: document.querySelectorAll('main li.row')[2].id, section: node.closest('.section').id};
        }""", expected)
        check(result["applied"] == 1 and result["inPlace"] == 1 and result["same"] and result["section"] == "section-0",
              "settings: a changeset is drawn from its records before any export, with the row template's markup: %s" % result)
        check(result["next"] == result["second"] and result["nextId"] == "r-3",
              "settings: the rows after an inserted one keep their nodes and take the id of their new place: %s" % result)
        context.close()

        # Under prefers-reduced-motion no row animates.
        context = browser.new_context(viewport={"width": 390, "height": 600}, reduced_motion="reduce")
        page = context.new_page()
        page.goto(base + "/index.html")
        page.wait_for_function("() => window.RowKitLive && window.RowKitLive.connected", timeout=15000)
        page.evaluate("""() => { window.animated = 0; new MutationObserver(() => {
            window.animated += document.querySelectorAll('.rowkit-live-inserted, .rowkit-live-deleted').length
                + document.getAnimations().length; }).observe(document.body, {subtree: true, childList: true, attributes: true}); }""")
        write(listing, shrunk.replace("      - id: extra-0\n", "      - id: extra-new\n        text: Newer\n      - id: extra-0\n", 1))
        wait_applied(page, 1)
        check(page.evaluate("window.animated") == 0 and page.evaluate("document.getAnimations().length") == 0,
              "settings: under prefers-reduced-motion an inserted row does not animate")
        context.close()
    finally:
        server.send_signal(2)
        server.wait(timeout=30)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rowkit", required=True)
    parser.add_argument("--shots")
    arguments = parser.parse_args()
    if arguments.shots:
        os.makedirs(arguments.shots, exist_ok=True)
    rowkit = os.path.abspath(arguments.rowkit)
    work = tempfile.mkdtemp(prefix="rowkit-live-")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-dev-shm-usage"])
            for group in [lambda: static_checks(browser, rowkit, work, arguments.shots),
                          lambda: one_page_checks(browser, rowkit, work, arguments.shots)]:
                try:
                    group()
                except Exception as error:  # a check that could not finish is a failure; the others still run
                    check(False, "stopped: %s" % str(error).splitlines()[0])
            browser.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    finish()


if __name__ == "__main__":
    main()
