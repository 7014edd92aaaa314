import ArgumentParser
import RowKitHTML

/// The listing files a command reads, and how to read them.
struct InputOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The listing files to read: YAML (.yaml, .yml), JSON (.json) or CSV (.csv).",
            valueName: "input"))
    var inputs: [String] = []

    @Option(
        help: ArgumentHelp(
            "Read every input as this format instead of going by its extension.",
            valueName: "yaml|json|csv"))
    var format: ListingFormat?

    @OptionGroup(title: "CSV columns (CSV inputs only; a column named like the field is used by default)")
    var csv: CSVColumnOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("Missing expected argument '<input> ...'") }
    }
}

extension ListingFormat: ExpressibleByArgument {}
