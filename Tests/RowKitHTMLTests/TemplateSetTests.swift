import Foundation
import Mustache
import Testing

@testable import RowKitHTML

@Suite struct TemplateSetTests {
    /// A context with a value for every key any template reads.
    static var fullContext: [String: Any] {
        [
            "language": "en", "documentTitle": "Doc", "title": "Title", "style": "insetGrouped", "root": "",
            "hasIndex": true, "indexEntries": [["href": "#s", "title": "A"]],
            "sections": "<section>S</section>",
            "back": ["href": "../index.html", "label": "Back"], "backHref": "../index.html", "backLabel": "Back",
            "pagination": [
                "previous": ["href": "index.html"], "next": ["href": "page-3.html"],
                "pages": [
                    ["gap": false, "current": true, "number": "2", "href": "page-2.html"],
                    ["gap": true, "current": false],
                ],
            ],
            "anchor": "s", "header": "Header", "footer": "Footer", "rows": "<li>row</li>",
            "layout": "value1", "isValue1": true, "text": "Text", "detail": "Detail",
            "image": ["src": "a.png", "alt": "A"],
            "href": "x.html", "chevron": true, "checkmark": true, "info": true, "custom": false, "body": "<p>Body</p>",
            "link": "https://example.com", "tables": [["name": "T", "href": "t/index.html", "summary": "1 row"]],
        ]
    }

    @Test func everyBundledTemplateLoadsAndRenders() throws {
        let templates = try TemplateSet()
        #expect(Set(TemplateSet.requiredNames).isSubset(of: Set(templates.names)))
        for name in templates.names {
            let output = templates.render(name, Self.fullContext)
            #expect(!output.isEmpty, "template \(name) rendered nothing")
            #expect(!output.contains("{{"), "template \(name) left a tag")
            #expect(
                MarkupChecker.problems(in: output).filter { !$0.contains("style") }.isEmpty || name == "style.css")
        }
    }

    @Test func aTemplateWithoutTagsRendersAsMustacheRendersIt() throws {
        let templates = try TemplateSet()
        #expect(!templates.literals.isEmpty)
        for (name, text) in templates.literals {
            let parsed = try MustacheTemplate(string: text)
            #expect(templates.render(name, Self.fullContext) == parsed.render(Self.fullContext), "template \(name)")
        }
    }

    @Test func aTagIsFoundAtEveryOffsetAndNothingElseIsOne() {
        // Every text of up to six pieces of `{`, `}`, `x` and `é`, against a plain search.
        let pieces = ["{", "}", "x", "é"]
        var texts = [""]
        var layer = [""]
        for _ in 0..<6 {
            layer = layer.flatMap { text in pieces.map { text + $0 } }
            texts += layer
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let expected = bytes.indices.dropLast().contains {
                bytes[$0] == UInt8(ascii: "{") && bytes[$0 + 1] == UInt8(ascii: "{")
            }
            #expect(TemplateSet.hasTag(text) == expected, "\(text)")
        }
        #expect(TemplateSet.hasTag(String(repeating: "x{", count: 5000) + "{"))
        #expect(!TemplateSet.hasTag(String(repeating: "x{", count: 5000)))
    }

    @Test func aTemplateWithoutTagsIsStillAPartial() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let url = folder.url
        try "plain text\nof two lines\n".write(
            to: url.appendingPathComponent("plain.mustache"), atomically: true, encoding: .utf8)
        try "<pre>\n  {{> plain }}\n</pre>{{{text}}}".write(
            to: url.appendingPathComponent("row.mustache"), atomically: true, encoding: .utf8)
        try "{{=<% %>=}}[<%> style.css%>]".write(
            to: url.appendingPathComponent("section.mustache"), atomically: true, encoding: .utf8)
        let templates = try TemplateSet(customDirectory: url)
        #expect(templates.render("row", ["text": "x"]) == "<pre>\n  plain text\n  of two lines\n</pre>x")
        let css = templates.render("style.css", [:])
        #expect(templates.render("section", [:]) == "[" + css + "]")
        #expect(TemplateSet.partialNames(in: ["a {{ > one }} b {{<two}}{{/two}} {{three}}"]) == ["one", "two"])
        #expect(TemplateSet.partialNames(in: ["{{= | | =}}"]) == nil)
    }

    @Test func aCustomFolderReplacesBundledTemplatesByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try "<li class=\"mine\">{{{text}}}</li>\n".write(
            to: folder.url.appendingPathComponent("row.mustache"), atomically: true, encoding: .utf8)
        let templates = try TemplateSet(customDirectory: folder.url)
        #expect(templates.render("row", ["text": "x"]) == "<li class=\"mine\">x</li>\n")
        #expect(templates.render("section", ["rows": "R"]).contains("R"))  // still the bundled one
    }

    @Test func aBrokenCustomTemplateIsAnErrorNamingIt() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try "{{#open}} never closed".write(
            to: folder.url.appendingPathComponent("page.mustache"), atomically: true, encoding: .utf8)
        #expect {
            _ = try TemplateSet(customDirectory: folder.url)
        } throws: { error in
            guard case ExportError.templateSyntax(let name, _) = error else { return false }
            return name.hasSuffix("page.mustache")
        }
    }
}
