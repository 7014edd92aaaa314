/// The shape of a table as a diff sees it: sections in order, each with rows in order, every
/// section and row known by its identity, and every row carrying content the diff can compare.
///
/// A snapshot is a plain `Sendable` value, so it can be taken on the main actor and diffed on any
/// other. Rows are stored flat, section after section, in two arrays (identities and contents), so
/// building and diffing a snapshot of a million rows costs a few allocations, not a million.
///
/// Build one from a table (`init(_:revision:)`, identities `ItemID` and contents `AnyRow`), or
/// directly from identities and contents, for tests and benchmarks:
///
/// ```swift
/// var snapshot = TableSnapshot<Int, Int>()
/// snapshot.appendSection(100)
/// snapshot.appendRow(1, content: 0)
/// snapshot.appendRow(2, content: 0)
/// ```
///
/// Section and row identities share the type `ID` but not the namespace: a section and a row may
/// have the same identity. Within its kind every identity must be unique in the whole table; the
/// diff rejects duplicates with `SnapshotError` (see `validate()`).
public struct TableSnapshot<ID: Hashable & Sendable, Content: SnapshotContent>: Sendable {
    /// The revision of the model the snapshot was taken from; `Revision.initial` when it was not
    /// taken from a model. A diff copies it into the changeset's `fromRevision` (old snapshot) and
    /// `toRevision` (new snapshot).
    public var revision: Revision
    /// The section identities, in order.
    public private(set) var sectionIDs: [ID] = []
    /// The row identities of all sections, section after section.
    public private(set) var rowIDs: [ID] = []
    /// The row contents, parallel to `rowIDs`.
    public private(set) var contents: [Content] = []
    /// Where each section's rows start in `rowIDs`, plus the end of the last section: one more
    /// entry than there are sections.
    public private(set) var sectionStarts: [Int] = [0]

    /// Creates an empty snapshot (no sections) taken at `revision`.
    public init(revision: Revision = .initial) {
        self.revision = revision
    }

    /// Creates a snapshot from sections of identity and content pairs.
    ///
    /// - Complexity: O(*n*), where *n* is the number of rows.
    public init(sections: [(id: ID, rows: [(id: ID, content: Content)])], revision: Revision = .initial) {
        self.revision = revision
        let rows = sections.reduce(0) { $0 + $1.rows.count }
        reserveCapacity(sections: sections.count, rows: rows)
        for section in sections {
            appendSection(section.id)
            for row in section.rows { appendRow(row.id, content: row.content) }
        }
    }

    /// Reserves storage for `sections` sections and `rows` rows in all.
    ///
    /// - Complexity: O(*n*), where *n* is the larger of the current and requested sizes.
    public mutating func reserveCapacity(sections: Int, rows: Int) {
        sectionIDs.reserveCapacity(sections)
        sectionStarts.reserveCapacity(sections + 1)
        rowIDs.reserveCapacity(rows)
        contents.reserveCapacity(rows)
    }

    /// Appends an empty section with identity `id`.
    ///
    /// - Complexity: Amortized O(1).
    public mutating func appendSection(_ id: ID) {
        sectionIDs.append(id)
        sectionStarts.append(rowIDs.count)
    }

    /// Appends a row to the last section.
    ///
    /// - Precondition: The snapshot has at least one section.
    /// - Complexity: Amortized O(1).
    public mutating func appendRow(_ id: ID, content: Content) {
        precondition(!sectionIDs.isEmpty, "appendRow(_:content:) needs a section: call appendSection(_:) first")
        rowIDs.append(id)
        contents.append(content)
        sectionStarts[sectionStarts.count - 1] = rowIDs.count
    }

    /// The number of sections.
    public var sectionCount: Int { sectionIDs.count }
    /// The number of rows in all sections.
    public var rowCount: Int { rowIDs.count }

    /// The number of rows in each section, in order.
    ///
    /// - Complexity: O(*s*), where *s* is the number of sections.
    public var rowCounts: [Int] {
        (0..<sectionIDs.count).map { sectionStarts[$0 + 1] - sectionStarts[$0] }
    }

    /// The positions in `rowIDs` of the rows of `section`.
    public func rowRange(inSection section: Int) -> Range<Int> {
        sectionStarts[section]..<sectionStarts[section + 1]
    }

    /// The row identities of `section`, in order.
    public func rowIDs(inSection section: Int) -> ArraySlice<ID> { rowIDs[rowRange(inSection: section)] }

    /// The row contents of `section`, in order.
    public func contents(inSection section: Int) -> ArraySlice<Content> { contents[rowRange(inSection: section)] }

    /// The identity of the row at `path`.
    public func rowID(at path: RowPath) -> ID { rowIDs[sectionStarts[path.section] + path.row] }

    /// The content of the row at `path`.
    public func content(at path: RowPath) -> Content { contents[sectionStarts[path.section] + path.row] }

    /// The path of the row at `index` in `rowIDs`.
    ///
    /// - Complexity: O(log *s*), where *s* is the number of sections.
    public func path(ofRowAt index: Int) -> RowPath {
        precondition(index >= 0 && index < rowIDs.count, "row index \(index) out of range")
        // The last section whose start is <= index and that is not empty at index.
        var low = 0
        var high = sectionIDs.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionStarts[mid] <= index { low = mid } else { high = mid - 1 }
        }
        return RowPath(section: low, row: index - sectionStarts[low])
    }

    /// Checks that no two sections and no two rows share an identity.
    ///
    /// The diff performs the same check on both its inputs (at no extra cost: it builds the same
    /// symbol table), so calling this first is only needed to reject a snapshot early.
    ///
    /// - Throws: `SnapshotError.duplicateSectionID` or `.duplicateRowID` for the first duplicate
    ///   found (sections first), with `side` `nil`.
    /// - Complexity: O(*n*) expected, where *n* is the number of rows and sections.
    public func validate() throws(SnapshotError) {
        try validate(side: nil)
    }

    func validate(side: SnapshotError.Side?) throws(SnapshotError) {
        if let (first, second) = Self.firstDuplicate(in: sectionIDs) {
            throw .duplicateSectionID(ItemID(sectionIDs[first]), first: first, second: second, side: side)
        }
        if let (first, second) = Self.firstDuplicate(in: rowIDs) {
            throw duplicateRowError(first: first, second: second, side: side)
        }
    }

    @usableFromInline
    func duplicateRowError(first: Int, second: Int, side: SnapshotError.Side?) -> SnapshotError {
        .duplicateRowID(ItemID(rowIDs[first]), first: path(ofRowAt: first), second: path(ofRowAt: second), side: side)
    }

    /// The first position that repeats an earlier identity, and that earlier position.
    private static func firstDuplicate(in ids: [ID]) -> (Int, Int)? {
        var seen = [ID: Int](minimumCapacity: ids.count)
        for (index, id) in ids.enumerated() {
            if let earlier = seen.updateValue(index, forKey: id) { return (earlier, index) }
        }
        return nil
    }
}

extension TableSnapshot: Equatable where Content: Equatable {}
extension TableSnapshot: Hashable where Content: Hashable {}
