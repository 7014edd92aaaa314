import Foundation
import RowKitBench
import RowKitListing
import Testing

/// Hostile and malformed input: every case ends in diagnostics or a document, never a crash or hang.
struct ListingHostileInputTests {
    private func messages(_ text: String, path: String) -> [String] {
        ListingReader.validate(Data(text.utf8), path: path).map(\.description)
    }

    @Test func whenJSONNestsOneHundredThousandLevels_thenParsingStopsAtTheDepthCap() {
        let text = String(repeating: "[", count: 100_000)
        #expect(messages(text, path: "deep.json") == ["deep.json:1:65: nesting deeper than 64 levels"])
    }

    @Test func whenJSONNestsObjectsTooDeeply_thenTheCapIsReportedAtTheOpeningBrace() {
        let text = String(repeating: #"{"a":"#, count: 70) + "1" + String(repeating: "}", count: 70)
        #expect(messages(text, path: "deep.json") == ["deep.json:1:321: nesting deeper than 64 levels"])
    }

    @Test func whenYAMLNestsOneHundredThousandFlowLevels_thenTheCapIsReportedBeforeComposing() {
        // libyaml's scanner reads flow collections ahead and stops at its own limit (1000) before
        // the first event; either way the message is the same and nothing is composed.
        let text = String(repeating: "[", count: 100_000)
        let result = messages(text, path: "deep.yaml")
        #expect(result.count == 1)
        #expect(result.first?.hasSuffix(": nesting deeper than 64 levels") == true, "\(result)")
    }

    @Test func whenYAMLNestsBlockSequencesTooDeeply_thenTheCapIsReported() {
        let text = (0..<100).map { String(repeating: "  ", count: $0) + "-" }.joined(separator: "\n") + " x\n"
        let result = messages(text, path: "deep.yaml")
        #expect(result.count == 1)
        #expect(result.first?.hasSuffix("nesting deeper than 64 levels") == true)
    }

    @Test func whenAYAMLAliasBombHasNineLevels_thenEveryAliasIsRejectedWithoutExpanding() {
        var lines = [#"a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]"#]
        for level in 1...9 {
            lines.append(
                "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ",") + "]")
        }
        lines.append("sections: [{rows: [{text: *a9}]}]")
        let result = messages(lines.joined(separator: "\n"), path: "bomb.yaml")
        #expect(result.count == 9 * 9 + 1)
        #expect(result.last == "bomb.yaml:11:27: aliases are not supported in listings (found '*a9')")
    }

    @Test func whenAYAMLMergeKeyUsesAnAlias_thenItIsRejectedAtTheAlias() {
        let text = "base: &b {style: value1}\nsections:\n  - rows:\n      - <<: *b\n        text: A\n"
        #expect(messages(text, path: "m.yaml") == ["m.yaml:4:13: aliases are not supported in listings (found '*b')"])
    }

    @Test func whenAYAMLTextIsAHugeNumber_thenItIsTakenAsLiteralText() throws {
        let document = try ListingReader.read(
            Data("sections:\n  - rows:\n      - text: 1e999\n      - text: -.nan\n".utf8), path: "n.yaml")
        #expect(document.allRows.map(\.text) == ["1e999", "-.nan"])
    }

    @Test(arguments: ["-1", ".nan", "-.inf", "1e999", "99999999999999999999", "0x1F", "1.5"])
    func whenTheVersionIsNotOne_thenItIsUnsupported(version: String) {
        let result = messages("version: \(version)\nsections: [{rows: []}]\n", path: "v.yaml")
        #expect(result == ["v.yaml:1:10: unsupported version \(version); only version 1 is supported"])
    }

    @Test func whenAJSONNumberIsHugeOrNegative_thenTheVersionIsUnsupportedWithoutOverflow() {
        #expect(
            messages(#"{"version": -99999999999999999999999e99999, "sections": [{}]}"#, path: "v.json")
                == ["v.json:1:13: unsupported version -99999999999999999999999e99999; only version 1 is supported"])
    }

    @Test(arguments: ["yaml", "json", "csv"])
    func whenACellHoldsTenMegabytes_thenItIsReadWhole(format: String) throws {
        let big = String(repeating: "x", count: 10 * 1024 * 1024)
        let text: String
        switch format {
        case "yaml": text = "sections:\n  - rows:\n      - text: A\n        body: \(big)\n"
        case "json": text = #"{"sections": [{"rows": [{"text": "A", "body": ""# + big + #""}]}]}"#
        default: text = "text,body\nA,\"\(big)\"\n"
        }
        let document = try ListingReader.read(Data(text.utf8), path: "big.\(format)")
        #expect(document.allRows.first?.body?.utf8.count == big.utf8.count)
    }

    @Test(arguments: ["yaml", "json", "csv"])
    func whenOneValueExceedsTheValueLimit_thenItIsRefusedAtItsStart(format: String) {
        let big = String(repeating: "x", count: ListingLimits.maxValueSize + 1)
        let text: String
        let expected: String
        switch format {
        case "yaml":
            text = "sections:\n  - rows:\n      - text: A\n        body: \(big)\n"
            expected = "big.yaml:4:15: a value longer than the 64 MiB limit"
        case "json":
            text = #"{"sections": [{"rows": [{"text": "A", "body": ""# + big + #""}]}]}"#
            expected = "big.json:1:47: a value longer than the 64 MiB limit"
        default:
            text = "text,body\nA,\"\(big)\"\n"
            expected = "big.csv:2:3: a value longer than the 64 MiB limit"
        }
        #expect(ListingReader.validate(Data(text.utf8), path: "big.\(format)").map(\.description) == [expected])
    }

    @Test func whenYAMLHoldsARawNULOrControlCharacter_thenLibyamlsErrorIsReportedAtIt() {
        let result = ListingReader.validate(Data("sections:\n  - rows: [\u{0}]\n".utf8), path: "nul.yaml").map(
            \.description)
        #expect(result.count == 1)
        #expect(result.first == "nul.yaml:2:12: invalid YAML: control characters are not allowed")
    }

    @Test func whenJSONEscapesAreInvalid_thenTheEscapeIsReported() {
        #expect(
            messages(#"{"title": "\ud800"}"#, path: "e.json") == [
                #"e.json:1:12: invalid \u escape: unpaired surrogate"#
            ])
        #expect(messages(#"{"title": "\x"}"#, path: "e.json") == [#"e.json:1:12: invalid escape '\x'"#])
        #expect(
            messages(#"{"title": 012}"#, path: "e.json") == [
                "e.json:1:11: invalid number: leading zeros are not allowed"
            ])
        #expect(messages(#"{"title": tru}"#, path: "e.json") == ["e.json:1:11: invalid literal; expected 'true'"])
        #expect(messages(#"{"a": 1} x"#, path: "e.json") == ["e.json:1:10: unexpected 'x' after the JSON value"])
    }

    @Test func whenJSONEscapesAreValid_thenTheyDecode() throws {
        let json = #"{"sections": [{"rows": [{"text": "\u00e9\ud83d\ude00\n\"\/"}]}]}"#
        #expect(try ListingReader.read(Data(json.utf8), path: "e.json").allRows.first?.text == "é😀\n\"/")
    }

    @Test func whenAStringFieldHoldsANULByte_thenItIsRejected() {
        #expect(
            messages(#"{"sections": [{"rows": [{"text": "a\u0000b"}]}]}"#, path: "z.json")
                == ["z.json:1:34: 'text' contains a NUL character"])
    }

    @Test func whenTooManyProblemsAreFound_thenTheListIsCappedWithANote() {
        let rows = String(repeating: "{},", count: 500)
        let result = messages(#"{"sections": [{"rows": ["# + rows + "{}]}]}", path: "many.json")
        #expect(result.count == ListingLimits.maxDiagnostics + 1)
        #expect(result.last?.hasSuffix("301 more problems not shown (limit 200)") == true)
    }

    @Test func whenACSVHeaderHasMoreColumnsThanTheLimit_thenItIsRefusedAtTheFirstColumnOverIt() {
        let limit = ListingLimits.maxColumns
        // "text" then ",c" for every other column: column limit + 1 starts at 5 + 2 * (limit - 1) + 1.
        let header = "text" + String(repeating: ",c", count: limit) + "\n"
        #expect(
            messages(header + "a" + String(repeating: ",x", count: limit) + "\n", path: "wide.csv") == [
                "wide.csv:1:\(5 + 2 * (limit - 1) + 1): the header has more than \(limit) columns; "
                    + "a CSV listing may have at most \(limit)"
            ])
        // A header of exactly the limit is read.
        let names = (1..<limit).map { ",c\($0)" }.joined()
        let row = "a" + String(repeating: ",x", count: limit - 1)
        #expect(messages("text" + names + "\n" + row + "\n", path: "wide.csv") == [])
    }

    @Test func whenACSVHeaderRepeatsAColumnThousandsOfTimes_thenTheReportIsCappedWithANote() {
        let result = messages(
            "text" + String(repeating: ",body", count: 5_000) + "\na" + String(repeating: ",", count: 5_000) + "\n",
            path: "dup.csv")
        #expect(result.count == ListingLimits.maxDiagnostics + 1)
        #expect(result.first == "dup.csv:1:11: duplicate column 'body' in the header")
        #expect(result.last == "dup.csv:1:1006: 4799 more problems not shown (limit 200)")
    }

    @Test func whenAColumnIsMissingFromAWideHeader_thenTheMessageListsTheFirstTwentyColumns() {
        let header = (0..<30).map { "c\($0)" }.joined(separator: ",")
        let result = messages(header + "\n" + String(repeating: ",", count: 29) + "\n", path: "w.csv")
        let listed = (0..<20).map { "'c\($0)'" }.joined(separator: ", ")
        #expect(
            result == ["w.csv:1:1: the text column 'text' is not in the header; the header has: \(listed), and 10 more"]
        )
    }
}

/// The package's seeded generator, so randomized tests reproduce exactly.
typealias SeededRandom = SplitMix64
