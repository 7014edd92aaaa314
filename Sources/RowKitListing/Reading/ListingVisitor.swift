/// Receives a listing's sections and rows as ``ListingReader/read(into:)`` reads them.
///
/// A pass over the document starts with ``begin(_:)``; then, in document order, each section's
/// rows (``row(_:section:)``) and its end (``endSection(_:index:)``, where its header, footer and
/// index title are final). What a visitor is given is good only if the read ends without
/// problems: the reader stops handing out rows at the first problem it finds and calls
/// ``abandon()`` (it goes on reading, to report every problem). A document is also read a second
/// time, after ``abandon()``, when its rows cannot be handed out in order in one pass: a title or
/// style written after the rows, a row whose derived id turns out to clash with an explicit id
/// further down, CSV rows whose sections are not contiguous (or not in name order with `sort`).
///
/// Every method has a default that does nothing, so a visitor implements only what it needs.
public protocol ListingVisitor {
    /// A pass starts: what was handed out before is void. `header` is the document's title and
    /// style as they will be final if the pass completes.
    mutating func begin(_ header: ListingHeader) throws
    /// The next row, in the section numbered `section` (from 0, in document order).
    mutating func row(_ row: ListingRow, section: Int) throws
    /// The section numbered `index` ends; its rows were handed out before. `section.rows` is empty.
    mutating func endSection(_ section: ListingSection, index: Int) throws
    /// What was handed out since ``begin(_:)`` is void: the document has a problem, or it will be
    /// read again.
    mutating func abandon()
    /// How far reading has come, every megabyte or so.
    mutating func progress(_ progress: ListingProgress)
}

extension ListingVisitor {
    public mutating func begin(_ header: ListingHeader) throws {}
    public mutating func row(_ row: ListingRow, section: Int) throws {}
    public mutating func endSection(_ section: ListingSection, index: Int) throws {}
    public mutating func abandon() {}
    public mutating func progress(_ progress: ListingProgress) {}
}

/// How far reading a listing has come.
public struct ListingProgress: Sendable, Equatable {
    /// Bytes of the input read so far in this pass.
    public var bytesRead: Int
    /// The input's size in bytes, when known.
    public var bytesTotal: Int?
    /// Rows read so far in this pass.
    public var rowsRead: Int

    /// Creates a progress report.
    public init(bytesRead: Int, bytesTotal: Int?, rowsRead: Int) {
        self.bytesRead = bytesRead
        self.bytesTotal = bytesTotal
        self.rowsRead = rowsRead
    }
}

/// What reading a listing found: its problems (none when it is valid) and its outline.
public struct ListingSummary: Sendable {
    /// Every problem, in file order, as `file:line:column: message`; empty when the listing is valid.
    public var diagnostics: [ListingDiagnostic]
    /// The document's path, title, style and version (defaults where it has none).
    public var header: ListingHeader
    /// The number of sections.
    public var sectionCount: Int
    /// The number of rows.
    public var rowCount: Int
    /// The size of the input in bytes.
    public var byteCount: Int
    /// How many times the input was read (more than once when rows could not be handed out in one
    /// pass; see ``ListingVisitor``).
    public var passes: Int
    /// A hash of the input's bytes (``StableHash``), when it was read to its end.
    package var contentHash: UInt64?

    /// Whether the listing has no problems.
    public var isValid: Bool { diagnostics.isEmpty }
}
