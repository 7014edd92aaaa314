"""WCAG 2.1 AA checks of an exported site, run by search_test.py on the examples site (the page
links on its listing of several pages)."""

import os
import re

from axe_playwright_python.sync_playwright import Axe

from browser_checks import check, figures, url

# What the contrast measures share: a computed colour parsed, alpha compositing, the background
# an element is painted on (composited up to the first opaque one), WCAG's relative luminance and
# contrast ratio; and the two measures, of the texts and of the accessories in `root`, from the
# computed styles as they are (a hovered cell's as highlighted).
COLOURS = r"""
    function parse(colour) {
        const match = colour.match(/rgba?\(([^)]+)\)/);
        if (!match) return null;
        const parts = match[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
        return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
    }
    function over(top, base) { return base.map((value, k) => top[k] * top[3] + value * (1 - top[3])); }
    function background(element) {
        const layers = [];
        for (let node = element; node; node = node.parentElement) {
            const colour = parse(getComputedStyle(node).backgroundColor);
            if (colour && colour[3] > 0) { layers.push(colour); if (colour[3] >= 1) break; }
        }
        let base = matchMedia('(prefers-color-scheme: dark)').matches ? [0, 0, 0] : [255, 255, 255];
        for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i], base);
        return base;
    }
    function luminance(rgb) {
        return rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
            .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
    }
    function contrast(front, back) {
        const a = luminance(front), b = luminance(back);
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    }
    // Every visible text node against the backgrounds it is painted on: [key, text, ratio, need],
    // need being 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
    function texts(root) {
        const found = [];
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const element = node.parentElement, style = getComputedStyle(element);
            if (!node.textContent.trim() || !element.getBoundingClientRect().width || style.visibility === 'hidden') continue;
            const back = background(element), ratio = contrast(over(parse(style.color), back), back);
            const size = parseFloat(style.fontSize), bold = parseInt(style.fontWeight) >= 700;
            const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
            found.push([element.className + ' ' + style.fontSize, node.textContent.trim().slice(0, 30), ratio, need]);
        }
        return found;
    }
    // Every accessory (chevron, checkmark, info button): [kind in row, ratio] of its stroke,
    // composited on its cell's background; 3:1 is needed.
    function accessories(root) {
        return [...root.querySelectorAll('.accessory')].map(accessory => {
            const kind = accessory.classList[1];
            const stroke = parse(kind === 'info' ? getComputedStyle(accessory).borderTopColor
                : getComputedStyle(accessory, '::before')[kind === 'chevron' ? 'borderTopColor' : 'borderRightColor']);
            const back = background(accessory);
            return [kind + ' in ' + accessory.closest('.cell').textContent.trim().slice(0, 20), contrast(over(stroke, back), back)];
        });
    }
"""

# The contrast of every accessory of the list against its cell, as drawn: {accessory in row:
# ratio} of those below 3:1.
LOW_ACCESSORY_CONTRAST = "() => {" + COLOURS + r"""
    const low = {};
    for (const [key, ratio] of accessories(document.querySelector('main')))
        if (ratio < 3) low[key] = ratio.toFixed(2);
    return low;
}"""


def accessory_contrast_checks(browser, site):
    """WCAG 1.4.11: chevrons, checkmarks and info buttons at 3:1 or more against their cells, as
    drawn, in the inset-grouped settings and the plain contacts, light and dark (highlighted:
    highlight_contrast_checks)."""
    for scheme in ["light", "dark"]:
        page = browser.new_page(color_scheme=scheme, viewport={"width": 390, "height": 844})
        for name in ["settings/index.html", "contacts/index.html"]:
            page.goto(url(site, name))
            low = page.evaluate(LOW_ACCESSORY_CONTRAST)
            check(page.locator("main .accessory.chevron").count() > 0 and not low,
                  "%s %s: accessories below 3:1 against their cells: %s" % (name, scheme, low))
        page.close()


# Every cell of the page drawn as a row that links (as the exporter draws a row with a detail page
# or a link: the same element as an <a href>), so that each of the settings' cell layouts, with
# and without an image, detail and accessory, gets the highlight.
LINK_EVERY_CELL = """() => {
    for (const cell of document.querySelectorAll('main div.cell')) {
        const link = document.createElement('a');
        link.className = cell.className;
        link.href = '#';
        link.append(...cell.childNodes);
        cell.replaceWith(link);
    }
    return [...document.querySelectorAll('main a.cell')].map(cell => {
        const box = cell.getBoundingClientRect();
        return [box.left + box.width / 2, box.top + box.height / 2];
    });
}"""

# The hovered cell `index`'s texts and accessories, measured from its computed styles as drawn
# highlighted: {hovered, layout, texts: [[key, text, ratio, need]], accessories: [[key, ratio]]}.
HIGHLIGHTED = "(index) => {" + COLOURS + r"""
    const cell = document.querySelectorAll('main a.cell')[index];
    return { hovered: cell.matches(':hover'), layout: cell.classList[1], texts: texts(cell), accessories: accessories(cell) };
}"""


def highlight_contrast_checks(browser, site):
    """WCAG 1.4.3 and 1.4.11 on a hovered or pressed row's highlight (--highlight; a pressed row's
    is the same): every text of the cell at 4.5:1 (the text, the detail, a value2 cell's tinted
    label) and its accessories at 3:1, measured from the computed styles of the cell under the
    mouse. Every cell of the settings page, drawn as a row that links, in the three table styles
    (the page's body class changed), light and dark, in a window tall enough to show them all.
    The lowest ratio of each kind of text is kept in the figures."""
    lowest = {}
    for scheme in ["light", "dark"]:
        page = browser.new_page(color_scheme=scheme, viewport={"width": 390, "height": 2400})
        page.goto(url(site, "settings/index.html"))
        for style in ["insetGrouped", "grouped", "plain"]:
            page.evaluate("(s) => { document.body.className = document.body.className.replace(/\\btable-\\w+/, 'table-' + s); }", style)
            centres = page.evaluate(LINK_EVERY_CELL)
            low, missed, kinds = {}, [], set()
            for index, (x, y) in enumerate(centres):
                page.mouse.move(x, y)
                cell = page.evaluate(HIGHLIGHTED, index)
                if not cell["hovered"]:
                    missed.append(index)
                    continue
                for key, text, ratio, need in cell["texts"]:
                    key = "%s %s" % (cell["layout"], key)
                    kinds.add(key)
                    name = "%s %s" % (scheme, key)
                    lowest[name] = round(min(lowest.get(name, ratio), ratio), 2)
                    if ratio < need:
                        low["%s (%s)" % (key, text)] = round(ratio, 2)
                for key, ratio in cell["accessories"]:
                    name = "%s %s" % (scheme, key.split(" ")[0])
                    lowest[name] = round(min(lowest.get(name, ratio), ratio), 2)
                    if ratio < 3:
                        low[key] = round(ratio, 2)
            page.mouse.move(0, 0)
            check(len(centres) >= 15 and not missed and any("value2" in kind for kind in kinds) and not low,
                  "settings as %s, %s: texts below 4.5:1 or accessories below 3:1 on the highlight of a hovered row "
                  "(%d cells, not hovered: %s): %s" % (style, scheme, len(centres), missed, low))
        page.close()
    figures["highlight_contrast"] = lowest


# axe-core's rules of WCAG 2.0 and 2.1, levels A and AA, and its best practices (landmarks,
# headings: landmark-one-main is one of them); axe-playwright-python ships axe-core.
AXE = Axe()
WCAG_21_AA = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]},
              "resultTypes": ["violations"]}


def axe_violations(page):
    """axe-core's WCAG 2.1 AA violations on the page as it is now: ["rule (impact): targets"]."""
    response = AXE.run(page, options=WCAG_21_AA).response
    return ["%s (%s): %s" % (rule["id"], rule["impact"], [node["target"] for node in rule["nodes"]][:4])
            for rule in response["violations"]]


def without_scripts(site, name):
    """A copy of page `name` of `site` without its <script> elements, beside it (so its links and
    style sheet resolve alike): the page as a browser without JavaScript shows it. axe-core needs
    JavaScript itself, so it cannot run in a context where JavaScript is off."""
    path = os.path.join(site, name)
    with open(path, encoding="utf-8") as page:
        text = re.sub(r"<script\b[^>]*>.*?</script>", "", page.read(), flags=re.S)
    copy = os.path.join(os.path.dirname(path), "axe-static-" + os.path.basename(path))
    with open(copy, "w", encoding="utf-8") as page:
        page.write(text)
    return os.path.relpath(copy, site)


def axe_checks(browser, site, large=None):
    """WCAG 2.1 AA by axe-core (contrast, landmarks, names, roles, ...) on every kind of page,
    light and dark: the site's index, a list page of each table style (the settings inset grouped,
    the contacts plain), a detail page, search mode with results and with none, the focused skip
    link; without JavaScript (the static pages, their page links); and with `large` the one-page
    list and its page links."""
    searches = [("index.html", "a"), ("contacts/index.html", "ada"), ("settings/index.html", "zzzz")]
    for scheme in ["light", "dark"]:
        for script in [True, False]:
            context = browser.new_context(color_scheme=scheme, viewport={"width": 390, "height": 844})
            page = context.new_page()
            page.goto(url(site, "settings/index.html"))
            detail = "settings/" + page.get_attribute("main a.cell[href^='rows/']", "href")
            names = ["index.html", "settings/index.html", "contacts/index.html", detail]
            if large:
                names += [(large, "page-3.html"), (large, "index.html")]
            for name in names:
                folder, name = name if isinstance(name, tuple) else (site, name)
                page.goto(url(folder, name if script else without_scripts(folder, name)))
                if script and folder == large:
                    page.wait_for_function("() => window.RowKitListing && (window.RowKitListing.firstRows !== undefined"
                                           " || window.RowKitListing.error)", timeout=30000)
                what = "%s%s %s%s" % ("large " if folder == large else "", name, scheme, "" if script else " without JavaScript")
                found = axe_violations(page)
                check(not found, "%s: axe-core finds violations (WCAG 2.1 AA, best practices): %s" % (what, found))
            page.goto(url(site, "contacts/index.html" if script else without_scripts(site, "contacts/index.html")))
            page.evaluate("() => { const link = document.querySelector('a.skip-link'); if (link) link.focus(); }")
            found = axe_violations(page)
            check(page.evaluate("document.activeElement.className") == "skip-link" and not found,
                  "contacts %s%s: with the skip link focused, axe-core finds violations (WCAG 2.1 AA, best practices): %s"
                  % (scheme, "" if script else " without JavaScript", found))
            if script:
                for name, query in searches:
                    page.goto(url(site, name))
                    page.wait_for_selector(".search:not([hidden])")
                    page.fill(".search-input", query)
                    page.wait_for_function("""(q) => document.getElementById('search-results').getAttribute('data-query') === q""",
                                           arg=query, timeout=15000)
                    found = axe_violations(page)
                    check(page.evaluate("document.body.classList.contains('searching')") and not found,
                          "%s %s, searching %r: axe-core finds violations (WCAG 2.1 AA, best practices): %s" % (name, scheme, query, found))
            context.close()


def zoom_checks(browser, site):
    """WCAG 1.4.4 and 1.4.10: at 400% zoom (320 x 256 CSS px) and at 200% of a short window
    (640 x 200, where the contacts' 11 letters on 24 px lines are taller than the window), nothing
    scrolls sideways, and each index bar letter Tab reaches is inside the window."""
    for width, height, scale in [(320, 256, 4), (640, 200, 2)]:
        page = browser.new_page(viewport={"width": width, "height": height}, device_scale_factor=scale)
        for name in ["settings/index.html", "contacts/index.html"]:
            page.goto(url(site, name))
            sideways = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            check(sideways <= 0, "%s at %dx%d: the page scrolls sideways by %s px" % (name, width, height, sideways))
        letters = page.locator(".index-bar a")
        outside = []
        for index in range(letters.count()):
            letters.nth(index).focus()
            box = letters.nth(index).bounding_box()
            if box["y"] < 0 or box["y"] + box["height"] > height:
                outside.append(letters.nth(index).text_content())
        check(letters.count() > 0 and not outside,
              "contacts at %dx%d: focused index bar letters outside the window: %s" % (width, height, outside))
        page.close()


def live_region_checks(browser, site):
    """WCAG 4.1.3: the search count's live region is in the accessibility tree before the first
    search (a region that appears with its text is not announced), and typing a query at 150 ms a
    key announces its count once, not the counts of its prefixes."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url(site, "contacts/index.html"))
    page.wait_for_selector(".search:not([hidden])")
    session = page.context.new_cdp_session(page)
    tree = session.send("Accessibility.getFullAXTree")["nodes"]
    check(any(node.get("role", {}).get("value") == "status" and not node.get("ignored") for node in tree),
          "contacts: the search's live region is in the accessibility tree before searching")
    page.evaluate("""() => {
        const region = document.querySelector('[role=status]');
        window.announced = [];
        new MutationObserver(() => window.announced.push(region.textContent))
            .observe(region, {childList: true, characterData: true, subtree: true});
    }""")
    page.locator(".search-input").type("ada lovelace", delay=150)
    page.wait_for_function("() => window.announced.length > 0", timeout=5000)
    page.wait_for_timeout(1000)
    announced = page.evaluate("window.announced")
    check(announced == ["1 result"], "contacts: typing 'ada lovelace' announces one count: %s" % announced)
    # <main> is hidden while results show: the results are the page's main landmark.
    check(page.get_by_role("main", name="Search results").locator("a.cell").count() == 1
          and page.get_by_role("main").count() == 1,
          "contacts: the search results are the page's one main landmark, 'Search results'")
    page.close()


def accessory_checks(browser, site):
    """WCAG 1.3.1: a chevron or info button is named ("Show details", "More Info") only in a row
    that links; in a row that does not, a screen reader would promise details nothing opens."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url(site, "settings/index.html"))
    named = page.evaluate("""() => [...document.querySelectorAll('.accessory.chevron, .accessory.info')]
        .filter(span => span.closest('a') ? !span.getAttribute('aria-label') : span.getAttribute('aria-hidden') !== 'true')
        .map(span => span.closest('.cell').querySelector('.text').textContent)""")
    check(page.locator("div.cell .accessory.chevron").count() > 0 and not named,
          "settings: chevrons and info buttons are named in rows that link, hidden in rows that do not: %s" % named)
    page.close()


def page_link_checks(browser, site):
    """WCAG 1.3.1 and 2.4.4: the page links are read as pages ("Page 2", "Page 3, current page",
    "Next page"), while they show the numbers and Previous and Next alone, as before."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    for name, current in [("page-3.html", 3), ("index.html", 1)]:
        page.goto(url(site, name))
        nav = page.locator("nav.pagination")
        numbers = nav.locator("a[href]:not([rel])")
        named = [nav.get_by_role("link", name="Page %s" % re.sub(r"\D", "", numbers.nth(i).text_content()), exact=True).count()
                 for i in range(numbers.count())]
        check(numbers.count() > 0 and named == [1] * numbers.count(),
              "%s: every page number's link is named \"Page N\": %s" % (name, nav.aria_snapshot()))
        marked = nav.locator("[aria-current=page]")
        check(marked.count() == 1 and " ".join(marked.text_content().split()) == "Page %d" % current,
              "%s: the current page is read as \"Page %d\" with aria-current=page: %s"
              % (name, current, marked.text_content() if marked.count() else None))
        steps = [text for text in ["Previous page", "Next page"] if nav.get_by_text(text, exact=True).count()
                 or nav.get_by_role("link", name=text, exact=True).count()]
        check(steps == ["Previous page", "Next page"], "%s: Previous and Next are read as \"Previous page\" and \"Next page\": %s"
              % (name, nav.aria_snapshot()))
        # What is drawn is unchanged: the numbers, Previous and Next, in boxes 44 px wide or more.
        drawn = page.evaluate("""() => [...document.querySelectorAll('.pagination li')].map(li => {
            let text = '';
            const walker = document.createTreeWalker(li, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode())
                if (node.parentElement.getBoundingClientRect().width > 1) text += node.textContent;
            return [text.trim(), Math.round(li.firstElementChild.getBoundingClientRect().width)];
        })""")
        check(drawn[0][0] == "Previous" and drawn[-1][0] == "Next" and all(text.isdigit() or text == "\u2026" for text, _ in drawn[1:-1])
              and all(width >= 44 for _, width in drawn) and [width for text, width in drawn if text == str(current)] == [44],
              "%s: the page links draw the numbers, Previous and Next alone: %s" % (name, drawn))
    context.close()


def skip_link_checks(browser, site, large=None):
    """WCAG 2.4.1: on a list page (and a site's index page) the first thing Tab reaches is a link
    past the search field and the index bar; out of sight until it has the focus, then drawn in
    the window; following it moves the focus to the list (<main>), where Tab goes on to the first
    row's link; it is hidden while search results replace the list. A detail page has none: its
    back link is all there is before the content. In the one-page list (`large`, a site of
    several pages) it moves the focus to the list the script draws, with its first rows in view,
    each time it is followed."""
    page = browser.new_page(viewport={"width": 390, "height": 844})
    for name in ["contacts/index.html", "settings/index.html", "index.html"]:
        page.goto(url(site, name))
        page.wait_for_selector(".search:not([hidden])")
        link = page.locator("a.skip-link")
        hidden = link.count() == 1 and link.bounding_box()["width"] <= 1
        page.keyboard.press("Tab")
        focused = page.evaluate("""() => { const a = document.activeElement, box = a.getBoundingClientRect();
            return {cls: a.className, text: a.textContent, box: [box.left, box.top, box.width, box.height]}; }""")
        box = focused["box"]
        check(hidden and focused["cls"] == "skip-link" and focused["text"] == "Skip to the list"
              and box[0] >= 0 and box[1] >= 0 and box[2] > 40 and box[3] >= 44 and box[0] + box[2] <= 390,
              "%s: Tab reaches the skip link first, hidden before and drawn in the window once focused: %s" % (name, focused))
        page.keyboard.press("Enter")
        moved = page.evaluate("""() => ({main: document.activeElement === document.querySelector('main'),
                                        top: document.querySelector('main').getBoundingClientRect().top})""")
        check(moved["main"] and 0 <= moved["top"] < 844, "%s: following the skip link focuses the list: %s" % (name, moved))
        page.keyboard.press("Tab")
        first = page.evaluate("() => document.activeElement === document.querySelector('main a')")
        check(first, "%s: Tab after the skip link goes to the list's first link" % name)
    page.fill(".search-input", "a")
    page.wait_for_selector("body.searching")
    check(not page.locator("a.skip-link").is_visible() and page.evaluate("getComputedStyle(document.querySelector('a.skip-link')).display") == "none",
          "index.html: the skip link is hidden while search results replace the list")
    page.goto(url(site, "contacts/rows/allen.html"))
    page.keyboard.press("Tab")
    check(page.locator("a.skip-link").count() == 0 and page.evaluate("document.activeElement.className") == "back",
          "contacts/rows/allen.html: a detail page has no skip link; Tab reaches the back link first")
    page.close()
    if not large:
        return
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url(large, "page-3.html"))
    page.wait_for_function("() => window.RowKitListing && window.RowKitListing.firstRows !== undefined", timeout=30000)
    page.keyboard.press("Tab")
    check(page.evaluate("document.activeElement.className") == "skip-link", "one page: Tab reaches the skip link first")
    # Followed twice: the second time the address already ends in the link's #list.
    for attempt in ["first", "second"]:
        page.focus("a.skip-link")
        page.keyboard.press("Enter")
        page.evaluate("async () => { await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); }")
        moved = page.evaluate("""() => { const main = document.querySelector('main'), row = document.elementFromPoint(200, 420);
            return {main: document.activeElement === main, list: !!main.querySelector('.one-page'),
                    row: !!(row && row.closest('main li.row'))}; }""")
        check(moved["main"] and moved["list"] and moved["row"] and errors == [],
              "one page: following the skip link (%s time) focuses the list, its rows in view: %s %s" % (attempt, moved, errors))
        page.evaluate("() => window.scrollBy(0, 5000)")
    page.close()
