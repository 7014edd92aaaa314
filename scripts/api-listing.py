#!/usr/bin/env python3
"""Prints a module's public API as sorted, readable text, one declaration a line.

    scripts/api-listing.py MODULE SYMBOLGRAPH-DIR

Reads MODULE.symbols.json and MODULE@*.symbols.json (the module's extensions of other modules'
types) from a folder written by `swift package dump-symbol-graph --minimum-access-level public
--skip-synthesized-members`. scripts/api.sh calls it; api/MODULE.txt is its output.

Each line is a declaration as Swift spells it, with the name qualified by its enclosing types
(`func TableModel.performBatch(_ body: ...) ...`), and the lines are sorted by that qualified name,
so a type is followed by its members. Types list their conformances and superclass
(`struct Changeset: Hashable, Sendable`); conditional conformances and conformances added to
other modules' types are `extension` lines. The marker protocols every type has (Copyable,
Escapable, SendableMetatype) are left out.
"""

import glob
import json
import os
import subprocess
import sys

IMPLIED = {"Swift.Copyable", "Swift.Escapable", "Swift.SendableMetatype"}
TYPE_KINDS = {"swift.class", "swift.struct", "swift.enum", "swift.protocol", "swift.actor"}


def spell(fragments):
    return "".join(fragment["spelling"] for fragment in fragments)


def qualified_declaration(symbol):
    """The declaration with its name prefixed by the enclosing types: `var Table.sections: ...`."""
    fragments = symbol["declarationFragments"]
    parents = symbol["pathComponents"][:-1]
    prefix = "".join(part + "." for part in parents)
    out = ""
    named, opened = False, symbol.get("accessLevel") != "open"
    for fragment in fragments:
        text = fragment["spelling"]
        if not opened and fragment["kind"] == "keyword":
            out, opened = out + "open ", True
        if not named and prefix:
            if fragment["kind"] == "identifier":
                text, named = prefix + text, True
            elif fragment["kind"] == "keyword" and text in ("init", "subscript", "deinit"):
                text, named = prefix + text, True
        elif not named and fragment["kind"] == "identifier":
            named = True
        out += text
    constraints = (symbol.get("swiftExtension") or {}).get("constraints") or []
    where = constraint_text(constraints)
    if where and " where " not in out:
        out += " where " + where
    return out


def with_supertypes(declaration, supertypes):
    """`struct A<T> where T : P` + [Q] -> `struct A<T>: Q where T : P`; a protocol's own
    inheritance clause (`protocol Row : Sendable`) is kept and extended."""
    head, where, tail = declaration.partition(" where ")
    if " : " in head:
        named = head.split(" : ", 1)[1].split(", ")
        missing = [supertype for supertype in supertypes if supertype.split(".")[-1] not in named]
        head += "".join(", " + supertype for supertype in missing)
    else:
        head += ": " + ", ".join(supertypes)
    return head + where + tail


def constraint_text(constraints):
    parts = []
    for constraint in constraints:
        operator = "==" if constraint["kind"] == "sameType" else ":"
        spacing = " == " if operator == "==" else ": "
        parts.append(constraint["lhs"] + spacing + constraint["rhs"])
    return ", ".join(parts)


def short(name, module):
    """`Swift.Sendable` -> `Sendable`; names of other modules stay qualified."""
    for local in ("Swift.", module + "."):
        if name.startswith(local):
            return name[len(local):]
    return name


def demangle(precise):
    """A type's name from its USR (`s:Si` -> `Swift.Int`), for types no symbol here names."""
    if not precise.startswith("s:"):
        return precise
    result = subprocess.run(
        ["swift", "demangle", "--compact", "$s" + precise[2:] + "D"], capture_output=True, text=True)
    name = result.stdout.strip()
    return name if result.returncode == 0 and name else precise


def main():
    module, folder = sys.argv[1], sys.argv[2]
    files = [os.path.join(folder, module + ".symbols.json")]
    files += sorted(glob.glob(os.path.join(folder, module + "@*.symbols.json")))
    symbols, relationships = {}, []
    for path in files:
        with open(path, encoding="utf-8") as handle:
            graph = json.load(handle)
        for symbol in graph["symbols"]:
            symbols[symbol["identifier"]["precise"]] = symbol
        relationships += graph["relationships"]

    # Names of everything a relationship may point at, ours first.
    names = {}
    for relationship in relationships:
        if "targetFallback" in relationship:
            names.setdefault(relationship["target"], relationship["targetFallback"])
    for precise, symbol in symbols.items():
        names[precise] = module + "." + ".".join(symbol["pathComponents"])

    def name_of(precise):
        if precise not in names:
            names[precise] = demangle(precise)
        return short(names[precise], module)

    supertypes = {}  # type -> [superclass or protocol]
    extensions = []  # (sort key, line)
    for relationship in relationships:
        if relationship["kind"] not in ("conformsTo", "inheritsFrom"):
            continue
        source, target = relationship["source"], relationship["target"]
        if names.get(target, "") in IMPLIED:
            continue
        if source not in symbols and target not in symbols and names.get(target) == "Swift.Sendable":
            continue  # another module's type: the graph repeats that it is Sendable
        # Requirements the type itself states are not conditions of the conformance.
        own = (symbols.get(source, {}).get("swiftGenerics") or {}).get("constraints") or []
        constraints = [c for c in relationship.get("swiftConstraints") or [] if c not in own]
        if source in symbols and not constraints:
            supertypes.setdefault(source, []).append((relationship["kind"], name_of(target)))
        else:
            line = "extension " + name_of(source) + ": " + name_of(target)
            if constraints:
                line += " where " + constraint_text(constraints)
            extensions.append((name_of(source), line))

    lines = []
    for precise, symbol in symbols.items():
        line = qualified_declaration(symbol)
        if symbol["kind"]["identifier"] in TYPE_KINDS and precise in supertypes:
            inherited = sorted({target for kind, target in supertypes[precise] if kind == "inheritsFrom"})
            conformed = sorted({target for kind, target in supertypes[precise] if kind == "conformsTo"})
            line = with_supertypes(line, inherited + [c for c in conformed if c not in inherited])
        lines.append((".".join(symbol["pathComponents"]), line))
    lines += extensions
    for _, line in sorted(set(lines), key=lambda entry: (entry[0].lower(), entry[0], entry[1])):
        print(line)


if __name__ == "__main__":
    main()
