"""How exported pages look in Debian's Chromium, driven by Playwright for Python: Markdown bodies
(their images load, code, quotes, headings, tables), cells that truncate as UIKit's do, and the
index bar's own column.

Run by PageLookBrowserTests (Swift), which exports Tests/Browser/look/look.yaml first; it can also
be run by hand:

    .build/browser-venv/bin/python Tests/Browser/page_look_test.py --site SITE --csv-site SITE --shots DIR

SITE is the export of Tests/Browser/look/look.yaml (with raw HTML let through, for its table);
the CSV site is the export of Tests/Browser/look/look.csv with its sections' footers, index
titles from their headers' first letters and value1 as the default cell style.

Every check is recorded; the last line printed is a JSON object with the failures. Exit status 1
when any check failed. Screenshots (light and dark, 390 and 1280 px wide) go to DIR.
"""

import argparse
import os

from playwright.sync_api import sync_playwright

from browser_checks import check, figures, finish, url

WIDTHS = [(390, 844), (1280, 900)]
REMOTE_IMAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "look", "img", "display.png")


def open_page(browser, site, page_name, width, height, scheme):
    """A new page at `page_name` of `site`, with every request that fails recorded in
    `page.failed` (the listing's one remote image is served from the fixture, offline)."""
    page = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme)
    page.failed = []
    page.on("requestfailed", lambda request: page.failed.append(request.url))
    page.on("response", lambda response: response.status >= 400 and page.failed.append(response.url))
    page.route("https://example.com/**", lambda route: route.fulfill(path=REMOTE_IMAGE, content_type="image/png"))
    page.goto(url(site, page_name))
    page.wait_for_load_state("load")
    return page


def image_checks(page, where):
    """Every image of a body loads: no failed request, each with pixels."""
    check(page.failed == [], f"{where}: no failed request (failed: {page.failed})")
    images = page.evaluate("""() => [...document.querySelectorAll('.body img, .detail-body img')].map(img => {
        img.scrollIntoView();
        return {src: img.getAttribute('src'), complete: img.complete, width: img.naturalWidth};
    })""")
    check(len(images) > 0, f"{where}: the bodies have images")
    for image in images:
        check(image["complete"] and image["width"] > 0, f"{where}: image {image['src']} loads ({image})")
        check(image["src"].startswith(("assets/images/", "../assets/images/", "https://")),
              f"{where}: image {image['src']} points at the site's copy or stays remote")


def body_style_checks(page, where):
    """The Markdown stylesheet: code on a tinted, rounded fill that scrolls sideways; a bar for
    quotes; headings below the page title; hairline tables; images no wider than the column."""
    style = page.evaluate("""() => {
        const css = (selector, property) => {
            const element = document.querySelector(selector);
            return element ? getComputedStyle(element)[property] : null;
        };
        const body = document.querySelector('.detail-body');
        const widest = Math.max(...[...body.querySelectorAll('img, pre, table')].map(e => e.getBoundingClientRect().right));
        return {
            title: parseFloat(css('.large-title', 'fontSize')),
            headings: [...body.querySelectorAll('h1, h2, h3')].map(h => parseFloat(getComputedStyle(h).fontSize)),
            preBackground: css('.detail-body pre', 'backgroundColor'),
            preRadius: parseFloat(css('.detail-body pre', 'borderTopLeftRadius')),
            preOverflow: css('.detail-body pre', 'overflowX'),
            preScrolls: document.querySelector('.detail-body pre').scrollWidth > document.querySelector('.detail-body pre').clientWidth,
            codeFont: css('.detail-body p code', 'fontFamily'),
            codeBackground: css('.detail-body p code', 'backgroundColor'),
            quoteBar: parseFloat(css('.detail-body blockquote', 'borderLeftWidth')),
            quoteBarStyle: css('.detail-body blockquote', 'borderLeftStyle'),
            cellRule: css('.detail-body td', 'borderBottomWidth'),
            cellRuleStyle: css('.detail-body td', 'borderBottomStyle'),
            contentRight: body.getBoundingClientRect().right - parseFloat(getComputedStyle(body).paddingRight),
            widest: widest,
        };
    }""")
    check(all(size < style["title"] for size in style["headings"]) and len(style["headings"]) >= 2,
          f"{where}: body headings {style['headings']} are smaller than the title ({style['title']})")
    check(style["preBackground"] not in ("rgba(0, 0, 0, 0)", "transparent") and style["preRadius"] >= 6,
          f"{where}: a code block is on a tinted, rounded fill ({style['preBackground']}, {style['preRadius']})")
    check(style["preOverflow"] == "auto", f"{where}: a code block scrolls sideways ({style['preOverflow']})")
    check("monospace" in style["codeFont"] and style["codeBackground"] not in ("rgba(0, 0, 0, 0)", "transparent"),
          f"{where}: inline code is monospaced on a fill ({style['codeFont']}, {style['codeBackground']})")
    check(style["quoteBar"] >= 2 and style["quoteBarStyle"] == "solid", f"{where}: a quote has a bar ({style['quoteBar']})")
    check(style["cellRuleStyle"] == "solid" and 0 < float(style["cellRule"].rstrip("px")) <= 1,
          f"{where}: table cells have hairline rules ({style['cellRule']})")
    check(style["widest"] <= style["contentRight"] + 0.5,
          f"{where}: images, code and tables stay in the column ({style['widest']} <= {style['contentRight']})")
    return style


def cell_checks(page, where, width):
    """Value2 labels and values on one line (cut with an ellipsis); Value1 side by side when both
    fit, stacked when not; Subtitle lines cut; nothing of the list under the index bar."""
    cells = page.evaluate("""() => {
        const line = (element) => {
            const style = getComputedStyle(element);
            return element.getBoundingClientRect().height <= parseFloat(style.lineHeight || style.fontSize * 1.3) * 1.2 + 1;
        };
        const info = (element) => element && ({
            oneLine: line(element), cut: element.scrollWidth > element.clientWidth,
            rect: element.getBoundingClientRect().toJSON(), overflow: getComputedStyle(element).textOverflow,
        });
        const row = (id) => document.getElementById(id);
        return {
            value2: [...document.querySelectorAll('.value2 .text')].map(info),
            value2Details: [...document.querySelectorAll('.value2 .detail')].map(info),
            value2Heights: [...document.querySelectorAll('.value2')].map(cell => cell.getBoundingClientRect().height),
            usage: {text: info(row('r-4').querySelector('.text')), detail: info(row('r-4').querySelector('.detail')),
                    cell: row('r-4').querySelector('.cell').getBoundingClientRect().toJSON()},
            charging: {text: info(row('r-3').querySelector('.text')), detail: info(row('r-3').querySelector('.detail'))},
            subtitle: [...document.querySelectorAll('.subtitle .text, .subtitle .detail')].map(info),
        };
    }""")
    for index, label in enumerate(cells["value2"]):
        check(label["oneLine"], f"{where}: Value2 label {index} is one line ({label['rect']})")
        check(label["overflow"] == "ellipsis", f"{where}: Value2 label {index} is cut with an ellipsis")
    for index, value in enumerate(cells["value2Details"]):
        check(value["oneLine"], f"{where}: Value2 value {index} is one line ({value['rect']})")
    check(all(height <= 44.5 for height in cells["value2Heights"]),
          f"{where}: Value2 rows are 44 px tall ({cells['value2Heights']})")
    if width == 390:
        check(cells["value2"][1]["cut"], f"{where}: 'Maximum Capacity' is cut to fit its column")
    text, detail = cells["charging"]["text"], cells["charging"]["detail"]
    check(abs(text["rect"]["top"] - detail["rect"]["top"]) < 4 and detail["rect"]["left"] > text["rect"]["right"],
          f"{where}: a short Value1 keeps its detail beside the text ({text['rect']}, {detail['rect']})")
    text, detail = cells["usage"]["text"], cells["usage"]["detail"]
    side_by_side = abs(text["rect"]["top"] - detail["rect"]["top"]) < 4
    if width >= 1000:
        check(side_by_side and text["oneLine"], f"{where}: a long Value1 that fits stays on one line beside its detail")
        check(cells["usage"]["cell"]["right"] - detail["rect"]["right"] < 40,
              f"{where}: the detail is at the trailing edge ({detail['rect']}, {cells['usage']['cell']})")
    else:
        check(not side_by_side and detail["rect"]["top"] >= text["rect"]["bottom"] - 1,
              f"{where}: a long Value1 that does not fit stacks its detail under the text")
    for index, line in enumerate(cells["subtitle"]):
        check(line["oneLine"] and line["overflow"] == "ellipsis", f"{where}: Subtitle line {index} is one line, cut")


def index_column_checks(page, where):
    """No row, header or footer of the list is under the index bar."""
    overlap = page.evaluate("""() => {
        const bar = document.querySelector('.index-bar').getBoundingClientRect();
        const letters = [...document.querySelectorAll('.index-bar a')].map(a => a.getBoundingClientRect());
        const left = Math.min(bar.left, ...letters.map(r => r.left));
        const under = [...document.querySelectorAll('main .row, main .section-header, main .section-footer')]
            .map(e => ({text: e.textContent.trim().slice(0, 30), right: e.getBoundingClientRect().right}))
            .filter(e => e.right > left + 0.5);
        return {left: left, right: bar.right, width: innerWidth, under: under.slice(0, 3), count: under.length};
    }""")
    check(overlap["count"] == 0, f"{where}: nothing of the list is under the index bar at {overlap['left']} ({overlap['under']})")
    check(overlap["right"] <= overlap["width"], f"{where}: the index bar is inside the window")
    return overlap


def csv_checks(page, where):
    """The CSV listing's flags show: every row in the default style given (value1, its detail
    shown), an index bar of the headers' first letters, footers from the footer column."""
    shown = page.evaluate("""() => ({
        letters: [...document.querySelectorAll('.index-bar a')].map(a => a.textContent),
        footers: [...document.querySelectorAll('.section-footer')].map(f => f.textContent),
        styles: [...new Set([...document.querySelectorAll('main .cell')].map(c => c.className))],
        details: [...document.querySelectorAll('main .detail')].filter(d => d.getBoundingClientRect().width > 0).length,
    })""")
    check(shown["letters"] == ["B", "D", "F", "G", "W"], f"{where}: index titles are the headers' initials ({shown['letters']})")
    check(len(shown["footers"]) == 4 and shown["footers"][0] == "Shown in the status bar.",
          f"{where}: sections have footers from the footer column ({shown['footers']})")
    check(shown["styles"] == ["cell value1"] and shown["details"] == 10,
          f"{where}: every row is value1 with its detail shown ({shown['styles']}, {shown['details']})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", required=True)
    parser.add_argument("--csv-site", required=True)
    parser.add_argument("--shots", required=True)
    arguments = parser.parse_args()
    os.makedirs(arguments.shots, exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        fills = {}
        for scheme in ["light", "dark"]:
            for width, height in WIDTHS:
                where = f"list {width} {scheme}"
                page = open_page(browser, arguments.site, "index.html", width, height, scheme)
                image_checks(page, where)
                cell_checks(page, where, width)
                index_column_checks(page, where)
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=os.path.join(arguments.shots, f"look-list-{width}-{scheme}.png"))
                page.close()
                where = f"detail {width} {scheme}"
                page = open_page(browser, arguments.site, "rows/tips.html", width, height, scheme)
                image_checks(page, where)
                fills[(scheme, width)] = body_style_checks(page, where)["preBackground"]
                page.screenshot(path=os.path.join(arguments.shots, f"look-detail-{width}-{scheme}.png"))
                page.close()
        check(fills[("light", 390)] != fills[("dark", 390)], f"the code fill follows dark mode ({fills})")
        for scheme in ["light", "dark"]:
            for width, height in WIDTHS:
                page = open_page(browser, arguments.csv_site, "index.html", width, height, scheme)
                csv_checks(page, f"csv {width} {scheme}")
                index_column_checks(page, f"csv {width} {scheme}")
                page.screenshot(path=os.path.join(arguments.shots, f"look-csv-{width}-{scheme}.png"))
                page.close()
        # The index column at widths between the phone and the desktop, around each breakpoint.
        for width in [320, 414, 599, 600, 760, 820, 1024]:
            page = open_page(browser, arguments.site, "index.html", width, 700, "light")
            index_column_checks(page, f"list {width}")
            page.close()
        browser.close()
    figures["screenshots"] = arguments.shots
    finish()


if __name__ == "__main__":
    main()
