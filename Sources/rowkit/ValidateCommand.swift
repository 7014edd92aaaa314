import ArgumentParser
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
            on standard output for each input without problems.

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
        var failed = false
        for (path, result) in loader.readEach() {
            switch result {
            case .success(let document):
                let rows = document.sections.reduce(0) { $0 + $1.rows.count }
                print("\(path): ok (\(Formatting.plural(document.sections.count, "section")), \(Formatting.plural(rows, "row")))")
            case .failure(let error):
                failed = true
                error.diagnostics.forEach { StandardError.line($0.description) }
            }
        }
        if failed { throw ExitCode.dataError }
    }
}
