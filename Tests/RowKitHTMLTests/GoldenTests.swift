import Foundation
import RowKit
import RowKitHTML
import Testing

/// The example tables render byte-identical to `Golden/`. Regenerate after an intended change with
/// `ROWKIT_UPDATE_GOLDEN=1 swift test --filter GoldenTests`, then review the diff.
@Suite struct GoldenTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let textExtensions: Set<String> = ["html", "css", "json", "js"]

    @Test func exampleSiteMatchesTheGoldenFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter(ExampleTables.options(title: "Examples")).export(ExampleTables.all, to: site)
        let files = TemporaryFolder.files(in: site).filter {
            Self.textExtensions.contains(($0 as NSString).pathExtension)
        }
        let goldenSite = Self.golden.appendingPathComponent("site")
        if ProcessInfo.processInfo.environment["ROWKIT_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: goldenSite)
            for file in files {
                let target = goldenSite.appendingPathComponent(file)
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: site.appendingPathComponent(file), to: target)
            }
        }
        let expected = TemporaryFolder.files(in: goldenSite)
        #expect(files == expected)
        for file in files {
            let actual = try Data(contentsOf: site.appendingPathComponent(file))
            let wanted = try? Data(contentsOf: goldenSite.appendingPathComponent(file))
            #expect(actual == wanted, "\(file) differs from Golden/site/\(file)")
        }
    }

    @Test func theSameInputGivesByteIdenticalSites() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let first = folder.url.appendingPathComponent("one"), second = folder.url.appendingPathComponent("two")
        try SiteExporter(ExampleTables.options(title: "Examples")).export(ExampleTables.all, to: first)
        try SiteExporter(ExampleTables.options(title: "Examples")).export(ExampleTables.all, to: second)
        let files = TemporaryFolder.files(in: first)
        #expect(files == TemporaryFolder.files(in: second))
        for file in files {
            #expect(
                try Data(contentsOf: first.appendingPathComponent(file))
                    == Data(contentsOf: second.appendingPathComponent(file)))
        }
    }
}
