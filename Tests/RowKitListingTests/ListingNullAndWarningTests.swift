import Foundation
import RowKit
import RowKitListing
import Testing

/// `null` means absent for every optional field; data the export will drop is a warning, not an
/// error; a link of only spaces is refused.
struct ListingNullAndWarningTests {
    private func summary(_ text: String, path: String = "/tmp/listing.yaml") -> ListingSummary {
        ListingReader(Data(text.utf8), path: path).validate()
    }

    @Test func whenOptionalFieldsAreNull_thenTheyReadAsAbsent() throws {
        let yaml = """
            version: ~
            title: null
            style: null
            sections:
              - header: ~
                footer: null
                index: ~
                rows:
                  - id: ~
                    text: Wi-Fi
                    style: null
                    detail: ~
                    image: null
                    accessory: ~
                    body: null
                    link: ~
            """
        let document = try ListingReader.read(Data(yaml.utf8), path: "/tmp/nulls.yaml")
        #expect(document.version == ListingDocument.currentVersion)
        #expect(document.title == "nulls" && document.style == .insetGrouped)
        let section = try #require(document.sections.first)
        #expect(section.header == nil && section.footer == nil && section.indexTitle == nil)
        let row = try #require(section.rows.first)
        #expect(!row.hasExplicitID && row.id == "wi-fi")
        #expect(row.style == .default && row.detail == nil && row.image == nil && row.accessory == Accessory.none)
        #expect(row.body == nil && row.link == nil)
    }

    @Test func whenJSONFieldsAreNull_thenTheyReadAsAbsent() throws {
        let json =
            #"{"version": null, "style": null, "sections": [{"header": null, "rows": [{"id": null, "text": "A", "style": null}]}]}"#
        let document = try ListingReader.read(Data(json.utf8), path: "/tmp/nulls.json")
        #expect(document.sections.first?.rows.first?.hasExplicitID == false)
        #expect(document.sections.first?.rows.first?.style == .default)
    }

    @Test func whenTheRequiredTextIsNull_thenItIsStillAnError() {
        let result = summary("sections:\n  - rows:\n      - text: ~\n")
        #expect(
            result.diagnostics.map(\.description) == ["/tmp/listing.yaml:3:15: 'text' must be a string, found null"])
    }

    @Test func whenARowOfStyleDefaultHasADetail_thenItIsAWarningAtTheDetail() {
        let result = summary("sections:\n  - rows:\n      - text: Gift Card\n        detail: $25\n")
        #expect(result.isValid)
        #expect(
            result.warnings.map(\.description) == [
                "/tmp/listing.yaml:4:17: 'detail' is not shown by a row of style 'default'; give the row style value1, value2 or subtitle to show it"
            ])
        #expect(summary("sections:\n  - rows:\n      - {text: A, style: value1, detail: B}\n").warnings.isEmpty)
    }

    @Test func whenALinkHasAnUnsafeScheme_thenItIsAWarningAtTheLink() {
        let result = summary("sections:\n  - rows:\n      - text: A\n        link: \"javascript:alert(1)\"\n")
        #expect(result.isValid)
        #expect(result.warnings.count == 1)
        #expect(result.warnings.first?.location.line == 4 && result.warnings.first?.location.column == 15)
        #expect(result.warnings.first?.message.contains("the row is shown without a link") == true)
        #expect(summary("sections:\n  - rows:\n      - {text: A, link: \"https://example.org\"}\n").warnings.isEmpty)
    }

    @Test func whenABodyIsOverTheMarkdownLimit_thenItIsAWarningAtTheBody() {
        let limit = ListingLimits.maxMarkdownSize
        let result = summary(
            "sections:\n  - rows:\n      - text: A\n        body: \"\(String(repeating: "x", count: limit + 1))\"\n")
        #expect(result.isValid)
        #expect(
            result.warnings.map(\.description) == [
                "/tmp/listing.yaml:4:15: 'body' is 1.0 MiB, over the 1.0 MiB Markdown limit; "
                    + "it is shown as plain text, not rendered as Markdown"
            ])
        let atLimit =
            "sections:\n  - rows:\n      - text: A\n        body: \"\(String(repeating: "x", count: limit))\"\n"
        #expect(summary(atLimit).warnings.isEmpty)
    }

    @Test func whenThereAreManyWarnings_thenTheFirstHundredAreKeptAndAllCounted() {
        var yaml = "sections:\n  - rows:\n"
        for number in 0..<150 { yaml += "      - {text: R\(number), detail: D}\n" }
        let result = summary(yaml)
        #expect(result.warnings.count == 100 && result.warningCount == 150)
        #expect(result.warnings.map(\.location.line) == Array(3..<103))
    }

    @Test func whenALinkIsOnlySpaces_thenTheErrorSaysSoAndWhatToDo() {
        let result = summary("sections:\n  - rows:\n      - text: A\n        link: \"   \"\n")
        #expect(
            result.diagnostics.map(\.description) == [
                "/tmp/listing.yaml:4:15: 'link' is empty or only spaces; give a URL (such as https://example.com/) "
                    + "or leave 'link' out"
            ])
    }

    @Test func whenALinkHoldsAControlCharacter_thenTheErrorQuotesItEscaped() {
        let result = summary("sections:\n  - rows:\n      - text: A\n        link: \"https://a.org/\\tx\"\n")
        #expect(
            result.diagnostics.map(\.description) == [
                #"/tmp/listing.yaml:4:15: 'link' 'https://a.org/\u{9}x' holds a control character; remove it "#
                    + "(write it as %XX if the URL needs it)"
            ])
    }

    @Test func whenAnImageIsATextFileNamedPNG_thenValidationRefusesItAtTheImageField() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "not a picture".write(to: folder.appendingPathComponent("fake.png"), atomically: true, encoding: .utf8)
        let path = folder.appendingPathComponent("listing.yaml").path
        let result = summary("sections:\n  - rows:\n      - text: A\n        image: fake.png\n", path: path)
        #expect(result.diagnostics.count == 1)
        #expect(result.diagnostics.first?.location.line == 4 && result.diagnostics.first?.location.column == 16)
        #expect(result.diagnostics.first?.message.hasPrefix("image 'fake.png' ") == true)
    }
}
