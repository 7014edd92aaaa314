import Foundation
import Testing

/// `--help` of every command, byte for byte against the golden files in `Snapshots/`.
///
/// After changing a command's help on purpose, regenerate the files with
/// `ROWKIT_UPDATE_SNAPSHOTS=1 swift test --filter HelpSnapshotTests` and review the diff.
@Suite struct HelpSnapshotTests {
    static let snapshots = RowKitTool.packageRoot.appendingPathComponent("Tests/rowkitTests/Snapshots")

    /// The command lines, by the name of their golden file.
    static let commands: [(snapshot: String, arguments: [String])] = [
        ("help-rowkit.txt", ["--help"]),
        ("help-export.txt", ["export", "--help"]),
        ("help-serve.txt", ["serve", "--help"]),
        ("help-validate.txt", ["validate", "--help"]),
        ("help-bench.txt", ["bench", "--help"]),
        ("help-generate-example.txt", ["generate-example", "--help"]),
    ]

    @Test(arguments: commands.map(\.snapshot))
    func helpMatchesItsSnapshot(_ snapshot: String) throws {
        let arguments = try #require(Self.commands.first { $0.snapshot == snapshot }).arguments
        let run = try RowKitTool.run(arguments)
        #expect(run.status == 0)
        #expect(run.stderr == "")
        let file = Self.snapshots.appendingPathComponent(snapshot)
        if ProcessInfo.processInfo.environment["ROWKIT_UPDATE_SNAPSHOTS"] == "1" {
            try run.stdout.write(to: file, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(run.stdout == expected)
    }

    @Test(arguments: commands.map(\.snapshot))
    func everyCommandsHelpHasAnExamplesSection(_ snapshot: String) throws {
        let arguments = try #require(Self.commands.first { $0.snapshot == snapshot }).arguments
        let run = try RowKitTool.run(arguments)
        #expect(run.stdout.contains("EXAMPLES"))
    }
}
