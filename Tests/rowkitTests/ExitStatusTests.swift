import Foundation
import Testing

/// The exit statuses scripts rely on: 0, 64 (usage), 65 (data), 66 (no input), 73 (cannot create).
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
}
