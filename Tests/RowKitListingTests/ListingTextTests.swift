import Foundation
import RowKitListing
import Testing

/// Listing text quoted in a message is printed safely: controls and bidi or invisible formatting
/// characters as `\u{…}` escapes, ordinary text as written.
struct ListingTextTests {
    /// Whether `text` holds no scalar a terminal would act on or hide.
    private func isPrintable(_ text: String) -> Bool {
        !text.unicodeScalars.contains(where: ListingText.needsEscape)
    }

    @Test func whenTextHoldsControls_thenEachIsWrittenAsAnEscape() {
        #expect(ListingText.shown("\u{1B}]0;pwned\u{7}\u{1B}[31mRED") == #"\u{1B}]0;pwned\u{7}\u{1B}[31mRED"#)
        #expect(ListingText.shown("a\u{0}b\tc\nd\u{7F}e\u{85}f\u{9B}") == #"a\u{0}b\u{9}c\u{A}d\u{7F}e\u{85}f\u{9B}"#)
    }

    @Test func whenTextHoldsBidiOrInvisibleFormatting_thenEachIsWrittenAsAnEscape() {
        let scalars: [UInt32] = [
            0x061C, 0x200B, 0x200C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202E, 0x2060, 0x2064, 0x2066,
            0x2069, 0x206F, 0xFEFF,
        ]
        for value in scalars {
            let scalar = Unicode.Scalar(value)!
            let shown = ListingText.shown("x" + String(scalar) + "y")
            #expect(shown == "x\\u{" + String(value, radix: 16, uppercase: true) + "}y")
        }
        // A zero-width joiner on its own is invisible too.
        #expect(ListingText.shown("a\u{200D}b") == #"a\u{200D}b"#)
    }

    @Test func whenTextIsOrdinaryNonASCII_thenItIsKeptAsWritten() {
        for text in ["Café crème", "東京タワー", "👩‍💻 🇫🇷 👍🏽", "मक्ष", "שלום עולם", #"C:\temp"#] {
            #expect(ListingText.shown(text) == text)
        }
    }

    @Test func whenTextIsLong_thenFortyCharactersAreShownThenAnEllipsis() {
        #expect(ListingText.shown(String(repeating: "é", count: 40)) == String(repeating: "é", count: 40))
        #expect(ListingText.shown(String(repeating: "é", count: 41)) == String(repeating: "é", count: 40) + "…")
        #expect(
            ListingText.shown(String(repeating: "\u{1B}", count: 50)) == String(repeating: #"\u{1B}"#, count: 40) + "…")
        // One character of many combining marks is cut too.
        let shown = ListingText.shown("a" + String(repeating: "\u{301}", count: 1000))
        #expect(shown.unicodeScalars.count == ListingText.shownScalars + 1)
        #expect(shown.hasSuffix("…"))
    }

    @Test func whenARowStyleHoldsTerminalEscapes_thenTheMessageShowsThemEscaped() {
        let yaml = #"""
            sections:
              - rows:
                  - text: a
                    style: "\e]0;pwned\a\e[31mRED\e[0m"
            """#
        let messages = ListingReader.validate(Data(yaml.utf8), path: "esc.yaml").map(\.description)
        #expect(
            messages == [
                #"esc.yaml:4:16: unknown row style '\u{1B}]0;pwned\u{7}\u{1B}[31mRED\u{1B}[0m'; expected one of: default, value1, value2, subtitle"#
            ])
        #expect(messages.allSatisfy(isPrintable))
    }

    @Test func whenACSVHeaderHoldsANUL_thenTheHeaderIsListedWithTheNULEscaped() {
        let csv = "text\u{0}x,detail\na,c\n"
        let messages = ListingReader.validate(Data(csv.utf8), path: "nul.csv").map(\.description)
        #expect(
            messages == [
                #"nul.csv:1:1: the text column 'text' is not in the header; the header has: 'text\u{0}x', 'detail'"#
            ])
        #expect(messages.allSatisfy(isPrintable))
    }

    @Test func whenALinkWarningQuotesABidiOverride_thenTheOverrideIsEscaped() {
        let yaml = "sections:\n  - rows:\n      - text: a\n        link: \"javascript:x\\u202Egpj.exe\"\n"
        let summary = ListingReader(Data(yaml.utf8), path: "link.yaml").validate()
        let warnings = summary.warnings.map(\.description)
        #expect(
            warnings == [
                #"link.yaml:4:15: 'link' 'javascript:x\u{202E}gpj.exe' is not a URL rowkit links to (only http:, https:, mailto:, relative paths and #fragments); the row is shown without a link"#
            ])
        #expect(warnings.allSatisfy(isPrintable))
    }

    @Test func whenASyntaxErrorIsAtANonASCIICharacter_thenTheMessageQuotesTheCharacterNotItsFirstByte() {
        func messages(_ text: String, _ path: String) -> [String] {
            ListingReader.validate(Data(text.utf8), path: path).map(\.description)
        }
        let json = #"{"version":1,"sections":[{"rows":[{"text":"a"}]}]}"#
        #expect(messages(json + "é", "t.json") == ["t.json:1:51: unexpected 'é' after the JSON value"])
        #expect(
            messages(json + "\u{202E}", "b.json") == [#"b.json:1:51: unexpected '\u{202E}' after the JSON value"#])
        #expect(
            messages(#"{"sections":[{"rows":[{"text":"a"}]}]漢}"#, "k.json") == [
                "k.json:1:38: expected ',' or '}', found '漢'"
            ])
        #expect(
            messages(#"{"sections":[{"rows":[{"text":"\😀"}]}]}"#, "e.json") == [
                "e.json:1:32: invalid escape: a backslash before '😀'"
            ])
        #expect(
            messages("text,style\n\"a\"é,x\n", "q.csv") == [
                "q.csv:2:4: expected ',' or a line break after the closing quote, found 'é'"
            ])
    }

    @Test func whenAJSONStringHoldsARawControlCharacter_thenTheMessageNamesItAndItsEscape() {
        func message(_ text: String) -> [String] {
            ListingReader.validate(Data(text.utf8), path: "c.json").map(\.description)
        }
        #expect(
            message("{\"title\": \"a\nb\"}") == [
                #"c.json:1:13: a line break in a string (is its closing quote missing?); inside a string write it as \n"#
            ])
        #expect(
            message("{\"title\": \"a\r\nb\"}") == [
                #"c.json:1:13: a line break in a string (is its closing quote missing?); inside a string write it as \r"#
            ])
        #expect(message("{\"title\": \"a\tb\"}") == [#"c.json:1:13: a tab in a string; write it as \t"#])
        #expect(
            message("{\"title\": \"a\u{1B}[31m\"}") == [
                #"c.json:1:13: control character byte 0x1B in a string; write it as \u001B"#
            ])
    }

    @Test func whenAJSONEscapeIsAControlCharacter_thenTheByteIsNamedNotPrinted() {
        let messages = ListingReader.validate(Data("{\"title\": \"\\\u{1B}\"}".utf8), path: "e.json").map(\.description)
        #expect(messages == ["e.json:1:12: invalid escape: a backslash before byte 0x1B"])
    }
}
