import ArgumentParser
import Foundation
import RowKit
import RowKitHTML
import RowKitListing

/// `rowkit export`: reads listings, validates them all, and writes a static site.
///
/// Nothing is written unless every input is valid; the exporter replaces the site atomically, so
/// a failed export leaves the output folder as it was.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a static HTML site that shows listings as iOS tables.",
        usage: "rowkit export <input> ... --output <dir> [<options>] [<csv-columns>]",
        discussion: """
            Reads each input as a stream and renders its pages while reading, on every core \
            (--jobs), into a temporary folder: a listing of any size is exported in bounded \
            memory. If any input has a problem, every problem is printed on standard error as \
            file:line:column: message, nothing is published and the status is 65. One input \
            becomes the site itself; several inputs become one folder each, linked from a shared \
            index.html. Re-exporting renders only the pages whose rows changed and keeps the \
            others; with unchanged inputs the site is kept as it is. A progress bar (input read, \
            rows per second) is shown on standard error when it is a terminal and the export \
            takes more than a moment; a one-line summary goes to standard output.

            Exit status: 0 on success, 64 for a usage error, 65 when an input has a problem, 66 \
            when an input or the templates folder cannot be read, 73 when the output cannot be \
            written.

            EXAMPLES
              Export the Settings example and open it:
                rowkit export Examples/settings.yaml -o /tmp/site
                open /tmp/site/index.html

              Export a CSV catalogue, grouped into sections by its "category" column:
                rowkit export Examples/catalogue.csv -o /tmp/catalogue \\
                  --section-by category --sort --id sku --text name \\
                  --detail price --body description --style layout \\
                  --title Catalogue

              Several listings become several pages with a shared index:
                rowkit export Examples/settings.yaml Examples/contacts.json -o /tmp/site

              Override the table style and paginate every 5 rows:
                rowkit export Examples/contacts.json -o /tmp/contacts \\
                  --table-style grouped --page-size 5

              Use your own templates (any subset; the rest come from the built-in ones):
                rowkit export Examples/settings.yaml -o /tmp/site --templates my-templates
            """)

    @OptionGroup var input: InputOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The folder to write the site to; created when missing.", valueName: "dir"))
    var output: String

    @Option(help: ArgumentHelp("Override the table style of every input.", valueName: "plain|grouped|insetGrouped"))
    var tableStyle: TableStyle?

    @Option(help: ArgumentHelp("Rows per page; longer tables are split into numbered pages.", valueName: "n"))
    var pageSize = ExportOptions().pageSize

    @Option(
        help: ArgumentHelp(
            "A folder of .mustache templates that replace the built-in ones of the same name.", valueName: "dir"))
    var templates: String?

    @Option(help: ArgumentHelp("The site's title (default: the listing's title, or \"Listings\" for several).", valueName: "text"))
    var title: String?

    @Flag(
        help: ArgumentHelp(
            "Allow raw HTML in Markdown bodies.",
            discussion: "By default raw HTML in bodies is replaced by a comment. Use this only for listings you trust."))
    var unsafeHTML = false

    @Option(
        help: ArgumentHelp(
            "Pages rendered at once, each on a thread of its own (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(name: .shortAndLong, help: "Print nothing but problems: no progress bar, no summary.")
    var quiet = false

    @Option(help: .hidden)
    var progressDelay = 0.3

    func validate() throws {
        guard pageSize >= 1 else { throw ValidationError("--page-size must be at least 1 (got \(pageSize))") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1 (got \(jobs))") }
        guard progressDelay >= 0 else { throw ValidationError("--progress-delay must not be negative") }
    }

    func run() throws {
        let loader = ListingLoader(options: input, csvTableStyle: tableStyle)
        try loader.checkInputsExist()
        let templatesURL = try templatesFolder()
        try checkOutputIsAFolder()

        let progress = ProgressBar(enabled: ProgressBar.isWanted(quiet: quiet), delay: progressDelay)
        defer { progress.finish() }
        let imageBase = Self.commonFolder(of: input.inputs)
        let single = input.inputs.count == 1
        let listings = loader.readers().map { ListingExport($0, title: single ? title : nil, style: tableStyle) }
        var options = ExportOptions(
            pageSize: pageSize, baseDirectory: imageBase.map { URL(fileURLWithPath: $0, isDirectory: true) },
            templatesDirectory: templatesURL, title: title ?? "Listings", markdown: Markdown.Options(unsafeHTML: unsafeHTML))
        if let jobs { options.jobs = jobs }
        let exporter = SiteExporter(options)
        let outputURL = URL(fileURLWithPath: output, isDirectory: true)
        let summary: ExportSummary
        do {
            summary = try exporter.export(listings: listings, to: outputURL) { report in
                progress.update(reading: report)
            }
        } catch let error as ListingExportError {
            progress.finish()
            StandardError.line(error.description)
            throw ExitCode.dataError
        } catch let error as ExportError {
            progress.finish()
            throw Self.exitCode(reporting: error)
        } catch {
            progress.finish()
            StandardError.line("rowkit: cannot write the site: \(error.localizedDescription)")
            throw ExitCode.cannotCreate
        }
        progress.finish()
        guard !quiet else { return }
        print(Self.summaryLine(summary, output: output))
        print("open \(Self.shellQuoted((output as NSString).appendingPathComponent("index.html")))")
    }

    /// The templates folder as a URL, or exit 66 when it is not a readable folder.
    private func templatesFolder() throws(ExitCode) -> URL? {
        guard let templates else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: templates, isDirectory: &isDirectory), isDirectory.boolValue else {
            StandardError.line("rowkit: cannot read templates folder '\(templates)': no such folder")
            throw .noInput
        }
        return URL(fileURLWithPath: templates, isDirectory: true)
    }

    /// Exits 73 when the output path exists and is not a folder.
    private func checkOutputIsAFolder() throws(ExitCode) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), !isDirectory.boolValue {
            StandardError.line("rowkit: cannot write the site to '\(output)': it is a file, not a folder")
            throw .cannotCreate
        }
    }

    /// Prints `error` and returns the status it means: 73 for the file system, 65 for the data
    /// and the templates (an image the exporter cannot use is reported at the row's image field,
    /// as a ``ListingExportError``), 1 for anything else, which the checks before the export should
    /// have ruled out.
    static func exitCode(reporting error: ExportError) -> ExitCode {
        switch error {
        case .fileSystem(let operation, let path, let message):
            StandardError.line("rowkit: cannot write the site: \(operation) \(path): \(message)")
            return .cannotCreate
        case .imageNotFound, .imageOutsideBaseDirectory, .unsupportedImageType, .noBaseDirectory:
            StandardError.line("rowkit: \(error.description)")
            return .dataError
        case .templateSyntax, .templateInvalid, .templateMissing:
            StandardError.line("rowkit: \(error.description)")
            return .dataError
        case .bundledTemplatesMissing, .duplicateTableName, .invalidPageSize:
            StandardError.line("rowkit: cannot export: \(error.description)")
            return .failure
        }
    }

    /// "Wrote site: 24 pages, 17 rows, 98.2 KB in 0.05 s (26 files written, 0 unchanged)".
    static func summaryLine(_ summary: ExportSummary, output: String) -> String {
        var line = "Wrote \(output): \(Formatting.plural(summary.pages, "page")), "
        line += "\(Formatting.plural(summary.rows, "row")), \(Formatting.bytes(summary.bytes)) "
        line += "in \(Formatting.seconds(summary.seconds)) "
        line += "(\(Formatting.grouped(summary.filesWritten)) files written, "
        line += "\(Formatting.grouped(summary.filesUnchanged)) unchanged"
        if summary.filesRemoved > 0 { line += ", \(Formatting.grouped(summary.filesRemoved)) removed" }
        return line + ")"
    }

    /// The deepest folder holding every path's folder, symbolic links resolved; `nil` if none exists.
    static func commonFolder(of paths: [String]) -> String? {
        let folders = paths.compactMap { path -> [Substring]? in
            let folder = (path as NSString).deletingLastPathComponent
            guard let real = realpath(folder.isEmpty ? "." : folder, nil) else { return nil }
            defer { free(real) }
            return String(cString: real).split(separator: "/")
        }
        guard var common = folders.first else { return nil }
        for folder in folders.dropFirst() {
            common = Array(zip(common, folder).prefix { $0 == $1 }.map(\.0))
        }
        return "/" + common.joined(separator: "/")
    }

    /// `path` as a shell word: unchanged when it is plain, else in single quotes.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-+,:@%".unicodeScalars.contains($0))
        }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension TableStyle: ExpressibleByArgument {}
