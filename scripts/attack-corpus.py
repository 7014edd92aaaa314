#!/usr/bin/env python3
"""The attack corpus: hostile inputs and faults tried against the built `rowkit`, as a user would.

    scripts/attack-corpus.py [--rowkit PATH] [--seed N] [--json FILE] [--verbose]

PATH defaults to .build/release/rowkit (the README's figures come from it); scripts/test.sh runs
the corpus against the debug build. Every case runs the tool as a subprocess in a scratch folder
and is judged on what a user would see:

- crash: killed by a signal we did not send, a status of 128 or more that no signal explains,
  or a stack trace ("Fatal error", "Stack dump", "Program crashed") on standard error;
- clean error: a documented non-zero status (64, 65, 66, 73, 74, 75, or 128 + the signal sent) with
  a message on standard error and no raw error dump ("Error Domain") or internal folder name
  ("rowkit-new", "rowkit-old");
- unclean error: any other failure (status 1, no message, a dump or an internal name);
- write on error: a failed or interrupted run that changed the output folder (a site that was
  there is not byte for byte as before, or a folder that was not there now is), or left a
  temporary folder or lock file beside it;
- executable output: a page of a successful export with a <script> element other than the site's
  own (an empty element whose src is a relative path to assets/NAME.js or assets/NAME.EXT.js),
  an <iframe>, <object> or <embed> element, an on* attribute, or a javascript:, vbscript: or
  data: URL in an href or src;
  a search index file that is not exactly one RowKitSearch.load call with JSON arguments; or a
  file under assets/images that is not a PNG, JPEG, GIF, WebP or AVIF image.

Seeded: the same seed gives the same corpus. Exits 1 when any case is a crash, an unclean error,
a write on error or executable output, or when a case's expectation is not met.
"""

import argparse
import hashlib
import html.parser
import json
import os
import random
import resource
import re
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCUMENTED = {64, 65, 66, 73, 74, 75}
HOSTILE = [
    "<script>alert(1)</script>", "\"><script>alert(1)</script>", "' onmouseover='alert(1)", "\" onerror=\"alert(1)",
    "<img src=x onerror=alert(1)>", "javascript:alert(1)", "JaVaScRiPt:alert(1)", "java\tscript:alert(1)",
    "java\nscript:alert(1)", " \u0001javascript:alert(1)", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)", "file:///etc/passwd", "//evil.example/x.js", "\\\\evil.example\\x",
    "&lt;script&gt; &amp &#x3c;script&#x3e; &#0; &#xD800;", "javascript&colon;alert(1)",
    "</style><script>alert(1)</script>", "{{title}} {{{rows}}} {{#sections}}x{{/sections}} {{>page}}",
    "bell \u0007 escape \u001b[31m next-line \u0085 c1 \u009f", "\u202egnp.exe\u202c rtl override", "<svg onload=alert(1)>",
    "<a href=\"javascript:alert(1)\">x</a>",
    "[click](javascript:alert(1)) ![img](javascript:alert(1)) [d](data:text/html,x) ![i](data:image/png;base64,AAAA)",
    "<iframe src=\"https://evil.example\"></iframe>",
    "[x](java&#x09;script:alert(1)) [y](&#106;avascript:alert(1)) <javascript:alert(1)>", "   ", "\t",
]
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082")


class Corpus:
    def __init__(self, rowkit, seed, verbose):
        self.rowkit = rowkit
        self.random = random.Random(seed)
        self.verbose = verbose
        self.results = []
        self.scratch = tempfile.mkdtemp(prefix="rowkit-attack-")

    # ---------------------------------------------------------------- running and judging

    def case(self, name, arguments, *, cwd=None, output=None, expect=None, signal_after=None, env=None, timeout=120,
             check=None, names_own=False, open_files=None, stdout=None):
        """Runs one case; `output` is the site folder the case may write (checked on error),
        `expect` the set of statuses the case must end with (None: any), `signal_after` a
        (signal, seconds or callable) to send while it runs. `check(stdout, stderr)` must hold
        after the run (what a user's files look like, what reached the terminal); `names_own`
        lets the message name rowkit's own names (a file of the user's that has one);
        `open_files` runs it under that limit (ulimit -n); `stdout` is a path standard output
        goes to instead of a pipe (/dev/full)."""
        self.options = {"check": check, "names_own": names_own, "open_files": open_files, "stdout": stdout}
        cwd = cwd or self.scratch
        site = os.path.join(cwd, output) if output else None
        # A signal sent once the export has swapped its new site in comes too late to stop it: the
        # export ends with 0 and the new site, which is right. The staging folder's name holds the
        # old site while it is emptied after the swap, so a poll starved until then can send it
        # there; such a run is tried again (up to three times) to get one that was stopped.
        attempts = 3 if signal_after else 1
        for attempt in range(attempts):
            status = self.run_case(name, arguments, cwd, site, expect, signal_after, env, timeout,
                                   last=attempt == attempts - 1)
            if status is not None:
                return status

    def run_case(self, name, arguments, cwd, site, expect, signal_after, env, timeout, last):
        """One run of `case`; returns None (and records nothing) when a signal came too late to
        stop the export and this is not the last attempt."""
        before = snapshot(site) if site else None
        beside_before = set(os.listdir(os.path.dirname(site))) if site and os.path.isdir(os.path.dirname(site)) else None
        started = time.monotonic()
        options = self.options
        limit = options["open_files"]
        preexec = (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))) if limit else None
        sink = open(options["stdout"], "wb") if options["stdout"] else subprocess.PIPE
        try:
            process = subprocess.Popen([self.rowkit] + arguments, cwd=cwd, stdin=subprocess.DEVNULL, stdout=sink,
                                       stderr=subprocess.PIPE, env=env, preexec_fn=preexec)
        finally:
            if sink is not subprocess.PIPE:
                sink.close()
        sent = None
        if signal_after:
            number, when = signal_after
            deadline = time.monotonic() + 60
            if callable(when):
                while process.poll() is None and not when() and time.monotonic() < deadline:
                    time.sleep(0.002)
            else:
                time.sleep(when)
            # A list of signals is sent one after the other, 30 ms apart (the status follows the first).
            numbers = list(number) if isinstance(number, (list, tuple)) else [number]
            for index, each in enumerate(numbers):
                if process.poll() is not None:
                    break
                if index:
                    time.sleep(0.03)
                process.send_signal(each)
                sent = sent or each
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate()
        status = process.returncode
        if signal_after and status == 0 and not last:
            return None
        stderr = err.decode("utf-8", "replace")
        verdict = self.judge(status, stderr, sent, names_own=options["names_own"])
        writes = False
        if status != 0 and site is not None:
            after = snapshot(site)
            beside_after = set(os.listdir(os.path.dirname(site))) if os.path.isdir(os.path.dirname(site)) else set()
            leftovers = {n for n in beside_after - (beside_before or set()) if ".rowkit-" in n}
            # What a stopped export wrote is trash that a process of rowkit's removes in the
            # background: it must be gone within a minute.
            deadline = time.monotonic() + 60
            while any(".rowkit-trash-" in n for n in leftovers) and time.monotonic() < deadline:
                time.sleep(0.05)
                leftovers = {n for n in leftovers if os.path.lexists(os.path.join(os.path.dirname(site), n))}
            writes = after != before or bool(leftovers)
        executable = []
        if status == 0 and site is not None and os.path.isdir(site):
            executable = scan_site(site)
        met = expect is None or status in expect
        if options["check"] is not None and not options["check"]((out or b"").decode("utf-8", "replace"), stderr):
            met = False
        self.results.append({
            "name": name, "status": status, "verdict": verdict, "writes_on_error": writes,
            "executable": executable, "expected": met, "seconds": round(time.monotonic() - started, 3),
            "stderr": stderr.strip().splitlines()[:3],
        })
        if self.verbose or verdict in ("crash", "unclean error") or writes or executable or not met:
            print(f"  {name}: exit {status} ({verdict}){' WRITE ON ERROR' if writes else ''}"
                  f"{' EXECUTABLE ' + str(executable[:3]) if executable else ''}{'' if met else ' UNEXPECTED'}"
                  f"\n      {stderr.strip()[:300]}", file=sys.stderr)
        return status

    @staticmethod
    def judge(status, stderr, sent, names_own=False):
        traces = ("Fatal error", "Stack dump", "Program crashed", "Backtrace", "Illegal instruction")
        if any(t in stderr for t in traces):
            return "crash"
        if status < 0:
            return "crash" if -status != sent else "clean error"
        if status == 0:
            return "success"
        if sent is not None and status == 128 + sent:
            return "clean error"
        if status >= 128:
            return "crash"
        leaks = ("Error Domain", "NSCocoaErrorDomain") + (() if names_own else ("rowkit-new", "rowkit-old"))
        if status in DOCUMENTED and stderr.strip() and not any(leak in stderr for leak in leaks):
            return "clean error"
        return "unclean error"

    # ---------------------------------------------------------------- helpers

    def path(self, *parts):
        return os.path.join(self.scratch, *parts)

    def write(self, relative, data):
        full = self.path(relative)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as handle:
            handle.write(data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass"))
        return full

    def fresh(self, name):
        folder = self.path(name)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        return folder

    # ---------------------------------------------------------------- the corpus

    def run(self):
        self.malformed_listings()
        self.mutated_listings()
        self.hostile_fields()
        self.images()
        self.outputs()
        self.inputs()
        self.flags()
        self.faults()
        self.own_names()
        self.written_through()
        self.templates()
        self.messages()
        self.limits()
        self.in_place()

    def malformed_listings(self):
        yaml = {
            "truncated": "version: 1\nsections:\n  - rows:\n      - text: \"unterminated",
            "tab-indent": "version: 1\nsections:\n\t- rows: []\n",
            "duplicate-key": "version: 1\nversion: 1\nsections: []\n",
            "alias-bomb": "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(f"{chr(98+i)}: &{chr(98+i)} [*{chr(97+i)},*{chr(97+i)},*{chr(97+i)},*{chr(97+i)},*{chr(97+i)},*{chr(97+i)},*{chr(97+i)},*{chr(97+i)},*{chr(97+i)}]\n" for i in range(8)),
            "deep-nesting": "x: " + "[" * 100_000 + "]" * 100_000 + "\n",
            "huge-number": "version: 1e999999\nsections: []\n",
            "nan-version": "version: .nan\nsections: []\n",
            "negative-version": "version: -1\nsections: []\n",
            "huge-int": "version: 99999999999999999999999999\nsections: []\n",
            "not-utf8": b"version: 1\ntitle: \xff\xfe\xfd\nsections: []\n",
            "nul-byte": "version: 1\ntitle: a\x00b\nsections: []\n",
            "bom-only": "\ufeff",
            "empty": "",
            "scalar-root": "just a string\n",
            "list-root": "- 1\n- 2\n",
            "sections-not-list": "version: 1\nsections: 5\n",
            "rows-not-list": "version: 1\nsections:\n  - rows: {a: 1}\n",
            "text-is-map": "version: 1\nsections:\n  - rows:\n      - text: {a: 1}\n",
            "unknown-style": "version: 1\nstyle: fancy\nsections: []\n",
            "long-id": "version: 1\nsections:\n  - rows:\n      - {id: " + "i" * 500 + ", text: x}\n",
            "duplicate-ids": "version: 1\nsections:\n  - rows:\n      - {id: a, text: x}\n      - {id: a, text: y}\n",
            "null-everything": "version: ~\ntitle: ~\nsections: ~\n",
            "tags": "version: !!str 1\nsections: !!binary aGVsbG8=\n",
            "anchors-in-rows": "version: 1\nsections:\n  - rows:\n      - &r {text: x}\n      - *r\n",
            "ten-mb-cell": "version: 1\nsections:\n  - rows:\n      - text: \"" + "a" * 10_000_000 + "\"\n",
            "control-chars": "version: 1\nsections:\n  - rows:\n      - text: \"\\u0000\\u0001\\u0085\\u2028\"\n",
        }
        for name, text in yaml.items():
            self.write(f"malformed/{name}.yaml", text)
            self.case(f"yaml/{name}", ["validate", f"malformed/{name}.yaml"], expect={0, 65})
            self.case(f"yaml/{name}/export", ["export", f"malformed/{name}.yaml", "-o", f"out-yaml-{name}", "-q"],
                      output=f"out-yaml-{name}", expect={0, 65})
        json_docs = {
            "truncated": "{\"version\": 1, \"sections\": [",
            "trailing-comma": "{\"version\": 1, \"sections\": [],}",
            "deep": "[" * 200_000 + "]" * 200_000,
            "huge-number": "{\"version\": 1e99999, \"sections\": []}",
            "nan": "{\"version\": NaN, \"sections\": []}",
            "dup-keys": "{\"version\": 1, \"version\": 2, \"sections\": []}",
            "bad-escape": "{\"version\": 1, \"title\": \"\\ud800\", \"sections\": []}",
            "not-utf8": b"{\"version\": 1, \"title\": \"\xc3\x28\", \"sections\": []}",
            "string-root": "\"hello\"",
            "number-root": "1",
            "null-root": "null",
            "empty": "",
            "comments": "// hi\n{\"version\": 1, \"sections\": []}",
            "big-array": "{\"version\": 1, \"sections\": [" + ",".join(["{\"rows\": []}"] * 50_000) + "]}",
            "wrong-types": "{\"version\": \"1\", \"sections\": [{\"rows\": [{\"text\": 5, \"style\": true}]}]}",
        }
        for name, text in json_docs.items():
            self.write(f"malformed/{name}.json", text)
            self.case(f"json/{name}", ["validate", f"malformed/{name}.json"], expect={0, 65})
        csv_docs = {
            "ragged": "text,detail\na,b,c\nd\n",
            "unterminated-quote": "text\n\"abc\n",
            "nul": "text\na\x00b\n",
            "header-only": "text\n",
            "empty": "",
            "no-text-column": "name\nx\n",
            "quote-in-field": "text\nab\"c\n",
            "crlf": "text,detail\r\na,b\r\n",
            "bom": "\ufefftext\na\n",
            "huge-cell": "text\n\"" + "x" * 5_000_000 + "\"\n",
            "many-columns": ",".join(f"c{i}" for i in range(5000)) + ",text\n" + "," * 5000 + "x\n",
            "not-utf8": b"text\n\xff\xfe\n",
        }
        for name, text in csv_docs.items():
            self.write(f"malformed/{name}.csv", text)
            self.case(f"csv/{name}", ["validate", f"malformed/{name}.csv"], expect={0, 65})
        self.case("csv/section-by-missing", ["validate", "malformed/crlf.csv", "--section-by", "nope"], expect={65})
        self.case("format/wrong", ["validate", "--format", "json", os.path.join(ROOT, "Examples/catalogue.csv")], expect={65})

    def mutated_listings(self):
        sources = [os.path.join(ROOT, "Examples", name) for name in ("settings.yaml", "contacts.json", "catalogue.csv")]
        originals = [open(source, "rb").read() for source in sources]
        for index in range(120):
            which = index % 3
            data = bytearray(originals[which])
            for _ in range(self.random.randint(1, 8)):
                if not data:
                    data = bytearray(b"\n")
                kind = self.random.randrange(5)
                position = self.random.randrange(max(len(data), 1))
                if kind == 0:
                    data[position] = self.random.randrange(256)
                elif kind == 1:
                    del data[position:position + self.random.randint(1, 40)]
                elif kind == 2:
                    data[position:position] = bytes(self.random.choice(b"{}[]:,\"'-#&*!|>%@`\n\t \\\x00\xff"))
                elif kind == 3:
                    data = data[:position]
                else:
                    chunk = data[position:position + self.random.randint(1, 200)]
                    data[position:position] = chunk
            suffix = os.path.splitext(sources[which])[1]
            name = f"mutated/m{index:03}{suffix}"
            self.write(name, bytes(data))
            if not os.path.exists(self.path("mutated/icons")):
                shutil.copytree(os.path.join(ROOT, "Examples/icons"), self.path("mutated/icons"))
            extra = ["--section-by", "category", "--id", "sku", "--text", "name"] if suffix == ".csv" else []
            self.case(f"mutated/{index:03}", ["export", name, "-o", f"out-mutated-{index}", "-q"] + extra,
                      output=f"out-mutated-{index}", expect={0, 65})

    def hostile_fields(self):
        shutil.copytree(os.path.join(ROOT, "Examples/icons"), self.path("hostile/icons"))
        for index, text in enumerate(HOSTILE):
            value = json.dumps(text)
            document = (f"{{\"version\": 1, \"title\": {value}, \"sections\": [{{\"header\": {value}, \"footer\": {value}, "
                        f"\"index\": {value}, \"rows\": [{{\"id\": \"a{index}\", \"text\": {value}, \"detail\": {value}, "
                        f"\"body\": {value}, \"link\": {value}, \"accessory\": \"disclosureIndicator\"}}, "
                        f"{{\"id\": \"b{index}\", \"style\": \"subtitle\", \"text\": {value}, \"detail\": {value}, "
                        f"\"body\": {value}, \"link\": {value}}}]}}]}}")
            self.write(f"hostile/h{index:02}.json", document)
            self.case(f"hostile/{index:02}", ["export", f"hostile/h{index:02}.json", "-o", f"out-hostile-{index}", "-q"],
                      output=f"out-hostile-{index}", expect={0, 65})
            self.case(f"hostile/{index:02}/unsafe-html-title", ["export", f"hostile/h{index:02}.json", "-o",
                                                               f"out-hostile-t-{index}", "-q", "--title", text],
                      output=f"out-hostile-t-{index}", expect={0, 65})

    def images(self):
        folder = self.fresh("images")
        os.makedirs(os.path.join(folder, "doc/pics"))
        with open(os.path.join(folder, "doc/pics/ok.png"), "wb") as handle:
            handle.write(PNG)
        with open(os.path.join(folder, "secret.png"), "wb") as handle:
            handle.write(PNG + b"SECRET")
        os.symlink("../../secret.png", os.path.join(folder, "doc/pics/up.png"))
        os.symlink(os.path.join(folder, "secret.png"), os.path.join(folder, "doc/pics/abs.png"))
        os.symlink("loop.png", os.path.join(folder, "doc/pics/loop.png"))
        os.symlink("/dev/zero", os.path.join(folder, "doc/pics/zero.png"))
        os.symlink("ok.png", os.path.join(folder, "doc/pics/inside.png"))
        os.mkfifo(os.path.join(folder, "doc/pics/fifo.png"))
        os.makedirs(os.path.join(folder, "doc/pics/dir.png"))
        with open(os.path.join(folder, "doc/pics/text.png"), "w") as handle:
            handle.write("I am text\n")
        with open(os.path.join(folder, "doc/pics/svg.png"), "w") as handle:
            handle.write("<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>")
        with open(os.path.join(folder, "doc/pics/real.svg"), "w") as handle:
            handle.write("<svg xmlns='http://www.w3.org/2000/svg'/>")
        with open(os.path.join(folder, "doc/pics/empty.png"), "w"):
            pass
        with open(os.path.join(folder, "doc/pics/huge.png"), "wb") as handle:
            handle.write(PNG)
            handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB on paper, nothing on disk
        sources = {
            "ok": ("pics/ok.png", {0}), "inside-link": ("pics/inside.png", {0}), "up-link": ("pics/up.png", {65}),
            "absolute-link": ("pics/abs.png", {65}), "loop": ("pics/loop.png", {65}), "device-link": ("pics/zero.png", {65}),
            "fifo": ("pics/fifo.png", {65}), "folder": ("pics/dir.png", {65}), "text": ("pics/text.png", {65}),
            "svg-named-png": ("pics/svg.png", {65}), "svg": ("pics/real.svg", {65}), "empty": ("pics/empty.png", {65}),
            "huge": ("pics/huge.png", {65}), "dotdot": ("../secret.png", {65}), "absolute": (os.path.join(folder, "secret.png"), {65}),
            "etc-passwd": ("../../../../../../etc/passwd", {65}), "tilde": ("~/x.png", {65}), "missing": ("pics/none.png", {65}),
            "nul": ("pics/ok.png\u0000x", {65}), "javascript": ("javascript:alert(1)", {0, 65}), "data": ("data:image/png;base64,AAAA", {0, 65}),
            "file-url": ("file:///etc/passwd", {0, 65}), "http": ("https://example.com/a.png", {0, 65}), "backslash": ("pics\\ok.png", {65}),
            "query": ("pics/ok.png?x=1#y", {0, 65}), "spaces": ("   ", {0, 65}),
        }
        for name, (source, expected) in sources.items():
            self.write(f"images/doc/{name}.json", json.dumps({"version": 1, "sections": [{"rows": [{"text": name, "image": source}]}]}))
            self.case(f"image/{name}", ["validate", f"doc/{name}.json"], cwd=folder, expect={0, 65})
            self.case(f"image/{name}/export", ["export", f"doc/{name}.json", "-o", f"site-{name}", "-q"], cwd=folder,
                      output=f"site-{name}", expect=expected)
            if os.path.isdir(os.path.join(folder, f"site-{name}")):
                for root, _, files in os.walk(os.path.join(folder, f"site-{name}")):
                    for file in files:
                        with open(os.path.join(root, file), "rb") as handle:
                            if b"SECRET" in handle.read():
                                self.results[-1]["executable"].append(f"secret leaked into {file}")

    def outputs(self):
        folder = self.fresh("outputs")
        listing = os.path.join(ROOT, "Examples/settings.yaml")
        open(os.path.join(folder, "file"), "w").close()
        os.makedirs(os.path.join(folder, "notsite"))
        open(os.path.join(folder, "notsite/mine.txt"), "w").close()
        os.makedirs(os.path.join(folder, "target"))
        os.symlink("target", os.path.join(folder, "link"))
        os.symlink("nowhere/site", os.path.join(folder, "dangling"))
        os.symlink("loop", os.path.join(folder, "loop"))
        os.makedirs(os.path.join(folder, "here"))
        cases = {
            "empty": ("", {64}), "dot": (".", {64}), "dotdot": ("..", {64, 73}), "root": ("/", {64, 73}),
            "proc": ("/proc/site", {73}), "sys": ("/sys/site", {73}), "dev-null": ("/dev/null", {73}),
            "file": ("file", {73}), "file-parent": ("file/site", {73}), "not-a-site": ("notsite", {73}),
            "long-255": ("l" * 255, {0}), "long-256": ("l" * 256, {73}), "long-300": ("n" * 300, {73}),
            "symlink": ("link", {0}), "dangling-symlink": ("dangling", {0}), "symlink-loop": ("loop", {73}),
            "deep-missing": ("a/b/c/d/e/site", {0}), "trailing-slash": ("slash/", {0}), "dot-segments": ("./x/../dots", {73}),
            "unicode": ("sité 🙂", {0}), "newline": ("new\nline", {0}), "dash": ("-site", {0, 64}),
            "input-file": (listing, {73}),
        }
        for name, (output, expected) in cases.items():
            cwd = os.path.join(folder, "here") if name == "dot" else folder
            site = output if output and not output.startswith("/") else None
            self.case(f"output/{name}", ["export", listing, "-o", output, "-q"], cwd=cwd,
                      output=site if name not in ("dot", "dotdot") else None, expect=expected)
        self.case("output/kept-user-files", ["export", listing, "-o", "link", "-q"], cwd=folder, output="link", expect={0})
        if not os.path.islink(os.path.join(folder, "link")):
            self.results[-1]["expected"] = False

    def inputs(self):
        folder = self.fresh("inputs")
        os.mkfifo(os.path.join(folder, "fifo.yaml"))
        os.makedirs(os.path.join(folder, "dir.yaml"))
        for name, path, expected in [
            ("dev-null", "/dev/null", {66}), ("dev-zero", "/dev/zero", {66}), ("dev-random", "/dev/urandom", {66}),
            ("fifo", "fifo.yaml", {66}), ("folder", "dir.yaml", {66}), ("missing", "missing.yaml", {66}),
            ("proc-self", "/proc/self/status", {65, 66}), ("empty-name", "", {64, 66}),
        ]:
            self.case(f"input/{name}", ["validate", path], cwd=folder, expect=expected, timeout=30)
            self.case(f"input/{name}/export", ["export", path, "-o", "site", "-q"], cwd=folder, output="site",
                      expect=expected, timeout=30)

    def flags(self):
        listing = os.path.join(ROOT, "Examples/settings.yaml")
        export = ["export", listing, "-o", "flag-site", "-q"]
        values = ["9223372036854775807", "-9223372036854775808", "99999999999999999999", "0", "-5", "1e3", "", "abc", "--quiet",
                  "nan", "inf"]
        for value in values:
            self.case(f"flag/page-size={value!r}", export + ["--page-size", value], output="flag-site", expect={64})
            self.case(f"flag/progress-delay={value!r}", export + ["--progress-delay", value], output="flag-site",
                      expect={0} if value in ("0", "1e3") else {64})
            self.case(f"flag/items={value!r}", ["bench", "--items", value], expect={64})
            self.case(f"flag/rows={value!r}", ["generate-example", "--rows", value, "-o", self.path("gen.yaml")], expect={64})
        for value in ["1e300", "-1", "3601"]:
            self.case(f"flag/progress-delay={value}", export + ["--progress-delay", value], output="flag-site", expect={64})
        for arguments in (["expot", listing, "-o", "x"], ["export", listing, "--out", "x"], ["export", listing, "-o"],
                          ["export"], ["validate"], ["nope"], ["export", listing, "-o", "x", "--format", "xml"],
                          ["export", listing, "-o", "x", "--table-style", "fancy"], ["bench", "--sweep", "0"],
                          ["bench", "--iterations", "-1"], ["export", listing, "-o", "x", "-qz"]):
            self.case("flag/" + " ".join(a.replace(ROOT, "") for a in arguments), arguments, expect={64})

    def faults(self):
        folder = self.fresh("faults")
        generate = [self.rowkit, "generate-example", "--rows", "30000", "--format", "csv", "-o", os.path.join(folder, "big.csv")]
        subprocess.run(generate, check=True)
        subprocess.run(generate[:3] + ["300"] + generate[4:6] + ["-o", os.path.join(folder, "small.csv")], check=True)
        export = lambda listing: ["export", listing, "-o", "site", "-q", "--section-by", "section", "--page-size", "100"]
        self.case("fault/first-export", export("small.csv"), cwd=folder, output="site", expect={0})
        writing = lambda: os.path.exists(os.path.join(folder, ".site.rowkit-new"))
        # Stopped: at once, saying what it hands to the background removal, with its temporary
        # folder and its lock file gone as the process ends.
        handed_over = lambda out, err: ("is being removed in the background ('" in err and ".site.rowkit-trash-" in err
                                        and not os.path.lexists(os.path.join(folder, ".site.rowkit-new"))
                                        and not os.path.lexists(os.path.join(folder, ".site.rowkit-lock")))
        for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            self.case(f"fault/signal-{number.name}", export("big.csv"), cwd=folder, output="site",
                      signal_after=(number, writing), expect={128 + number}, check=handed_over)
        # A second signal while the export would still be removing thousands of detail pages.
        subprocess.run(generate[:3] + ["20000", "--kind", "bodies", "--detail-pages"] + generate[4:6]
                       + ["-o", os.path.join(folder, "pages.csv")], check=True)
        # Signalled by pages written, not by time: on a fast machine a fixed wait outlasted the export.
        def many_pages():
            try:
                return len(os.listdir(os.path.join(folder, ".site.rowkit-new", "rows"))) >= 2000
            except OSError:
                return False
        self.case("fault/two-signals", export("pages.csv"), cwd=folder, output="site",
                  signal_after=((signal.SIGTERM, signal.SIGTERM), many_pages), expect={143}, check=handed_over)
        # Two at once, five rounds: each waits for the other (both 0) or, with --no-wait, one stops with 75.
        for round in range(5):
            first = subprocess.Popen([self.rowkit] + export("big.csv" if round % 2 else "small.csv"), cwd=folder,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            self.case(f"fault/concurrent-{round}", export("small.csv" if round % 2 else "big.csv") + ["--no-wait"],
                      cwd=folder, expect={0, 75})
            first.wait()
            whole = os.path.exists(os.path.join(folder, "site/index.html")) and os.path.exists(
                os.path.join(folder, "site/.rowkit-manifest.json"))
            self.results.append({"name": f"fault/concurrent-{round}/first", "status": first.returncode,
                                 "verdict": "success" if first.returncode == 0 else "unclean error",
                                 "writes_on_error": not whole, "executable": [], "expected": first.returncode == 0 and whole,
                                 "seconds": 0, "stderr": []})
        # SIGKILL mid-export, then an export that cleans up.
        process = subprocess.Popen([self.rowkit] + export("big.csv"), cwd=folder, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while process.poll() is None and not writing() and time.monotonic() < deadline:
            time.sleep(0.002)
        process.kill()
        process.wait()
        self.case("fault/after-sigkill", export("small.csv"), cwd=folder, output="site", expect={0})
        # The killed export's folder is handed to the background removal, not removed first.
        deadline = time.monotonic() + 60
        while any(".rowkit-trash-" in n for n in os.listdir(folder)) and time.monotonic() < deadline:
            time.sleep(0.05)
        if writing() or any(".rowkit-" in n for n in os.listdir(folder)):
            self.results[-1]["writes_on_error"] = True
        # A full disk: a 2 MB tmpfs, where mounting one is allowed.
        disk = os.path.join(folder, "disk")
        os.makedirs(disk)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", disk],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
        if mounted:
            try:
                self.case("fault/disk-full-first", export("small.csv")[:3] + ["disk/site"] + export("small.csv")[4:], cwd=folder,
                          output="disk/site", expect={0})
                self.case("fault/disk-full", export("big.csv")[:3] + ["disk/site"] + export("big.csv")[4:], cwd=folder,
                          output="disk/site", expect={73})
            finally:
                subprocess.run(["umount", disk])

    def listing_folder(self, name):
        """A fresh folder holding the settings example and its icons."""
        folder = self.fresh(name)
        shutil.copy(os.path.join(ROOT, "Examples/settings.yaml"), os.path.join(folder, "s.yaml"))
        shutil.copytree(os.path.join(ROOT, "Examples/icons"), os.path.join(folder, "icons"))
        return folder

    def own_names(self):
        """Files and folders of the user's named as rowkit's own beside a site: kept as they are."""
        folder = self.listing_folder("own-names")
        export = lambda site: ["export", "s.yaml", "-o", site, "-q"]
        os.makedirs(os.path.join(folder, ".c.rowkit-new/deep"))
        with open(os.path.join(folder, ".c.rowkit-new/thesis.txt"), "w") as handle:
            handle.write("x\n")
        with open(os.path.join(folder, ".f.rowkit-lock"), "w") as handle:
            handle.write("mine\n")
        os.makedirs(os.path.join(folder, ".d.rowkit-old"))
        with open(os.path.join(folder, ".d.rowkit-old/notes.txt"), "w") as handle:
            handle.write("y\n")
        os.mkfifo(os.path.join(folder, ".e.rowkit-lock"))
        before = snapshot(folder)
        for site in ("c", "f", "d", "e"):
            self.case(f"own-names/{site}", export(site), cwd=folder, output=site, expect={73}, names_own=True,
                      check=lambda out, err: snapshot(folder) == before)
        # A damaged manifest: named, with how to recover, and nothing changed.
        self.case("own-names/site", export("site"), cwd=folder, output="site", expect={0})
        with open(os.path.join(folder, "site/.rowkit-manifest.json"), "w") as handle:
            handle.write("{\"garbage\n")
        self.case("own-names/damaged-manifest", export("site"), cwd=folder, output="site", expect={73},
                  check=lambda out, err: "is damaged" in err and "To recover" in err)

    def written_through(self):
        """generate-example -o and bench --report write through what is there, or refuse it."""
        folder = self.fresh("written-through")
        path = lambda name: os.path.join(folder, name)
        with open(path("target.yaml"), "w") as handle:
            handle.write("old\n")
        os.symlink("target.yaml", path("link.yaml"))
        with open(path("a.yaml"), "w") as handle:
            handle.write("twin\n")
        os.link(path("a.yaml"), path("b.yaml"))
        os.mkfifo(path("fifo"))
        generate = lambda name: ["generate-example", "--rows", "1", "-o", name]
        self.case("generate/symlink", generate("link.yaml"), cwd=folder, expect={0},
                  check=lambda out, err: os.path.islink(path("link.yaml")) and open(path("target.yaml")).read() != "old\n")
        self.case("generate/hard-link", generate("b.yaml"), cwd=folder, expect={0},
                  check=lambda out, err: os.stat(path("a.yaml")).st_nlink == 2 and open(path("a.yaml")).read() != "twin\n")
        self.case("generate/fifo", generate("fifo"), cwd=folder, expect={73}, timeout=20,
                  check=lambda out, err: stat.S_ISFIFO(os.lstat(path("fifo")).st_mode))
        self.case("generate/folder", generate("."), cwd=folder, expect={73})
        if os.geteuid() == 0:
            os.mknod(path("null"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
            self.case("generate/device", generate("null"), cwd=folder, expect={73},
                      check=lambda out, err: stat.S_ISCHR(os.lstat(path("null")).st_mode))
        os.makedirs(path("report-mine"))
        with open(path("report-mine/index.html"), "w") as handle:
            handle.write("mine\n")
        os.makedirs(path("report-link"))
        os.symlink("../target.yaml", path("report-link/index.html"))
        for name in ("report-mine", "report-link"):
            before = snapshot(path(name))
            self.case(f"bench/{name}", ["bench", "--items", "1000", "--report", name], cwd=folder, expect={73},
                      check=lambda out, err, name=name, before=before: snapshot(path(name)) == before)
        self.case("bench/report-again", ["bench", "--items", "1000", "--report", "report-new", "-q"], cwd=folder, expect={0})
        self.case("bench/report-again-2", ["bench", "--items", "1000", "--report", "report-new", "-q"], cwd=folder,
                  expect={0}, check=lambda out, err: os.listdir(path("report-new")) == ["index.html"])
        # -o with .. after a symbolic link goes through the link; after a missing folder, nowhere.
        os.makedirs(path("real/sub"))
        os.makedirs(path("work"))
        os.symlink("../real/sub", path("work/lnk"))
        listing = os.path.join(ROOT, "Examples/settings.yaml")
        self.case("output/link-dotdot", ["export", listing, "-o", "lnk/../out", "-q"], cwd=path("work"), expect={0},
                  check=lambda out, err: os.path.exists(path("real/out/index.html")) and not os.path.exists(path("work/out")))
        self.case("output/missing-dotdot", ["export", listing, "-o", "nope/../out", "-q"], cwd=path("work"),
                  output="out", expect={73}, check=lambda out, err: not os.path.exists(path("work/nope")))

    def templates(self):
        """Templates that include themselves, nest too deep, or cannot be read."""
        folder = self.listing_folder("templates")
        cases = {
            "self": ({"row": "{{>row}}"}, {65}), "page-page": ({"page": "{{#rows}}{{>page}}{{/rows}}"}, {65}),
            "a-b": ({"row": "{{>a}}", "a": "{{>b}}", "b": "{{>a}}"}, {65}),
            "delimiters": ({"page": "{{=<% %>=}}<%> page %>"}, {65}),
            "deep": ({"row": "{{#a}}" * 100_000 + "{{/a}}" * 100_000}, {65}),
            "not-utf8": ({"row": b"x\n\xff\xfe"}, {66}), "fifo": ({"row": None}, {66}),
            "unknown-name": ({"rwo": "x"}, {0}),
        }
        for name, (files, expected) in cases.items():
            templates = os.path.join(folder, f"t-{name}")
            os.makedirs(templates)
            for template, text in files.items():
                file = os.path.join(templates, template + ".mustache")
                if text is None:
                    os.mkfifo(file)
                    continue
                with open(file, "wb") as handle:
                    handle.write(text if isinstance(text, bytes) else text.encode())
            check = (lambda out, err: "warning: template rwo.mustache" in err) if name == "unknown-name" else None
            self.case(f"template/{name}", ["export", "s.yaml", "-o", f"site-{name}", "-q", "--templates", f"t-{name}"],
                      cwd=folder, output=f"site-{name}", expect=expected, timeout=30, check=check)

    def messages(self):
        """What reaches the terminal: escaped names, failed standard output, odd command lines."""
        folder = self.listing_folder("messages")
        escape = "\x1b[31m"
        shutil.copy(os.path.join(folder, "s.yaml"), os.path.join(folder, f"red{escape}.yaml"))
        with open(os.path.join(folder, f"bad{escape}.csv"), "w") as handle:
            handle.write("text\n\"a\n")
        raw = lambda out, err: "\x1b" not in out and "\x1b" not in err
        self.case("escape/summary", ["export", f"red{escape}.yaml", "-o", f"site{escape}"], cwd=folder, expect={0},
                  check=raw)
        self.case("escape/diagnostic", ["validate", f"bad{escape}.csv"], cwd=folder, expect={65}, check=raw)
        self.case("escape/cannot-read", ["validate", f"gone{escape}.yaml"], cwd=folder, expect={66}, check=raw)
        if os.path.exists("/dev/full"):
            for name, arguments in (("export", ["export", "s.yaml", "-o", "full-site"]),
                                    ("validate", ["validate", "s.yaml"]), ("generate", ["generate-example", "--rows", "10"])):
                self.case(f"stdout-full/{name}", arguments, cwd=folder, expect={74}, stdout="/dev/full",
                          check=lambda out, err: "cannot write to standard output" in err)
        self.case("flag/jobs=-1", ["export", "s.yaml", "-o", "x", "--jobs", "-1"], cwd=folder, expect={64},
                  check=lambda out, err: "--jobs must be between 1 and 256" in err)
        self.case("flag/help nope", ["help", "nope"], cwd=folder, expect={64},
                  check=lambda out, err: "unknown command 'nope'" in err)

    def limits(self):
        """Few open files (ulimit -n): fewer jobs, or a message naming the limit; nothing left."""
        folder = self.listing_folder("limits")
        for limit, expected in ((8, {73}), (12, {73}), (24, {0}), (64, {0})):
            self.case(f"limit/open-files-{limit}", ["export", "s.yaml", "-o", f"site-{limit}", "-q", "--jobs", "8"],
                      cwd=folder, output=f"site-{limit}", expect=expected, open_files=limit,
                      check=lambda out, err, limit=limit: limit > 12 or f"(ulimit -n) is {limit}" in err)

    def in_place(self):
        """Outputs that cannot be replaced whole: a mount point (a tmpfs, where mounting one is
        allowed) and, as the user nobody, a folder of theirs in a folder they cannot write."""
        folder = self.listing_folder("in-place")
        volume = os.path.join(folder, "volume")
        os.makedirs(volume)
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", volume],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
        if mounted:
            try:
                with open(os.path.join(volume, "CNAME"), "w") as handle:
                    handle.write("example.org\n")
                open(os.path.join(volume, ".rowkit-manifest.json"), "w").close()
                kept = lambda out, err: open(os.path.join(volume, "CNAME")).read() == "example.org\n" and not any(
                    name.startswith(".rowkit-") and name != ".rowkit-manifest.json" for name in os.listdir(volume))
                for round in range(2):
                    self.case(f"in-place/mount-point-{round}", ["export", "s.yaml", "-o", "volume", "-q"], cwd=folder,
                              expect={0}, check=lambda out, err: kept(out, err) and os.path.exists(
                                  os.path.join(volume, "index.html")))
                with open(os.path.join(volume, "page-2.html"), "w") as handle:
                    handle.write("mine\n")
                self.case("in-place/mount-point-user-file", ["export", "s.yaml", "-o", "volume", "-q", "--page-size", "2"],
                          cwd=folder, expect={73}, check=lambda out, err: kept(out, err) and open(
                              os.path.join(volume, "page-2.html")).read() == "mine\n")
            finally:
                subprocess.run(["umount", volume])
        setpriv = shutil.which("setpriv")
        if os.geteuid() == 0 and setpriv:
            www = os.path.join(folder, "www")
            os.makedirs(os.path.join(www, "html"))
            os.chown(os.path.join(www, "html"), 65534, 65534)
            for path in (self.scratch, folder, www):
                os.chmod(path, 0o755)
            arguments = ["export", os.path.join(folder, "s.yaml"), "-o", os.path.join(www, "html"), "-q"]
            saved = self.rowkit
            self.rowkit = setpriv
            try:
                for round in range(2):
                    self.case(f"in-place/read-only-parent-{round}",
                              ["--reuid=65534", "--regid=65534", "--clear-groups", saved] + arguments, cwd=folder,
                              expect={0}, check=lambda out, err: os.listdir(www) == ["html"] and os.path.exists(
                                  os.path.join(www, "html/index.html")))
            finally:
                self.rowkit = saved

    # ---------------------------------------------------------------- report

    def report(self):
        total = len(self.results)
        count = lambda verdict: sum(1 for r in self.results if r["verdict"] == verdict)
        writes = sum(1 for r in self.results if r["writes_on_error"])
        executable = sum(1 for r in self.results if r["executable"])
        unmet = [r["name"] for r in self.results if not r["expected"]]
        figures = {
            "inputs_tried": total, "successes": count("success"), "clean_errors": count("clean error"),
            "unclean_errors": count("unclean error"), "crashes": count("crash"), "writes_on_error": writes,
            "executable_output": executable, "unmet_expectations": len(unmet),
        }
        print(f"attack corpus: {total} inputs tried: {figures['successes']} exported or validated, "
              f"{figures['clean_errors']} clean errors, {figures['unclean_errors']} unclean errors, "
              f"{figures['crashes']} crashes, {writes} writes on error, {executable} with executable output"
              f"{', unmet: ' + ', '.join(unmet) if unmet else ''}")
        return figures

    def close(self):
        for root, folders, _ in os.walk(self.scratch):
            for name in folders:
                os.chmod(os.path.join(root, name), 0o755)
        shutil.rmtree(self.scratch, ignore_errors=True)


def snapshot(folder):
    """Every entry under `folder` with a hash of its content (files) or its target (links); None when missing."""
    if not os.path.lexists(folder):
        return None
    if not os.path.isdir(folder):
        return {"": "not a folder"}
    entries = {}
    for root, folders, files in os.walk(folder):
        for name in folders + files:
            full = os.path.join(root, name)
            relative = os.path.relpath(full, folder)
            info = os.lstat(full)
            if stat.S_ISLNK(info.st_mode):
                entries[relative] = "link:" + os.readlink(full)
            elif stat.S_ISREG(info.st_mode):
                with open(full, "rb") as handle:
                    entries[relative] = hashlib.sha256(handle.read()).hexdigest()
            else:
                entries[relative] = "folder" if stat.S_ISDIR(info.st_mode) else "special"
    return entries


class ActiveContent(html.parser.HTMLParser):
    """Collects what a browser would run: script-like elements, on* attributes, and href/src
    values (entities decoded, as a browser decodes them) with an unsafe scheme."""

    OWN_SCRIPT = re.compile(r"(\.\./)*assets/[a-z0-9-]+(\.[a-z0-9]+)?\.js")

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []
        self.in_own_script = False

    def handle_data(self, data):
        if self.in_own_script and data.strip():
            self.found.append("<script> with inline code")

    def handle_endtag(self, tag):
        if tag == "script":
            self.in_own_script = False

    def handle_starttag(self, tag, attributes):
        if tag == "script":
            names = dict(attributes)
            if set(names) <= {"src", "defer", "async"} and self.OWN_SCRIPT.fullmatch(names.get("src") or ""):
                self.in_own_script = True
                return
        if tag in ("script", "iframe", "object", "embed", "frame", "applet", "base", "meta"):
            if tag != "meta" or any(name == "http-equiv" for name, _ in attributes):
                self.found.append(f"<{tag}>")
        for name, value in attributes:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}=")
            if name in ("href", "src", "action", "formaction", "xlink:href", "poster", "srcset") and value:
                cleaned = re.sub(r"[\x00-\x20]", "", value).lower()
                if cleaned.startswith(("javascript:", "vbscript:", "data:")):
                    self.found.append(f"{tag} {name}={value[:20]}")

    handle_startendtag = handle_starttag


def search_file_is_data(data):
    """Whether a search index file is exactly `RowKitSearch.load(<JSON>, <JSON>, <JSON>);`: text
    that broke out of a JSON string would no longer parse as the call's JSON arguments."""
    text = data.decode("utf-8", "replace").strip()
    prefix, suffix = "RowKitSearch.load(", ");"
    if not (text.startswith(prefix) and text.endswith(suffix)):
        return False
    try:
        arguments = json.loads("[" + text[len(prefix):-len(suffix)] + "]")
    except ValueError:
        return False
    return len(arguments) == 3


def scan_site(site):
    """The site's pages with executable content and its images that are not images."""
    found = []
    signatures = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")
    for root, _, files in os.walk(site):
        for name in files:
            full = os.path.join(root, name)
            with open(full, "rb") as handle:
                data = handle.read()
            relative = os.path.relpath(full, site)
            if name.endswith(".html"):
                checker = ActiveContent()
                checker.feed(data.decode("utf-8", "replace"))
                found.extend(f"{relative}: {what}" for what in checker.found)
            if name.endswith(".js") and os.path.basename(os.path.dirname(full)) == "search":
                if not search_file_is_data(data):
                    found.append(f"{relative}: not one RowKitSearch.load call of JSON data")
            if relative.startswith("assets/images/") and not (
                    data.startswith(signatures) or (data[:4] == b"RIFF" and data[8:12] == b"WEBP") or data[4:8] == b"ftyp"):
                found.append(relative)
    return found


def main():
    # The signal cases need rowkit to get SIGHUP and SIGINT as a terminal would send them: a
    # process started with one ignored passes that on, and rowkit rightly keeps it ignored. Under
    # nohup SIGHUP is ignored; in a background job of a shell without job control (`cmd &` in a
    # script, as a CI runner may start it) SIGINT is. With a handler installed here instead, each
    # child starts with the default action.
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rowkit", default=os.path.join(ROOT, ".build/release/rowkit"))
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the figures and every case's result to this file")
    parser.add_argument("--verbose", action="store_true")
    arguments = parser.parse_args()
    if not os.access(arguments.rowkit, os.X_OK):
        sys.exit(f"attack-corpus: no rowkit at {arguments.rowkit}; build it first (swift build -c release)")
    corpus = Corpus(os.path.abspath(arguments.rowkit), arguments.seed, arguments.verbose)
    try:
        corpus.run()
        figures = corpus.report()
        if arguments.json:
            with open(arguments.json, "w") as handle:
                json.dump({"figures": figures, "cases": corpus.results}, handle, indent=1)
    finally:
        corpus.close()
    bad = figures["crashes"] + figures["unclean_errors"] + figures["writes_on_error"] + figures["executable_output"]
    sys.exit(1 if bad or figures["unmet_expectations"] else 0)


if __name__ == "__main__":
    main()
