/// The identity index of a `TableModel`: where every section and row is.
///
/// Rows are located by their section's *identity* and their row index, so inserting, deleting or
/// moving a section renumbers only sections (O(*s*)), never the rows of other sections.
///
/// Row indexes are renumbered lazily. Each section keeps a journal of the row shifts (an insert or
/// a removal at some index) made since its rows were last renumbered, and each row's entry records
/// how long that journal was when the entry was written (its *stamp*). A row's index now is its
/// written index moved through the journal entries after its stamp. A journal is cleared by
/// renumbering its section once it holds more than `shiftLimit(rowCount:)` entries (checked after
/// each batch, and in the middle of a batch only at four times the limit), so a lookup replays at
/// most 8 log₂ *k* shifts for a *k*-row section between batches, and an edit costs O(*k* / log *k*)
/// amortized renumbering instead of O(*k*) per edit.
struct TableIndex: Sendable {
    /// Where a row was when its entry was written.
    struct Location: Hashable, Sendable {
        /// The identity of the row's section.
        var section: ItemID
        /// The row's index in its section, as of `stamp`.
        var row: Int
        /// The length of the section's shift journal when this was its index.
        var stamp: Int = 0
    }

    /// Section identity → section index.
    var sectionPositions: [ItemID: Int] = [:]
    /// Row identity → location, as written (see `resolved(_:through:)`).
    var rowLocations: [ItemID: Location] = [:]
    /// Section identity → the row shifts since the section was last renumbered, oldest first: an
    /// insert at index *i* is stored as *i*, a removal at *i* as ~*i*. No entry is an empty journal.
    var shifts: [ItemID: [Int]] = [:]

    /// The most shifts a section of `rowCount` rows keeps before it is renumbered:
    /// 8 ⌈log₂(`rowCount` + 1)⌉, at least 32.
    static func shiftLimit(rowCount: Int) -> Int {
        8 * max(4, Int.bitWidth - rowCount.leadingZeroBitCount)
    }

    /// The length of the shift journal of the section with identity `section`.
    func journalLength(of section: ItemID) -> Int { shifts[section]?.count ?? 0 }

    /// `location` moved through its section's shifts from its stamp to `end` (default: all of
    /// them). A location stamped after `end` is returned as it is.
    ///
    /// - Complexity: O(shifts replayed): at most `shiftLimit(rowCount:)` between batches, four
    ///   times that inside one.
    func resolved(_ location: Location, through end: Int? = nil) -> Location {
        guard let journal = shifts[location.section] else { return location }
        let end = end ?? journal.count
        guard location.stamp < end else { return location }
        var row = location.row
        for shift in journal[location.stamp..<end] {
            if shift >= 0 {
                if shift <= row { row += 1 }
            } else if ~shift < row {
                row -= 1
            }
        }
        return Location(section: location.section, row: row, stamp: end)
    }

    /// The current location of the row with identity `id`, or `nil` when there is none.
    func location(of id: ItemID) -> Location? {
        rowLocations[id].map { resolved($0) }
    }

    /// The path of `location` (a resolved one), or `nil` when its section is not in the table.
    func path(of location: Location) -> RowPath? {
        sectionPositions[location.section].map { RowPath(section: $0, row: location.row) }
    }
}

// The primitive edits every operation is made of. Each keeps `table` and `index` in step, records
// its inverse in `log` (when recording) and notes the location before the batch of every existing
// row it moves, removes or replaces, which is how the changeset finds old positions without a copy
// of the old table. Rows that only shift are not touched: their old index is their written index
// moved through the section's journal up to where it stood when the batch began
// (`BatchLog.journalStarts`). Callers have checked the arguments; the primitives do not check again.
extension TableModel {
    /// Appends `shift` to the journal of the section at `section`, noting first where the journal
    /// stood before the batch's first shift there.
    mutating func journal(_ shift: Int, inSection section: Int, log: inout BatchLog) {
        let id = table.sections[section].id
        if log.isRecording, log.journalStarts[id] == nil { log.journalStarts[id] = index.journalLength(of: id) }
        index.shifts[id, default: []].append(shift)
    }

    /// Renumbers the section at `section`, in the middle of a batch, once its journal has grown
    /// to four times the limit. Renumbering there notes the location before the batch of every
    /// row in the section (O(*k*) notes the changeset then reads), so it waits as long as lookups
    /// stay cheap; the batch's end renumbers at the limit itself, with nothing to note.
    mutating func renumberIfLong(_ section: Int, log: inout BatchLog) {
        let id = table.sections[section].id
        guard index.journalLength(of: id) > 4 * TableIndex.shiftLimit(rowCount: table.sections[section].rows.count) else {
            return
        }
        renumberRows(inSection: section, log: &log)
    }

    /// Renumbers, after a batch committed or rolled back, every section it shifted whose journal
    /// is over the limit.
    mutating func renumberLongJournals(shiftedBy log: BatchLog) {
        var quiet = BatchLog(isRecording: false)
        for id in log.journalStarts.keys {
            guard let section = index.sectionPositions[id],
                  index.journalLength(of: id) > TableIndex.shiftLimit(rowCount: table.sections[section].rows.count)
            else { continue }
            renumberRows(inSection: section, log: &quiet)
        }
    }

    /// Writes every row of the section at `section` at its current index and clears the journal.
    /// During a batch, each existing row's location before the batch is noted first.
    ///
    /// - Complexity: O(*k*) for *k* rows.
    mutating func renumberRows(inSection section: Int, log: inout BatchLog) {
        let id = table.sections[section].id
        // Each entry is updated in place (its section stays), which between batches, the common
        // case, costs one hash lookup per row and no copy of the entry.
        for (row, item) in table.sections[section].rows.enumerated() {
            guard let entry = index.rowLocations.index(forKey: item.id) else { continue }
            if log.isRecording { noteOldLocation(of: item.id, stored: index.rowLocations.values[entry], log: &log) }
            index.rowLocations.values[entry].row = row
            index.rowLocations.values[entry].stamp = 0
        }
        index.shifts[id] = nil
        sealJournal(of: id, log: &log)
    }

    /// Marks, during a batch, every entry of the section with identity `id` as written by the batch
    /// or noted already, so none is ever taken for a location before the batch.
    func sealJournal(of id: ItemID, log: inout BatchLog) {
        if log.isRecording { log.journalStarts[id] = BatchLog.sealed }
    }

    /// Notes, during a batch, where the existing row `id` (whose entry was `stored`) was before the
    /// batch. Nothing for rows the batch inserted or noted, nor for an entry the batch wrote: it is
    /// stamped after the batch's first shift in its section (or its section is sealed), and belongs
    /// to a row the batch inserted (possibly not marked yet) or moved (noted before the move).
    func noteOldLocation(of id: ItemID, stored: TableIndex.Location, log: inout BatchLog) {
        guard log.needsOldLocation(of: id) else { return }
        let start = log.journalStarts[stored.section] ?? index.journalLength(of: stored.section)
        guard stored.stamp <= start else { return }
        log.oldRowLocations[id] = index.resolved(stored, through: start)
    }

    /// Writes the location of `id`: index `row` of the section with identity `section`, now.
    mutating func writeLocation(of id: ItemID, section: ItemID, row: Int) {
        index.rowLocations[id] = TableIndex.Location(section: section, row: row, stamp: index.journalLength(of: section))
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
        journal(path.row, inSection: path.section, log: &log)
        writeLocation(of: row.id, section: table.sections[path.section].id, row: path.row)
        log.record(.removeRow(path))
        renumberIfLong(path.section, log: &log)
    }

    /// Removes and returns the row at `path`.
    mutating func removeRow(at path: RowPath, log: inout BatchLog) -> AnyRow {
        let row = table.sections[path.section].rows.remove(at: path.row)
        if let old = index.rowLocations.removeValue(forKey: row.id) { noteOldLocation(of: row.id, stored: old, log: &log) }
        journal(~path.row, inSection: path.section, log: &log)
        log.record(.insertRow(row, path))
        renumberIfLong(path.section, log: &log)
        return row
    }

    /// Replaces the row at `path` with `row` and returns the old row.
    mutating func replaceRow(at path: RowPath, with row: AnyRow, log: inout BatchLog) -> AnyRow {
        let old = table.sections[path.section].rows[path.row]
        table.sections[path.section].rows[path.row] = row
        if old.id != row.id {
            if let location = index.rowLocations.removeValue(forKey: old.id) {
                noteOldLocation(of: old.id, stored: location, log: &log)
                writeLocation(of: row.id, section: table.sections[path.section].id, row: path.row)
            }
        }
        log.record(.replaceRow(old, path))
        return old
    }

    /// Moves the row at `from` to `to` (its final path).
    mutating func moveRow(from: RowPath, to: RowPath, log: inout BatchLog) {
        let row = table.sections[from.section].rows.remove(at: from.row)
        if let old = index.rowLocations[row.id] { noteOldLocation(of: row.id, stored: old, log: &log) }
        journal(~from.row, inSection: from.section, log: &log)
        table.sections[to.section].rows.insert(row, at: to.row)
        journal(to.row, inSection: to.section, log: &log)
        writeLocation(of: row.id, section: table.sections[to.section].id, row: to.row)
        log.record(.moveRow(from: to, to: from))
        renumberIfLong(from.section, log: &log)
        if to.section != from.section { renumberIfLong(to.section, log: &log) }
    }

    /// Inserts `section` at `position`.
    mutating func insertSection(_ section: Section, at position: Int, log: inout BatchLog) {
        table.sections.insert(section, at: position)
        reindexSections(position..<table.sections.count)
        index.shifts[section.id] = nil
        sealJournal(of: section.id, log: &log)
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
            if let old = index.rowLocations.removeValue(forKey: row.id) { noteOldLocation(of: row.id, stored: old, log: &log) }
        }
        index.shifts[section.id] = nil
        sealJournal(of: section.id, log: &log)
        log.record(.insertSection(section, position))
        return section
    }

    /// Replaces the section at `position` with `section` and returns the old section.
    mutating func replaceSection(at position: Int, with section: Section, log: inout BatchLog) -> Section {
        let old = table.sections[position]
        for row in old.rows {
            if let location = index.rowLocations.removeValue(forKey: row.id) {
                noteOldLocation(of: row.id, stored: location, log: &log)
            }
        }
        index.shifts[old.id] = nil
        table.sections[position] = section
        index.sectionPositions[old.id] = nil
        index.sectionPositions[section.id] = position
        index.shifts[section.id] = nil
        sealJournal(of: old.id, log: &log)
        sealJournal(of: section.id, log: &log)
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
