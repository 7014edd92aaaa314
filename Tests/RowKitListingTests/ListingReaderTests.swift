import Foundation
import RowKit
import Testing

@testable import RowKitListing

/// Reading valid listings: fields, defaults, identities and format detection.
struct ListingReaderTests {
    private func read(_ name: String, format: ListingFormat? = nil) throws -> ListingDocument {
        let path = ListingFixtures.root.appendingPathComponent(name).path
        return try ListingReader.read(contentsOfFile: path, format: format)
    }

    @Test func whenAYAMLListingIsRead_thenEveryFieldAndLocationIsKept() throws {
        let document = try read("valid/settings.yaml")
        #expect(document.title == "Settings")
        #expect(document.style == .grouped)
        #expect(document.version == 1)
        #expect(document.sections.count == 2)
        let section = try #require(document.sections.first)
        #expect(section.header == "Connectivity")
        #expect(section.footer == "Shown under the section.")
        #expect(section.indexTitle == "C")
        #expect(section.location.line == 5 && section.location.column == 5)
        let wifi = try #require(section.rows.first)
        #expect(wifi.id == "wifi" && wifi.hasExplicitID)
        #expect(wifi.style == .value1)
        #expect(wifi.detail == "HomeNet")
        #expect(wifi.accessory == .disclosureIndicator)
        #expect(wifi.body == "Markdown *body*")
        #expect(wifi.hasDetailPage)
        #expect(wifi.location.line == 9)
        #expect(wifi.fieldLocations[.text]?.line == 11)
        #expect(wifi.fieldLocations[.text]?.column == 15)
    }

    @Test func whenAYAMLPlainScalarLooksLikeANumber_thenATextFieldTakesItLiterally() throws {
        let document = try read("valid/settings.yaml")
        #expect(document.sections[0].rows[2].text == "2024")
        #expect(document.sections[0].rows[1].detail == "On")
    }

    @Test func whenTheSameListingIsReadAsYAMLAndJSON_thenTheDocumentsAgreeExceptForPositions() throws {
        let yaml = try read("valid/settings.yaml")
        let json = try read("valid/settings.json")
        func strip(_ document: ListingDocument) -> [[String]] {
            document.sections.map { section in
                [section.header ?? "", section.footer ?? "", section.indexTitle ?? ""]
                    + section.rows.map { row in
                        [
                            row.id, row.style.rawValue, row.text, row.detail ?? "", row.accessory.rawValue,
                            row.body ?? "", row.link ?? "",
                        ].joined(separator: "|")
                    }
            }
        }
        #expect(strip(yaml) == strip(json))
        #expect(yaml.title == json.title && yaml.style == json.style)
    }

    @Test func whenFieldsAreOmitted_thenDefaultsApply() throws {
        let data = Data(
            "sections:\n  - rows:\n      - text: Hello\n      - text: Docs\n        body: Some *text*\n".utf8)
        let document = try ListingReader.read(data, path: "dir/My Listing.yaml")
        #expect(document.title == "My Listing")
        #expect(document.style == .insetGrouped)
        #expect(document.version == 1)
        let rows = document.sections[0].rows
        #expect(rows[0].style == .default)
        #expect(rows[0].accessory == Accessory.none)
        #expect(rows[1].accessory == .disclosureIndicator)
    }

    @Test func whenIDsAreDerived_thenTheyAreSlugsDisambiguatedInDocumentOrder() throws {
        let yaml = """
            sections:
              - rows:
                  - text: Wi-Fi & Bluetooth
                  - text: Wi-Fi  Bluetooth!
                  - id: wi-fi-bluetooth-3
                    text: Taken explicitly
                  - text: "Café Öl"
                  - text: "!!!"
              - rows:
                  - text: Wi-Fi Bluetooth
            """
        let document = try ListingReader.read(Data(yaml.utf8), path: "ids.yaml")
        #expect(
            document.allRows.map(\.id) == [
                "wi-fi-bluetooth", "wi-fi-bluetooth-2", "wi-fi-bluetooth-3", "café-öl", "row", "wi-fi-bluetooth-4",
            ])
        #expect(document.allRows.map(\.hasExplicitID) == [false, false, true, false, false, false])
    }

    @Test func whenManyRowsShareAText_thenDerivingTheirIDsStaysLinear() {
        var identity = ListingIdentity()
        var last = ""
        for _ in 0..<50_000 { last = identity.derive(from: "Same") }
        #expect(last == "same-50000")
    }

    @Test func whenATextIsLong_thenItsDerivedIDIsCapped() {
        let slug = ListingIdentity.slug(String(repeating: "ab ", count: 1000))
        #expect(slug.unicodeScalars.count <= ListingLimits.maxDerivedIDLength)
        #expect(!slug.hasSuffix("-"))
    }

    @Test func whenTheFormatIsOverridden_thenTheExtensionIsIgnored() throws {
        let data = Data(#"{"sections": [{"rows": [{"text": "A"}]}]}"#.utf8)
        let document = try ListingReader.read(data, path: "listing.txt", format: .json)
        #expect(document.allRows.map(\.text) == ["A"])
    }

    @Test func whenTheExtensionIsUnknownAndNoFormatIsGiven_thenReadingFailsNamingIt() {
        let diagnostics = ListingReader.validate(Data(), path: "listing.txt")
        #expect(
            diagnostics.map(\.description) == [
                "listing.txt:1:1: cannot tell the format from the extension 'txt'; use .yaml, .yml, .json or .csv, or pass a format"
            ])
    }

    @Test(arguments: [("a.yaml", ListingFormat.yaml), ("a.YML", .yaml), ("a.json", .json), ("a.csv", .csv)])
    func whenAPathHasAKnownExtension_thenItsFormatIsDetected(path: String, format: ListingFormat) {
        #expect(ListingFormat(pathExtension: URL(fileURLWithPath: path).pathExtension) == format)
    }

    @Test func whenReadingFails_thenTheErrorPrintsOneDiagnosticPerLine() {
        #expect(throws: ListingError.self) {
            try ListingReader.read(ListingFixtures.data("broken/missing-text.yaml"), path: "m.yaml")
        }
        do {
            _ = try ListingReader.read(ListingFixtures.data("broken/missing-text.yaml"), path: "m.yaml")
        } catch {
            #expect(
                error.description == """
                    m.yaml:4:9: missing required field 'text' in a row
                    m.yaml:6:9: missing required field 'text' in a row
                    """)
        }
    }

    @Test func whenAFileIsMissing_thenReadingFailsWithItsPath() {
        let diagnostics = ListingReader.validate(contentsOf: URL(fileURLWithPath: "/nonexistent/listing.yaml"))
        #expect(diagnostics.map(\.description) == ["/nonexistent/listing.yaml:1:1: cannot open the file"])
    }

    @Test func whenAByteOrderMarkLeadsTheFile_thenItIsIgnored() throws {
        let data = Data([0xEF, 0xBB, 0xBF] + Array(#"{"sections": [{"rows": [{"text": "A"}]}]}"#.utf8))
        #expect(try ListingReader.read(data, path: "bom.json").allRows.count == 1)
    }
}

extension ListingReaderTests {
    @Test func whenThePathIsADirectory_thenItIsRefusedWithoutReading() {
        let diagnostics = ListingReader.validate(contentsOf: URL(fileURLWithPath: "/tmp"), format: .yaml)
        #expect(diagnostics.map(\.description) == ["/tmp:1:1: not a regular file"])
    }

    @Test func whenAYAMLLineIsIndentedWithATab_thenTheErrorSaysToIndentWithSpaces() {
        let message =
            "invalid YAML: a tab as indentation or before a value; YAML indents with spaces only, so replace it "
            + "with spaces"
        for (yaml, at) in [
            ("sections:\n\t- rows:\n      - text: a\n", "2:1"),
            ("\u{FEFF}sections:\r\n  - rows:\r\n      -\ttext: a\r\n", "3:8"),
            ("sections:\n  - rows:\n      - {text: \"\u{2028}\"}\n\t- x\n", "4:1"),
        ] {
            #expect(
                ListingReader.validate(Data(yaml.utf8), path: "t.yaml").map(\.description) == [
                    "t.yaml:\(at): \(message)"
                ])
        }
        // Any other character that cannot start a token keeps libyaml's words.
        #expect(
            ListingReader.validate(Data("sections:\n  - rows:\n      - text: a\n@x: 1\n".utf8), path: "a.yaml")
                .map(\.description) == [
                    "a.yaml:4:1: invalid YAML: found character that cannot start any token (while scanning for the "
                        + "next token started at 4:1)"
                ])
    }

}
