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
