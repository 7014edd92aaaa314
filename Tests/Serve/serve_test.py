#!/usr/bin/env python3
"""Checks `rowkit serve` from outside, as a user's browser and an attacker would reach it.

    python3 Tests/Serve/serve_test.py --rowkit .build/debug/rowkit

Starts the server on a free port in a temporary folder with a copy of Examples/settings.yaml and
checks, with raw HTTP requests over a socket (so no client cleans the path up first):
- pages are served with the live script; the site on disk is what `rowkit export` writes (byte
  for byte, compared with a fresh export of the final listing after the edits below);
- refusals: `..`, `%2e%2e`, `%2f`, NUL, absolute paths, hidden files, a symbolic link leading out
  of the site -> 404; other methods -> 405;
- the event stream: `hello`, then on an edit a `changeset` with the edited row's record and an
  `exported`; 100 rows inserted at the top as one changeset; a broken edit -> `problems` with
  the text `rowkit validate` prints, and an empty `problems` when it is fixed; a save by rename
  and a listing deleted and created again are seen;
- Ctrl-C (SIGINT) stops it with status 0, the lock released and the site intact.
Prints `N passed, N failed` last.
"""
import argparse, json, os, re, shutil, signal, socket, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
passed, failed = 0, 0


def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def raw(port, request):
    """Sends `request` bytes as they are; returns (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    return status, headers, body


def get(port, path, method="GET"):
    return raw(port, f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())


class Events:
    """Reads one event stream in a thread and keeps its events."""

    def __init__(self, port, query):
        self.events, self.sock = [], socket.create_connection(("127.0.0.1", port), timeout=60)
        self.sock.sendall(f"GET /_rowkit/events?{query} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                buffer += chunk
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    fields = dict(l.split(": ", 1) for l in block.decode().split("\n") if ": " in l and not l.startswith(":"))
                    if "event" in fields:
                        self.events.append((fields["event"], json.loads(fields["data"])))
        except OSError:
            return

    def wait(self, name, after=0, timeout=20, where=lambda data: True):
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = [e for e in self.events[after:] if e[0] == name and where(e[1])]
            if found:
                return found[0][1], self.events.index(found[0]) + 1
            time.sleep(0.02)
        return None, after


def write_slowly(path, text):
    """Writes in place, as some editors do."""
    with open(path, "w") as f:
        f.write(text)


def write_by_rename(path, text):
    tmp = path + ".tmp~"
    with open(tmp, "w") as f:
        f.write(text)
    os.rename(tmp, path)


def tree(folder):
    out = {}
    for base, _, files in os.walk(folder):
        for name in files:
            full = os.path.join(base, name)
            rel = os.path.relpath(full, folder)
            if name.startswith(".rowkit-lock"):
                continue
            with open(full, "rb") as f:
                out[rel] = f.read()
    return out


def row_file_records(site):
    """Every record of the site's row files, by row."""
    records, n = [], 0
    while os.path.exists(os.path.join(site, f"search/r-{n}.js")):
        text = open(os.path.join(site, f"search/r-{n}.js"), encoding="utf-8").read()
        records += json.loads(text[text.index("[", text.index('"r-')):text.rindex(")")])
        n += 1
    return records


def same_records(site, change, name):
    """The records a changeset carried are the ones the export then wrote (the server may send
    them before the export, made from the listing)."""
    records = row_file_records(site)
    sent = change["insert"] + change["reload"]
    wrong = [(row, record, records[row] if row < len(records) else None) for row, record, *_ in sent
             if row >= len(records) or records[row] != record]
    check(name, sent and not wrong, wrong[:3])


def resident_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))


def load_test(pid, port):
    """1,000 connections for 10 s with wrk (Debian's): no socket errors and no error responses;
    and the server's memory levels off: after a warm-up round, up to four more rounds of the same
    load, until one grows the server by at most 2 MB. The allocator's per-thread arenas grow for a
    round or two and then stop; a leak of a few hundred bytes per request (tens of thousands of
    requests a round) grows every round by megabytes, so it never levels off."""
    if not shutil.which("wrk"):
        print("skip load test: wrk is not installed (scripts/ensure-deps.sh --test installs it)")
        return
    url = f"http://127.0.0.1:{port}/index.html"
    def run():
        return subprocess.run(["wrk", "-t", "2", "-c", "1000", "-d", "10s", "--timeout", "10s", url],
                              capture_output=True, text=True).stdout
    run()
    time.sleep(1)
    sizes = [resident_kb(pid)]
    outputs = []
    for _ in range(4):
        outputs.append(run())
        time.sleep(1)
        sizes.append(resident_kb(pid))
        if sizes[-1] - sizes[-2] <= 2 * 1024:
            break
    requests = [int(re.search(r"(\d+) requests in", out).group(1)) for out in outputs]
    errors = [out for out in outputs if "Socket errors" in out or "Non-2xx" in out]
    check("1,000 connections for 10 s: requests served", min(requests) > 1000, outputs[-1])
    check("no socket errors and no error responses", not errors, errors[:1])
    check("the server's memory levels off under load (no leak)", sizes[-1] - sizes[-2] <= 2 * 1024, sizes)
    print(f"     load: {requests} requests per 10 s round, server kB after each: {sizes}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rowkit", required=True)
    args = parser.parse_args()
    rowkit = os.path.abspath(args.rowkit)
    work = tempfile.mkdtemp(prefix="rowkit-serve-")
    listing = os.path.join(work, "settings.yaml")
    shutil.copy(os.path.join(ROOT, "Examples/settings.yaml"), listing)
    shutil.copytree(os.path.join(ROOT, "Examples/icons"), os.path.join(work, "icons"))
    os.mkdir(os.path.join(work, "outside"))
    with open(os.path.join(work, "outside/secret.txt"), "w") as f:
        f.write("secret")
    server = subprocess.Popen(
        [rowkit, "serve", "settings.yaml", "-o", "site", "--port", "0"], cwd=work,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        deadline = time.time() + 60
        while time.time() < deadline and port is None:
            line = server.stdout.readline()
            m = re.search(r"at http://127\.0\.0\.1:(\d+)/", line)
            if m:
                port = int(m.group(1))
        check("prints the address it serves", port is not None)
        if port is None:
            return
        threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
        site = os.path.join(work, "site")
        os.symlink(os.path.join(work, "outside"), os.path.join(site, "out"))

        status, headers, body = get(port, "/")
        check("GET / is the site's index page", status == 200 and b"<main" in body, status)
        check("pages load the live script", b'src="/_rowkit/live.js"' in body and b'data-kind="list"' in body)
        with open(os.path.join(site, "index.html"), "rb") as f:
            check("the file on disk has no live script", b"_rowkit" not in f.read())
        status, headers, body = get(port, "/_rowkit/listing.js")
        with open(os.path.join(ROOT, "Templates/assets/listing.js"), "rb") as f:
            check("the row markup's script is served for tables of one page", status == 200 and body == f.read()
                  and headers.get("content-type", "").startswith("text/javascript"), status)
        status, headers, body = get(port, "/index.html", "HEAD")
        check("HEAD answers without a body", status == 200 and body == b"" and int(headers.get("content-length", 0)) > 0)
        status, headers, _ = get(port, "/assets/rowkit.css")
        check("CSS has its content type", status == 200 and headers.get("content-type", "").startswith("text/css"))

        for path in [b"/../settings.yaml", b"/%2e%2e/settings.yaml", b"/.%2e/settings.yaml", b"/assets%2f..%2f..%2fsettings.yaml",
                     b"/assets/..%2f..%2fsettings.yaml", b"/index.html%00.css", b"/%00", b"//etc/passwd", b"/etc/passwd",
                     b"/.rowkit-manifest.json", b"/out/secret.txt", b"/assets/%zz", b"/..", b"/assets/../../settings.yaml",
                     b"http://x/../settings.yaml", b"/assets\\..\\..\\settings.yaml"]:
            status, _, body = raw(port, b"GET " + path + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            check(f"refuses {path.decode()}", status in (400, 404) and b"secret" not in body and b"title: Settings" not in body, status)
        for method in ["POST", "PUT", "DELETE", "PATCH"]:
            status, headers, _ = get(port, "/index.html", method)
            check(f"{method} is not allowed", status == 405 and "GET" in headers.get("allow", ""), status)

        events = Events(port, "table=&since=1")
        hello, seen = events.wait("hello")
        check("the stream starts with hello", hello is not None and hello.get("revision") == 1, hello)

        text = open(listing).read()
        write_slowly(listing, text.replace("text: Wi-Fi", "text: Wi-Fi Network", 1))
        change, seen = events.wait("changeset", seen)
        check("an edit in place sends a changeset", change is not None and change.get("base") == 1, change)
        if change:
            check("the changeset reloads the edited row with its record",
                  any(r[1][1] == "Wi-Fi Network" for r in change["reload"]) and not change["insert"] and not change["delete"], change)
            check("a one-row edit pushes at most 2 KB", len(json.dumps(change)) <= 2048, len(json.dumps(change)))
        exported, seen = events.wait("exported", seen)
        check("then exported, naming the changed detail page", exported is not None and "rows/wifi.html" in exported["details"]["changed"], exported)
        if change:
            same_records(site, change, "the edited row's record is the export's")

        rows = "".join(f"      - id: added-{i}\n        text: Added row {i}\n" for i in range(100))
        text = open(listing).read()
        at = text.index("rows:\n") + len("rows:\n")
        write_by_rename(listing, text[:at] + rows + text[at:])
        change, seen = events.wait("changeset", seen)
        check("100 rows inserted at the top by a rename-save come as one changeset",
              change is not None and [r[0] for r in change["insert"]] == list(range(100)) and change["rows"] == 117, change and change["rows"])
        exported, seen = events.wait("exported", seen)
        if change:
            same_records(site, change, "the inserted rows' records are the export's")

        good = open(listing).read()
        write_slowly(listing, good.replace("title: Settings", "title: [Settings", 1))
        problems, seen = events.wait("problems", seen)
        expected = subprocess.run([rowkit, "validate", "settings.yaml"], cwd=work, capture_output=True, text=True).stderr.strip()
        check("a broken edit sends the problems as validate prints them",
              problems is not None and problems["text"] == expected and problems["problems"], (problems, expected))
        status, _, body = get(port, "/index.html")
        check("the last good site is still served", status == 200 and b"Added row 99" in body)
        os.remove(listing)
        time.sleep(0.3)
        with open(listing, "w") as f:
            f.write(good)
        cleared, seen = events.wait("problems", seen, where=lambda data: data["problems"] == [])
        check("deleting and re-creating the listing is seen and clears the problems", cleared is not None and cleared["problems"] == [], cleared)

        # Quick saves: only the last state counts.
        for i in range(5):
            write_slowly(listing, good.replace("Added row 50", f"Quick {i}", 1))
        time.sleep(1.5)
        status, _, body = get(port, "/index.html")
        check("saves in quick succession: the last state wins", b"Quick 4" in body and b"Quick 3" not in body)
        time.sleep(0.5)

        load_test(server.pid, port)

        os.remove(os.path.join(site, "out"))
        served = tree(site)
        server.send_signal(signal.SIGINT)
        code = server.wait(timeout=30)
        check("Ctrl-C stops it with status 0", code == 0, code)
        check("no lock left", not any(n.startswith(".rowkit-lock") or n.startswith(".site.rowkit") for n in os.listdir(work)), os.listdir(work))
        fresh = os.path.join(work, "fresh")
        subprocess.run([rowkit, "export", "settings.yaml", "-o", fresh, "-q"], cwd=work, check=True)
        exported_tree = tree(fresh)
        differing = sorted(k for k in set(served) | set(exported_tree) if served.get(k) != exported_tree.get(k) and k != ".rowkit-manifest.json")
        check("the served site is what rowkit export writes of the final file", not differing, differing[:5])
    finally:
        if server.poll() is None:
            server.kill()
        shutil.rmtree(work, ignore_errors=True)


main()
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
