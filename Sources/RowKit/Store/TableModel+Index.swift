/// The identity index of a `TableModel`: where every section and row is.
///
/// A row is located by its section's *key* (a small number the index gives each section while it
/// is in the table) and the leaf of the section's `RowList` that holds it. Its position follows
/// from the leaf: the section's tree adds the rows before the leaf on the way up (O(log *k*) in a
/// section of *k* rows). So inserting or removing a row rewrites no other row's entry, except the
/// rows a leaf split or merge moves to another leaf (half a leaf, now and then); and inserting,
/// deleting or moving a section renumbers only sections (O(*s*)).
package struct TableIndex: Sendable {
    /// Where a row is: its section's key and its leaf in that section's rows.
    struct Location: Hashable, Sendable {
        /// The key of the row's section (see `keyPositions`).
        var key: Int32
        /// The leaf of the section's `RowList` holding the row.
        var leaf: Int32
    }

    /// Section identity → section index.
    var sectionPositions: [ItemID: Int] = [:]
    /// Section index → the section's key.
    var sectionKeys: ContiguousArray<Int32> = []
    /// Section key → the section's index (-1 for a free key).
    var keyPositions: ContiguousArray<Int32> = []
    /// Keys of removed sections, for reuse.
    var freeKeys: [Int32] = []
    /// Row identity → location.
    var rowLocations = IdentityTable()

    /// A key for a new section.
    mutating func newKey() -> Int32 {
        if let key = freeKeys.popLast() { return key }
        keyPositions.append(-1)
        return Int32(keyPositions.count - 1)
    }
}

/// Where a row was before a batch: its section's identity and its index there.
struct OldRowLocation: Hashable, Sendable {
    var section: ItemID
    var row: Int
}

// The primitive edits every operation is made of. Each keeps `table` and `index` in step, records
// its inverse in `log` (when recording) and notes where every existing row it moves, removes or
// replaces was before the batch, which is how the changeset finds old positions without a copy of
// the old table. Rows that only shift are not touched: their old index is their index now moved
// back through the shifts the batch made in their section (`BatchLog.shifts`). Callers have
// checked the arguments; the primitives do not check again.
extension TableModel {
    /// The path of the row with identity `id` from its index entry.
    ///
    /// - Complexity: O(log *k*) for a row in a section of *k* rows.
    func indexedPath(of id: ItemID) -> RowPath? {
        guard let (location, hint) = index.rowLocations.entry(id) else { return nil }
        let section = Int(index.keyPositions[Int(location.key)])
        // The model keeps the section's storage alive for the call, so the call takes no reference
        // of its own: a retain and a release are atomic operations, and each waits for this
        // lookup's cache misses.
        let rows = Unmanaged.passUnretained(table.sections[section].rows.storage)
        guard let row = rows._withUnsafeGuaranteedRef({ $0.position(of: id, inLeaf: location.leaf, hint: hint) }) else {
            return nil
        }
        return RowPath(section: section, row: row)
    }

    /// Writes the location of every row of leaf `leaf` of the section at `section`.
    mutating func register(leaf: Int32, ofSection section: Int) {
        let rows = table.sections[section].rows
        Self.write(
            rows.ids(inLeaf: leaf), ofLeaf: leaf, in: rows, key: index.sectionKeys[section], into: &index.rowLocations)
    }

    /// Writes into `locations` the location and position hint of each row `ids` of leaf `leaf` of
    /// `rows`, whose section has key `key`.
    private static func write(
        _ ids: UnsafeBufferPointer<ItemID>, ofLeaf leaf: Int32, in rows: RowList, key: Int32,
        into locations: inout IdentityTable
    ) {
        for (k, id) in ids.enumerated() {
            locations.updateValue(
                TableIndex.Location(key: key, leaf: leaf), hint: rows.hint(ofLeaf: leaf, at: k), forKey: id)
        }
    }

    /// Writes the locations of all rows of the section at `section`.
    ///
    /// - Complexity: O(*k*) for *k* rows.
    mutating func registerRows(ofSection section: Int) {
        let key = index.sectionKeys[section]
        var locations = index.rowLocations
        index.rowLocations = IdentityTable()  // one owner while the loop writes
        let rows = table.sections[section].rows
        rows.forEachLeaf { leaf, ids in Self.write(ids, ofLeaf: leaf, in: rows, key: key, into: &locations) }
        index.rowLocations = locations
    }

    /// Renumbers the sections `range` in the index.
    ///
    /// - Complexity: O(`range.count`).
    mutating func reindexSections(_ range: Range<Int>) {
        for section in range {
            index.sectionPositions[table.sections[section].id] = section
            index.keyPositions[Int(index.sectionKeys[section])] = Int32(section)
        }
    }

    /// Notes, during a batch, where the existing row `id` (now at `path`) was before the batch:
    /// nothing for rows the batch inserted or noted already, nor in sections whose rows the
    /// changeset does not list (inserted, removed or replaced by the batch).
    mutating func noteOldLocation(of id: ItemID, at path: RowPath, log: inout BatchLog) {
        guard log.needsOldLocation(of: id) else { return }
        let section = table.sections[path.section].id
        guard !log.sealed.contains(section) else { return }
        let row = log.rowBeforeBatch(path.row, inSection: section)
        log.oldRowLocations[id] = OldRowLocation(section: section, row: row)
        log.notedRows[section, default: []].append(row)
    }

    /// Records, during a batch, a shift of the rows of the section at `section` (an insert at
    /// index *i* as *i*, a removal at *i* as ~*i*). Once a section has more shifts than
    /// `BatchLog.shiftLimit(rowCount:)`, where moving a row back through them would cost more than
    /// noting every row once, every existing row's location before the batch is noted instead;
    /// `inserted` is the row an insert just put in (not an existing row, though the batch has not
    /// marked it inserted yet).
    mutating func journal(_ shift: Int, inSection section: Int, inserted: ItemID? = nil, log: inout BatchLog) {
        guard log.isRecording else { return }
        let id = table.sections[section].id
        guard !log.sealed.contains(id) else { return }
        log.shifts[id, default: []].append(shift)
        if log.shifts[id, default: []].count > BatchLog.shiftLimit(rowCount: table.sections[section].rows.count) {
            noteAllRows(ofSection: section, except: inserted, log: &log)
        }
    }

    /// Notes where every existing row of the section at `section` was before the batch and seals
    /// the section (nothing more needs noting there).
    ///
    /// The rows the batch left alone kept their order, and they hold exactly the indexes before
    /// the batch that the noted rows do not: so one pass, in order, hands them those indexes.
    ///
    /// - Complexity: O(*k* + *c* log *c*) for *k* rows and *c* rows noted before.
    mutating func noteAllRows(ofSection section: Int, except inserted: ItemID?, log: inout BatchLog) {
        let id = table.sections[section].id
        let taken = (log.notedRows[id] ?? []).sorted()
        var next = 0  // the next index before the batch
        var skip = 0  // taken indexes passed
        for row in table.sections[section].rows {
            let rowID = row.id
            guard rowID != inserted, log.needsOldLocation(of: rowID) else { continue }
            while skip < taken.count && taken[skip] == next {
                skip += 1
                next += 1
            }
            log.oldRowLocations[rowID] = OldRowLocation(section: id, row: next)
            next += 1
        }
        log.seal(id)
    }

    /// Inserts `row` at `path`.
    mutating func insertRow(_ row: AnyRow, at path: RowPath, log: inout BatchLog) {
        var moved: [Int32] = []
        let leaf = table.sections[path.section].rows.insert(row, at: path.row, moved: &moved)
        index.rowLocations[row.id] = TableIndex.Location(key: index.sectionKeys[path.section], leaf: leaf)
        for leaf in moved { register(leaf: leaf, ofSection: path.section) }
        journal(path.row, inSection: path.section, inserted: row.id, log: &log)
        log.record(.removeRow(path))
    }

    /// Removes and returns the row at `path`.
    mutating func removeRow(at path: RowPath, log: inout BatchLog) -> AnyRow {
        var moved: [Int32] = []
        let row = table.sections[path.section].rows.remove(at: path.row, moved: &moved)
        index.rowLocations[row.id] = nil
        for leaf in moved { register(leaf: leaf, ofSection: path.section) }
        noteOldLocation(of: row.id, at: path, log: &log)
        journal(~path.row, inSection: path.section, log: &log)
        log.record(.insertRow(row, path))
        return row
    }

    /// Replaces the row at `path` with `row` and returns the old row.
    mutating func replaceRow(at path: RowPath, with row: AnyRow, log: inout BatchLog) -> AnyRow {
        let (old, leaf) = table.sections[path.section].rows.replace(at: path.row, with: row)
        if old.id != row.id {
            noteOldLocation(of: old.id, at: path, log: &log)
            index.rowLocations[old.id] = nil
            index.rowLocations[row.id] = TableIndex.Location(key: index.sectionKeys[path.section], leaf: leaf)
        }
        log.record(.replaceRow(old, path))
        return old
    }

    /// Moves the row at `from` to `to` (its final path).
    mutating func moveRow(from: RowPath, to: RowPath, log: inout BatchLog) {
        var moved: [Int32] = []
        let row = table.sections[from.section].rows.remove(at: from.row, moved: &moved)
        for leaf in moved { register(leaf: leaf, ofSection: from.section) }
        noteOldLocation(of: row.id, at: from, log: &log)
        journal(~from.row, inSection: from.section, log: &log)
        moved.removeAll()
        let leaf = table.sections[to.section].rows.insert(row, at: to.row, moved: &moved)
        index.rowLocations[row.id] = TableIndex.Location(key: index.sectionKeys[to.section], leaf: leaf)
        for leaf in moved { register(leaf: leaf, ofSection: to.section) }
        journal(to.row, inSection: to.section, log: &log)
        log.record(.moveRow(from: to, to: from))
    }

    /// Inserts `section` at `position`.
    mutating func insertSection(_ section: Section, at position: Int, log: inout BatchLog) {
        table.sections.insert(section, at: position)
        index.sectionKeys.insert(index.newKey(), at: position)
        reindexSections(position..<table.sections.count)
        log.seal(section.id)
        registerRows(ofSection: position)
        log.record(.removeSection(position))
    }

    /// Removes and returns the section at `position` with its rows.
    mutating func removeSection(at position: Int, log: inout BatchLog) -> Section {
        let section = table.sections.remove(at: position)
        let key = index.sectionKeys.remove(at: position)
        index.keyPositions[Int(key)] = -1
        index.freeKeys.append(key)
        index.sectionPositions[section.id] = nil
        reindexSections(position..<table.sections.count)
        for row in section.rows { index.rowLocations[row.id] = nil }
        log.seal(section.id)
        log.record(.insertSection(section, position))
        return section
    }

    /// Replaces the section at `position` with `section` and returns the old section.
    mutating func replaceSection(at position: Int, with section: Section, log: inout BatchLog) -> Section {
        let old = table.sections[position]
        for row in old.rows { index.rowLocations[row.id] = nil }
        table.sections[position] = section
        index.sectionPositions[old.id] = nil
        index.sectionPositions[section.id] = position
        log.seal(old.id)
        log.seal(section.id)
        registerRows(ofSection: position)
        log.record(.replaceSection(old, position))
        return old
    }

    /// Moves the section at `from` to index `to` (its final index).
    mutating func moveSection(from: Int, to: Int, log: inout BatchLog) {
        let section = table.sections.remove(at: from)
        table.sections.insert(section, at: to)
        let key = index.sectionKeys.remove(at: from)
        index.sectionKeys.insert(key, at: to)
        reindexSections(min(from, to)..<(max(from, to) + 1))
        log.record(.moveSection(from: to, to: from))
    }

    /// Undoes everything `log` recorded, newest first, leaving table and index as before the batch.
    mutating func rollBack(_ log: BatchLog) {
        var scratch = BatchLog(isRecording: false)
        for undo in log.undoJournal.reversed() {
            switch undo {
            case .removeRow(let path): _ = removeRow(at: path, log: &scratch)
            case .insertRow(let row, let path): insertRow(row, at: path, log: &scratch)
            case .replaceRow(let row, let path): _ = replaceRow(at: path, with: row, log: &scratch)
            case .moveRow(let from, let to): moveRow(from: from, to: to, log: &scratch)
            case .removeSection(let position): _ = removeSection(at: position, log: &scratch)
            case .insertSection(let section, let position): insertSection(section, at: position, log: &scratch)
            case .replaceSection(let section, let position):
                _ = replaceSection(at: position, with: section, log: &scratch)
            case .moveSection(let from, let to): moveSection(from: from, to: to, log: &scratch)
            }
        }
    }
}
