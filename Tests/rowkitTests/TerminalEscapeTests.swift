import Foundation
import Testing

/// File names reach the terminal escaped, as listing values do: an escape sequence in a name is
/// shown as `\u{1B}`, never sent raw, in summaries, diagnostics and messages.
@Suite struct TerminalEscapeTests {
    static let escape = "\u{1B}[31m"

    @Test func namesWithEscapeSequencesArePrintedEscaped() throws {
        let scratch = try TemporaryDirectory()
        let listing = "red\(Self.escape).yaml"
        try FileManager.default.copyItem(atPath: "Examples/settings.yaml", toPath: scratch.path(listing))
        try FileManager.default.copyItem(atPath: "Examples/icons", toPath: scratch.path("icons"))
        try "text\n\"a\n".write(toFile: scratch.path("bad\(Self.escape).csv"), atomically: false, encoding: .utf8)
        let runs = [
            try RowKitTool.run(["export", listing, "-o", "site\(Self.escape)"], in: scratch.url),
            try RowKitTool.run(
                ["validate", listing, "bad\(Self.escape).csv", "gone\(Self.escape).yaml"], in: scratch.url),
            try RowKitTool.run(["validate", "bad\(Self.escape).csv"], in: scratch.url),
        ]
        for run in runs {
            #expect(!run.stdout.contains("\u{1B}") && !run.stderr.contains("\u{1B}"), "\(run.stdout)\(run.stderr)")
        }
        #expect(runs[0].stdout.hasPrefix("Wrote site\\u{1B}[31m: "), "\(runs[0].stdout)")
        #expect(runs[1].stderr.contains("cannot read 'gone\\u{1B}[31m.yaml'"), "\(runs[1].stderr)")
        #expect(runs[2].stderr.hasPrefix("bad\\u{1B}[31m.csv:2:1: "), "\(runs[2].stderr)")
    }
}
