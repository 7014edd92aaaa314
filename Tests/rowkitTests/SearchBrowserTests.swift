import Foundation
import RowKitHTML
import Testing

/// Search and the look of exported sites in a real browser: Playwright for Python (from PyPI, in
/// `.build/browser-venv`, which `scripts/ensure-deps.sh --test` makes) drives Debian's Chromium
/// through `Tests/Browser/search_test.py`. The sites are exported by the built tool exactly as the
/// README and Examples/README.md write the commands.
@Suite(.serialized, .timeLimit(.minutes(15))) struct SearchBrowserTests {
    static let python = RowKitTool.packageRoot.appendingPathComponent(".build/browser-venv/bin/python")
    static let isAvailable =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        && FileManager.default.isExecutableFile(atPath: python.path)

    /// Strings whose folding differs between naive implementations: case, marks, compatibility
    /// forms, letters without decompositions, scripts without case, final sigma, long words.
    static let foldCorpus = [
        "Crème Brûlée", "ÉCOLE", "Ångström", "straße STRASSE ẞ", "Æsir Œuvre", "Øresund Łódź", "Đorđe Ðáin Þór",
        "İstanbul ıI", "ΟΔΥΣΣΕΥΣ Σίσυφος", "ﬁne ﬂour", "Ⅻ ℌ ①②", "ｆｕｌｌｗｉｄｔｈ１２３", "日本茶 東京", "Привет Ёлка",
        "مرحبا", "עִבְרִית", "한국어", "Việt Nam", "e\u{301}te\u{301}", "4G 18.2 87%", "Jane's iPhone", "wi-fi_5GHz",
        "x²", "naïve café", "a\u{200B}b", String(repeating: "long", count: 10), "ǅemal ǈ", "🙂 emoji 🙂ok",
    ]

    @Test(.enabled(if: isAvailable, "needs /usr/bin/chromium and .build/browser-venv (scripts/ensure-deps.sh --test)"))
    func searchFindsRowsAndTheSitesLookAsIOSInChromium() throws {
        let scratch = try TemporaryDirectory()
        let settings = scratch.path("settings-site"), examples = scratch.path("examples-site"),
            large = scratch.path("large-site"), spread = scratch.path("spread-site")
        // 3,000 rows with bodies (row files of 128), "rare" in every 100th: 30 results in 24 files.
        var spreadListing = "version: 1\ntitle: Spread\nsections:\n  - rows:\n"
        for row in 0..<3000 {
            spreadListing +=
                "      - text: \"Row \(row)\"\n        body: \"\(row % 100 == 0 ? "Rare. " : "")A body as long as a real one, "
                + String(repeating: "with words ", count: 12) + "\"\n"
        }
        try spreadListing.write(toFile: scratch.path("spread.yaml"), atomically: true, encoding: .utf8)
        for arguments in [
            ["export", "Examples/settings.yaml", "-o", settings, "-q"],
            ["export", "Examples/settings.yaml", "Examples/contacts.json", "-o", examples, "-q"],
            ["generate-example", "--rows", "100000", "--format", "csv", "-o", scratch.path("large.csv")],
            ["export", scratch.path("large.csv"), "-o", large, "--section-by", "section", "-q"],
            ["export", scratch.path("spread.yaml"), "-o", spread, "-q"],
        ] {
            let run = try RowKitTool.run(arguments)
            try #require(run.status == 0, "rowkit \(arguments.joined(separator: " ")): \(run.stderr)")
        }
        let corpus = Self.foldCorpus.map { [$0, SearchText.words(in: $0)] as [Any] }
        let fold = scratch.url.appendingPathComponent("fold.json")
        try JSONSerialization.data(withJSONObject: corpus).write(to: fold)
        let shots = RowKitTool.packageRoot.appendingPathComponent(".build/screenshots")
        let run = try RowKitTool.runProcess(
            Self.python.path,
            [
                "Tests/Browser/search_test.py", "--settings", settings, "--examples", examples, "--fold", fold.path,
                "--shots", shots.path, "--large", large, "--large-query", "item 99999", "--large-href",
                "page-200.html#r-99999", "--spread", spread,
            ])
        let summary: String = run.stdout.split(separator: "\n").last.map { String($0) } ?? ""
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr.suffix(3000))")
        let result = (try? JSONSerialization.jsonObject(with: Data(summary.utf8))) as? [String: Any] ?? [:]
        let figures = result["figures"] as? [String: Any] ?? [:]
        let passed = result["passed"] as? Int ?? 0
        let indexBytes = figures["large_index_bytes"] as? Int ?? Int.max
        #expect(passed > 40, "\(summary)")
        #expect(indexBytes <= 300 * 1024, "\(figures)")
        print("search in Chromium: \(summary)")
    }
}
