/// A table with an identity index and transactional batch updates: the value a view follows.
///
/// A model is a plain `Sendable` value holding a `Table` (style and sections) and an index from
/// every row and section identity to its position. Identities are unique: `init(_:)` rejects
/// duplicates, and updates refuse to create them.
///
/// Change a model with `performBatch(_:)` (or a single-operation convenience such as
/// `insert(_:at:animation:)`): the batch either applies completely, giving a new `revision` and a
/// `Changeset` a view can animate, or throws a `TableUpdateError` and leaves the model unchanged.
///
/// ```swift
/// var model = try TableModel(settings)
/// let changes = try model.performBatch { $0.delete(.id("Bluetooth"), animation: .fade) }
/// ```
///
/// Rows live in each section's `RowList`, a counted B-tree: the row at a position, and a row's
/// path by identity (a hash lookup, then O(log *k*) up its section's tree), take O(log *k*) for a
/// row in a section of *k* rows; so does inserting, deleting or moving one row, anywhere in the
/// section. Building the changeset adds O(*s*) for *s* sections. Copies share storage; the first
/// change after a copy copies what it changes (O(*n*) for *n* rows). The identity index grows a
/// few slots per change, so no single edit rehashes it; a large section's row storage grows
/// where it is, in address space reserved for it (on Linux, from about 76,000 rows on).
public struct TableModel: Sendable {
    /// The table: style and sections.
    public internal(set) var table: Table
    /// The model's revision: a new one after every successful non-empty batch, unchanged when a
    /// batch throws.
    public internal(set) var revision: Revision
    /// Identity → position, kept in step with `table` by every change.
    package var index: TableIndex

    /// An empty model.
    public init(style: TableStyle = .insetGrouped) {
        table = Table(style: style, sections: [])
        revision = .next()
        index = TableIndex()
    }

    /// A model of `table`; throws when two rows or two sections share an identity.
    ///
    /// - Complexity: O(*n* + *s*) for *n* rows and *s* sections.
    public init(_ table: Table) throws(TableModelError) {
        var index = TableIndex()
        index.rowLocations = IdentityTable(minimumCapacity: table.rowCount)
        var duplicate: TableModelError?
        for (sectionIndex, section) in table.sections.enumerated() {
            if let first = index.sectionPositions.updateValue(sectionIndex, forKey: section.id) {
                throw .duplicateSectionID(section.id, first: first, second: sectionIndex)
            }
            let key = index.newKey()
            index.sectionKeys.append(key)
            index.keyPositions[Int(key)] = Int32(sectionIndex)
            var rowIndex = 0
            section.rows.forEachLeaf { leaf, ids in
                for (k, id) in ids.enumerated() {
                    let location = TableIndex.Location(key: key, leaf: leaf)
                    let hint = section.rows.hint(ofLeaf: leaf, at: k)
                    if duplicate == nil, let first = index.rowLocations.updateValue(location, hint: hint, forKey: id) {
                        let firstSection = Int(index.keyPositions[Int(first.key)])
                        let firstRow = table.sections[firstSection].rows.position(of: id, inLeaf: first.leaf) ?? 0
                        duplicate = .duplicateRowID(
                            id, first: RowPath(section: firstSection, row: firstRow),
                            second: RowPath(section: sectionIndex, row: rowIndex))
                    }
                    rowIndex += 1
                }
            }
            if let duplicate { throw duplicate }
        }
        self.table = table
        self.index = index
        self.revision = .next()
    }

    // MARK: Reading

    /// The table's style.
    public var style: TableStyle { table.style }
    /// The sections, in order.
    public var sections: [Section] { table.sections }
    /// The number of sections.
    public var numberOfSections: Int { table.sections.count }
    /// The number of rows in all sections.
    ///
    /// - Complexity: O(*s*) for *s* sections.
    public var rowCount: Int { table.rowCount }
    /// The table's text dump (see `Table.dump`).
    public var dump: String { table.dump }

    /// The number of rows in the section at `section`, or `nil` when there is no such section.
    ///
    /// - Complexity: O(1).
    public func numberOfRows(inSection section: Int) -> Int? {
        table.sections.indices.contains(section) ? table.sections[section].rows.count : nil
    }

    /// The section at `index`, or `nil` when there is none.
    ///
    /// - Complexity: O(1).
    public func section(at index: Int) -> Section? {
        table.sections.indices.contains(index) ? table.sections[index] : nil
    }

    /// The row at `path`, or `nil` when the path is out of range.
    ///
    /// - Complexity: O(log *k*) for a section of *k* rows.
    public func row(at path: RowPath) -> AnyRow? {
        guard let rows = section(at: path.section)?.rows, rows.indices.contains(path.row) else { return nil }
        return rows[path.row]
    }

    /// The row at `path` as an `R`, or `nil` when the path is out of range or the row is another type.
    ///
    /// - Complexity: O(log *k*) for a section of *k* rows.
    public func row<R: Row>(at path: RowPath, as type: R.Type) -> R? {
        row(at: path)?.as(type)
    }

    /// The row at `path`; throws `sectionOutOfRange` or `rowOutOfRange` for a bad path.
    ///
    /// - Complexity: O(log *k*) for a section of *k* rows.
    public func requireRow(at path: RowPath) throws(TableModelError) -> AnyRow {
        guard let rows = section(at: path.section)?.rows else {
            throw .sectionOutOfRange(path.section, sectionCount: numberOfSections)
        }
        guard rows.indices.contains(path.row) else { throw .rowOutOfRange(path, rowCount: rows.count) }
        return rows[path.row]
    }

    /// The row with identity `id`, or `nil` when there is none.
    ///
    /// - Complexity: O(log *k*) for a row in a section of *k* rows.
    public func row(withID id: ItemID) -> AnyRow? {
        path(of: id).flatMap(row(at:))
    }

    /// The path of the row with identity `id`, or `nil` when there is none.
    ///
    /// - Complexity: O(log *k*) for a row in a section of *k* rows: one hash lookup gives the
    ///   row's section and leaf, then the section's tree adds the rows before the leaf on the way
    ///   up.
    public func path(of id: ItemID) -> RowPath? {
        indexedPath(of: id)
    }

    /// The path of the row with identity `id`; throws `unknownRowID` when there is none.
    ///
    /// - Complexity: O(log *k*) for a row in a section of *k* rows.
    public func requirePath(of id: ItemID) throws(TableModelError) -> RowPath {
        guard let path = path(of: id) else { throw .unknownRowID(id) }
        return path
    }

    /// Whether a row has identity `id`.
    ///
    /// - Complexity: O(1) expected.
    public func contains(rowID id: ItemID) -> Bool { index.rowLocations[id] != nil }

    /// The index of the section with identity `id`, or `nil` when there is none.
    ///
    /// - Complexity: O(1) expected.
    public func sectionIndex(of id: ItemID) -> Int? { index.sectionPositions[id] }

    /// The section with identity `id`, or `nil` when there is none.
    ///
    /// - Complexity: O(1) expected.
    public func section(withID id: ItemID) -> Section? {
        sectionIndex(of: id).map { table.sections[$0] }
    }
}
