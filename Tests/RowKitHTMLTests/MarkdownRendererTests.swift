import Testing

@testable import RowKitHTML

/// The exporter's fast paths give exactly what the general paths give.
@Suite struct MarkdownRendererTests {
    static let urls = [
        "https://example.com/a?b=1#c", "HTTPS://X", "Mailto:a@b.c", "http:x", "rows/a.html", "../a.png", "#top", "?q=1",
        "",
        "   ", " https://x ", "javascript:alert(1)", " JAVASCRIPT:alert(1)", "java\tscript:x", "java\nscript:x",
        "\u{1}javascript:x", "data:text/html,x", "vbscript:x", "file:///etc/passwd", "//evil.example", "\\\\evil",
        "/\\evil",
        "\\/evil", "jav\u{200B}ascript:x", "ftp://x", "blob:https://x", "a\u{7F}b", "https\u{00A0}:x", "café:x",
        "https:caf\u{E9}",
        "\u{FEFF}https://x", "a/b:c", "a?b:c", "a#b:c", "httpss:x", "http", ":x", "\u{C}https://x\u{C}",
    ]

    @Test func byteCheckOfURLsAgreesWithSanitize() {
        for url in Self.urls {
            var text = url
            let allowed = text.withUTF8 { SafeURL.allows(utf8: $0) }
            #expect(allowed == (SafeURL.sanitize(url) != nil), "\(url.debugDescription)")
        }
    }

    @Test func aRendererGivesTheSameHTMLForManyDocumentsOfAnySize() {
        let renderer = Markdown.Renderer()
        let large = String(
            repeating: "A paragraph with *emphasis*, `code` and [a link](https://x.org/\u{7}).\n\n", count: 5_000)
        let documents = [
            "# Hi\n\n*a* **b**", large, "[x](javascript:alert(1)) <https://ok.example> <javascript:x>",
            "plain text only",
            "ctrl \u{1} char", "", large + "[bad](data:x)", "short again",
        ]
        for document in documents + documents.reversed() {
            var html: [UInt8] = []
            renderer.render(document, options: .default, appendingTo: &html)
            #expect(String(decoding: html, as: UTF8.self) == Markdown.render(document))
        }
    }

    @Test func unsafeLinksAreRemovedByTheRendererToo() {
        var html: [UInt8] = []
        Markdown.Renderer().render(
            "[click me](javascript:alert(1)) and <vbscript:x> and [ok](https://example.com)", options: .default,
            appendingTo: &html)
        #expect(
            String(decoding: html, as: UTF8.self)
                == "<p>click me and vbscript:x and <a href=\"https://example.com\">ok</a></p>\n")
    }

    @Test func aDocumentOverTheLimitIsShownAsEscapedPlainText() {
        let options = Markdown.Options(maximumSize: 16)
        #expect(Markdown.render("*short* enough", options: options) == "<p><em>short</em> enough</p>\n")
        #expect(
            Markdown.render("# A <b>title</b> & \u{1}more", options: options)
                == "<pre class=\"plain-text\"># A &lt;b&gt;title&lt;/b&gt; &amp; \u{FFFD}more</pre>\n")
        var html: [UInt8] = []
        Markdown.Renderer().render("*seventeen bytes*", options: options, appendingTo: &html)
        #expect(String(decoding: html, as: UTF8.self) == "<pre class=\"plain-text\">*seventeen bytes*</pre>\n")
    }

    @Test func largeDocumentsRenderedFromManyThreadsGiveTheSameHTML() async {
        let large = String(repeating: "Some *dense* `inline` [markup](https://x.org) here.\n", count: 2_000)
        #expect(large.utf8.count > Markdown.largeDocument)
        let expected = Markdown.render(large)
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { Markdown.render(large) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8 && results.allSatisfy { $0 == expected })
    }
}
