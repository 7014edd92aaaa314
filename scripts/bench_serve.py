#!/usr/bin/env python3
"""The live-listing benchmark behind scripts/bench-serve.sh (run that; it builds and installs).

For each listing size: `rowkit serve` on a generated listing, a page open in Chromium
(Playwright), and timed edits from the file's write (this script's clock) to the new text on
screen (polled in the page): a one-row edit of a row in view, 100 rows inserted at the top (until
the page has applied them, the row in view still in place), one whole section deleted. Beside it
in the same run, `hugo server` on the same rows (the layout of scripts/bench-hugo.sh) with the
same one-row edit, until the new text is visible after Hugo's reload, and where each leaves the
reader's scroll position. Also the bytes pushed for a one-row edit (the event stream's bytes).
Prints one table per measure, medians of EDITS edits.
"""
import argparse, json, os, re, shutil, signal, socket, statistics, subprocess, sys, tempfile, threading, time

from playwright.sync_api import sync_playwright


def start(command, cwd, pattern, timeout=600):
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = process.stdout.readline()
        if not line and process.poll() is not None:
            raise RuntimeError(f"{command[0]} exited: {process.returncode}")
        m = re.search(pattern, line)
        if m:
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process, m
    raise RuntimeError(f"{command[0]} did not start in {timeout} s")


def stop(process):
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


class Stream:
    """Counts the bytes of each event of one event stream."""

    def __init__(self, port):
        self.events = []
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /_rowkit/events?table= HTTP/1.1\r\nHost: x\r\n\r\n")
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(1 << 16)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                name = re.search(rb"^event: (\w+)", block, re.M)
                if name:
                    self.events.append((time.time(), name.group(1).decode(), len(block) + 2))


def wait_for(page, script, arg, timeout=60):
    """Waits until `script(arg)` is true in the page; False (and a note) after `timeout` s."""
    try:
        page.wait_for_function(script, arg=arg, timeout=timeout * 1000, polling="raf")
        return True
    except Exception as error:
        print(f"  (timed out after {timeout} s: {script[:60]}...: {str(error)[:80]})", file=sys.stderr)
        return False


def csv_records(text):
    """The offset of each CSV record after the header and its second cell (the section), as
    `rowkit generate-example --format csv` writes them (quoted bodies may span lines)."""
    records, offset, quoted, start = [], 0, False, None
    for line in text.splitlines(keepends=True):
        if not quoted:
            start = offset
        quoted ^= line.count('"') % 2 == 1
        if not quoted and start:
            records.append((start, text[start:start + 200].split(",", 2)[1]))
        offset += len(line)
    return records


def rowkit_side(rowkit, work, rows, edits, browser, format="yaml"):
    name = "rows." + format
    listing = os.path.join(work, name)
    subprocess.run([rowkit, "generate-example", "--rows", str(rows), "--format", format, "-o", listing],
                   check=True, capture_output=True)
    command = [rowkit, "serve", name, "-o", "site", "--port", "0"]
    if format == "csv":
        command += ["--section-by", "section"]
    server, m = start(command, work, r"at (http://\S+/)")
    url = m.group(1)
    port = int(url.rsplit(":", 1)[1].strip("/"))
    result = {"edit": [], "insert": [], "section": [], "bytes": [], "server": [], "scroll_kept": []}
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(url + "page-3.html" if rows > 500 else url)
        has_live = page.evaluate("() => new Promise(r => setTimeout(() => r(!!window.RowKitLive), 3000))")
        if has_live:
            wait_for(page, "() => window.RowKitLive && window.RowKitLive.connected", None)
        stream = Stream(port)
        text = open(listing).read()
        for i in range(edits):
            # The first row drawn at the top of the window.
            target = page.evaluate("""() => { const y = 60; for (const li of document.querySelectorAll('li.row')) {
                const r = li.getBoundingClientRect(); if (r.bottom > y && r.top < 844) { const t = li.querySelector('.text'); if (t) return t.textContent; } } return null; }""")
            if not has_live:
                # No live page to ask: a row from the listing itself, a different one each time.
                texts = (re.findall(r'^        text: "(.*)"$', text, re.M) if format == "yaml"
                         else [text[o:o + 200].split(",", 4)[3] for o, _ in csv_records(text)])
                target = texts[(len(texts) // 3 + 7 * i) % len(texts)]
            if not target:
                break
            new = f"{target} edited {i}"
            count = len(stream.events)
            before = time.time()
            if format == "csv":
                edited = text.replace(f",{target},", f",{new},", 1)
            else:
                edited = text.replace(f'text: "{target}"\n', f'text: "{new}"\n', 1)
                if edited == text:
                    edited = text.replace(f"text: {target}\n", f"text: {new}\n", 1)
            if edited == text:
                raise RuntimeError(f"row {target!r} not found in the listing")
            text = edited
            with open(listing, "w") as f:
                f.write(text)
            if has_live:
                if wait_for(page, "t => [...document.querySelectorAll('li.row .text')].some(e => e.textContent === t)", new):
                    result["edit"].append(time.time() - before)
            deadline = time.time() + 120
            while not any(e[1] == "changeset" for e in stream.events[count:]):
                if time.time() > deadline:
                    raise RuntimeError("no changeset within 120 s of the edit")
                time.sleep(0.005)
            change = next(e for e in stream.events[count:] if e[1] == "changeset")
            result["server"].append(change[0] - before)
            result["bytes"].append(change[2])
            time.sleep(0.3)
        if has_live:
            top = page.evaluate("() => { const li = [...document.querySelectorAll('li.row')].find(e => e.getBoundingClientRect().bottom > 60); return [li.querySelector('.text').textContent, li.getBoundingClientRect().top]; }")
            applied = page.evaluate("() => window.RowKitLive.applied")
            if format == "csv":
                # At the top of the first section: its rows, after the header.
                at, section = csv_records(text)[0]
                added = "".join(f"bench-added-{k},{section},default,Bench added {k},,,\n" for k in range(100))
            else:
                added = "".join(f"      - id: bench-added-{k}\n        text: Bench added {k}\n" for k in range(100))
                at = text.index("rows:\n") + len("rows:\n")
            text = text[:at] + added + text[at:]
            before = time.time()
            with open(listing, "w") as f:
                f.write(text)
            if wait_for(page, "n => window.RowKitLive.applied > n", applied):
                result["insert"].append(time.time() - before)
            after = page.evaluate("t => { const e = [...document.querySelectorAll('li.row .text')].find(e => e.textContent === t); return e ? e.closest('li').getBoundingClientRect().top : null; }", top[0])
            result["scroll_kept"].append(after is not None and abs(after - top[1]) < 1)
            # Delete the second section whole.
            if format == "csv":
                records = csv_records(text)
                starts = [o for i, (o, section) in enumerate(records) if i == 0 or records[i - 1][1] != section]
            else:
                starts = [m.start() for m in re.finditer(r"^  - ", text, re.M)]
            if len(starts) > 2:
                applied = page.evaluate("() => window.RowKitLive.applied")
                text = text[:starts[1]] + text[starts[2]:]
                before = time.time()
                with open(listing, "w") as f:
                    f.write(text)
                if wait_for(page, "n => window.RowKitLive.applied > n", applied):
                    result["section"].append(time.time() - before)
        page.close()
    finally:
        stop(server)
    return result


def hugo_side(rowkit, work, rows, edits, browser):
    site = os.path.join(work, "hugo")
    os.makedirs(os.path.join(site, "data"))
    os.makedirs(os.path.join(site, "layouts"))
    data = os.path.join(site, "data", "rows.json")
    subprocess.run([rowkit, "generate-example", "--rows", str(rows), "--format", "json", "-o", data], check=True, capture_output=True)
    with open(os.path.join(site, "config.toml"), "w") as f:
        f.write('baseURL = "http://127.0.0.1/"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap", "404"]\n')
    with open(os.path.join(site, "layouts", "index.html"), "w") as f:
        f.write('<!doctype html><html><body>{{ range .Site.Data.rows.sections }}<h2>{{ .header }}</h2><ul>{{ range .rows }}'
                '<li class="row"><b class="text">{{ .text }}</b> <span>{{ .detail }}</span></li>{{ end }}</ul>{{ end }}</body></html>\n')
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    server, m = start(["hugo", "server", "--port", str(free), "--bind", "127.0.0.1", "--disableFastRender"], site,
                      r"Web Server is available at (http://\S+/)")
    result = {"edit": [], "scroll": []}
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(m.group(1), timeout=600000)
        text = open(data).read()
        for i in range(edits):
            page.evaluate("() => window.scrollTo(0, document.body.scrollHeight / 3)")
            y = page.evaluate("() => window.scrollY")
            target = page.evaluate("""() => { for (const b of document.querySelectorAll('li.row .text')) { const r = b.getBoundingClientRect();
                if (r.top > 0 && r.top < 844) return b.textContent; } return null; }""")
            new = f"{target} edited {i}"
            before = time.time()
            text = text.replace(json.dumps(target), json.dumps(new), 1)
            with open(data, "w") as f:
                f.write(text)
            wait_for(page, "t => [...document.querySelectorAll('li.row .text')].some(e => e.textContent === t && e.getBoundingClientRect().height > 0)", new, timeout=600)
            result["edit"].append(time.time() - before)
            result["scroll"].append((y, page.evaluate("() => window.scrollY")))
            time.sleep(1)
        page.close()
    finally:
        stop(server)
    return result


def one_page_side(rowkit, work, rows, edits, browser):
    """A table of one page: the same one-row edits seen by two pages side by side, one drawing the
    change from the changeset's records (live.js as shipped) and one made to take it from the page
    exported (listing.js's row markup hidden from it, so live.js falls back to fetching its page).
    Returns {"records": [s...], "fetched": [s...]}: each edit's write to the new text on screen."""
    listing = os.path.join(work, "rows.yaml")
    subprocess.run([rowkit, "generate-example", "--rows", str(rows), "-o", listing], check=True, capture_output=True)
    server, m = start([rowkit, "serve", "rows.yaml", "-o", "site", "--port", "0", "--page-size", str(rows)], work, r"at (http://\S+/)")
    url = m.group(1)
    result = {"records": [], "fetched": []}
    try:
        pages = {}
        for mode in ["records", "fetched"]:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            if mode == "fetched":
                context.add_init_script("Object.defineProperty(window, 'RowKitListing', {get() { return undefined; }, set(value) {}})")
            page = context.new_page()
            page.goto(url)
            wait_for(page, "() => window.RowKitLive && window.RowKitLive.connected", None)
            page.evaluate("() => { window.seen = {}; const look = () => { for (const e of document.querySelectorAll('li.row .text')) "
                          "if (e.textContent.includes(' edited ') && !(e.textContent in window.seen)) window.seen[e.textContent] = Date.now(); "
                          "requestAnimationFrame(look); }; look(); }")
            pages[mode] = page
        text = open(listing).read()
        texts = re.findall(r'^        text: "(.*)"$', text, re.M) or re.findall(r"^        text: (.*)$", text, re.M)
        for i in range(edits):
            target = texts[(len(texts) // 3 + 7 * i) % len(texts)]
            new = f"{target} edited {i}"
            edited = text.replace(f'text: "{target}"\n', f'text: "{new}"\n', 1)
            if edited == text:
                edited = text.replace(f"text: {target}\n", f"text: {new}\n", 1)
            text = edited
            before = time.time() * 1000
            with open(listing, "w") as f:
                f.write(text)
            for mode, page in pages.items():
                if wait_for(page, "t => t in window.seen", new):
                    result[mode].append((page.evaluate("t => window.seen[t]", new) - before) / 1000)
            time.sleep(0.3)
        for page in pages.values():
            page.context.close()
    finally:
        stop(server)
    return result


def median(values):
    return statistics.median(values) if values else float("nan")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rowkit", required=True)
    parser.add_argument("--rows", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--edits", type=int, default=5)
    parser.add_argument("--hugo-rows", type=int, default=100000, help="0: no Hugo side")
    parser.add_argument("--hugo-only", action="store_true", help="only the Hugo side (at --hugo-rows)")
    parser.add_argument("--one-page", type=int, default=0, metavar="ROWS",
                        help="only a table of one page of ROWS rows: changes drawn from the changeset's records against the page fetched")
    parser.add_argument("--format", choices=["yaml", "csv"], default="yaml",
                        help="the listing rowkit serves (csv: sectioned by its section column)")
    args = parser.parse_args()
    if args.one_page:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            work = tempfile.mkdtemp(prefix="rowkit-bench-one-page-")
            try:
                r = one_page_side(os.path.abspath(args.rowkit), work, args.one_page, args.edits, browser)
            finally:
                shutil.rmtree(work, ignore_errors=True)
            browser.close()
        ms = lambda v: f"{median(v) * 1000:.0f} ms" if v else "n/a"
        print("| rows | edits | from the records, p50 | fetched after the export, p50 | ratio |")
        print("|---:|---:|---:|---:|---:|")
        ratio = median(r["fetched"]) / median(r["records"]) if r["records"] and r["fetched"] else float("nan")
        print(f"| {args.one_page:,} | {min(len(r['records']), len(r['fetched']))} | {ms(r['records'])} | {ms(r['fetched'])} | {ratio:.1f}x |")
        return
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        print("| rows | one-row edit to painted, p50 | server: write to changeset sent, p50 | 100 rows at top | section deleted | bytes pushed (one-row edit) | row in view kept |")
        print("|---:|---:|---:|---:|---:|---:|---|")
        for rows in ([args.hugo_rows] if args.hugo_only else args.rows):
            r = {"edit": [], "server": [], "insert": [], "section": [], "bytes": [], "scroll_kept": []}
            work = tempfile.mkdtemp(prefix="rowkit-bench-serve-")
            try:
                if not args.hugo_only:
                    r = rowkit_side(os.path.abspath(args.rowkit), work, rows, args.edits, browser, args.format)
            finally:
                shutil.rmtree(work, ignore_errors=True)
            ms = lambda v: f"{median(v) * 1000:.0f} ms" if v else "n/a"
            print(f"| {rows:,} | {ms(r['edit'])} | {ms(r['server'])} | {ms(r['insert'])} | {ms(r['section'])} | "
                  f"{max(r['bytes']) if r['bytes'] else 'n/a'} B | {all(r['scroll_kept']) if r['scroll_kept'] else 'n/a'} |", flush=True)
            if rows == args.hugo_rows:
                work = tempfile.mkdtemp(prefix="rowkit-bench-hugo-serve-")
                try:
                    h = hugo_side(os.path.abspath(args.rowkit), work, rows, min(args.edits, 3), browser)
                finally:
                    shutil.rmtree(work, ignore_errors=True)
                kept = [abs(a - b) < 1 for a, b in h["scroll"]]
                print(f"\nhugo server, {rows:,} rows, same one-row edit to visible after its reload: p50 {ms(h['edit'])}; "
                      f"scroll position kept in {sum(kept)} of {len(kept)} edits {h['scroll']}; "
                      f"rowkit/hugo ratio {median(h['edit']) / median(r['edit']) if r['edit'] else float('nan'):.1f}x sooner\n", flush=True)
        browser.close()


main()
