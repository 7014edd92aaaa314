import ArgumentParser
import Foundation
import RowKit
import RowKitHTML
import RowKitListing

/// `rowkit validate`: reports every problem in the inputs without writing anything.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check listings and report every problem as file:line:column: message.",
        usage: "rowkit validate <input> ... [--format <format>] [<csv-columns>]",
        discussion: """
            Reads every input and reports each problem on standard error, one per line, as \
            file:line:column: message. Prints "<input>: ok" with the number of sections and rows \
            on standard output for each input without problems. Data that an export would drop \
            (a detail on a row of style default, a link with a scheme rowkit does not link to) \
            is reported as file:line:column: warning: message, without failing. Images are \
            checked as export checks them.

            Exit status: 0 when every input is valid, 65 when any has a problem, 66 when an input \
            cannot be read, 64 for a usage error.

            EXAMPLES
              Check a listing:
                rowkit validate Examples/settings.yaml

              Check several listings at once (every problem in every file is reported):
                rowkit validate Examples/settings.yaml Examples/contacts.json

              Check a CSV file grouped by its "category" column:
                rowkit validate Examples/catalogue.csv --section-by category
            """)

    @OptionGroup var input: InputOptions

    func run() throws {
        let loader = ListingLoader(options: input, csvTableStyle: nil)
        try loader.checkInputsExist()
        loader.warnAboutUnusedCSVOptions()
        var failed = false
        for var reader in loader.readers() {
            // On more than one core the parser runs on a thread of its own, as in an export.
            reader.readAhead = ProcessInfo.processInfo.activeProcessorCount > 1
            let summary = reader.validate()
            if summary.isValid {
                ListingLoader.printWarnings(summary.warnings, count: summary.warningCount)
                print(
                    StandardError.safe(reader.path)
                        + ": ok (\(Formatting.plural(summary.sectionCount, "section")), \(Formatting.plural(summary.rowCount, "row")))"
                )
            } else {
                failed = true
                for diagnostic in summary.diagnostics { StandardError.line(diagnostic.description) }
            }
        }
        if failed { throw ExitCode.dataError }
    }
}
