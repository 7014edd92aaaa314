import Foundation
import Testing

/// `rowkit validate`: every problem as `file:line:column: message`, exit 65; "ok" and 0 otherwise.
@Suite struct ValidateCommandTests {
    static let brokenFolder = RowKitTool.fixtures.appendingPathComponent("broken")

    /// The broken documents, each with a `<name>.expected` file holding its exact diagnostics.
    static let brokenDocuments: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: brokenFolder.path)) ?? []
        return names.filter { !$0.hasSuffix(".expected") }.sorted()
    }()

    @Test func brokenFixturesExist() {
        #expect(Self.brokenDocuments.count >= 10)
    }

    @Test(arguments: brokenDocuments)
    func whenADocumentIsBroken_thenEveryProblemIsReportedWithItsLineAndColumn(_ name: String) throws {
        let expected = try String(
            contentsOf: Self.brokenFolder.appendingPathComponent(name + ".expected"), encoding: .utf8)
        let run = try RowKitTool.run(["validate", name], in: Self.brokenFolder)
        #expect(run.status == 65)
        #expect(run.stderr == expected)
        #expect(run.stdout == "")
    }

    @Test func whenSeveralDocumentsAreBroken_thenTheProblemsOfAllAreReportedInInputOrder() throws {
        var expected = ""
        for name in Self.brokenDocuments {
            expected += try String(
                contentsOf: Self.brokenFolder.appendingPathComponent(name + ".expected"), encoding: .utf8)
        }
        let run = try RowKitTool.run(["validate"] + Self.brokenDocuments, in: Self.brokenFolder)
        #expect(run.status == 65)
        #expect(run.stderr == expected)
    }

    @Test func whenDocumentsAreValid_thenEachGetsAnOkLineAndTheStatusIsZero() throws {
        let run = try RowKitTool.run([
            "validate", "Examples/settings.yaml", "Examples/catalogue.csv", "--section-by", "category",
            "--id", "sku", "--text", "name", "--detail", "price", "--body", "description", "--style", "layout",
        ])
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                Examples/settings.yaml: ok (5 sections, 17 rows)
                Examples/catalogue.csv: ok (4 sections, 11 rows)

                """)
        #expect(run.stderr == "")
    }

    @Test func whenOneOfSeveralDocumentsIsBroken_thenTheValidOneStillGetsItsOkLine() throws {
        let run = try RowKitTool.run([
            "validate", "Examples/settings.yaml", "Tests/rowkitTests/Fixtures/broken/unknown-field.yaml",
        ])
        #expect(run.status == 65)
        #expect(run.stdout == "Examples/settings.yaml: ok (5 sections, 17 rows)\n")
        #expect(
            run.stderr
                == "Tests/rowkitTests/Fixtures/broken/unknown-field.yaml:7:9: unknown field 'detial' in a row; did you mean 'detail'?\n"
        )
    }

    @Test func whenTheFormatIsOverridden_thenTheExtensionIsIgnored() throws {
        let scratch = try TemporaryDirectory()
        try "text\nTea\n".write(toFile: scratch.path("listing.txt"), atomically: true, encoding: .utf8)
        let byExtension = try RowKitTool.run(["validate", "listing.txt"], in: scratch.url)
        #expect(byExtension.status == 65)
        #expect(byExtension.stderr.hasPrefix("listing.txt:1:1: cannot tell the format"))
        let overridden = try RowKitTool.run(["validate", "listing.txt", "--format", "csv"], in: scratch.url)
        #expect(overridden.status == 0)
        #expect(overridden.stdout == "listing.txt: ok (1 section, 1 row)\n")
    }

    @Test func whenDataWouldBeDropped_thenValidateAndExportWarnAtItsPlaceAndSucceed() throws {
        let scratch = try TemporaryDirectory()
        let listing = scratch.path("shop.yaml")
        try "sections:\n  - rows:\n      - text: Gift Card\n        detail: $25\n        link: \"javascript:buy()\"\n"
            .write(toFile: listing, atomically: true, encoding: .utf8)
        let expected = """
            \(listing):4:17: warning: 'detail' is not shown by a row of style 'default'; give the row style value1, value2 or subtitle to show it
            \(listing):5:15: warning: 'link' 'javascript:buy()' is not a URL rowkit links to (only http:, https:, mailto:, relative paths and #fragments); the row is shown without a link

            """
        let validate = try RowKitTool.run(["validate", listing])
        #expect(validate.status == 0)
        #expect(validate.stderr == expected)
        let export = try RowKitTool.run(["export", listing, "-o", scratch.path("site"), "-q"])
        #expect(export.status == 0)
        #expect(export.stderr == expected)
    }

    @Test func whenAListingHoldsTerminalEscapes_thenMessagesPrintThemAsEscapesNeverRaw() throws {
        let scratch = try TemporaryDirectory()
        try #"sections: [{rows: [{text: a, style: "\e]0;pwned\a\e[31mRED\e[0m"}]}]"#.write(
            toFile: scratch.path("esc.yaml"), atomically: true, encoding: .utf8)
        try "text\u{0}x,detail\na,c\n".write(toFile: scratch.path("nul.csv"), atomically: true, encoding: .utf8)
        try "sections: [{rows: [{text: a, link: \"javascript:x\u{202E}gpj.exe\"}]}]".write(
            toFile: scratch.path("link.yaml"), atomically: true, encoding: .utf8)
        let broken = try RowKitTool.run(["validate", "esc.yaml", "nul.csv"], in: scratch.url)
        #expect(broken.status == 65)
        #expect(
            broken.stderr == #"""
                esc.yaml:1:37: unknown row style '\u{1B}]0;pwned\u{7}\u{1B}[31mRED\u{1B}[0m'; expected one of: default, value1, value2, subtitle
                nul.csv:1:1: the text column 'text' is not in the header; the header has: 'text\u{0}x', 'detail'

                """#)
        let warned = try RowKitTool.run(["validate", "link.yaml"], in: scratch.url)
        #expect(warned.status == 0)
        #expect(warned.stderr.contains(#"'link' 'javascript:x\u{202E}gpj.exe' is not a URL"#))
        for output in [broken.stderr, warned.stderr] {
            #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x202E })
        }
    }

    @Test func whenCSVColumnOptionsAreGivenWithoutACSVInput_thenAWarningNamesThemAndTheRunSucceeds() throws {
        let scratch = try TemporaryDirectory()
        let validate = try RowKitTool.run(["validate", "Examples/settings.yaml", "--text", "name", "--sort"])
        #expect(validate.status == 0)
        #expect(
            validate.stderr == "rowkit: warning: --text and --sort are ignored: they apply only to CSV inputs, "
                + "and Examples/settings.yaml is read as YAML\n")
        #expect(validate.stdout == "Examples/settings.yaml: ok (5 sections, 17 rows)\n")
        let export = try RowKitTool.run([
            "export", "Examples/settings.yaml", "Examples/contacts.json", "-o", scratch.path("site"), "-q",
            "--section-by", "group", "--detail", "phone", "--style", "layout",
        ])
        #expect(export.status == 0)
        #expect(
            export.stderr == "rowkit: warning: --section-by, --detail and --style are ignored: they apply only to "
                + "CSV inputs, and no input is read as CSV\n")
        // With a CSV input among the inputs, the options apply to it.
        let mixed = try RowKitTool.run([
            "validate", "Examples/settings.yaml", "Examples/catalogue.csv", "--section-by", "category", "--text",
            "name",
        ])
        #expect(mixed.status == 0)
        #expect(mixed.stderr == "")
    }

    @Test func whenTheExamplesAreValidated_thenTheyCarryNoWarnings() throws {
        let examples = try FileManager.default.contentsOfDirectory(
            atPath: RowKitTool.packageRoot.appendingPathComponent("Examples").path
        )
        .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted().map { "Examples/" + $0 }
        #expect(!examples.isEmpty)
        let run = try RowKitTool.run(["validate"] + examples)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        // The catalogue with the columns Examples/README.md names.
        let catalogue = try RowKitTool.run([
            "validate", "Examples/catalogue.csv", "--section-by", "category", "--sort", "--id", "sku", "--text", "name",
            "--detail", "price", "--body", "description", "--style", "layout",
        ])
        #expect(catalogue.status == 0)
        #expect(catalogue.stderr == "")
    }

    @Test func whenAnImageIsATextFileNamedPNG_thenValidateAndExportBothRefuseIt() throws {
        let scratch = try TemporaryDirectory()
        try "not a picture".write(toFile: scratch.path("fake.png"), atomically: true, encoding: .utf8)
        let listing = scratch.path("listing.yaml")
        try "sections:\n  - rows:\n      - text: A\n        image: fake.png\n".write(
            toFile: listing, atomically: true, encoding: .utf8)
        let validate = try RowKitTool.run(["validate", listing])
        #expect(validate.status == 65)
        #expect(validate.stderr.hasPrefix("\(listing):4:16: image 'fake.png' "))
        let export = try RowKitTool.run(["export", listing, "-o", scratch.path("site"), "-q"])
        #expect(export.status == 65)
        #expect(export.stderr == validate.stderr)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("site")))
    }
}
