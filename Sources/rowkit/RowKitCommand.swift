import ArgumentParser

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
                open site/index.html

              Check listings without writing anything:
                rowkit validate Examples/settings.yaml

              Compare the C core with the Swift baseline:
                rowkit bench --items 100000

            See 'rowkit help <subcommand>' for each command's options and examples.
            """,
        version: "0.1.0",
        subcommands: [ExportCommand.self, ValidateCommand.self, BenchCommand.self, GenerateExampleCommand.self])
}
