#!/usr/bin/env python3
"""Writes a listing that `rowkit generate-example` did not make, for the export benchmarks
(scripts/bench-search.sh): explicit ids, words drawn from a vocabulary of made-up words of
varied length and frequency (a few very common, most rare), and a Markdown body under each row
(emphasis, a link, sometimes a list or code), shown under the row. The same rows are written as
a YAML listing for rowkit and as JSON data for Hugo (the layout of scripts/bench-hugo.sh).

    scripts/varied-listing.py ROWS OUT.yaml OUT.json [SEED]
"""

import itertools
import json
import random
import sys


def vocabulary(generator, size):
    syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qu", "ar", "en", "is", "om", "ul",
                 "bra", "cli", "dro", "fen", "gal", "hex", "jor", "kip", "lum", "mor", "nix", "pel", "rin", "sto", "tav"]
    words = set()
    while len(words) < size:
        words.add("".join(generator.choice(syllables) for _ in range(generator.randint(1, 4))))
    ordered = sorted(words)
    generator.shuffle(ordered)
    return ordered


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    rows, yaml_path, json_path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    generator = random.Random(int(sys.argv[4]) if len(sys.argv) > 4 else 37)
    words = vocabulary(generator, 20000)
    # Zipf-like frequencies: word k is drawn with weight 1 / (k + 1).
    cumulative = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(words))))

    def phrase(count):
        return " ".join(generator.choices(words, cum_weights=cumulative, k=count))

    sections = {}
    for number in range(rows):
        text = phrase(generator.randint(2, 5)).capitalize()
        body = ["%s *%s* %s." % (phrase(generator.randint(3, 9)).capitalize(), phrase(1), phrase(generator.randint(2, 8)))]
        body.append("See [%s](https://example.net/%s/%d) for %s." % (phrase(2), generator.choice(words), number, phrase(3)))
        if generator.random() < 0.4:
            body.append("\n".join("- " + phrase(generator.randint(1, 4)) for _ in range(generator.randint(2, 4))))
        if generator.random() < 0.2:
            body.append("Use `%s` with %s." % (generator.choice(words), phrase(2)))
        row = {"id": "r%07d-%s" % (number, generator.choice(words)), "style": "value1", "text": text,
               "detail": phrase(1).capitalize(), "accessory": "none", "body": "\n\n".join(body)}
        letter = text[0].upper()
        sections.setdefault(letter, []).append(row)
    ordered = [{"header": "Words in " + letter, "index": letter, "rows": sections[letter]} for letter in sorted(sections)]
    with open(json_path, "w", encoding="utf-8") as handle:
        json.dump({"version": 1, "title": "Varied rows (%d)" % rows, "style": "plain", "sections": ordered}, handle)
    with open(yaml_path, "w", encoding="utf-8") as out:
        out.write("version: 1\ntitle: \"Varied rows (%d)\"\nstyle: plain\nsections:\n" % rows)
        for section in ordered:
            out.write("  - header: %s\n    index: %s\n    rows:\n" % (json.dumps(section["header"]), json.dumps(section["index"])))
            for row in section["rows"]:
                out.write("      - id: %s\n        style: value1\n        text: %s\n        detail: %s\n        accessory: none\n"
                          % (json.dumps(row["id"]), json.dumps(row["text"]), json.dumps(row["detail"])))
                out.write("        body: |\n")
                for line in row["body"].split("\n"):
                    out.write(("          " + line if line else "") + "\n")


if __name__ == "__main__":
    main()
