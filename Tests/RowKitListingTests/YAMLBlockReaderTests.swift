import Foundation
import Testing

@testable import RowKitListing

/// ``YAMLReader`` reads the block-style subset of YAML itself and leaves the rest to libyaml: it
/// must give exactly libyaml's events and problems on every document, in the subset or not, and
/// however the input is cut into buffers.
struct YAMLBlockReaderTests {
    /// The events and problems of `text` read by libyaml alone, and by ``YAMLReader`` (and
    /// whether it had to turn to libyaml).
    static func read(_ text: Data, bufferSize: Int = 1 << 20) -> (
        libyaml: [String], reader: [String], usedLibyaml: Bool
    ) {
        func input() -> ListingInput {
            let input = ListingInput(data: text, path: "t.yaml", capacity: bufferSize)
            input.start()
            return input
        }
        func events<Source: ListingEventSource>(_ source: inout Source) -> [String] {
            var events: [String] = []
            while let event = source.next() { events.append("\(event) problems:\(source.hasProblems)") }
            return events
        }
        var plain = YAMLEventReader(input: input(), file: "t.yaml")
        let expected = events(&plain) + ["problems \(plain.finishedProblems())"]
        var reader = YAMLReader(input: input(), file: "t.yaml")
        let actual = events(&reader) + ["problems \(reader.finishedProblems())"]
        return (expected, actual, reader.usesLibyaml)
    }

    /// Checks `text` at several buffer sizes; returns whether the block reader read it whole.
    @discardableResult
    static func check(
        _ text: String, _ comment: Comment? = nil, sourceLocation: Testing.SourceLocation = #_sourceLocation
    )
        -> Bool
    {
        var whole = true
        for size in [1 << 20, 7, 1] {
            let result = read(Data(text.utf8), bufferSize: size)
            #expect(result.reader == result.libyaml, "\(comment ?? "") buffer \(size)", sourceLocation: sourceLocation)
            if result.reader != result.libyaml {
                for (a, b) in zip(result.libyaml, result.reader) where a != b {
                    Issue.record("first difference: libyaml \(a), reader \(b)", sourceLocation: sourceLocation)
                    break
                }
                return false
            }
            whole = whole && !result.usedLibyaml
        }
        return whole
    }

    /// Documents inside the subset: each is read without libyaml, to the same events.
    static let inside: [String] = [
        "a: b\n",
        "a: b",
        "title: x\nsections:\n  - header: A\n    rows:\n      - text: one\n        detail: \"two\"\n",
        "sections:\n  - rows:\n      - text: one\n        body: |\n          ## Heading\n          Some *text*.\n\n          - a\n          - b\n        detail: x\n",
        "a:\n  b: |-\n    line\n    more\n\n\n  c: d\n",
        "a: |\n  one\n\n    indented\n  \n      \n  two\n\n\n# comment\nb: 1\n",
        "a: |\n  last line without a break",
        "a: |-\n  x\n",
        "a: | # comment\n  x\nb: |\n  y\n   \n",
        "# leading comment\n\na: 'it''s'   # trailing\nb: \"q \\\" \\\\ \\n \\t \\u00e9 \\u0000 end\"\nc: plain with # not a comment\n",
        "a: 1\nb: -2\nc: 3.5\nd: .inf\ne: -.inf\nf: true\ng: no\nh: ~\ni: null\nj: 2001-12-14\nk: 0x1F\nl: 1_000\nm: <<\nn: =\n",
        "a: caf\u{E9} \u{65E5}\u{672C}\nb: \"\u{1F600}\"\n",
        "list:\n  - one\n  - two: 2\n    three: 3\n  - \"four\"\n  - |\n    five\n  -   six: 6\n",
        "a.b: 1\nc-d: 2\nE_f9: 3\n",
        "a: x:y\nb: http://example.org/a?b=c#d\nc: a - b\nd: not [flow] inside\n",
        "a: " + String(repeating: "long ", count: 300) + "end\n",
        "deep:\n  a:\n    b:\n      c:\n        - d:\n            - e: 1\n",
        "a: b   \n\n\n",
        "a: b\nc:\n  - 1\n  - 2\nd: e\n",
        "a:\n- 1\n- 2\n", "a:\n- 1\n- 2\nb: c\n",
        "sections:\n- header: A\n  rows:\n  - text: one\n    body: |\n      x\n  - text: two\n- header: B\n  rows:\n  - text: 3\nend: 1\n",
        "a:\n  b:\n  - x: 1\n    y: 2\n  - |\n    lit\n  c: d\ne: f\n",
    ]

    /// Documents outside the subset, right or wrong YAML: libyaml reads each, and the events are
    /// the same.
    static let outside: [String] = [
        "", "\n", "# only a comment\n", "- a\n", "plain\n", "a: b\n---\nc: d\n", "--- \na: b\n", "a: b\n...\n",
        "a:\tb\n", "a: b\r\nc: d\r\n", "a: b\n  continued\n", "a: \"open\n  close\"\n", "a: [1, 2]\n", "a: {b: c}\n",
        "a: &x 1\nb: *x\n", "a: !!str 1\n", "a: >\n  folded\n", "a: |+\n  keep\n\n", "a: |2\n   x\n", "a:\n",
        "a:\nb: 1\n",
        "a: b\na: c\n", "a:\n- 1\nb: 1\nb: 2\n", "a:\n- 1\n - 2\n", "? a\n: b\n", "\"a\": b\n", "a b: c\n", "a: b: c\n",
        "a: b:\n", "a:b\n",
        "a: |\n\n  x\n", "a: |\nb: 1\n", "a: |\n", " a: b\n", "a: b\n  c: d\n", "a:\n  b: 1\n c: 2\n", "a: \"x\" y\n",
        "a: 'x'y\n", "a: \"\\x41\"\n", "a: \"\\ud800\"\n", "a: \"x\"#c\n", "a: -x\n", "a: - b\n", "a: @x\n", "a: `x`\n",
        "a: %x\n", "- a: b\n", "a:\n  - - x\n", "a:\n  -\n    b: 1\n", "a: \u{85}x\n", "a: x\u{2028}y\n", "a: \u{7F}\n",
        "a: b\n\u{FEFF}c: d\n", "a:\n  b: |\n    x\n   c: 1\n", "a: b # c\n  d\n", "a: 'x\n", "a: \"x\\\"\n",
        "a:\n  - b\n   - c\n", "a: |\n    x\n  y\n", "a:\n    - b\n  - c\n",
    ]

    @Test func documentsInsideTheSubsetAreReadWithoutLibyamlToTheSameEvents() {
        for (index, text) in Self.inside.enumerated() {
            #expect(Self.check(text, "inside \(index): \(text.debugDescription)"), "inside \(index) used libyaml")
        }
    }

    @Test func documentsOutsideTheSubsetGiveLibyamlsEventsAndProblems() {
        for (index, text) in Self.outside.enumerated() {
            #expect(
                !Self.check(text, "outside \(index): \(text.debugDescription)"), "outside \(index) did not use libyaml")
        }
        // A document that leaves the subset late: the events before are the block reader's.
        var long = "title: t\nsections:\n  - rows:\n"
        for index in 0..<500 { long += "      - text: row \(index)\n        detail: \"d\"\n" }
        #expect(!Self.check(long + "      - text: [flow]\n", "late flow"))
        #expect(!Self.check(long + "      - text: a\n        text: b\n", "late duplicate"))
        #expect(!Self.check(long + "      - text: a\n\t\n", "late tab"))
        #expect(Self.check(long, "long"))
    }

    @Test(arguments: ReaderGolden.cases.filter { $0.path.hasSuffix(".yaml") || $0.path.hasSuffix(".yml") })
    func everyYAMLFixtureReadsToLibyamlsEvents(item: ReaderGolden.Case) throws {
        let text = try Data(contentsOf: ReaderGolden.packageRoot.appendingPathComponent(item.path))
        for size in [1 << 20, 5] {
            let result = Self.read(text, bufferSize: size)
            #expect(result.reader == result.libyaml, "\(item.name) buffer \(size)")
        }
    }

    /// A listing of rows with literal block bodies of random lines (blank, indented, comment-like,
    /// with trailing spaces), with `|` or `|-`, the last body at the very end of the input or not.
    static func bodies(_ random: inout SeededRandom) -> String {
        let lines = [
            "## Heading", "Some *text* and a [link](https://example.org).", "", "  indented", "- item", "# hash",
            "   ", "key: colon", "  ", "caf\u{E9}", "\"quoted\"", "'single'", "|", "- [ ] box", "    code",
        ]
        // The rows' sequence indented under its key, or at the key's own column.
        let dash = random.next() % 2 == 0 ? "      " : "    "
        let field = dash + "  "
        var text = "title: Bodies\nsections:\n  - header: \"S\"\n    rows:\n"
        for row in 0..<Int(1 + random.next() % 4) {
            text += dash + "- text: Row \(row)\n" + field + "body: \(random.next() % 3 == 0 ? "|-" : "|")\n"
            text += field + "  " + lines[Int(random.next() % 2)] + "\n"
            for _ in 0..<Int(random.next() % 6) {
                let line = lines[Int(random.next() % UInt64(lines.count))]
                text += (line.isEmpty ? "" : field + "  ") + line + "\n"
            }
            if random.next() % 2 == 0 { text += field + "detail: d\(row)\n" }
        }
        if random.next() % 3 == 0 { text += "footer: end\n" }
        if random.next() % 4 == 0, text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// Seeded random block documents, and each with random small edits (characters YAML gives a
    /// meaning to, line breaks, indentation, lines repeated or dropped): most stay in the subset,
    /// many leave it at any line, and every one reads to libyaml's events.
    @Test func seededRandomDocumentsAndTheirEditsReadToLibyamlsEvents() {
        var generator = RandomListing(seed: 0x5EED_B10C)
        var random = SeededRandom(seed: 0xB10C_2026)
        var wholeCount = 0
        var total = 0
        let inserts = [
            " ", "  ", "\t", ":", ": ", "#", " #", "-", "- ", "\"", "'", "|", "|-", "\n", "\r", "\u{E9}", "\u{85}", "[",
            "{", "&a ", "*a", "!", "?", "\\", "\\u00e9", "\n  ", "a: b\n", "---\n",
        ]
        for index in 0..<1_200 {
            var (_, text) = generator.next(index * 4 + 1)
            if index % 3 == 2 { text = Self.bodies(&random) }
            if index % 2 == 1 {
                var bytes = Array(text.utf8)
                for _ in 0...(Int(random.next() % 3)) {
                    guard !bytes.isEmpty else { break }
                    let at = Int(random.next() % UInt64(bytes.count))
                    switch random.next() % 4 {
                    case 0:
                        bytes.insert(
                            contentsOf: Array(inserts[Int(random.next() % UInt64(inserts.count))].utf8), at: at)
                    case 1: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(random.next() % 4)))
                    case 2:
                        // Repeat or drop the line at `at`.
                        let start = bytes[..<at].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                        let end = bytes[at...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
                        if random.next() % 2 == 0 {
                            bytes.insert(contentsOf: Array(bytes[start..<end]), at: end)
                        } else {
                            bytes.removeSubrange(start..<end)
                        }
                    default:
                        // Indent the line at `at` by one more or one less.
                        let start = bytes[..<at].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
                        if random.next() % 2 == 0 {
                            bytes.insert(0x20, at: start)
                        } else if bytes[start] == 0x20 {
                            bytes.remove(at: start)
                        }
                    }
                }
                text = String(decoding: bytes, as: UTF8.self)
            }
            let size = index % 3 == 0 ? 1 + index % 11 : 1 << 20
            let result = Self.read(Data(text.utf8), bufferSize: size)
            #expect(result.reader == result.libyaml, "document \(index): \(text.debugDescription)")
            total += 1
            if !result.usedLibyaml { wholeCount += 1 }
        }
        // Both paths are taken often.
        #expect(wholeCount > total / 4, "\(wholeCount) of \(total) read without libyaml")
        #expect(wholeCount < total * 3 / 4, "\(wholeCount) of \(total) read without libyaml")
    }
}
