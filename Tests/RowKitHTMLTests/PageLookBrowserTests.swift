import Foundation
import RowKitHTML
import RowKitListing
import Testing

/// How exported pages look in a real browser: Playwright for Python (from PyPI, in
/// `.build/browser-venv`, which `scripts/ensure-deps.sh --test` makes) drives Debian's Chromium
/// through `Tests/Browser/page_look_test.py` over the export of `Tests/Browser/look/look.yaml`:
/// bodies' images load (no failed request), the Markdown stylesheet applies in light and dark,
/// Value2 labels are one line, Value1 stacks only when it must, and no row is under the index bar;
/// and over the export of `Tests/Browser/look/look.csv` with a default style, footers and index
/// titles from the section headers' initials.
/// Screenshots go to `.build/screenshots/look-*.png`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct PageLookBrowserTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let python = packageRoot.appendingPathComponent(".build/browser-venv/bin/python")
    static let isAvailable =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        && FileManager.default.isExecutableFile(atPath: python.path)

    @Test(.enabled(if: isAvailable, "needs /usr/bin/chromium and .build/browser-venv (scripts/ensure-deps.sh --test)"))
    func bodiesCellsAndTheIndexColumnLookAsIOSInChromium() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        let listing = Self.packageRoot.appendingPathComponent("Tests/Browser/look/look.yaml")
        // The listing's table is raw HTML (CommonMark has none): the export lets it through.
        let summary = try SiteExporter(ExportOptions(markdown: Markdown.Options(unsafeHTML: true))).export(
            listings: [ListingExport(ListingReader(contentsOfFile: listing.path))], to: site)
        // The three images that cannot be copied are warnings, and nothing else is.
        #expect(summary.warnings.count == 3, "\(summary.warnings)")
        // The CSV listing with the flags a CSV file needs for a look like the YAML one's.
        let csvSite = folder.url.appendingPathComponent("csv-site")
        let csv = CSVListingOptions(
            sectionBy: "section", text: "name", detail: "value", title: "Settings", tableStyle: .insetGrouped,
            defaultStyle: .value1,
            footer: "note", indexInitials: true)
        let csvSummary = try SiteExporter(ExportOptions()).export(
            listings: [
                ListingExport(
                    ListingReader(
                        contentsOfFile: Self.packageRoot.appendingPathComponent("Tests/Browser/look/look.csv").path,
                        csv: csv))
            ], to: csvSite)
        #expect(csvSummary.warnings.isEmpty, "\(csvSummary.warnings)")
        let shots = Self.packageRoot.appendingPathComponent(".build/screenshots")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [
            "-k", "5", "300", Self.python.path, "Tests/Browser/page_look_test.py", "--site", site.path, "--csv-site",
            csvSite.path, "--shots", shots.path,
        ]
        process.currentDirectoryURL = Self.packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let summaryLine = text.split(separator: "\n").last.map(String.init) ?? ""
        let result = (try? JSONSerialization.jsonObject(with: Data(summaryLine.utf8))) as? [String: Any] ?? [:]
        #expect(process.terminationStatus == 0, "\(text.suffix(4000))")
        #expect((result["passed"] as? Int ?? 0) > 200, "\(summaryLine)")
        print("page look in Chromium: \(summaryLine)")
    }
}
