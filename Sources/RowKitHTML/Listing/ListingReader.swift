import Foundation

/// Reads listing files (YAML, JSON or CSV) into validated ``ListingDocument`` values.
///
/// Every problem is reported with its `file:line:column`; syntax errors stop a file at the first
/// one, schema problems are all reported. Input is bounded by ``ListingLimits``.
public enum ListingReader {
    /// Reads and validates the listing at `url`, a file URL.
    ///
    /// - Parameters:
    ///   - url: The file; its path as given (`relativePath`) appears in diagnostics.
    ///   - format: The syntax; `nil` picks it from the extension (`.yaml`/`.yml`, `.json`, `.csv`).
    ///   - csv: How CSV columns map to fields; ignored for YAML and JSON.
    /// - Throws: ``ListingError`` with every problem found.
    public static func read(
        contentsOf url: URL, format: ListingFormat? = nil, csv: CSVListingOptions = .init()
    ) throws(ListingError) -> ListingDocument {
        try read(contentsOfFile: url.relativePath, format: format, csv: csv)
    }

    /// Reads and validates the listing at `path`, which appears as given in diagnostics.
    ///
    /// - Throws: ``ListingError`` with every problem found.
    public static func read(
        contentsOfFile path: String, format: ListingFormat? = nil, csv: CSVListingOptions = .init()
    ) throws(ListingError) -> ListingDocument {
        switch load(path: path).flatMap({ check($0, path: path, format: format, csv: csv) }) {
        case .success(let document): return document
        case .failure(let error): throw error
        }
    }

    /// Reads and validates a listing held in memory; `path` names it in diagnostics and its folder
    /// is where image paths resolve.
    ///
    /// - Throws: ``ListingError`` with every problem found.
    public static func read(
        _ data: Data, path: String, format: ListingFormat? = nil, csv: CSVListingOptions = .init()
    ) throws(ListingError) -> ListingDocument {
        switch check(data, path: path, format: format, csv: csv) {
        case .success(let document): return document
        case .failure(let error): throw error
        }
    }

    /// Every problem in the listing at `url`; empty when it reads cleanly.
    public static func validate(
        contentsOf url: URL, format: ListingFormat? = nil, csv: CSVListingOptions = .init()
    ) -> [ListingDiagnostic] {
        let path = url.relativePath
        return diagnostics(of: load(path: path).flatMap { check($0, path: path, format: format, csv: csv) })
    }

    /// Every problem in a listing held in memory; empty when it reads cleanly.
    public static func validate(
        _ data: Data, path: String, format: ListingFormat? = nil, csv: CSVListingOptions = .init()
    ) -> [ListingDiagnostic] {
        diagnostics(of: check(data, path: path, format: format, csv: csv))
    }

    // MARK: - Pipeline

    private static func diagnostics(of result: Result<ListingDocument, ListingError>) -> [ListingDiagnostic] {
        if case .failure(let error) = result { return error.diagnostics }
        return []
    }

    private static func failure(_ path: String, _ message: String, line: Int = 1, column: Int = 1) -> ListingError {
        ListingError(diagnostics: [
            ListingDiagnostic(location: SourceLocation(file: path, line: line, column: column), message: message)
        ])
    }

    /// The file's bytes, refusing non-regular files and files over the size limit before reading.
    private static func load(path: String) -> Result<Data, ListingError> {
        // Checked before opening: opening a FIFO or device could block or never end.
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        if let type = attributes?[.type] as? FileAttributeType, type != .typeRegular {
            return .failure(failure(path, "not a regular file"))
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(failure(path, "cannot open the file"))
        }
        defer { try? handle.close() }
        do {
            let data = try handle.read(upToCount: ListingLimits.maxFileSize + 1) ?? Data()
            if data.count > ListingLimits.maxFileSize {
                return .failure(failure(path, "the file is larger than the \(ListingLimits.maxFileSize / 1_048_576) MiB limit"))
            }
            return .success(data)
        } catch {
            return .failure(failure(path, "cannot read the file: \(error.localizedDescription)"))
        }
    }

    /// Decodes, parses and validates `data` named `path`.
    private static func check(
        _ data: Data, path: String, format: ListingFormat?, csv: CSVListingOptions
    ) -> Result<ListingDocument, ListingError> {
        let pathURL = URL(fileURLWithPath: path)
        guard let format = format ?? ListingFormat(pathExtension: pathURL.pathExtension) else {
            return .failure(failure(
                path, "cannot tell the format from the extension '\(pathURL.pathExtension)'; "
                    + "use .yaml, .yml, .json or .csv, or pass a format"))
        }
        guard data.count <= ListingLimits.maxFileSize else {
            return .failure(failure(path, "the file is larger than the \(ListingLimits.maxFileSize / 1_048_576) MiB limit"))
        }
        let raw = [UInt8](data)
        if let offset = ListingText.firstInvalidUTF8Offset(in: raw) {
            let (line, column) = ListingText.position(of: offset, in: raw)
            return .failure(failure(
                path, "invalid UTF-8 (\(ListingText.hex(raw[offset]))); listings must be UTF-8 text",
                line: line, column: column))
        }
        let bytes = Array(ListingText.droppingBOM(raw))
        let defaultTitle = pathURL.deletingPathExtension().lastPathComponent
        let empty = bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if empty, format != .csv {
            return .failure(failure(path, "the document is empty; expected a mapping with 'sections'"))
        }
        let tree: ListingNode
        switch format {
        case .json:
            var parser = JSONListingParser(bytes: bytes, file: path)
            do {
                tree = try parser.parse()
            } catch {
                return .failure(ListingError(diagnostics: [error.diagnostic]))
            }
        case .yaml:
            let (node, problems) = YAMLListingParser.parse(bytes: bytes, file: path)
            guard let node, problems.isEmpty else { return .failure(ListingError(diagnostics: problems)) }
            tree = node
        case .csv:
            let table: CSVTable
            do {
                table = try CSVTable(bytes: bytes, file: path)
            } catch {
                return .failure(ListingError(diagnostics: [error.diagnostic]))
            }
            let (node, problems) = CSVListingBuilder.build(table, options: csv, file: path, defaultTitle: defaultTitle)
            guard let node, problems.isEmpty else { return .failure(ListingError(diagnostics: problems)) }
            tree = node
        }
        let directory = pathURL.deletingLastPathComponent().path
        var validator = ListingValidator(file: path, directory: directory)
        guard let document = validator.document(from: tree, defaultTitle: defaultTitle) else {
            return .failure(ListingError(diagnostics: validator.diagnostics.finished()))
        }
        return .success(document)
    }
}
