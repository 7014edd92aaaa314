import ArgumentParser
import RowKit
import Foundation
import RowKitHTML
import RowKitListing

/// A command's inputs: first checks that every file can be opened (exit 66 naming each one that
/// cannot), then makes a reader for each.
struct ListingLoader {
    /// The inputs and how to read them.
    var options: InputOptions
    /// The table style CSV inputs get (YAML and JSON inputs name their own).
    var csvTableStyle: TableStyle?

    /// Throws `ExitCode.noInput` after printing one line per input that does not exist, is not a
    /// regular file or cannot be read.
    func checkInputsExist() throws(ExitCode) {
        let problems = options.inputs.compactMap(Self.openProblem(at:))
        guard problems.isEmpty else {
            problems.forEach(StandardError.line)
            throw .noInput
        }
    }

    /// A reader for each input, in order.
    func readers() -> [ListingReader] {
        let csv = options.csv.listingOptions(tableStyle: csvTableStyle)
        return options.inputs.map { ListingReader(contentsOfFile: $0, format: options.format, csv: csv) }
    }

    /// Why `path` cannot be opened as an input, or `nil` when it can.
    private static func openProblem(at path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            return "rowkit: cannot read '\(path)': no such file"
        }
        if isDirectory.boolValue { return "rowkit: cannot read '\(path)': it is a directory" }
        if !FileManager.default.isReadableFile(atPath: path) {
            return "rowkit: cannot read '\(path)': permission denied"
        }
        return nil
    }
}
