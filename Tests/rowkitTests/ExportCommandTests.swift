import Foundation
import Testing

/// `rowkit export`: the examples become sites; a problem anywhere writes nothing.
@Suite struct ExportCommandTests {
    /// The arguments that read `Examples/catalogue.csv`, as documented in `Examples/README.md`.
    static let catalogueArguments = [
        "Examples/catalogue.csv", "--section-by", "category", "--sort", "--id", "sku", "--text", "name",
        "--detail", "price", "--body", "description", "--style", "layout", "--title", "Catalogue",
    ]

    static func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test func settingsExampleBecomesASiteWithItsRowsDetailPagesAndIcons() throws {
        let scratch = try TemporaryDirectory()
        let site = scratch.path("site")
        let run = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", site])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "")
        let index = try Self.read(site + "/index.html")
        for text in [
            "Settings", "Jane Appleseed", "Wi-Fi", "HomeNet", "Bluetooth", "Airplane Mode", "Connections",
            "Airplane Mode turns off Wi-Fi, Bluetooth and cellular data.", "Legal &amp; Regulatory",
        ] {
            #expect(index.contains(text), "index.html lacks \(text)")
        }
        for page in ["account", "wifi", "cellular", "battery"] {
            #expect(FileManager.default.fileExists(atPath: "\(site)/rows/\(page).html"), "no detail page for \(page)")
        }
        let wifi = try Self.read(site + "/rows/wifi.html")
        #expect(wifi.contains("<strong>HomeNet</strong>"))
        let images = try FileManager.default.contentsOfDirectory(atPath: site + "/assets/images")
        #expect(images.count == 11)
        #expect(images.allSatisfy { $0.hasSuffix(".png") })
    }

    @Test func theSummaryLineSaysWhatWasWrittenAndWhereToOpenIt() throws {
        let scratch = try TemporaryDirectory()
        let site = scratch.path("site")
        let first = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", site])
        let lines = first.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let summary = try #require(lines.first)
        #expect(summary.hasPrefix("Wrote \(site): 5 pages, 17 rows, "))
        #expect(summary.contains(" KB in "))
        // 5 pages, 11 images, the stylesheet, the search script and two index files.
        #expect(summary.hasSuffix("(20 files written, 0 unchanged)"))
        #if os(macOS)
        #expect(lines.last == "open \(site)/index.html")
        #else
        #expect(lines.last == "xdg-open \(site)/index.html")
        #endif

        let again = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", site])
        #expect(again.stdout.contains("(0 files written, 20 unchanged)"))
    }

    @Test func quietPrintsNothing() throws {
        let scratch = try TemporaryDirectory()
        let run = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", scratch.path("site"), "--quiet"])
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "")
        #expect(FileManager.default.fileExists(atPath: scratch.path("site/index.html")))
    }

    @Test func catalogueCSVBecomesSectionsByCategoryWithDetailPages() throws {
        let scratch = try TemporaryDirectory()
        let site = scratch.path("site")
        let run = try RowKitTool.run(["export"] + Self.catalogueArguments + ["-o", site])
        #expect(run.status == 0, "\(run.stderr)")
        let index = try Self.read(site + "/index.html")
        let headers = ["Coffee", "Gear", "Gifts", "Tea"].compactMap { index.range(of: ">\($0)<")?.lowerBound }
        #expect(headers.count == 4)
        #expect(headers == headers.sorted(), "sections are sorted by name")
        for row in ["Sencha", "Yirgacheffe", "Gooseneck Kettle", "Gift Card", "€9.50"] {
            #expect(index.contains(row), "index.html lacks \(row)")
        }
        for page in [
            "tea-sencha", "tea-assam", "coffee-ethiopia", "coffee-brazil", "gear-kettle", "gear-grinder", "gift-card",
        ] {
            #expect(FileManager.default.fileExists(atPath: "\(site)/rows/\(page).html"), "no detail page for \(page)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: "\(site)/rows/tea-rooibos.html"), "a row without a body has no page"
        )
        #expect(try Self.read(site + "/rows/tea-assam.html").contains("<ol>"))
    }

    @Test func severalInputsBecomeSeveralPagesWithASharedIndex() throws {
        let scratch = try TemporaryDirectory()
        let site = scratch.path("site")
        let run = try RowKitTool.run(["export", "Examples/settings.yaml", "Examples/contacts.json", "-o", site])
        #expect(run.status == 0, "\(run.stderr)")
        let index = try Self.read(site + "/index.html")
        #expect(index.contains("href=\"settings/index.html\""))
        #expect(index.contains("href=\"contacts/index.html\""))
        #expect(index.contains("Listings"))
        #expect(try Self.read(site + "/contacts/index.html").contains("Grace Hopper"))
        #expect(FileManager.default.fileExists(atPath: site + "/settings/rows/wifi.html"))
        #expect(FileManager.default.fileExists(atPath: site + "/contacts/rows/allen.html"))
    }

    @Test func theTableStyleOptionOverridesTheListingsStyle() throws {
        let scratch = try TemporaryDirectory()
        let site = scratch.path("site")
        let plain = try RowKitTool.run(["export", "Examples/contacts.json", "-o", site])
        #expect(plain.status == 0)
        let before = try Self.read(site + "/index.html")
        let grouped = try RowKitTool.run(["export", "Examples/contacts.json", "-o", site, "--table-style", "grouped"])
        #expect(grouped.status == 0)
        let after = try Self.read(site + "/index.html")
        #expect(before != after)
        #expect(after.contains("grouped"))
    }

    @Test func csvColumnsNamedOtherwiseGiveRowsTheirLinkAndAccessory() throws {
        let scratch = try TemporaryDirectory()
        let listing = scratch.path("links.csv")
        try "name,URL,mark\nDocs,https://example.org/docs,none\nChosen,,checkmark\n".write(
            toFile: listing, atomically: true, encoding: .utf8)
        let run = try RowKitTool.run([
            "export", listing, "-o", scratch.path("site"), "-q", "--text", "name", "--link", "URL", "--accessory",
            "mark",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let index = try Self.read(scratch.path("site/index.html"))
        #expect(index.contains("href=\"https://example.org/docs\""))
        #expect(index.contains("class=\"accessory checkmark\""))
        let missing = try RowKitTool.run(["validate", listing, "--text", "name", "--link", "url"])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("'url'"), "\(missing.stderr)")
    }

    @Test func aLargeGeneratedListingIsSplitIntoPages() throws {
        let scratch = try TemporaryDirectory()
        let listing = scratch.path("large.csv")
        let generate = try RowKitTool.run(["generate-example", "--rows", "2000", "--format", "csv", "-o", listing])
        #expect(generate.status == 0, "\(generate.stderr)")
        let run = try RowKitTool.run([
            "export", listing, "-o", scratch.path("site"), "--section-by", "section", "--page-size", "500",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("2,000 rows"))
        for page in ["index.html", "page-2.html", "page-3.html", "page-4.html"] {
            #expect(FileManager.default.fileExists(atPath: scratch.path("site/\(page)")), "no \(page)")
        }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("site/page-5.html")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path("site/rows")).count == 20)
    }

    @Test func theGeneratedYAMLListingIsValid() throws {
        let scratch = try TemporaryDirectory()
        let listing = scratch.path("large.yaml")
        #expect(try RowKitTool.run(["generate-example", "--rows", "300", "-o", listing]).status == 0)
        let run = try RowKitTool.run(["validate", listing])
        #expect(run.stdout == "\(listing): ok (26 sections, 300 rows)\n")
    }

    @Test func rawHTMLInBodiesIsOmittedUnlessUnsafeHTMLIsGiven() throws {
        let scratch = try TemporaryDirectory()
        try """
        version: 1
        sections:
          - rows:
              - id: note
                text: Note
                body: "Hello <mark>there</mark>"
        """.write(toFile: scratch.path("listing.yaml"), atomically: true, encoding: .utf8)
        #expect(try RowKitTool.run(["export", "listing.yaml", "-o", "safe", "-q"], in: scratch.url).status == 0)
        let safe = try Self.read(scratch.path("safe/rows/note.html"))
        #expect(!safe.contains("<mark>"))
        #expect(
            try RowKitTool.run(["export", "listing.yaml", "-o", "unsafe", "-q", "--unsafe-html"], in: scratch.url)
                .status == 0)
        #expect(try Self.read(scratch.path("unsafe/rows/note.html")).contains("<mark>there</mark>"))
    }

    @Test func aTemplatesFolderReplacesBuiltInTemplatesByName() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path("templates"), withIntermediateDirectories: true)
        try "<li class=\"mine\">{{{text}}}</li>\n".write(
            toFile: scratch.path("templates/row.mustache"), atomically: true, encoding: .utf8)
        let run = try RowKitTool.run([
            "export", "Examples/settings.yaml", "-o", scratch.path("site"), "--templates", scratch.path("templates"),
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.read(scratch.path("site/index.html")).contains("<li class=\"mine\">Wi-Fi</li>"))
    }

    @Test func aBrokenTemplateIsReportedAndNothingIsWritten() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path("templates"), withIntermediateDirectories: true)
        try "{{#open}} never closed".write(
            toFile: scratch.path("templates/page.mustache"), atomically: true, encoding: .utf8)
        let run = try RowKitTool.run([
            "export", "Examples/settings.yaml", "-o", scratch.path("site"), "--templates", scratch.path("templates"),
        ])
        #expect(run.status == 65)
        #expect(run.stderr.hasPrefix("rowkit: template \(scratch.path("templates/page.mustache"))"))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("site")))
    }

    // MARK: - Nothing written on error

    @Test func whenAnyInputIsBroken_thenNothingIsWrittenAndTheStatusIs65() throws {
        let scratch = try TemporaryDirectory()
        let site = scratch.path("site")
        let run = try RowKitTool.run([
            "export", "Examples/settings.yaml", "Tests/rowkitTests/Fixtures/broken/unknown-field.yaml", "-o", site,
        ])
        #expect(run.status == 65)
        #expect(
            run.stderr
                == "Tests/rowkitTests/Fixtures/broken/unknown-field.yaml:7:9: unknown field 'detial' in a row; did you mean 'detail'?\n"
        )
        #expect(run.stdout == "")
        #expect(!FileManager.default.fileExists(atPath: site))
    }

    @Test func whenAnExportFails_thenAnExistingSiteIsUntouched() throws {
        let scratch = try TemporaryDirectory()
        let site = scratch.path("site")
        #expect(try RowKitTool.run(["export", "Examples/settings.yaml", "-o", site, "-q"]).status == 0)
        try "mine".write(toFile: site + "/notes.txt", atomically: true, encoding: .utf8)
        let before = try Self.snapshot(of: site)

        let broken = try RowKitTool.run(["export", "Tests/rowkitTests/Fixtures/broken/bad-enums.yaml", "-o", site])
        #expect(broken.status == 65)
        let missing = try RowKitTool.run(["export", "Examples/settings.yaml", "nope.yaml", "-o", site])
        #expect(missing.status == 66)
        let usage = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", site, "--page-size", "0"])
        #expect(usage.status == 64)
        #expect(try Self.snapshot(of: site) == before)
    }

    @Test func whenAnImageCannotBeExported_thenItIsReportedAtTheRowsImageField() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path("icons"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: RowKitTool.examples.appendingPathComponent("icons/wifi.svg").path,
            toPath: scratch.path("icons/wifi.svg"))
        try "version: 1\nsections:\n  - rows:\n      - text: Wi-Fi\n        image: icons/wifi.svg\n"
            .write(toFile: scratch.path("listing.yaml"), atomically: true, encoding: .utf8)
        let run = try RowKitTool.run(["export", "listing.yaml", "-o", "site"], in: scratch.url)
        #expect(run.status == 65)
        // The reader checks the image as the export would copy it, at the row's image field.
        #expect(run.stderr == "listing.yaml:5:16: image 'icons/wifi.svg' is not a PNG, JPEG, GIF, WebP or AVIF file\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("site")))
    }

    @Test func whenTheOutputIsAFile_thenTheStatusIs73() throws {
        let scratch = try TemporaryDirectory()
        try "x".write(toFile: scratch.path("file"), atomically: true, encoding: .utf8)
        let run = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", scratch.path("file")])
        #expect(run.status == 73)
        #expect(
            run.stderr
                == "rowkit: cannot write the site to '\(scratch.path("file"))': it is a file, not a folder; choose another output folder (-o)\n"
        )
        let below = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", scratch.path("file/site")])
        #expect(below.status == 73)
        #expect(below.stderr.hasPrefix("rowkit: cannot write the site to '\(scratch.path("file/site"))': "))
        #expect(try Self.read(scratch.path("file")) == "x")
    }

    @Test func whenTheTemplatesFolderIsMissing_thenTheStatusIs66() throws {
        let scratch = try TemporaryDirectory()
        let run = try RowKitTool.run([
            "export", "Examples/settings.yaml", "-o", scratch.path("site"), "--templates", scratch.path("none"),
        ])
        #expect(run.status == 66)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("site")))
    }

    /// Every file under `folder` with its contents.
    static func snapshot(of folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return files
    }
}
