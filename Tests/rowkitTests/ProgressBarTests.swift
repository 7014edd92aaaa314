import Foundation
import Testing

/// The progress bar: drawn on standard error under a terminal, never into a pipe.
@Suite(.timeLimit(.minutes(5))) struct ProgressBarTests {
    /// `script` from util-linux runs a command under a pseudo-terminal.
    static let script = ["/usr/bin/script", "/bin/script"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func largeListing(in scratch: TemporaryDirectory) throws -> String {
        let listing = scratch.path("large.csv")
        let run = try RowKitTool.run(["generate-example", "--rows", "3000", "--format", "csv", "-o", listing])
        #expect(run.status == 0)
        return listing
    }

    @Test(.enabled(if: script != nil, "needs script(1) from util-linux to make a pseudo-terminal"))
    func underATerminal_theBarIsDrawnAndErased() throws {
        let scratch = try TemporaryDirectory()
        let listing = try Self.largeListing(in: scratch)
        let tool = try #require(RowKitTool.executable).path
        let command =
            "\(tool) export \(listing) -o \(scratch.path("site")) --section-by section --page-size 100 --progress-delay 0"
        let run = try RowKitTool.runProcess(
            try #require(Self.script), ["-qfec", command, "/dev/null"], in: scratch.url)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.contains("Exporting large.csv ["))
        #expect(run.stdout.contains("] 100%  0.1/0.1 MB  3,000 rows  "))
        #expect(run.stdout.contains(" rows/s"))
        #expect(run.stdout.contains("\r\u{1B}[2KWrote "), "the bar is erased before the summary")
        // The first frame comes before the listing's size is known: nothing is done yet.
        let frames = run.stdout.components(separatedBy: "\r\u{1B}[2K").dropFirst()
        let first = try #require(frames.first)
        #expect(!first.contains("100%"), "\(first)")
    }

    @Test(.enabled(if: script != nil, "needs script(1) from util-linux to make a pseudo-terminal"))
    func underATerminal_quietDrawsNothing() throws {
        let scratch = try TemporaryDirectory()
        let listing = try Self.largeListing(in: scratch)
        let tool = try #require(RowKitTool.executable).path
        let command = "\(tool) export \(listing) -o \(scratch.path("site")) --section-by section --progress-delay 0 -q"
        let run = try RowKitTool.runProcess(
            try #require(Self.script), ["-qfec", command, "/dev/null"], in: scratch.url)
        #expect(run.status == 0)
        #expect(run.stdout == "")
    }

    @Test func whenStandardErrorIsAPipe_noBarIsDrawn() throws {
        let scratch = try TemporaryDirectory()
        let listing = try Self.largeListing(in: scratch)
        let run = try RowKitTool.run([
            "export", listing, "-o", scratch.path("site"), "--section-by", "section", "--progress-delay", "0",
        ])
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(!run.stdout.contains("["))
    }
}
