import Foundation
import RowKit
import Testing

@testable import RowKitHTML

/// Words of Markdown bodies in the search index: their text, not their markup or URLs, and the
/// start of a detail page's body text in its row's display data, for the result's excerpt.
@Suite struct SearchBodyTextTests {
    @Test func theTextOfABodyLeavesOutMarkupURLsTagsAndEntities() {
        let markdown = """
            ## Heading *one*
            Some **strong** text with a [link text](https://example.org/hidden "secret title") and \
            ![an icon](img/pathword.png).
            > quoted line
            - first point
            1. numbered
            Visit https://bareurl.example/x or www.wwwword.example now; <span class="tagword">kept</span>
            &amp; &#169; snake_case \\*literal\\*

            ```swiftinfo
            let codeWord = 1
            ```
            [ref]: https://refword.example/
            """
        let text = SearchBodyText.plainText(markdown)
        #expect(
            text
                == "Heading one Some strong text with a link text and an icon . quoted line first point 1. numbered "
                + "Visit or now; kept snake_case *literal* let codeWord = 1")
        let words = Set(SearchText.words(in: text))
        for word in [
            "heading", "strong", "link", "icon", "quoted", "point", "kept", "snake", "case", "literal", "codeword",
        ] {
            #expect(words.contains(word), "\(word)")
        }
        for word in [
            "https", "example", "hidden", "secret", "pathword", "png", "bareurl", "wwwword", "span", "tagword", "amp",
            "169", "swiftinfo", "refword",
        ] {
            #expect(!words.contains(word), "\(word)")
        }
    }

    @Test func theTextIsCutAtACharactersStart() {
        let text = SearchBodyText.plainText(String(repeating: "é", count: 100), limit: 11)
        #expect(text == String(repeating: "é", count: 5))
        #expect(SearchBodyText.plainText("a  b\n\n\nc   ") == "a b c")
    }

    @Test func aRowIsFoundByTheWordsOfItsBodyOnceEach() throws {
        var rows = SearchIndexTests.generated(300)
        rows[250].body = "The **zanzibar** note, see [zanzibar docs](https://quokka.example/). Zanzibar again."
        let manyWords = (0..<50_000).map { "w\($0)" }.joined(separator: " ")
        rows[10].body = manyWords + " " + manyWords
        let (files, _) = try SearchIndexTests.build(rows)
        #expect(try SearchIndexTests.rows(of: "zanzibar", in: files) == [250])
        #expect(try SearchIndexTests.rows(of: "quokka", in: files) == [], "a link's URL is not indexed")
        #expect(try SearchIndexTests.rows(of: "w49999", in: files) == [10], "a repeated word of a long body, once")
        #expect(try SearchIndexTests.rows(of: "note", in: files) == [250])
    }

    @Test func aWordInSomeRowsBodiesOnlyListsTheRowsThatShowItSecond() throws {
        var rows = SearchIndexTests.generated(3)
        rows[0].body = "A quokka lives here. Alpha."
        rows[2].text = "Quokka island"
        let (files, _) = try SearchIndexTests.build(rows)
        let root = try #require(try SearchIndexTests.data(files["t-"]) as? [String: Any])
        let entries = try #require(root["t"] as? [[Any]])
        let quokka = try #require(entries.first { $0[0] as? String == "quokka" })
        #expect(quokka.count == 5 && quokka[1] as? Int == 2 && quokka[2] as? String == "01")
        #expect(quokka[3] as? Int == 1 && quokka[4] as? String == "2", "row 2 shows it, row 0 has it in its body")
        let alpha = try #require(entries.first { $0[0] as? String == "alpha" })
        #expect(alpha.count == 3, "row 0 has Alpha in its text and its body: one list, \(alpha)")
        let lives = try #require(entries.first { $0[0] as? String == "lives" })
        #expect(lives.count == 5 && lives[3] as? Int == 0 && lives[4] as? String == "", "\(lives)")
    }

    @Test func aDetailPagesBodyTextIsInItsRowsDisplayDataAndAnInlineBodysIsNot() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("s")
        let long = String(repeating: "filler words here ", count: 200)
        let table = Table(style: .plain) {
            Section("Only") {
                DefaultRow(
                    "Wi-Fi", accessory: .disclosureIndicator,
                    body: "Connected to **HomeNet** via [router](https://example.org/r). " + long)
                DefaultRow("Inline", body: "Some *inline* text")
                DefaultRow("Plain")
            }
        }
        try SiteExporter(ExportOptions(pageSize: 1)).export(table, to: site)
        let rows = try #require(try OnePageIndexTests.data("r-0", in: site) as? [[Any]])
        let text = try #require(rows[0].count == 8 ? rows[0][7] as? String : nil, "\(rows[0])")
        #expect(text.hasPrefix("Connected to HomeNet via router . filler words here"))
        #expect(text.utf8.count <= SearchBodyText.excerptBytes && text.utf8.count > 900)
        #expect(rows[1].count == 7, "an inline body's text is read from its markup: \(rows[1])")
        #expect(rows[2].count == 4, "no body: no body text")
    }
}
