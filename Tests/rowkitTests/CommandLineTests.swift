import Foundation
import Testing

/// What a mistyped or out-of-range command line gets: a message naming the flag, a suggestion
/// for a near miss, status 64, and never a trap.
@Suite struct CommandLineTests {
    /// Flag values a user might type, at and past every edge.
    static let flagValues: [(arguments: [String], flag: String)] = {
        let export = ["export", "Examples/settings.yaml", "-o", "/tmp/rowkit-never-written"]
        var cases: [([String], String)] = []
        for value in [
            "9223372036854775807", "-9223372036854775808", "9223372036854775808", "0", "-5", "1000001", "1e3", "",
            "abc", "--quiet",
        ] {
            cases.append((export + ["--page-size", value], "--page-size"))
        }
        for value in ["inf", "-inf", "1e300", "nan", "-1", "3601", "", "x"] {
            cases.append((export + ["--progress-delay", value], "--progress-delay"))
        }
        for value in ["9223372036854775807", "0", "-5", "10000001", "1e3"] {
            cases.append((["bench", "--items", value], "--items"))
            cases.append((["generate-example", "--rows", value], "--rows"))
        }
        return cases
    }()

    @Test func noFlagValueTrapsAndEachMessageNamesItsFlag() throws {
        for (arguments, flag) in Self.flagValues {
            let run = try RowKitTool.run(arguments)
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.stderr)")
            #expect(run.stderr.contains(flag), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Missing value"), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("Fatal error") && !run.stderr.contains("Stack dump"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/rowkit-never-written"))
    }

    @Test func aNegativePageSizeIsReportedAsOutOfRange() throws {
        let run = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", "/tmp/x", "--page-size", "-5"])
        #expect(run.stderr.hasPrefix("Error: --page-size must be between 1 and 1,000,000 (got -5)\n"))
    }

    @Test func aMistypedSubcommandGetsADidYouMean() throws {
        let run = try RowKitTool.run(["expot", "Examples/settings.yaml", "-o", "x"])
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "rowkit: unknown command 'expot'; did you mean 'export'? (see 'rowkit --help' for the commands)\n")
        let far = try RowKitTool.run(["publish", "x"])
        #expect(far.stderr == "rowkit: unknown command 'publish' (see 'rowkit --help' for the commands)\n")
    }

    @Test(arguments: [
        ("--out", "--output"), ("--ouptut", "--output"), ("--pagesize", "--page-size"), ("--titel", "--title"),
        ("--section", "--section-by"), ("--unsafe-htm", "--unsafe-html"),
    ])
    func aMistypedOptionGetsADidYouMean(_ typed: String, _ meant: String) throws {
        let run = try RowKitTool.run(["export", "Examples/settings.yaml", typed, "x"])
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "rowkit export: unknown option '\(typed)'; did you mean '\(meant)'? (see 'rowkit export --help' for the options)\n"
        )
    }

    @Test func aCommandLineThatParsesIsNeverTakenForAMistake() throws {
        #expect(
            CommandLineHintsProbe.options(of: "export").isSuperset(of: [
                "-o", "--output", "--page-size", "--no-wait", "-q",
            ]))
        let help = try RowKitTool.run(["help", "export"])
        #expect(help.status == 0)
        let version = try RowKitTool.run(["--version"])
        #expect(version.status == 0)
    }

    @Test func aDeviceAsInputIsReportedAsUnreadableWithStatus66() throws {
        for device in ["/dev/null", "/dev/zero"] {
            let run = try RowKitTool.run(["validate", device])
            #expect(run.status == 66)
            #expect(run.stderr == "rowkit: cannot read '\(device)': it is a device, not a file\n")
            let export = try RowKitTool.run(["export", device, "-o", "/tmp/rowkit-never-written"])
            #expect(export.status == 66)
        }
    }

    @Test func aTemplatesFolderThatIsAFileOrMissingIsNamedSo() throws {
        let scratch = try TemporaryDirectory()
        _ = FileManager.default.createFile(atPath: scratch.path("afile"), contents: Data("x".utf8))
        for (name, problem) in [("afile", "not a folder"), ("missing", "no such folder")] {
            let run = try RowKitTool.run(
                ["export", "Examples/settings.yaml", "-o", scratch.path("site"), "--templates", scratch.path(name)])
            #expect(run.status == 66)
            #expect(run.stderr == "rowkit: cannot read templates folder '\(scratch.path(name))': \(problem)\n")
        }
    }
}

/// The option names the tool's hints know, read from `rowkit <command> --help` as a user sees it.
enum CommandLineHintsProbe {
    static func options(of command: String) -> Set<String> {
        guard let run = try? RowKitTool.run([command, "--help"]) else { return [] }
        var names: Set<String> = []
        for word in run.stdout.split(whereSeparator: { " ,\n()[]<>".contains($0) })
        where word.hasPrefix("-") && word.count > 1 {
            names.insert(String(word))
        }
        return names
    }
}
