import RowKitHTML
import Testing

@Suite struct MarkdownTests {
    @Test func rendersCommonMark() {
        #expect(Markdown.render("# Hi\n\n*a* **b**") == "<h1>Hi</h1>\n<p><em>a</em> <strong>b</strong></p>\n")
    }

    @Test func nulAndOtherControlCharactersBecomeReplacementCharacters() {
        // NUL in a paragraph, in code and in a link text; C0, DEL and C1 controls; tab and line
        // breaks stay.
        let html = Markdown.render("a\u{0}b \u{1}c\u{7F}d\u{85}e\tf\n\n`x\u{0}y` [l\u{0}](https://example.com)")
        #expect(
            html == "<p>a\u{FFFD}b \u{FFFD}c\u{FFFD}d\u{FFFD}e\tf</p>\n"
                + "<p><code>x\u{FFFD}y</code> <a href=\"https://example.com\">l\u{FFFD}</a></p>\n")
    }

    @Test func aControlCharacterIsReplacedWhereverItFallsInTheHTML() {
        // The search for controls looks at eight bytes at a time: every offset, around tabs and
        // line breaks (below 0x20 but kept) and other bytes that are not replaced.
        for control in ["\u{1}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}"] {
            for before in 0..<17 {
                let text = String(repeating: "a", count: before) + control + "\tb\u{A0}c\u{A5}"
                #expect(
                    Markdown.render(text) == "<p>" + text.replacingOccurrences(of: control, with: "\u{FFFD}") + "</p>\n"
                )
            }
        }
        let clean = "tab\there\nline\u{A0}é\r\n" + String(repeating: "x", count: 13)
        #expect(Markdown.render(clean) == "<p>tab\there\nline\u{A0}é\n" + String(repeating: "x", count: 13) + "</p>\n")
    }

    @Test func rawHTMLIsDroppedByDefault() {
        let html = Markdown.render("<script>alert(1)</script>\n\nText <b onclick=x>bold</b>")
        #expect(!html.contains("<script"))
        #expect(!html.contains("onclick"))
        #expect(html.contains("Text"))
    }

    @Test func unsafeHTMLOptionLetsRawHTMLThrough() {
        let html = Markdown.render("<div class=\"note\">hi</div>", options: Markdown.Options(unsafeHTML: true))
        #expect(html.contains("<div class=\"note\">hi</div>"))
    }

    @Test func unsafeLinksAreRemovedButTheirTextStays() {
        let html = Markdown.render(
            "[click me](javascript:alert(1)) and ![alt text](data:image/png;base64,AA) and [ok](https://example.com)")
        #expect(html == "<p>click me and alt text and <a href=\"https://example.com\">ok</a></p>\n")
    }

    @Test func rawRenderingMatchesTheLengthOfSafeRendering() {
        let markdown = "# Title\n\nSome *text* with a [link](https://example.com)."
        #expect(Markdown.renderRaw(markdown) == Markdown.render(markdown).utf8.count)
    }
}
