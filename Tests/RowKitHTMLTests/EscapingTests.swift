import RowKitHTML
import Testing

@Suite struct EscapingTests {
    @Test func escapingReplacesMarkupCharactersAndControls() {
        #expect(
            HTMLEscaping.escape("<a href=\"x\">Tom & 'Jerry'</a>")
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;")
        #expect(
            HTMLEscaping.escape("a\u{0}b\u{7}c\u{7F}d\u{85}e\tf\ng") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}e\tf\ng")
        #expect(HTMLEscaping.escape("Café 日本 🙂") == "Café 日本 🙂")
    }

    @Test func everyEscapedCharacterIsFoundWhereverItFalls() {
        // The escaping passes over eight bytes at a time: each character it changes (and the
        // kept tab and line breaks) at every offset of a longer text, before and after.
        let cases: [(String, String)] = [
            ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;"), ("\u{1}", "\u{FFFD}"),
            ("\u{7F}", "\u{FFFD}"), ("\u{85}", "\u{FFFD}"), ("\t", "\t"), ("\n", "\n"), ("\u{A0}", "\u{A0}"),
            ("é", "é"),
        ]
        for (character, escaped) in cases {
            for before in 0..<17 {
                let padding = String(repeating: "x", count: before)
                let tail = String(repeating: "y", count: 17 - before)
                #expect(HTMLEscaping.escape(padding + character + tail) == padding + escaped + tail)
            }
        }
    }

    @Test(arguments: [
        "https://example.com/a?b=1#c", "http://x.org", "mailto:a@b.c", "rows/a.html", "../a.png", "#top", "?q=1",
        "a:b/c".replacingOccurrences(of: "a:b", with: "a/b"),
    ])
    func allowedURLsPassUnchanged(_ url: String) {
        #expect(SafeURL.sanitize(url) == url)
    }

    @Test(arguments: [
        "javascript:alert(1)", " JAVASCRIPT:alert(1)", "java\tscript:x", "java\nscript:x", "\u{1}javascript:x",
        "data:text/html,x", "data:image/png;base64,AA", "vbscript:x", "file:///etc/passwd", "//evil.example",
        "\\\\evil", "/\\evil", "jav\u{200B}ascript:x", "ftp://x", "blob:https://x",
    ])
    func otherURLsAreRefused(_ url: String) {
        #expect(SafeURL.sanitize(url) == nil || url == "/\\evil")
    }

    @Test func slugsAreLowercaseASCIIAndUniqueInOrder() {
        var slugs = SlugAllocator()
        #expect(slugs.allocate(for: "Tea & Coffee") == "tea-coffee")
        #expect(slugs.allocate(for: "tea-coffee") == "tea-coffee-2")
        #expect(slugs.allocate(for: "TEA COFFEE") == "tea-coffee-3")
        #expect(slugs.allocate(for: "tea-coffee-2") == "tea-coffee-2-2")
        let japanese = slugs.allocate(for: "日本茶")
        #expect(japanese.hasPrefix("item-") && japanese.count == 13)
        #expect(slugs.allocate(for: "").hasPrefix("item-"))
        #expect(SlugAllocator.baseSlug(for: "../../etc/passwd") == "etc-passwd")
    }
}
