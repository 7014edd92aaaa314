import ArgumentParser
import RowKit
import RowKitHTML
import RowKitListing

/// Which CSV columns hold which listing fields (`--section-by`, `--text`, `--detail`, `--body`,
/// `--image`, `--id`, `--style`, `--accessory`, `--link`, and the sections' `--footer` and
/// `--index`), and the settings a CSV file cannot hold (`--default-style`, `--index-initials`,
/// `--sort`).
struct CSVColumnOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The column that groups rows into sections; its value is the section header.", valueName: "column"))
    var sectionBy: String?

    // Optional, so that a --text given can be told from the default; the help names the default
    // as ArgumentParser shows the others.
    @Option(help: ArgumentHelp("The column holding each row's text. (default: text)", valueName: "column"))
    var text: String?

    @Option(help: ArgumentHelp("The column holding the detail text.", valueName: "column"))
    var detail: String?

    @Option(
        help: ArgumentHelp("The column holding the Markdown body shown on the row's detail page.", valueName: "column"))
    var body: String?

    @Option(help: ArgumentHelp("The column holding the image path, relative to the CSV file.", valueName: "column"))
    var image: String?

    @Option(help: ArgumentHelp("The column holding each row's stable identity.", valueName: "column"))
    var id: String?

    @Option(
        help: ArgumentHelp(
            "The column holding the cell style (default, value1, value2, subtitle).", valueName: "column"))
    var style: String?

    @Option(
        help: ArgumentHelp(
            "The column holding the accessory (none, disclosureIndicator, checkmark, detailButton, "
                + "detailDisclosureButton).", valueName: "column"))
    var accessory: String?

    @Option(
        help: ArgumentHelp(
            "The column holding the row's link (http:, https:, mailto:, a relative path or a #fragment).",
            valueName: "column"))
    var link: String?

    @Option(
        help: ArgumentHelp(
            "The cell style of rows without one in a style column (default, value1, value2, subtitle). "
                + "(default: default, which shows no detail)", valueName: "style"))
    var defaultStyle: CellLayout?

    @Option(
        help: ArgumentHelp(
            "The column holding each section's footer (the first value given among its rows).", valueName: "column"))
    var footer: String?

    @Option(
        help: ArgumentHelp(
            "The column holding each section's index title, the letter in the index bar (the first value given "
                + "among its rows).", valueName: "column"))
    var index: String?

    @Flag(help: "Give each section the first letter of its header as its index title (unless --index gives one).")
    var indexInitials = false

    @Flag(help: "Sort sections by name instead of keeping them in first-seen order.")
    var sort = false

    /// The reader's options for these columns, with `tableStyle` for the whole table.
    func listingOptions(tableStyle: TableStyle?) -> CSVListingOptions {
        CSVListingOptions(
            sectionBy: sectionBy, text: text ?? "text", detail: detail, body: body, image: image, id: id,
            style: style, accessory: accessory, link: link, sort: sort, tableStyle: tableStyle ?? .insetGrouped,
            defaultStyle: defaultStyle ?? .default, footer: footer, index: index, indexInitials: indexInitials)
    }

    /// The options given on the command line, as written there, in the order of `--help`.
    var given: [String] {
        let options: [(String, Bool)] = [
            ("--section-by", sectionBy != nil), ("--text", text != nil), ("--detail", detail != nil),
            ("--body", body != nil), ("--image", image != nil), ("--id", id != nil), ("--style", style != nil),
            ("--accessory", accessory != nil), ("--link", link != nil), ("--default-style", defaultStyle != nil),
            ("--footer", footer != nil), ("--index", index != nil), ("--index-initials", indexInitials),
            ("--sort", sort),
        ]
        return options.filter(\.1).map(\.0)
    }
}

extension CellLayout: ExpressibleByArgument {}
