import Foundation
import Testing
import RowKit
@testable import RowKitHTML

/// Loads the exported example site in headless Chromium: checks the rendered DOM and saves
/// screenshots (390 and 1280 px wide, light and dark) to `.build/screenshots/`.
@Suite(.serialized, .timeLimit(.minutes(10))) struct BrowserTests {
    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ arguments: [String]) throws -> String {
        // Headless Chromium can hang on start-up now and then: run it under timeout(1), so a hang
        // fails this test (no DOM, no screenshot) instead of stalling the suite.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", "90", chromium!, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                             "--disable-dev-shm-usage", "--run-all-compositor-stages-before-draw"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test(.enabled(if: chromium != nil, "chromium is not installed (apt-get install chromium)"))
    func exportedSiteRendersEverySectionAndRowInChromium() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter(ExampleTables.options(title: "Examples")).export(ExampleTables.all, to: site)
        for (name, table) in [("settings", ExampleTables.settings), ("catalogue", ExampleTables.catalogue), ("contacts", ExampleTables.contacts)] {
            let page = site.appendingPathComponent("\(name)/index.html")
            let dom = try Self.run(["--dump-dom", page.absoluteString])
            #expect(dom.contains("</main>"), "\(name): no DOM")
            #expect(dom.components(separatedBy: "<section class=\"section\"").count - 1 == table.sections.count)
            #expect(dom.components(separatedBy: "<li class=\"row").count - 1 == table.rowCount)
            for row in table.sections.flatMap(\.rows) {
                if let text = (row.base as? any StandardRowContent)?.content.text {
                    #expect(dom.contains(HTMLEscaping.escape(text).replacingOccurrences(of: "&#39;", with: "'")), "\(name): row \(text) missing")
                }
            }
            // Every local link resolves to a file in the site.
            for href in dom.components(separatedBy: "href=\"").dropFirst().map({ String($0.prefix { $0 != "\"" }) })
            where !href.hasPrefix("http") && !href.hasPrefix("mailto:") && !href.hasPrefix("#") {
                let path = String(href.prefix { $0 != "#" })
                let target = page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                #expect(FileManager.default.fileExists(atPath: target.path), "\(name): \(href) does not resolve")
            }
        }
        let shots = Self.packageRoot.appendingPathComponent(".build/screenshots")
        try FileManager.default.createDirectory(at: shots, withIntermediateDirectories: true)
        for name in ["settings", "catalogue", "contacts", "catalogue/rows/green-tea"] {
            for (width, height) in [(390, 844), (1280, 900)] {
                for dark in [false, true] {
                    let file = shots.appendingPathComponent("\(name.replacingOccurrences(of: "/", with: "-"))-\(width)-\(dark ? "dark" : "light").png")
                    try? FileManager.default.removeItem(at: file)
                    let page = name.contains("/") ? "\(name).html" : "\(name)/index.html"
                    _ = try Self.run((dark ? ["--force-dark-mode", "--blink-settings=preferredColorScheme=0"] : [])
                                     + ["--screenshot=\(file.path)", "--window-size=\(width),\(height)",
                                        site.appendingPathComponent(page).absoluteString])
                    #expect(FileManager.default.fileExists(atPath: file.path), "no screenshot \(file.lastPathComponent)")
                }
            }
        }
    }
}
