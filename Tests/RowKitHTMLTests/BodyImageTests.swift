import Foundation
import RowKitHTML
import RowKitListing
import Testing

/// Images in Markdown bodies: found through cmark's tree, copied into the site as `image:` files
/// are, their URLs rewritten; anything that cannot be copied is a warning and its alternative text.
@Suite struct BodyImageTests {
    @Test func imagesAreFoundInTheTreeWithTheirPlaceAndNotInCode() {
        let markdown = """
            Text ![one](a.png) and `![not](code.png)`

            ![two][ref] and [a link](b.png)

                ![indented](code-block.png)

            [ref]: dir/c.png "Title"
            """
        let images = Markdown.images(in: markdown)
        #expect(
            images == [
                MarkdownImageReference(source: "a.png", line: 1, column: 6),
                MarkdownImageReference(source: "dir/c.png", line: 3, column: 1),
            ])
        #expect(Markdown.images(in: "no images [here](x.png)").isEmpty)
        #expect(Markdown.images(in: "![a](big.png)", maximumSize: 4).isEmpty)
    }

    @Test func onlyABodyWithAnImageStartIsParsed() {
        #expect(MarkdownImageReference.mayOccur(in: "[a] then ![b"))
        #expect(MarkdownImageReference.mayOccur(in: "![b]"))
        #expect(!MarkdownImageReference.mayOccur(in: "[a] ! [b] !x ["))
        #expect(!MarkdownImageReference.mayOccur(in: "[!"))
        #expect(!MarkdownImageReference.mayOccur(in: ""))
        // Bridged or not contiguous: the same answer.
        #expect(MarkdownImageReference.mayOccur(in: String(repeating: "é[", count: 40) + "![x]"))
    }

    /// Writes `yaml` as `folder/listing.yaml` with `img/icon.png` beside it, exports it, and
    /// returns the summary and the site's folder.
    static func export(_ yaml: String, in folder: URL) throws -> (ExportSummary, URL) {
        try FixtureImages.write(into: folder.appendingPathComponent("img"))
        try FixtureImages.write(into: folder.deletingLastPathComponent().appendingPathComponent("outside"))
        let file = folder.appendingPathComponent("listing.yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let site = folder.appendingPathComponent("site")
        let summary = try SiteExporter(ExportOptions(search: false)).export(
            listings: [ListingExport(ListingReader(contentsOfFile: file.path))], to: site)
        return (summary, site)
    }

    @Test func aRelativeBodyImageIsCopiedAndItsURLRewrittenOnListAndDetailPages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (summary, site) = try Self.export(
            """
            sections:
              - rows:
                  - text: Inline
                    accessory: none
                    body: "![wifi](img/wifi.png) and ![remote](https://example.com/r.png)"
                  - text: Detail
                    body: |
                      Intro.

                      ![bt](img/bluetooth.png)
            """, in: folder.url)
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        let list = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        let detail = try String(contentsOf: site.appendingPathComponent("rows/detail.html"), encoding: .utf8)
        let images = TemporaryFolder.files(in: site).filter { $0.hasPrefix("assets/images/") }
        #expect(images.count == 2)
        let wifiBytes = try Data(contentsOf: folder.url.appendingPathComponent("img/wifi.png"))
        let wifi = try #require(images.first { (try? Data(contentsOf: site.appendingPathComponent($0))) == wifiBytes })
        let bluetooth = try #require(images.first { $0 != wifi })
        #expect(list.contains("<img src=\"\(wifi)\" alt=\"wifi\" />"))
        #expect(list.contains("<img src=\"https://example.com/r.png\" alt=\"remote\" />"))
        #expect(detail.contains("<img src=\"../\(bluetooth)\" alt=\"bt\" />"))
    }

    @Test func anImageThatCannotBeCopiedIsAWarningWithItsPlaceAndShowsItsText() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let listing = folder.url.appendingPathComponent("listing")
        try FileManager.default.createDirectory(at: listing, withIntermediateDirectories: true)
        let (summary, site) = try Self.export(
            """
            sections:
              - rows:
                  - text: Broken
                    accessory: none
                    body: "![out](../outside/wifi.png) ![gone](img/gone.png) ![js](javascript:alert(1)) ![ok](img/wifi.png)"
            """, in: listing)
        let messages = summary.warnings.map { "\($0.location): \($0.message)" }
        #expect(messages.count == 3, "\(messages)")
        let place = "\(listing.path)/listing.yaml:5:15: 'body' line 1, column "
        #expect(messages.allSatisfy { $0.hasPrefix(place) }, "\(messages)")
        #expect(messages.first?.contains("image '../outside/wifi.png' is outside the document's folder") == true)
        #expect(messages.dropFirst().first?.contains("image 'img/gone.png' does not exist") == true)
        #expect(messages.last?.contains("'javascript:alert(1)'") == true)
        let list = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(list.contains("<p>out gone js <img src=\"assets/images/"))
        #expect(TemporaryFolder.files(in: site).filter { $0.hasPrefix("assets/images/") }.count == 1)
    }

    @Test func aLinkLeadingOutOrAFileThatIsNoImageIsNeverCopied() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let listing = folder.url.appendingPathComponent("listing")
        try FileManager.default.createDirectory(at: listing, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("outside"), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: folder.url.appendingPathComponent("outside/secret.png"))
        try FileManager.default.createSymbolicLink(
            atPath: listing.appendingPathComponent("link.png").path,
            withDestinationPath: folder.url.appendingPathComponent("outside/secret.png").path)
        try Data("not an image".utf8).write(to: listing.appendingPathComponent("text.png"))
        let (summary, site) = try Self.export(
            """
            sections:
              - rows:
                  - text: Hostile
                    accessory: none
                    body: "![a](link.png) ![b](text.png)"
            """, in: listing)
        #expect(summary.warnings.count == 2, "\(summary.warnings)")
        let list = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(list.contains("<p>a b</p>"))
        #expect(TemporaryFolder.files(in: site).filter { $0.hasPrefix("assets/images/") }.isEmpty)
    }

    @Test func validatingWithTheMarkdownFinderWarnsAboutTheSameImages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let yaml = "sections:\n  - rows:\n      - text: A\n        body: \"x ![gone](gone.png)\"\n"
        var reader = ListingReader(Data(yaml.utf8), path: folder.url.appendingPathComponent("l.yaml").path)
        #expect(reader.validate().warnings.isEmpty)
        reader.bodyImages = { Markdown.images(in: $0) }
        let summary = reader.validate()
        #expect(summary.isValid)
        #expect(
            summary.warnings.map(\.message) == [
                "'body' line 1, column 3: image 'gone.png' does not exist; the export shows the image's alternative text instead"
            ])
        #expect(summary.warnings.first?.location.line == 4)
    }
}
