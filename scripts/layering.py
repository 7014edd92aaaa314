#!/usr/bin/env python3
"""Checks that each folder of a Swift module uses only the folders listed before it.

    python3 scripts/layering.py            checks every module in MODULES; exit 1 on a violation
    python3 scripts/layering.py --graph    also prints which folder uses which, and through what

Each module's layers are written once, in its documentation: the "## Layers" section of its DocC
landing page (Sources/<Module>/<Module>.docc/<Module>.md), a numbered list whose items start with
the folder's name in backticks, lowest layer first. The check reads that list; every folder of
the module that holds Swift files must be in it, and no Swift file may sit at the module's root.

How "uses" is found (a deliberately simple rule that fits this code base):
  1. The declared types of a folder are the names after `class`, `struct`, `enum`, `protocol`,
     `actor` and `typealias` at the start of a line (top-level declarations; attributes and
     access modifiers before them are allowed). A name declared in two folders is an error.
  2. A file uses a type when the type's name appears in it as a word, outside comments and string
     literals, and not right after a `.` (a member such as `Foo.Kind` is not the top-level `Kind`).
  3. A file in layer i that uses a type declared in layer j > i is a violation.
Not seen: members that an extension in a higher folder adds to a lower folder's type, called from
a lower folder (the rule sees type names only).

KNOWN_EXCEPTIONS lists a violation that stays, with the reason; it is empty, and an entry that no
longer matches a violation is itself reported, so the list never goes stale.
"""

import argparse
import collections
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = ["RowKit", "RowKitListing", "RowKitHTML"]

# (module, "Folder/File.swift", "TypeName") -> why it stays.
KNOWN_EXCEPTIONS: dict[tuple[str, str, str], str] = {}

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)\n]*\))?\s+)*"
    r"(?:(?:public|package|internal|private|fileprivate|final|indirect|nonisolated|open)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)",
    re.M,
)
WORD = re.compile(r"(?<![.\w])([A-Za-z_]\w*)")
LAYER_ITEM = re.compile(r"^\d+\.\s+`([^`]+)`")


def code_only(source: str) -> str:
    """The source with comments and string literals blanked, line breaks kept."""
    out = []
    i, n = 0, len(source)
    blank = lambda text: re.sub(r"[^\n]", " ", text)  # noqa: E731
    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            end = n if end < 0 else end
            out.append(blank(source[i:end]))
            i = end
        elif source.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if source.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif source.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(blank(source[i:j]))
            i = j
        elif source.startswith('"""', i):
            end = source.find('"""', i + 3)
            end = n if end < 0 else end + 3
            out.append(blank(source[i:end]))
            i = end
        elif source[i] == '"':
            j = i + 1
            while j < n and source[j] not in '"\n':
                j += 2 if source[j] == "\\" else 1
            out.append(blank(source[i : j + 1]))
            i = j + 1
        else:
            out.append(source[i])
            i += 1
    return "".join(out)


def read_layers(module: str) -> list[str]:
    """The module's folders, lowest first, from the "## Layers" section of its landing page."""
    page = ROOT / "Sources" / module / f"{module}.docc" / f"{module}.md"
    if not page.exists():
        sys.exit(f"layering: {page.relative_to(ROOT)} is missing; it lists {module}'s layers")
    layers, inside = [], False
    for line in page.read_text().splitlines():
        if line.startswith("## "):
            inside = line.strip() == "## Layers"
            continue
        match = LAYER_ITEM.match(line) if inside else None
        if match:
            layers.append(match.group(1))
    if not layers:
        sys.exit(f"layering: {page.relative_to(ROOT)} has no numbered list under '## Layers'")
    return layers


def check_module(module: str, graph: bool) -> tuple[list[str], set[tuple[str, str, str]]]:
    """The module's violations as messages, and the known exceptions that matched."""
    source_root = ROOT / "Sources" / module
    layers = read_layers(module)
    rank = {folder: index for index, folder in enumerate(layers)}
    problems: list[str] = []
    files: dict[str, str] = {}
    for path in sorted(source_root.rglob("*.swift")):
        relative = path.relative_to(source_root).as_posix()
        if "/" not in relative:
            problems.append(f"Sources/{module}/{relative}: a file at the module's root belongs in a folder")
            continue
        folder = relative.split("/")[0]
        if folder not in rank:
            problems.append(
                f"Sources/{module}/{relative}: folder {folder} is not listed under '## Layers' in "
                f"Sources/{module}/{module}.docc/{module}.md")
            continue
        files[relative] = code_only(path.read_text())
    owner: dict[str, str] = {}
    for relative, code in files.items():
        for match in DECLARATION.finditer(code):
            name = match.group(1)
            if name in owner and owner[name].split("/")[0] != relative.split("/")[0]:
                problems.append(f"Sources/{module}/{relative}: {name} is also declared in {owner[name]}")
            owner.setdefault(name, relative)
    matched: set[tuple[str, str, str]] = set()
    uses: dict[tuple[str, str], set[str]] = collections.defaultdict(set)
    for relative, code in files.items():
        folder = relative.split("/")[0]
        reported: set[str] = set()
        for number, line in enumerate(code.splitlines(), start=1):
            for match in WORD.finditer(line):
                name = match.group(1)
                declared_in = owner.get(name)
                if declared_in is None:
                    continue
                other = declared_in.split("/")[0]
                if other == folder:
                    continue
                uses[(folder, other)].add(name)
                if rank[other] < rank[folder] or name in reported:
                    continue
                reported.add(name)
                key = (module, relative, name)
                if key in KNOWN_EXCEPTIONS:
                    matched.add(key)
                    continue
                problems.append(
                    f"Sources/{module}/{relative}:{number}:{match.start() + 1}: {folder} (layer "
                    f"{rank[folder] + 1}) uses {name}, declared in {declared_in} (layer {rank[other] + 1})")
    if graph:
        print(f"{module}: " + " < ".join(layers))
        for (folder, other), names in sorted(uses.items(), key=lambda item: (rank[item[0][0]], rank[item[0][1]])):
            print(f"  {folder} -> {other}: {', '.join(sorted(names))}")
    return problems, matched


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graph", action="store_true", help="print each folder's uses of the others")
    arguments = parser.parse_args()
    problems: list[str] = []
    matched: set[tuple[str, str, str]] = set()
    for module in MODULES:
        found, seen = check_module(module, arguments.graph)
        problems += found
        matched |= seen
    for key in sorted(set(KNOWN_EXCEPTIONS) - matched):
        problems.append(f"layering: the known exception {key} no longer happens; remove it from KNOWN_EXCEPTIONS")
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(
            f"layering: {len(problems)} problem(s); a folder uses only the folders listed before it "
            "under '## Layers' in its module's landing page", file=sys.stderr)
        return 1
    print(f"layering: {', '.join(MODULES)}: every folder uses only the folders before it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
