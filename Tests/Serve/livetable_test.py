#!/usr/bin/env python3
"""Runs Examples/LiveTable briefly and checks, in Chromium, that its page follows the processes
without reloading.

    .build/browser-venv/bin/python Tests/Serve/livetable_test.py --livetable .build/debug/LiveTable

Opens the page, sets a property on `window`, and waits for the page to apply changesets in place
(`RowKitLive.applied`); the property must survive (no reload), and a process started after the
page opened (a `sleep` with a unique duration) must appear in it. Prints `N passed, N failed`.
"""
import argparse, os, re, subprocess, sys, threading, time

from playwright.sync_api import sync_playwright

passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--livetable", required=True)
    args = parser.parse_args()
    server = subprocess.Popen([args.livetable, "--port", "0", "--seconds", "40"], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    url = None
    deadline = time.time() + 60
    while time.time() < deadline and url is None:
        line = server.stdout.readline()
        m = re.search(r"at (http://\S+/)", line)
        if m:
            url = m.group(1)
    check("LiveTable prints its address", url is not None)
    if url is None:
        server.kill()
        return
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    marker = None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 390, "height": 844})
            errors = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            check("the page lists processes", page.locator("li.row").count() > 0)
            page.evaluate("() => { window.rowkitMarker = 'kept'; }")
            page.wait_for_function("() => window.RowKitLive && window.RowKitLive.connected", timeout=20000)
            # A process the table does not have yet, with a name nobody else has.
            marker = subprocess.Popen(["sleep", "31.4159"])
            page.wait_for_function("() => window.RowKitLive.applied >= 2", timeout=30000)
            page.wait_for_function(
                "pid => [...document.querySelectorAll('li.row')].some(li => li.textContent.includes('pid ' + pid))",
                arg=marker.pid, timeout=20000)
            check("a new process appears without a reload", page.evaluate("() => window.rowkitMarker") == "kept")
            check("changesets were applied in place", page.evaluate("() => window.RowKitLive.applied") >= 2)
            check("no script errors", not errors, errors)
            os.makedirs(".build/screenshots", exist_ok=True)
            page.screenshot(path=".build/screenshots/livetable.png")
            browser.close()
    finally:
        if marker:
            marker.kill()
        server.kill()


try:
    main()
except Exception as error:
    failed += 1
    print(f"FAIL {error}")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
