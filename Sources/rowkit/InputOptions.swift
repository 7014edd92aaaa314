import ArgumentParser
import RowKit
import RowKitHTML
import RowKitListing

/// The listing files a command reads, and how to read them.
struct InputOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "The listing files to read: YAML (.yaml, .yml), JSON (.json) or CSV (.csv).",
            valueName: "input"))
    var inputs: [String]

    @Option(
        help: ArgumentHelp(
            "Read every input as this format instead of going by its extension.",
            valueName: "yaml|json|csv"))
    var format: ListingFormat?

    @OptionGroup(title: "CSV columns (a column named like the field is used when not given)")
    var csv: CSVColumnOptions
}

extension ListingFormat: ExpressibleByArgument {}
