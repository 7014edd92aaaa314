import ArgumentParser
import Foundation
import RowKit
import RowKitHTML
import RowKitListing

/// A command's inputs: first checks that every input is a regular file that can be read (exit 66
/// naming each one that is not), then makes a reader for each.
struct ListingLoader {
    /// The inputs and how to read them.
    var options: InputOptions
    /// The table style CSV inputs get (YAML and JSON inputs name their own).
    var csvTableStyle: TableStyle?

    /// Throws `ExitCode.noInput` after printing one line per input that does not exist, is not a
    /// regular file (a folder, a device, a pipe) or cannot be read.
    func checkInputsExist() throws(ExitCode) {
        let problems = options.inputs.compactMap(Self.openProblem(at:))
        guard problems.isEmpty else {
            problems.forEach(StandardError.line)
            throw .noInput
        }
    }

    /// Prints a warning on standard error when CSV column options were given but no input is read
    /// as CSV, which would otherwise ignore them without a word. With a CSV input among others,
    /// they apply to it, and nothing is printed.
    func warnAboutUnusedCSVOptions() {
        let given = options.csv.given
        guard let last = given.last else { return }
        let formats = options.inputs.map {
            options.format ?? ListingFormat(pathExtension: URL(fileURLWithPath: $0).pathExtension)
        }
        guard !formats.contains(.csv) else { return }
        let names = given.count == 1 ? last : given.dropLast().joined(separator: ", ") + " and " + last
        let inputs =
            if options.inputs.count == 1, let input = options.inputs.first, let format = formats.first ?? nil {
                "\(input) is read as \(format.rawValue.uppercased())"
            } else {
                "no input is read as CSV"
            }
        StandardError.line(
            "rowkit: warning: \(names) \(given.count == 1 ? "is" : "are") ignored: "
                + "\(given.count == 1 ? "it applies" : "they apply") only to CSV inputs, and \(inputs)")
    }

    /// Prints `warnings` on standard error as `file:line:column: warning: message`, and how many
    /// more there are when `count` is larger.
    static func printWarnings(_ warnings: [ListingDiagnostic], count: Int) {
        for warning in warnings { StandardError.line("\(warning.location): warning: \(warning.message)") }
        if count > warnings.count {
            StandardError.line(
                "rowkit: \(Formatting.grouped(count - warnings.count)) more warnings like these are not shown")
        }
    }

    /// A reader for each input, in order.
    func readers() -> [ListingReader] {
        let csv = options.csv.listingOptions(tableStyle: csvTableStyle)
        return options.inputs.map {
            var reader = ListingReader(contentsOfFile: $0, format: options.format, csv: csv)
            // Bodies' images are checked as `image:` paths are (what the export would not copy).
            reader.bodyImages = { Markdown.images(in: $0) }
            return reader
        }
    }

    /// Why `path` cannot be opened as an input, or `nil` when it can: it must be a regular file
    /// (not a folder, a device, a pipe or a socket) that this user can read.
    private static func openProblem(at path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return "rowkit: cannot read '\(path)': no such file"
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return "rowkit: cannot read '\(path)': it is a directory"
        case S_IFCHR, S_IFBLK: return "rowkit: cannot read '\(path)': it is a device, not a file"
        case S_IFIFO: return "rowkit: cannot read '\(path)': it is a pipe, not a file; save the listing to a file first"
        default: return "rowkit: cannot read '\(path)': it is not a regular file"
        }
        if !FileManager.default.isReadableFile(atPath: path) {
            return "rowkit: cannot read '\(path)': permission denied"
        }
        return nil
    }
}
