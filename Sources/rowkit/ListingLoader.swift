import ArgumentParser
import RowKit
import Foundation
import RowKitHTML
import RowKitListing

/// Reads a command's inputs: first checks that every file can be opened (exit 66 naming each one
/// that cannot), then reads and validates every file, so one run reports every problem.
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

    /// Every input read and validated, in order: a document or the error listing its problems.
    ///
    /// `willRead` is called before each input with its path.
    func readEach(willRead: (String) -> Void = { _ in }) -> [(input: String, result: Result<ListingDocument, ListingError>)] {
        let csv = options.csv.listingOptions(tableStyle: csvTableStyle)
        return options.inputs.map { input in
            willRead(input)
            let result = Result { () throws(ListingError) in
                try ListingReader.read(contentsOfFile: input, format: options.format, csv: csv)
            }
            return (input, result)
        }
    }

    /// Every input as a document; when any input has problems, prints them all on standard error
    /// (`file:line:column: message`) and throws `ExitCode.dataError`.
    func readAll(willRead: (String) -> Void = { _ in }) throws(ExitCode) -> [ListingDocument] {
        let results = readEach(willRead: willRead)
        var documents: [ListingDocument] = []
        var failed = false
        for (_, result) in results {
            switch result {
            case .success(let document):
                documents.append(document)
            case .failure(let error):
                failed = true
                error.diagnostics.forEach { StandardError.line($0.description) }
            }
        }
        if failed { throw .dataError }
        return documents
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
