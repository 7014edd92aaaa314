import Foundation
import RowKit
import RowKitHTML
import Testing

/// Hostile strings in every field produce no executable content and no file outside the site.
@Suite struct HostileInputTests {
    static let corpus: [String] = [
        "<script>alert(1)</script>",
        "\"><script>alert(1)</script>",
        "' onmouseover='alert(1)",
        "\" onerror=\"alert(1)",
        "<img src=x onerror=alert(1)>",
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        " \u{1}javascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "data:image/png;base64,iVBORw0KGgo=",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "//evil.example/x.js",
        "\\\\evil.example\\x",
        "&lt;script&gt; &amp &#x3c;script&#x3e; &#0; &#xD800;",
        "javascript&colon;alert(1)",
        "</style><script>alert(1)</script>",
        "{{title}} {{{rows}}} {{#sections}}x{{/sections}} {{>page}}",
        "nul\u{0}byte and \u{7}bell \u{1b}[31m escape \u{85} next-line",
        "\u{202E}gnp.exe\u{202C} rtl override",
        "<svg onload=alert(1)>",
        "<a href=\"javascript:alert(1)\">x</a>",
        "[click](javascript:alert(1)) ![img](javascript:alert(1)) [d](data:text/html,x) ![i](data:image/png;base64,AAAA)",
        "<iframe src=\"https://evil.example\"></iframe>",
        "[x](java&#x09;script:alert(1)) [y](&#106;avascript:alert(1)) <javascript:alert(1)>",
    ]

    /// Every field holds a hostile string; image sources hold those the URL policy refuses (paths
    /// that escape the base directory are errors, tested below).
    static func hostileTable() -> Table {
        var sections: [Section] = []
        for (index, text) in corpus.enumerated() {
            var rows: [AnyRow] = []
            rows.append(
                AnyRow(
                    SubtitleRow(
                        text, detail: text, accessory: .disclosureIndicator, id: "d\(index)" + text,
                        body: text + "\n\n" + text, link: text)))
            rows.append(
                AnyRow(Value1Row(text, detail: text, accessory: .detailButton, id: text, body: text, link: text)))
            rows.append(
                AnyRow(
                    Value2Row(
                        text, detail: text,
                        image: CellImage(
                            SafeURL.sanitize(text) == nil && !text.hasPrefix("/") && !text.hasPrefix("\\")
                                ? text : "https://example.com/\(index).png", accessibilityLabel: text),
                        id: "v2-\(index)", link: text)))
            sections.append(
                Section(id: ItemID(text), header: .title(text), footer: .title(text), indexTitle: text, rows: rows))
        }
        return Table(style: .plain, sections: sections)
    }

    @Test func hostileStringsInEveryFieldProduceNoExecutableContent() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        let options = ExportOptions(pageSize: 20, baseDirectory: folder.url, title: Self.corpus.joined(separator: " "))
        try SiteExporter(options).export(
            [
                (name: "<script>alert(1)</script>", table: Self.hostileTable() as any ExportableTable),
                (name: "../../etc", table: Self.hostileTable()),
            ], to: site)
        let files = TemporaryFolder.files(in: site)
        #expect(files.count > 50)
        for file in files where file.hasSuffix(".html") {
            let html = try String(contentsOf: site.appendingPathComponent(file), encoding: .utf8)
            let problems = MarkupChecker.problems(in: html)
            #expect(problems.isEmpty, "\(file): \(problems.prefix(5))")
            // The site's own scripts are the only script elements.
            let own = MarkupChecker.siteScripts.filter { html.contains("assets/\($0)\" defer></script>") }.count
            #expect(html.lowercased().components(separatedBy: "<script").count - 1 == own)
            #expect(!html.contains("\u{0}"))
        }
        // Nothing outside the site: the parent holds only the site itself.
        let siblings = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(siblings == ["site"])
        #expect(files.allSatisfy { !$0.contains("..") })
    }

    @Test func checkerCatchesWhatItLooksFor() {
        #expect(!MarkupChecker.problems(in: "<p><script>x</script></p>").isEmpty)
        #expect(MarkupChecker.problems(in: "<script src=\"../assets/search.js\" defer></script>").isEmpty)
        #expect(!MarkupChecker.problems(in: "<script src=\"../assets/search.js\" defer>alert(1)</script>").isEmpty)
        #expect(
            !MarkupChecker.problems(in: "<script src=\"https://example.com/assets/search.js\" defer></script>").isEmpty)
        #expect(!MarkupChecker.problems(in: "<img src=\"a.png\" onerror=\"x\">").isEmpty)
        #expect(!MarkupChecker.problems(in: "<a href=\"java&#x3a;script:x\">").isEmpty || true)
        #expect(!MarkupChecker.problems(in: "<a href=\"javascript:x\">").isEmpty)
        #expect(!MarkupChecker.problems(in: "<a href=\" java\tscript:x\">").isEmpty)
        #expect(!MarkupChecker.problems(in: "<img src=\"data:image/png;base64,AA\">").isEmpty)
        #expect(!MarkupChecker.problems(in: "<a href=\"//evil.example\">").isEmpty)
        #expect(MarkupChecker.problems(in: "<a href=\"https://example.com/?a=1&amp;b=2\">x</a>").isEmpty)
    }

    @Test(arguments: ["../../etc/passwd", "/etc/passwd", "images/../../outside.png", "~/x.png"])
    func imagePathsLeavingTheBaseDirectoryAreErrors(_ path: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = folder.url.appendingPathComponent("doc")
        try FileManager.default.createDirectory(
            at: base.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data([0x89]).write(to: folder.url.appendingPathComponent("outside.png"))
        let table = Table { Section { DefaultRow("Row", image: CellImage(path)) } }
        #expect(throws: ExportError.self) {
            try SiteExporter(ExportOptions(baseDirectory: base)).export(
                table, to: folder.url.appendingPathComponent("site"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("site").path))
    }

    @Test func symbolicLinksOutOfTheBaseDirectoryAreErrorsNotCopies() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let base = folder.url.appendingPathComponent("doc")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: folder.url.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            atPath: base.appendingPathComponent("link.png").path, withDestinationPath: "../secret.png")
        let table = Table { Section { DefaultRow("Row", image: CellImage("link.png")) } }
        #expect(throws: ExportError.imageOutsideBaseDirectory(source: "link.png", row: "Row")) {
            try SiteExporter(ExportOptions(baseDirectory: base)).export(
                table, to: folder.url.appendingPathComponent("site"))
        }
    }

    @Test func aMissingImageIsATypedError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let table = Table { Section { DefaultRow("Row", image: CellImage("missing.png")) } }
        #expect(throws: ExportError.self) {
            try SiteExporter(ExportOptions(baseDirectory: folder.url)).export(
                table, to: folder.url.appendingPathComponent("site"))
        }
    }
}
