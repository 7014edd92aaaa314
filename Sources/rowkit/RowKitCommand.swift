import ArgumentParser
import Foundation

/// The `rowkit` tool: turns listings into a static site that looks like an iOS table.
@main
struct RowKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rowkit",
        abstract: "Turn listings (YAML, JSON, CSV) into a static HTML site that looks like an iOS table.",
        discussion: """
            EXAMPLES
              Export a listing to a site and open it:
                rowkit export Examples/settings.yaml -o site
                xdg-open site/index.html      (macOS: open site/index.html)

              Check listings without writing anything:
                rowkit validate Examples/settings.yaml

              Compare the C core with the Swift baseline:
                rowkit bench --items 100000

            See 'rowkit help <subcommand>' for each command's options and examples.
            """,
        version: "0.1.0",
        subcommands: [
            ExportCommand.self, ServeCommand.self, ValidateCommand.self, BenchCommand.self, GenerateExampleCommand.self,
            RemoveTrashCommand.self,
        ])

    /// Parses and runs the command as ArgumentParser does; a command line it refuses because of a
    /// mistyped subcommand or option gets a "did you mean" line instead of its message (status 64
    /// either way).
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = CommandLineHints.unknownHelpTopic(in: arguments) {
            StandardError.line(problem)
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if exitCode(for: error) == .validationFailure, let hint = CommandLineHints.problem(in: arguments) {
                StandardError.line(hint)
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            finishStandardOutput()
            exit(withError: error)
        }
        finishStandardOutput()
    }

    /// Flushes standard output; when what was printed could not all be written (a full disk, a
    /// closed pipe), says so and exits 74: a summary or listing cut short is not a success.
    static func finishStandardOutput() {
        guard fflush(nil) != 0 else { return }
        StandardError.line("rowkit: cannot write to standard output: \(String(cString: strerror(errno)))")
        Foundation.exit(ExitCode.ioError.rawValue)
    }
}
