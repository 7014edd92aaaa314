import ArgumentParser
import Foundation
import RowKitBench
import RowKitListing

/// `rowkit generate-example`: writes a large synthetic listing, for trying pagination and
/// speed (``ListingGenerator``). The output is the same for the same arguments.
struct GenerateExampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-example",
        abstract: "Write a large synthetic listing, for trying pagination and speed.",
        discussion: """
            Kinds of rows: "pagination" (26 sections A to Z with index titles, the four cell \
            styles, every hundredth row with a detail page) and "bodies" (a text, a detail and a \
            five-line Markdown body per row, shown under the row, or on a detail page of its own \
            with --detail-pages); for the memory benchmarks, "sections" (every row in a section \
            of its own), "indexed-sections" (the same with an index title each) and \
            "large-bodies" (a Markdown body of about 1 MB per row).

            EXAMPLES
              Write a 100,000-row listing and export it in pages of 500 rows:
                rowkit generate-example --rows 100000 -o /tmp/large.yaml
                rowkit export /tmp/large.yaml -o /tmp/large-site --page-size 500

              The same listing as CSV, on standard output:
                rowkit generate-example --rows 100000 --format csv > /tmp/large.csv
                rowkit export /tmp/large.csv -o /tmp/large-site --section-by section

              A million rows with Markdown bodies, as CSV:
                rowkit generate-example --kind bodies --rows 1000000 --format csv -o /tmp/bodies.csv
                rowkit export /tmp/bodies.csv -o /tmp/bodies-site --section-by section
            """)

    @Option(parsing: .unconditional, help: "The number of rows (1 to 10,000,000).")
    var rows = 100_000

    @Option(help: ArgumentHelp("What the rows hold.", valueName: "kind"))
    var kind: ListingGenerator.Kind = .pagination

    @Option(help: ArgumentHelp("The syntax to write.", valueName: "yaml|json|csv"))
    var format: ListingGenerator.Format = .yaml

    @Flag(help: "With --kind bodies: give every row a detail page instead of showing its body under it.")
    var detailPages = false

    @Option(
        name: .shortAndLong, help: ArgumentHelp("The file to write; standard output when omitted.", valueName: "file"))
    var output: String?

    func validate() throws {
        guard (1...10_000_000).contains(rows) else {
            throw ValidationError("--rows must be between 1 and 10,000,000 (got \(rows))")
        }
    }

    func run() throws {
        let generator = ListingGenerator(kind: kind, rows: rows, format: format, detailPages: detailPages)
        do {
            let file =
                try output.map { path throws(OutputFile.Refusal) in try OutputFile(path: path) }
                ?? OutputFile(standardOutput: ())
            try generator.write { try file.append($0) }
            try file.finish()
        } catch let refusal as OutputFile.Refusal {
            guard let output else {
                StandardError.line("rowkit: cannot write to standard output: \(refusal.reason)")
                throw ExitCode.ioError
            }
            StandardError.line("rowkit: cannot write '\(ListingText.escaped(output))': \(refusal.reason)")
            throw ExitCode.cannotCreate
        }
    }
}

extension ListingGenerator.Kind: ExpressibleByArgument {}
extension ListingGenerator.Format: ExpressibleByArgument {}
