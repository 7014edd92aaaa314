import ArgumentParser
import Foundation

/// `rowkit generate-example` (hidden): writes a large synthetic listing that shows pagination.
///
/// The listing has 26 sections, "A" to "Z" with index titles, rows spread evenly over them in the
/// four cell styles, and every hundredth row with a Markdown body and a detail page. The output is
/// the same for the same arguments.
struct GenerateExampleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-example",
        abstract: "Write a large synthetic listing, for trying pagination and speed.",
        discussion: """
            EXAMPLES
              Write a 100,000-row listing and export it in pages of 500 rows:
                rowkit generate-example --rows 100000 -o /tmp/large.yaml
                rowkit export /tmp/large.yaml -o /tmp/large-site --page-size 500

              The same listing as CSV, on standard output:
                rowkit generate-example --rows 100000 --format csv > /tmp/large.csv
                rowkit export /tmp/large.csv -o /tmp/large-site --section-by section
            """,
        shouldDisplay: false)

    /// The formats the generator writes.
    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case yaml, csv
    }

    @Option(parsing: .unconditional, help: "The number of rows (1 to 5,000,000).")
    var rows = 100_000

    @Option(help: ArgumentHelp("The syntax to write.", valueName: "yaml|csv"))
    var format: OutputFormat = .yaml

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write; standard output when omitted.", valueName: "file"))
    var output: String?

    func validate() throws {
        guard (1...5_000_000).contains(rows) else {
            throw ValidationError("--rows must be between 1 and 5,000,000 (got \(rows))")
        }
    }

    func run() throws {
        let text = format == .yaml ? yaml() : csv()
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            StandardError.line("rowkit: cannot write '\(output)': \(error.localizedDescription)")
            throw ExitCode.cannotCreate
        }
    }

    /// One generated row.
    private struct Item {
        var number: Int
        var section: String
        var style: String
        var text: String
        var detail: String
        var body: String?
    }

    private static let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
    private static let styles = ["default", "value1", "subtitle", "value2"]

    /// The rows in order: section by section, each section a contiguous block.
    private var items: [Item] {
        (0..<rows).map { index in
            let letter = Self.letters[index * Self.letters.count / rows]
            let number = index + 1
            return Item(
                number: number, section: letter, style: Self.styles[index % Self.styles.count],
                text: "\(letter) item \(number)", detail: "No. \(number)",
                body: number % 100 == 0
                    ? "Row **\(number)** of \(rows), in section *\(letter)*."
                    : nil)
        }
    }

    private func yaml() -> String {
        var out = "version: 1\ntitle: \"Large listing (\(rows) rows)\"\nstyle: plain\nsections:\n"
        var current: String?
        for item in items {
            if item.section != current {
                current = item.section
                out += "  - header: \"\(item.section)\"\n    index: \"\(item.section)\"\n    rows:\n"
            }
            out += "      - { id: \"row-\(item.number)\", style: \(item.style), text: \"\(item.text)\", "
            out += "detail: \"\(item.detail)\""
            if let body = item.body { out += ", accessory: disclosureIndicator, body: \"\(body)\"" }
            out += " }\n"
        }
        return out
    }

    private func csv() -> String {
        var out = "id,section,style,text,detail,accessory,body\n"
        for item in items {
            let body = item.body.map { "\"" + $0.replacingOccurrences(of: "\\n", with: "\n") + "\"" } ?? ""
            let accessory = item.body == nil ? "" : "disclosureIndicator"
            out += "row-\(item.number),\(item.section),\(item.style),\(item.text),\(item.detail),\(accessory),\(body)\n"
        }
        return out
    }
}
