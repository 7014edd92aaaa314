import Foundation
import Testing

/// The exit statuses scripts rely on: 0, 64 (usage), 65 (data), 66 (no input), 73 (cannot create),
/// 74 (standard output cannot be written).
@Suite struct ExitStatusTests {
    @Test func whenAllIsWell_thenTheStatusIsZero() throws {
        #expect(try RowKitTool.run(["validate", "Examples/settings.yaml"]).status == 0)
    }

    @Test func whenAnOptionIsUnknown_thenTheStatusIs64() throws {
        let run = try RowKitTool.run(["validate", "Examples/settings.yaml", "--no-such-option"])
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "rowkit validate: unknown option '--no-such-option' (see 'rowkit validate --help' for the options)\n"
        )
    }

    @Test func whenNoInputIsGiven_thenTheStatusIs64() throws {
        let run = try RowKitTool.run(["validate"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("Missing expected argument '<input> ...'"))
    }

    @Test func whenAnEnumValueIsWrong_thenTheStatusIs64() throws {
        let run = try RowKitTool.run(["validate", "Examples/settings.yaml", "--format", "xml"])
        #expect(run.status == 64)
    }

    @Test func whenAnInputIsMissing_thenTheStatusIs66AndEveryMissingFileIsNamed() throws {
        let run = try RowKitTool.run(["validate", "nope.yaml", "Examples/settings.yaml", "Examples"])
        #expect(run.status == 66)
        #expect(
            run.stderr == """
                rowkit: cannot read 'nope.yaml': no such file
                rowkit: cannot read 'Examples': it is a directory

                """)
        #expect(run.stdout == "")
    }

    @Test func whenAnInputIsBroken_thenTheStatusIs65() throws {
        let run = try RowKitTool.run(["validate", "Tests/rowkitTests/Fixtures/broken/ragged.csv"])
        #expect(run.status == 65)
    }

    @Test func noCommandEverPrintsAStackTrace() throws {
        for arguments in [
            ["validate", "Tests/rowkitTests/Fixtures/broken/ragged.csv"],
            ["validate", "--format", "json", "Examples/catalogue.csv"],
        ] {
            let run = try RowKitTool.run(arguments)
            #expect(run.status == 65)
            #expect(!run.stderr.contains("Fatal error"))
            #expect(!run.stderr.contains("Stack dump"))
        }
    }

    @Test func whenHelpNamesNoCommand_thenTheStatusIs64() throws {
        let run = try RowKitTool.run(["help", "nope"])
        #expect(run.status == 64)
        #expect(run.stdout == "")
        #expect(run.stderr == "rowkit: unknown command 'nope' (see 'rowkit --help' for the commands)\n")
        let typo = try RowKitTool.run(["help", "expot"])
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("did you mean 'export'?"))
        #expect(try RowKitTool.run(["help", "export"]).status == 0)
    }

    @Test func whenJobsIsNegative_thenTheMessageNamesTheRange() throws {
        let run = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", "/tmp/unused", "--jobs", "-1"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--jobs must be between 1 and 256 (got -1)"), "\(run.stderr)")
    }

    /// A summary, a validation result or a listing that cannot all be written to standard output
    /// is not a success: status 74, and a message saying why.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/full"), "needs /dev/full"))
    func whenStandardOutputIsFull_thenTheStatusIs74() throws {
        let scratch = try TemporaryDirectory()
        let tool = try #require(RowKitTool.executable).path
        let root = RowKitTool.packageRoot.path
        for command in [
            "validate \(root)/Examples/settings.yaml", "generate-example --rows 10",
            "export \(root)/Examples/settings.yaml -o site",
        ] {
            let run = try RowKitTool.runProcess("/bin/sh", ["-c", "\(tool) \(command) >/dev/full"], in: scratch.url)
            #expect(run.status == 74, "\(command): \(run.stderr)")
            #expect(
                run.stderr.contains("rowkit: cannot write to standard output: No space left on device"), "\(run.stderr)"
            )
        }
    }
}
