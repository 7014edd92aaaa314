"""Search and look of exported sites in Debian's Chromium, driven by Playwright for Python.

Run by BrowserTests.searchAndLookInChromiumThroughPlaywright (Swift), which exports the sites
first; it can also be run by hand:

    .build/browser-venv/bin/python Tests/Browser/search_test.py --settings SITE --examples SITE \
        --fold FOLD.json --shots DIR [--large SITE --large-query "item 99999" --large-href page-200.html#r-99999]
        [--spread SITE]

Every check is recorded; the last line printed is a JSON object with the failures and the figures
(bytes of index loaded by the large-listing query). Exit status 1 when any check failed.
"""

import argparse
import json
import os
from urllib.parse import unquote, urlparse

from playwright.sync_api import sync_playwright

from accessibility_checks import (accessory_checks, accessory_contrast_checks, axe_checks, highlight_contrast_checks,
                                  live_region_checks, page_link_checks, skip_link_checks, zoom_checks)
from browser_checks import check, figures, finish, url

def wait_for_status(page):
    """Waits until the search has drawn its answer to the field's text (not to a prefix of it
    typed on the way): the count, or the empty state."""
    page.wait_for_function("""() => {
        const results = document.getElementById('search-results');
        return results.getAttribute('data-query') === document.querySelector('.search-input').value
            && (document.querySelector('.search-status').textContent.length > 0 || !!results.querySelector('.search-empty'));
    }""", timeout=15000)


def search(page, text, typed=True):
    """Types `text` into the search field (or sets it at once, one query, when not `typed`) and
    returns what the results show."""
    field = page.locator(".search-input")
    field.fill("")
    if typed:
        field.type(text, delay=20)
    else:
        field.fill(text)
    wait_for_status(page)
    return page.evaluate(
        """() => ({
            status: document.querySelector('.search-status').textContent,
            rows: [...document.querySelectorAll('#search-results li.row:not(.search-more)')].map(li => ({
                text: li.querySelector('.text') ? li.querySelector('.text').textContent : '',
                detail: li.querySelector('.detail') ? li.querySelector('.detail').textContent : '',
                layout: li.querySelector('.cell').className,
                href: li.querySelector('a') ? li.querySelector('a').getAttribute('href') : null,
            })),
            headers: [...document.querySelectorAll('#search-results .section-header')].map(h => h.textContent),
        })"""
    )


def settings_checks(browser, site, shots):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url(site))
    check(page.locator(".search").is_visible(), "settings: the search field is shown with JavaScript on")
    check(page.get_attribute(".search", "role") == "search", "settings: the search bar has role=search")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    check(page.evaluate("document.activeElement.classList.contains('search-input')"),
          "settings: the search field is the first thing Tab reaches after the skip link")
    check(page.locator(".search-cancel").is_visible(), "settings: the focused field shows Cancel")
    ring = "() => { const s = getComputedStyle(document.querySelector('.search-input')); return [s.boxShadow, s.outlineStyle]; }"
    shadow, outline = page.evaluate(ring)
    check(shadow != "none" and outline == "none",
          "settings: a keyboard's focus draws the field's tinted ring, not the browser's outline: %s, %s" % (shadow, outline))
    page.locator(".search-field").screenshot(path=os.path.join(shots, "search-keyboard-focus.png"))
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    check(not page.locator(".search-cancel").is_visible(),
          "settings: an empty search that loses the focus hides Cancel (focus on %s)"
          % page.evaluate("document.activeElement.className"))
    page.click(".search-input")
    shadow, outline = page.evaluate(ring)
    check(shadow == "none" and outline == "none", "settings: a click's focus draws no ring, as on iOS: %s, %s" % (shadow, outline))
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("/")
    check(page.evaluate("document.activeElement.classList.contains('search-input')"), "settings: / focuses the search field")
    check(page.evaluate(ring)[0] != "none", "settings: / (a keyboard's focus) draws the field's ring")

    found = search(page, "automatic")
    check([row["text"] for row in found["rows"]] == ["Display & Brightness"],
          "settings: a detail value (Automatic) finds its row: %s" % found["rows"])
    check(found["status"] == "1 result", "settings: the count is announced: %r" % found["status"])
    check(page.get_attribute(".search-announcement", "aria-live") == "polite", "settings: the count is in an aria-live region")
    page.wait_for_function("() => document.querySelector('.search-announcement').textContent === '1 result'", timeout=5000)
    check(found["rows"] and "value1" in found["rows"][0]["layout"] and found["rows"][0]["detail"] == "Automatic",
          "settings: a result is drawn in the row's own cell (value1, with its detail)")
    check(not page.locator("main.table").is_visible(), "settings: the listing is hidden while results show")

    one = search(page, "iphone")
    two = search(page, "iphone pro")
    check(len(one["rows"]) == 2 and [row["text"] for row in two["rows"]] == ["Model Name"],
          "settings: a second word narrows the results: %s then %s" % (one["rows"], two["rows"]))
    check(search(page, "IPHONÉ")["status"] == "2 results", "settings: matching ignores case and diacritics")

    # "s" is a whole word only in "Jane's iPhone" (the Name row, late in the listing) and a prefix
    # of words in earlier rows: the whole word ranks first.
    ranked = search(page, "s")
    check(ranked["rows"] and ranked["rows"][0]["text"] == "Name" and len(ranked["rows"]) > 3,
          "settings: a whole word ranks before prefixes: %s" % [row["text"] for row in ranked["rows"]])
    # A word of a body only (Wi-Fi's detail page): found, with an excerpt around it, the match
    # marked; a word the cell shows draws no excerpt.
    body = search(page, "cafeguest")
    excerpt = page.evaluate("""() => {
        const box = document.querySelector('#search-results .search-excerpt');
        return box && {text: box.textContent, marks: [...box.querySelectorAll('mark')].map(m => m.textContent),
                       children: [...box.childNodes].map(n => n.nodeName)};
    }""")
    check([row["text"] for row in body["rows"]] == ["Wi-Fi"] and excerpt is not None and excerpt["marks"] == ["CafeGuest"]
          and "CafeGuest — open, weak signal" in excerpt["text"] and set(excerpt["children"]) <= {"#text", "MARK"},
          "settings: a word of a body only finds its row, with an excerpt, the match marked: %s %s" % (body["rows"], excerpt))
    search(page, "wi-fi")
    check(page.locator("#search-results .search-excerpt").count() == 0, "settings: a word the cell shows draws no excerpt")
    inline = page.evaluate("""() => {
        window.ranMarkup = false;
        const record = [0, 'x', '', '', '', '', '<p>One <b>two</b></p><p>three<img src=x onerror="window.ranMarkup = true"></p>'];
        const text = RowKitSearch.bodyText(record, RowKitSearch.parseMarkup);
        return new Promise(r => setTimeout(() => r({text: text, ran: window.ranMarkup}), 200));
    }""")
    check(inline["text"].split() == ["One", "two", "three"] and not inline["ran"],
          "settings: an inline body's text is read from its markup without running or loading anything: %s" % inline)
    by_header = search(page, "connections")
    check(len(by_header["rows"]) == 4, "settings: a section header finds its rows: %s" % by_header["rows"])

    none = search(page, "zzzz")
    empty = page.evaluate("""() => {
        const box = document.querySelector('#search-results .search-empty');
        if (!box) return null;
        const title = box.querySelector('.search-empty-title'), query = box.querySelector('.search-empty-query');
        const t = title.getBoundingClientRect(), q = query.getBoundingClientRect();
        return { title: title.textContent, query: query.textContent, size: parseFloat(getComputedStyle(title).fontSize),
                 centred: Math.abs((t.left + t.right) / 2 - window.innerWidth / 2) < 2
                     && Math.abs((q.left + q.right) / 2 - window.innerWidth / 2) < 2,
                 below: q.top >= t.bottom };
    }""")
    check(none["rows"] == [] and none["status"] == "" and empty is not None and empty["title"] == "No Results"
          and empty["query"] == "\u201czzzz\u201d" and empty["size"] >= 20 and empty["centred"] and empty["below"],
          "settings: no results draws iOS's empty state, a large centred No Results with the query under it: %r" % empty)
    try:
        page.wait_for_function("() => document.querySelector('.search-announcement').textContent === 'No results for \u201czzzz\u201d'",
                               timeout=5000)
    except Exception:
        pass
    check(page.text_content(".search-announcement") == "No results for \u201czzzz\u201d",
          "settings: no results is announced: %r" % page.text_content(".search-announcement"))
    page.screenshot(path=os.path.join(shots, "search-no-results.png"))

    search(page, "wi")
    page.keyboard.press("Escape")
    check(page.input_value(".search-input") == "" and page.locator("main.table").is_visible()
          and not page.locator("#search-results").is_visible(), "settings: Escape clears the search")

    # Arrow keys move through results; Enter opens one.
    search(page, "b")
    focused = []
    for key in ["ArrowDown", "ArrowDown", "ArrowDown", "ArrowUp", "ArrowDown"]:
        page.keyboard.press(key)
        focused.append(page.evaluate("document.activeElement.querySelector('.text').textContent"))
    check(focused == ["Bluetooth", "Display & Brightness", "Battery", "Display & Brightness", "Battery"],
          "settings: arrow keys move through results: %s" % focused)
    page.keyboard.press("Enter")
    page.wait_for_url("**/rows/battery.html")
    check(page.url.endswith("/rows/battery.html"), "settings: Enter opens a result's detail page")

    page.goto(url(site))
    search(page, "bluetooth")
    page.click("#search-results a.cell")
    page.wait_for_url("**/index.html#r-4")
    check(page.evaluate("document.querySelector(':target') && document.querySelector(':target').textContent.includes('Bluetooth')"),
          "settings: a result opens its row on its list page")

    # Value2, as UIKit draws it: the text is the narrow, tinted leading label, the detail after it.
    page.goto(url(site))
    value2 = page.evaluate("""() => [...document.querySelectorAll('main .cell.value2')].map(cell => {
        const text = cell.querySelector('.text'), detail = cell.querySelector('.detail');
        return {text: text.textContent, detail: detail.textContent,
                textFirst: text.getBoundingClientRect().right <= detail.getBoundingClientRect().left + 1,
                tinted: getComputedStyle(text).color === getComputedStyle(document.querySelector('a')).color};
    })""")
    check([(row["text"], row["detail"]) for row in value2] == [("Silent", "Ring and alerts vibrate"), ("Name", "Jane's iPhone")],
          "settings: Value2 rows hold text and detail as UIKit does: %s" % value2)
    check(all(row["textFirst"] and row["tinted"] for row in value2), "settings: Value2 draws the tinted text first: %s" % value2)

    # At 390 px Display & Brightness keeps its Value1 detail beside it, as iOS does.
    beside = page.evaluate("""() => {
        const cell = [...document.querySelectorAll('.cell.value1')].find(c => c.querySelector('.text').textContent === 'Display & Brightness');
        return Math.abs(cell.querySelector('.text').getBoundingClientRect().top - cell.querySelector('.detail').getBoundingClientRect().top) < 1;
    }""")
    check(beside, "settings: at 390 px Display & Brightness and Automatic share a line")
    family = page.evaluate("getComputedStyle(document.body).fontFamily")
    check(family.startswith("-apple-system"), "settings: the font stack reaches Apple's fonts first: %s" % family)
    check(errors == [], "settings: no script errors: %s" % errors)
    page.close()

    for scheme in ["light", "dark"]:
        shot = browser.new_page(viewport={"width": 390, "height": 844}, color_scheme=scheme)
        shot.goto(url(site))
        search(shot, "b")
        shot.evaluate("document.activeElement.blur()")
        shot.screenshot(path=os.path.join(shots, "search-%s.png" % scheme))
        shot.close()

    for width, height in [(390, 844), (1280, 900)]:
        for scheme in ["light", "dark"]:
            shot = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
            shot.goto(url(site))
            search(shot, "off")
            shot.evaluate("document.activeElement.blur()")
            shot.screenshot(path=os.path.join(shots, "search-body-%d-%s.png" % (width, scheme)))
            shot.close()

    plain = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844}).new_page()
    plain.goto(url(site))
    check(not plain.locator(".search").is_visible() and plain.locator("main.table").is_visible(),
          "settings: with JavaScript off the field is hidden and the listing shows")
    plain.context.close()


def examples_checks(browser, site, shots):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url(site))
    across = search(page, "a")
    check(set(across["headers"]) == {"Settings", "Contacts"},
          "examples: the index page searches every listing: %s" % across["headers"])
    found = search(page, "lovelace")
    check([row["text"] for row in found["rows"]] == ["Ada Lovelace"] and found["headers"] == ["Contacts"],
          "examples: a contact is found from the index page: %s" % found)
    page.click("#search-results a.cell")
    page.wait_for_url("**/contacts/index.html#r-*")
    check("Ada Lovelace" in page.evaluate("document.querySelector(':target').textContent"),
          "examples: the result opens the contact on its listing")

    # Contacts' detail pages carry the name once (the navigation bar), not again as a heading.
    page.goto(url(site, "contacts/rows/allen.html"))
    check(page.locator("h1").count() == 1 and page.locator(".detail-body h1").count() == 0,
          "examples: a contact's detail page has one title")

    for width, height in [(390, 844), (1280, 900)]:
        for scheme in ["light", "dark"]:
            look = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
            for name in ["settings", "contacts"]:
                look.goto(url(site, name + "/index.html"))
                look.screenshot(path=os.path.join(shots, "site-%s-%d-%s.png" % (name, width, scheme)))
            look.goto(url(site, "contacts/index.html"))
            bands = look.evaluate("""() => [getComputedStyle(document.querySelector('.section-header')).backgroundColor,
                                            getComputedStyle(document.querySelector('.rows')).backgroundColor]""")
            check(bands[0] != bands[1], "contacts %d %s: plain section headers stand apart from rows: %s" % (width, scheme, bands))
            bar = look.evaluate("""() => {
                const bar = document.querySelector('.index-bar').getBoundingClientRect();
                const column = document.querySelector('main.table').getBoundingClientRect();
                const rows = Math.max(...[...document.querySelectorAll('main .row')].map(r => r.getBoundingClientRect().right));
                const letter = document.querySelector('.index-bar a');
                return {inside: column.right - bar.right, free: bar.left - rows, size: parseFloat(getComputedStyle(letter).fontSize),
                        height: letter.getBoundingClientRect().height, width: letter.getBoundingClientRect().width};
            }""")
            if width == 1280:
                check(0 <= bar["inside"] <= 1 and bar["free"] >= 0 and bar["size"] >= 13 and bar["height"] >= 24
                      and bar["width"] >= 24,
                      "contacts 1280 %s: the index bar is in the column's own trailing strip, beside the rows, with 24 px "
                      "targets: %s" % (scheme, bar))
            look.goto(url(site, "catalogue/index.html") if os.path.exists(os.path.join(site, "catalogue")) else url(site, "contacts/index.html"))
            look.close()
    page.close()


def subtitle_checks(browser, site):
    page = browser.new_page(viewport={"width": 320, "height": 600})
    page.goto(url(site, "contacts/index.html"))
    lines = page.evaluate("""() => [...document.querySelectorAll('.cell.subtitle')].map(cell => {
        const text = cell.querySelector('.text');
        return {lines: Math.round(text.getBoundingClientRect().height / parseFloat(getComputedStyle(text).lineHeight)),
                overflow: getComputedStyle(text).textOverflow};
    })""")
    check(all(line["lines"] == 1 and line["overflow"] == "ellipsis" for line in lines),
          "contacts at 320 px: subtitle cells truncate with an ellipsis instead of wrapping: %s" % lines)
    page.close()


def fold_checks(browser, site, fold_file):
    with open(fold_file, encoding="utf-8") as handle:
        expected = json.load(handle)
    page = browser.new_page()
    page.goto(url(site))
    actual = page.evaluate("(texts) => texts.map(text => window.RowKitSearch.foldWords(text))", [item[0] for item in expected])
    for (text, words), got in zip(expected, actual):
        check(words == got, "folding agrees with Swift on %r: Swift %s, browser %s" % (text, words, got))
    page.close()


def show_more(page, count):
    """Clicks "Show More Results" and waits for `count` results; returns how many there are, the
    index of the one holding the focus, and whether the button is there again."""
    page.click("#search-results .search-more button")
    return results_after(page, count)


def scroll_to_more(page, count):
    """Scrolls "Show More Results" into view without clicking it and waits for `count` results;
    returns what ``show_more`` returns."""
    page.evaluate("() => document.querySelector('#search-results .search-more').scrollIntoView({block: 'end'})")
    return results_after(page, count)


def results_after(page, count):
    """Waits for `count` results; returns how many there are, the index of the one holding the
    focus, and whether "Show More Results" is there."""
    page.wait_for_function("(n) => document.querySelectorAll('#search-results li.row:not(.search-more)').length >= n",
                           arg=count)
    return page.evaluate("""() => {
        const rows = [...document.querySelectorAll('#search-results li.row:not(.search-more)')];
        return { count: rows.length, focused: rows.findIndex(li => li.contains(document.activeElement)),
                 button: !!document.querySelector('#search-results .search-more button') };
    }""")


def large_checks(browser, site, query, href):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url(site))
    before = set(page.evaluate("window.RowKitSearch.loadedFiles.slice()"))
    found = search(page, query, typed=False)
    loaded = [unquote(urlparse(file).path) for file in page.evaluate("window.RowKitSearch.loadedFiles.slice()") if file not in before]
    index_bytes = sum(os.path.getsize(path) for path in loaded)
    figures["large_query"] = query
    figures["large_index_files"] = len(loaded)
    figures["large_index_bytes"] = index_bytes
    figures["large_status"] = found["status"]
    check(found["rows"] and found["rows"][0]["href"] == href,
          "large: %r finds its row on a late page first: %s" % (query, found["rows"][:3]))
    check(index_bytes <= 300 * 1024, "large: the query loads at most 300 KB of index (%d bytes in %d files)" % (index_bytes, len(loaded)))
    common = search(page, "item")
    figures["large_common_status"] = common["status"]
    check(len(common["rows"]) == 30, "large: a word in every row shows the first results: %s" % common["status"])
    # "Show More Results" adds the next 30 (their rows are in a few row files) and focuses the first.
    more = show_more(page, 60)
    check(more == {"count": 60, "focused": 30, "button": True},
          "large: Show More Results adds 30 results and focuses the first of them: %s" % more)
    # Scrolled into view, the button draws the next step by itself, as an iOS list goes on; the
    # focus stays where it was.
    scrolled = scroll_to_more(page, 90)
    check(scrolled == {"count": 90, "focused": 30, "button": True},
          "large: scrolling to Show More Results adds the next 30 and leaves the focus: %s" % scrolled)
    # ↓ from the last result focuses the button, which scrolls it into view: the step that draws
    # takes the focus on to its first result, as a click does.
    page.evaluate("() => [...document.querySelectorAll('#search-results li.row:not(.search-more)')][89].firstChild.focus()")
    page.keyboard.press("ArrowDown")
    keyed = results_after(page, 120)
    check(keyed == {"count": 120, "focused": 90, "button": True},
          "large: the keyboard's step to Show More Results adds 30 and focuses the first of them: %s" % keyed)
    page.click("#search-results a.cell >> nth=0")
    page.wait_for_load_state()
    page.goto(url(site))
    search(page, query)
    page.click("#search-results a.cell")
    # The list is one page with JavaScript (listing.js): the result jumps to its row in it.
    anchor = href.split("#")[1]
    page.wait_for_function("(a) => location.hash === '#' + a && document.getElementById(a)", arg=anchor, timeout=15000)
    page.evaluate("async () => { await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); }")
    top = page.evaluate("(a) => document.getElementById(a).getBoundingClientRect().top", anchor)
    check(0 <= top < 844, "large: the result jumps to its row (%s) in the one page: %s at %s px" % (href, page.url, top))
    page.close()


def spread_checks(browser, site):
    """Results spread over the listing (3,000 rows with bodies, row files of 128, "rare" in every
    100th row): a step of results stops before one that would need a 13th row file."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url(site))
    before = set(page.evaluate("window.RowKitSearch.loadedFiles.slice()"))
    found = search(page, "rare", typed=False)
    row_files = [file for file in page.evaluate("window.RowKitSearch.loadedFiles.slice()")
                 if file not in before and os.path.basename(unquote(urlparse(file).path)).startswith("r-")]
    shown = [row["text"] for row in found["rows"]]
    check(found["status"] == "30 results" and shown == ["Row %d" % (100 * n) for n in range(16)] and len(row_files) <= 12,
          "spread: the first step shows the results of 12 row files, rows 0-1500 (%s; %d row files loaded)"
          % (shown, len(row_files)))
    more = show_more(page, 30)
    check(more == {"count": 30, "focused": 16, "button": False},
          "spread: Show More Results adds the other 14 and focuses the first of them: %s" % more)
    page.close()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--settings", required=True)
    parser.add_argument("--examples", required=True)
    parser.add_argument("--fold", required=True)
    parser.add_argument("--shots", required=True)
    parser.add_argument("--large")
    parser.add_argument("--spread")
    parser.add_argument("--large-query", default="item 99999")
    parser.add_argument("--large-href", default="page-200.html#r-99999")
    parser.add_argument("--only-large", action="store_true")
    arguments = parser.parse_args()
    os.makedirs(arguments.shots, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-dev-shm-usage"])
        groups = []
        if not arguments.only_large:
            groups += [lambda: settings_checks(browser, arguments.settings, arguments.shots),
                       lambda: examples_checks(browser, arguments.examples, arguments.shots),
                       lambda: subtitle_checks(browser, arguments.examples),
                       lambda: fold_checks(browser, arguments.settings, arguments.fold),
                       lambda: axe_checks(browser, arguments.examples, arguments.large),
                       lambda: zoom_checks(browser, arguments.examples),
                       lambda: live_region_checks(browser, arguments.examples),
                       lambda: accessory_checks(browser, arguments.examples),
                       lambda: accessory_contrast_checks(browser, arguments.examples),
                       lambda: highlight_contrast_checks(browser, arguments.examples),
                       lambda: skip_link_checks(browser, arguments.examples, arguments.large)]
        if arguments.large:
            groups.append(lambda: large_checks(browser, arguments.large, arguments.large_query, arguments.large_href))
            if not arguments.only_large:
                groups.append(lambda: page_link_checks(browser, arguments.large))
        if arguments.spread and not arguments.only_large:
            groups.append(lambda: spread_checks(browser, arguments.spread))
        try:
            for group in groups:
                try:
                    group()
                except Exception as error:  # a check that could not finish is a failure; the others still run
                    check(False, "stopped: %s" % str(error).splitlines()[0])
        finally:
            browser.close()
    finish()


if __name__ == "__main__":
    main()
