import Foundation

/// Reads listing files (YAML, JSON or CSV) as a stream of rows, or whole into validated
/// ``ListingDocument`` values.
///
/// A listing of any size is read in bounded memory: ``read(into:)`` hands each section and row to
/// a ``ListingVisitor`` as soon as it is read and checked, and keeps nothing but the current row,
/// the identities seen and, for a CSV file sectioned by a column, where each run of a section's
/// rows starts. Identities are kept in memory 524,288 at a time (about 8 bytes each); the older
/// ones are set aside, sorted, in an unnamed temporary file (in `TMPDIR`, else `/var/tmp`), with a
/// Bloom filter of 2 to 3 bytes an identity in memory for checking derived ids, and checked for
/// repeats at the end of the read. So a repeat between two ids far apart is reported after the
/// read, not as soon as it is met; and a listing in which many rows derive the same slug takes its
/// identities back into memory (about 8 bytes a row). The static `read` methods collect the rows
/// into a ``ListingDocument`` for listings that fit in memory.
///
/// Every problem is reported with its `file:line:column`: a syntax error stops a file at the first
/// one; schema problems are all reported, in file order, at most ``ListingLimits/maxDiagnostics``.
/// No single value may exceed ``ListingLimits`` (nesting depth, value size); aliases are refused.
public struct ListingReader: Sendable {
    /// The path as given; it appears in diagnostics, and image paths resolve against its folder.
    public var path: String
    /// The listing's bytes, when it is read from memory rather than from the file at ``path``.
    public var data: Data?
    /// The syntax; `nil` picks it from the extension (`.yaml`/`.yml`, `.json`, `.csv`).
    public var format: ListingFormat?
    /// How CSV columns map to fields; ignored for YAML and JSON.
    public var csv: CSVListingOptions
    /// How many bytes are read at a time (at least 1; default: 1 MiB). The result does not depend
    /// on it; tests and fuzzing read in tiny pieces to cross every boundary.
    public var bufferSize = 1 << 20 {
        didSet { bufferSize = max(1, bufferSize) }
    }

    /// Whether a YAML or JSON document is parsed on a thread of its own, a bounded way ahead of
    /// the thread that checks the rows and hands them out (default: `false`). The rows, the
    /// diagnostics and the order of the visitor's calls are the same either way; the exporter
    /// turns it on when it renders on more than one core.
    public var readAhead = false

    /// How many row identities are kept in memory before they are set aside on disk (see
    /// `ListingIdentity`); tests set it low to cross the bound with a few rows.
    var identitiesInMemory = 1 << 19

    /// Finds the images a row's Markdown body references; `nil` (the default) leaves bodies
    /// unchecked. The exporter's `Markdown.images(in:)` is the function to give (the `rowkit`
    /// commands do); it is called only for bodies that contain `![`.
    ///
    /// With it, each image given by a relative path is checked as an `image:` path is (inside the
    /// document's folder, a regular image file of at most 16 MiB); one that the export would not
    /// copy, and one with a destination that is no URL rowkit shows (`javascript:`, `data:`, ...),
    /// is a warning at the body's `file:line:column`: the export shows such an image as its
    /// alternative text. `http:` and `https:` images are not checked.
    public var bodyImages: (@Sendable (String) -> [MarkdownImageReference])?

    /// A reader of the file at `path`.
    public init(contentsOfFile path: String, format: ListingFormat? = nil, csv: CSVListingOptions = .init()) {
        self.path = path
        self.format = format
        self.csv = csv
    }

    /// A reader of a listing held in memory; `path` names it in diagnostics and its folder is where
    /// image paths resolve.
    public init(_ data: Data, path: String, format: ListingFormat? = nil, csv: CSVListingOptions = .init()) {
        self.path = path
        self.data = data
        self.format = format
        self.csv = csv
    }

    /// Reads the listing, handing its sections and rows to `visitor` as they are read.
    ///
    /// - Returns: What the read found; the rows handed out are the listing only when
    ///   ``ListingSummary/isValid``.
    /// - Throws: Only what `visitor` throws (which stops the read).
    /// - Complexity: O(*n*) in the input's length; a second pass in the cases ``ListingVisitor``
    ///   names.
    public func read<Visitor: ListingVisitor>(into visitor: inout Visitor) throws -> ListingSummary {
        var scan = ListingScan(reader: self, visitor: visitor)
        defer { visitor = scan.visitor }
        return try scan.run()
    }

    /// Checks the listing without keeping its rows.
    public func validate() -> ListingSummary {
        var ignore = IgnoringVisitor()
        // An ignoring visitor never throws.
        return (try? read(into: &ignore))
            ?? ListingSummary(
                diagnostics: [], header: ListingHeader(path: path, title: ""), sectionCount: 0, rowCount: 0,
                byteCount: 0, passes: 0)
    }

    /// The whole document, or every problem in it.
    public func document() -> Result<ListingDocument, ListingError> {
        var collector = DocumentCollector()
        let summary: ListingSummary
        do {
            summary = try read(into: &collector)
        } catch {
            preconditionFailure("collecting rows never throws: \(error)")
        }
        guard summary.isValid else { return .failure(ListingError(diagnostics: summary.diagnostics)) }
        let header = summary.header
        return .success(
            ListingDocument(
                path: header.path, version: header.version, title: header.title, style: header.style,
                sections: collector.sections))
    }

    // MARK: - Whole documents

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
        try ListingReader(contentsOfFile: path, format: format, csv: csv).document().get()
    }

    /// Reads and validates a listing held in memory; `path` names it in diagnostics and its folder
    /// is where image paths resolve.
    ///
    /// - Throws: ``ListingError`` with every problem found.
    public static func read(
        _ data: Data, path: String, format: ListingFormat? = nil, csv: CSVListingOptions = .init()
    ) throws(ListingError) -> ListingDocument {
        try ListingReader(data, path: path, format: format, csv: csv).document().get()
    }

    /// Every problem in the listing at `url`; empty when it reads cleanly.
    public static func validate(
        contentsOf url: URL, format: ListingFormat? = nil, csv: CSVListingOptions = .init()
    ) -> [ListingDiagnostic] {
        ListingReader(contentsOfFile: url.relativePath, format: format, csv: csv).validate().diagnostics
    }

    /// Every problem in a listing held in memory; empty when it reads cleanly.
    public static func validate(
        _ data: Data, path: String, format: ListingFormat? = nil, csv: CSVListingOptions = .init()
    ) -> [ListingDiagnostic] {
        ListingReader(data, path: path, format: format, csv: csv).validate().diagnostics
    }
}

/// Keeps nothing.
private struct IgnoringVisitor: ListingVisitor {}

/// Collects the rows handed out into sections.
private struct DocumentCollector: ListingVisitor {
    var sections: [ListingSection] = []
    private var rows: [ListingRow] = []

    mutating func begin(_ header: ListingHeader) {
        sections = []
        rows = []
    }

    mutating func row(_ row: ListingRow, section: Int) {
        rows.append(row)
    }

    mutating func endSection(_ section: ListingSection, index: Int) {
        var complete = section
        complete.rows = rows
        rows = []
        sections.append(complete)
    }

    mutating func abandon() {
        sections = []
        rows = []
    }
}

extension ListingReader {
    /// The document's header as the reader would guess it when handing out the first row (its
    /// title and style, from what precedes the rows or, failing that, from the end of the file),
    /// read without going further; `nil` when the document has a problem before its first row.
    package func peekHeader() -> ListingHeader? {
        var peek = HeaderPeek()
        _ = try? read(into: &peek)
        return peek.header
    }

    /// The size and ``StableHash`` of the input's bytes, or `nil` when it cannot be read or its
    /// size is not `expectedSize` (then it is not read).
    package func contentHash(expectedSize: Int? = nil) -> (size: Int, hash: UInt64)? {
        let input: ListingInput
        if let data {
            input = ListingInput(data: data, path: path)
        } else {
            guard case .success(let opened) = ListingInput.open(path: path) else { return nil }
            input = opened
        }
        if let expectedSize, let size = input.size, size != expectedSize { return nil }
        input.start()
        repeat { input.position = input.limit } while input.refill()
        guard let hash = input.contentHash, let size = input.size, input.readError == nil else { return nil }
        return (size, hash)
    }
}

/// Stops a read at its first section, keeping the header it starts with.
private struct HeaderPeek: ListingVisitor {
    var header: ListingHeader?

    struct Enough: Error {}

    mutating func begin(_ header: ListingHeader) throws {
        self.header = header
        throw Enough()
    }
}
