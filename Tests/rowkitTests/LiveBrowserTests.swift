import Foundation
import Testing

/// Live listings in a real browser: `Tests/Browser/live_test.py` runs the built tool's
/// `rowkit serve` on a copy of Examples/settings.yaml and on a generated listing of four pages,
/// edits them, and drives Debian's Chromium (Playwright for Python, from `.build/browser-venv`)
/// to check that the open pages follow: changesets applied in place (`Templates/assets/live.js`),
/// the row in view kept where it is, the problems overlay, detail pages reloaded or told their row
/// was deleted.
@Suite(.serialized, .timeLimit(.minutes(10))) struct LiveBrowserTests {
    @Test(.enabled(if: SearchBrowserTests.isAvailable, "needs Chromium and .build/browser-venv"))
    func openPagesFollowEditsOfTheirListingInChromium() throws {
        let rowkit = try #require(RowKitTool.executable)
        let shots = RowKitTool.packageRoot.appendingPathComponent(".build/screenshots")
        let run = try RowKitTool.runProcess(
            SearchBrowserTests.python.path,
            ["Tests/Browser/live_test.py", "--rowkit", rowkit.path, "--shots", shots.path])
        let summary = run.stdout.split(separator: "\n").last.map { String($0) } ?? ""
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr.suffix(3000))")
        let result = (try? JSONSerialization.jsonObject(with: Data(summary.utf8))) as? [String: Any] ?? [:]
        #expect(result["passed"] as? Int ?? 0 >= 15, "\(summary)")
        print("live pages in Chromium: \(summary)")
    }
}
