/// The identity index of a `TableModel`: where every section and row is.
///
/// Rows are located by their section's *identity* and their row index, so inserting, deleting or
/// moving a section renumbers only sections (O(*s*)), never the rows of other sections.
struct TableIndex: Sendable {
    /// A row's section identity and row index.
    struct Location: Hashable, Sendable {
        var section: ItemID
        var row: Int
    }

    /// Section identity → section index.
    var sectionPositions: [ItemID: Int] = [:]
    /// Row identity → location.
    var rowLocations: [ItemID: Location] = [:]

    /// The path of `location`, or `nil` when its section is not in the table.
    func path(of location: Location) -> RowPath? {
        sectionPositions[location.section].map { RowPath(section: $0, row: location.row) }
    }
}

// The primitive edits every operation is made of. Each keeps `table` and `index` in step, records
// its inverse in `log` (when recording) and notes the first location of every existing row it
// displaces, which is how the changeset finds old positions without a copy of the old table.
// Callers have checked the arguments; the primitives do not check again.
extension TableModel {
    /// Renumbers the rows `range` of the section at `section` in the index.
    ///
    /// - Complexity: O(`range.count`).
    mutating func reindexRows(inSection section: Int, _ range: Range<Int>, log: inout BatchLog) {
        let sectionID = table.sections[section].id
        let rows = table.sections[section].rows
        for row in range {
            let id = rows[row].id
            if let old = index.rowLocations.updateValue(TableIndex.Location(section: sectionID, row: row), forKey: id) {
                log.noteLocation(of: id, old)
            }
        }
    }

    /// Renumbers the sections `range` in the index.
    ///
    /// - Complexity: O(`range.count`).
    mutating func reindexSections(_ range: Range<Int>) {
        for section in range { index.sectionPositions[table.sections[section].id] = section }
    }

    /// Inserts `row` at `path`.
    mutating func insertRow(_ row: AnyRow, at path: RowPath, log: inout BatchLog) {
        table.sections[path.section].rows.insert(row, at: path.row)
        reindexRows(inSection: path.section, path.row..<table.sections[path.section].rows.count, log: &log)
        log.record(.removeRow(path))
    }

    /// Removes and returns the row at `path`.
    mutating func removeRow(at path: RowPath, log: inout BatchLog) -> AnyRow {
        let row = table.sections[path.section].rows.remove(at: path.row)
        if let old = index.rowLocations.removeValue(forKey: row.id) { log.noteLocation(of: row.id, old) }
        reindexRows(inSection: path.section, path.row..<table.sections[path.section].rows.count, log: &log)
        log.record(.insertRow(row, path))
        return row
    }

    /// Replaces the row at `path` with `row` and returns the old row.
    mutating func replaceRow(at path: RowPath, with row: AnyRow, log: inout BatchLog) -> AnyRow {
        let old = table.sections[path.section].rows[path.row]
        table.sections[path.section].rows[path.row] = row
        if old.id != row.id {
            if let location = index.rowLocations.removeValue(forKey: old.id) {
                log.noteLocation(of: old.id, location)
                index.rowLocations[row.id] = location
            }
        }
        log.record(.replaceRow(old, path))
        return old
    }

    /// Moves the row at `from` to `to` (its final path).
    mutating func moveRow(from: RowPath, to: RowPath, log: inout BatchLog) {
        if from.section == to.section {
            let row = table.sections[from.section].rows.remove(at: from.row)
            table.sections[from.section].rows.insert(row, at: to.row)
            reindexRows(inSection: from.section, min(from.row, to.row)..<(max(from.row, to.row) + 1), log: &log)
        } else {
            let row = table.sections[from.section].rows.remove(at: from.row)
            table.sections[to.section].rows.insert(row, at: to.row)
            reindexRows(inSection: from.section, from.row..<table.sections[from.section].rows.count, log: &log)
            reindexRows(inSection: to.section, to.row..<table.sections[to.section].rows.count, log: &log)
        }
        log.record(.moveRow(from: to, to: from))
    }

    /// Inserts `section` at `position`.
    mutating func insertSection(_ section: Section, at position: Int, log: inout BatchLog) {
        table.sections.insert(section, at: position)
        reindexSections(position..<table.sections.count)
        for (row, item) in section.rows.enumerated() {
            index.rowLocations[item.id] = TableIndex.Location(section: section.id, row: row)
        }
        log.record(.removeSection(position))
    }

    /// Removes and returns the section at `position` with its rows.
    mutating func removeSection(at position: Int, log: inout BatchLog) -> Section {
        let section = table.sections.remove(at: position)
        index.sectionPositions[section.id] = nil
        reindexSections(position..<table.sections.count)
        for row in section.rows {
            if let old = index.rowLocations.removeValue(forKey: row.id) { log.noteLocation(of: row.id, old) }
        }
        log.record(.insertSection(section, position))
        return section
    }

    /// Replaces the section at `position` with `section` and returns the old section.
    mutating func replaceSection(at position: Int, with section: Section, log: inout BatchLog) -> Section {
        let old = table.sections[position]
        for row in old.rows {
            if let location = index.rowLocations.removeValue(forKey: row.id) { log.noteLocation(of: row.id, location) }
        }
        table.sections[position] = section
        index.sectionPositions[old.id] = nil
        index.sectionPositions[section.id] = position
        for (row, item) in section.rows.enumerated() {
            index.rowLocations[item.id] = TableIndex.Location(section: section.id, row: row)
        }
        log.record(.replaceSection(old, position))
        return old
    }

    /// Moves the section at `from` to index `to` (its final index).
    mutating func moveSection(from: Int, to: Int, log: inout BatchLog) {
        let section = table.sections.remove(at: from)
        table.sections.insert(section, at: to)
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
