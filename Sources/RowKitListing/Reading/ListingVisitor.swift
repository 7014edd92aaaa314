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
