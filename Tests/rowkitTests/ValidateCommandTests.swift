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
        let run = try RowKitTool.run(["validate", "Examples/settings.yaml", "Tests/rowkitTests/Fixtures/broken/unknown-field.yaml"])
        #expect(run.status == 65)
        #expect(run.stdout == "Examples/settings.yaml: ok (5 sections, 17 rows)\n")
        #expect(
            run.stderr
                == "Tests/rowkitTests/Fixtures/broken/unknown-field.yaml:7:9: unknown field 'detial' in a row; did you mean 'detail'?\n")
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
}
