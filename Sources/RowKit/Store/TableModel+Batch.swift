extension TableModel {
    /// Applies the operations `body` records as one atomic batch and returns the changeset a view
    /// needs to follow.
    ///
    /// Semantics:
    /// - Operations are interpreted **in order**, each against the table as the previous ones left
    ///   it. Write them as you would edit an array; RowKit works out UIKit's mixed old/new
    ///   coordinates.
    /// - Every operation is checked before it takes effect: ranges, identities (unique, known, not
    ///   deleted earlier in the batch), no reload of something the batch inserted. The first wrong
    ///   operation throws a `TableUpdateError` naming its index, the operation and the problem;
    ///   whatever the batch had done is undone, so the model, its revision and its index are
    ///   exactly as before. If `body` throws, nothing is applied.
    /// - Otherwise the whole batch takes effect at once, the model gets a new `revision`, and the
    ///   returned `Changeset` (already validated) describes the net change from the old state to
    ///   the new: deletes and reloads in old coordinates, inserts in new ones, explicit moves from →
    ///   to; row changes inside inserted, deleted or reloaded sections are left to the section
    ///   change; a row or section replaced by one of another identity is a delete and an insert,
    ///   of the same identity a reload; anything both moved and reloaded is a move plus a reload
    ///   at its old position, and anything deleted and inserted again is a delete and an insert
    ///   (see <doc:Changesets>).
    /// - An empty batch changes nothing and returns an empty changeset at the current revision; so
    ///   does a batch whose net change is nothing (a row moved to where it is, or moved away and
    ///   back, or inserted and deleted again).
    ///
    /// - Complexity: O(*s* + *c* log *c*) for *s* sections and *c* identities the batch touched,
    ///   plus O(log *k*) per row operation in a section of *k* rows (amortized: a leaf split or
    ///   merge re-homes half a leaf of rows in the index), O(*k*) per section operation, and for
    ///   a row that the batch moves, removes or replaces after earlier shifts in its section, up to
    ///   2√*k* more to find where it was before the batch (see `BatchLog.shiftLimit(rowCount:)`).
    @discardableResult
    public mutating func performBatch(_ body: (inout TableBatch) throws -> Void) throws(TableUpdateError) -> Changeset {
        var batch = TableBatch()
        do {
            try body(&batch)
        } catch {
            throw TableUpdateError(
                operationIndex: batch.operations.count, operation: nil, problem: .bodyThrew(String(describing: error)),
                underlyingError: error)
        }
        return try perform(batch.operations)
    }

    /// Applies `operations` as one atomic batch (see `performBatch(_:)`).
    ///
    /// - Complexity: See `performBatch(_:)`.
    @discardableResult
    public mutating func perform(_ operations: [TableBatch.Operation]) throws(TableUpdateError) -> Changeset {
        let before = BatchStart(table: table, index: index, revision: revision)
        guard !operations.isEmpty else { return makeChangeset(from: before, log: BatchLog(), to: revision) }
        var log = BatchLog()
        for (position, operation) in operations.enumerated() {
            do {
                try apply(operation, log: &log)
            } catch {
                rollBack(log)
                throw TableUpdateError(operationIndex: position, operation: operation, problem: error)
            }
        }
        let next = Revision.next()
        let changeset = makeChangeset(from: before, log: log, to: next)
        do {
            try changeset.validate()
        } catch {
            rollBack(log)
            throw TableUpdateError(
                operationIndex: operations.count, operation: nil, problem: .inconsistentChangeset(error))
        }
        // Nothing listed but moves that end where they started (or nothing at all: a row inserted
        // and deleted again): every section and row is where it was, so the batch changed nothing
        // and, like an empty batch, keeps the revision.
        if changeset.changesNothing {
            return makeChangeset(from: before, log: BatchLog(), to: revision)
        }
        revision = next
        return changeset
    }

    /// What the changeset needs of the state before a batch: section identities, positions and
    /// row counts (O(*s*) to capture; the row arrays are not copied).
    struct BatchStart {
        var sectionIDs: [ItemID]
        var sectionPositions: [ItemID: Int]
        var rowCounts: [Int]
        var revision: Revision

        init(table: Table, index: TableIndex, revision: Revision) {
            sectionIDs = table.sections.map(\.id)
            sectionPositions = index.sectionPositions
            rowCounts = table.sections.map(\.rows.count)
            self.revision = revision
        }
    }

    // MARK: Interpreting operations

    private mutating func apply(_ operation: TableBatch.Operation, log: inout BatchLog) throws(TableUpdateError.Problem)
    {
        switch operation {
        case .insertRow(let row, let path, let animation):
            try insert(row, at: path, animation: animation, log: &log)

        case .appendRow(let row, let target, let animation):
            let section = try resolve(target, log: log)
            try insert(
                row, at: RowPath(section: section, row: table.sections[section].rows.count), animation: animation,
                log: &log)

        case .deleteRow(let target, let animation):
            let path = try resolve(target, log: log)
            let row = removeRow(at: path, log: &log)
            log.rows.remove(row.id, animation: animation)

        case .reloadRow(let target, let animation):
            let path = try resolve(target, log: log)
            let id = table.sections[path.section].rows[path.row].id
            guard log.rows.reload(id, animation: animation) else { throw .reloadOfInsertedRow(id) }

        case .replaceRow(let target, let row, let animation):
            let path = try resolve(target, log: log)
            let oldID = table.sections[path.section].rows[path.row].id
            if row.id != oldID, let existing = self.path(of: row.id) {
                throw .duplicateRowID(row.id, existing: existing)
            }
            _ = replaceRow(at: path, with: row, log: &log)
            log.rows.replace(oldID, by: row.id, animation: animation)

        case .moveRow(let target, let destination, let animation):
            let source = try resolve(target, log: log)
            try checkSection(destination.section, allowingEnd: false)
            let last = table.sections[destination.section].rows.count - (destination.section == source.section ? 1 : 0)
            guard (0...last).contains(destination.row) else { throw .rowOutOfRange(destination, valid: 0..<(last + 1)) }
            let id = table.sections[source.section].rows[source.row].id
            moveRow(from: source, to: destination, log: &log)
            log.rows.move(id, animation: animation)

        case .insertSection(let section, let position, let animation):
            try insert(section, at: position, animation: animation, log: &log)

        case .appendSection(let section, let animation):
            try insert(section, at: table.sections.count, animation: animation, log: &log)

        case .deleteSection(let target, let animation):
            deleteSection(at: try resolve(target, log: log), animation: animation, log: &log)

        case .reloadSection(let target, let animation):
            let id = table.sections[try resolve(target, log: log)].id
            guard log.sections.reload(id, animation: animation) else { throw .reloadOfInsertedSection(id) }

        case .replaceSection(let target, let declared, let animation):
            let position = try resolve(target, log: log)
            let oldID = table.sections[position].id
            let section = identified(declared, at: position, replacing: oldID)
            if section.id != oldID, let existing = index.sectionPositions[section.id] {
                throw .duplicateSectionID(section.id, existing: existing)
            }
            try checkNewRows(of: section, at: position, replacing: oldID)
            let old = replaceSection(at: position, with: section, log: &log)
            for row in old.rows { log.rows.remove(row.id, animation: animation) }
            for row in section.rows { log.rows.insert(row.id, animation: animation) }
            log.sections.replace(oldID, by: section.id, animation: animation)

        case .moveSection(let target, let destination, let animation):
            let source = try resolve(target, log: log)
            try checkSection(destination, allowingEnd: false)
            let id = table.sections[source].id
            moveSection(from: source, to: destination, log: &log)
            log.sections.move(id, animation: animation)

        case .removeAll(let animation):
            for position in table.sections.indices.reversed() {
                deleteSection(at: position, animation: animation, log: &log)
            }
        }
    }

    private mutating func insert(_ row: AnyRow, at path: RowPath, animation: RowAnimation, log: inout BatchLog)
        throws(TableUpdateError.Problem)
    {
        try checkSection(path.section, allowingEnd: false)
        let count = table.sections[path.section].rows.count
        guard (0...count).contains(path.row) else { throw .rowOutOfRange(path, valid: 0..<(count + 1)) }
        if let existing = self.path(of: row.id) { throw .duplicateRowID(row.id, existing: existing) }
        insertRow(row, at: path, log: &log)
        log.rows.insert(row.id, animation: animation)
    }

    private mutating func insert(_ declared: Section, at position: Int, animation: RowAnimation, log: inout BatchLog)
        throws(TableUpdateError.Problem)
    {
        try checkSection(position, allowingEnd: true)
        let section = identified(declared, at: position)
        if let existing = index.sectionPositions[section.id] {
            throw .duplicateSectionID(section.id, existing: existing)
        }
        try checkNewRows(of: section, at: position, replacing: nil)
        insertSection(section, at: position, log: &log)
        log.sections.insert(section.id, animation: animation)
        for row in section.rows { log.rows.insert(row.id, animation: animation) }
    }

    private mutating func deleteSection(at position: Int, animation: RowAnimation, log: inout BatchLog) {
        let section = removeSection(at: position, log: &log)
        log.sections.remove(section.id, animation: animation)
        for row in section.rows { log.rows.remove(row.id, animation: animation) }
    }

    /// `section`, with an identity if it was declared without one: `PositionalSectionID(index:)`
    /// of `position`, or when another section has that one, of the next index above it that no
    /// section has (`replacing`: the identity of the section being replaced, which is free).
    ///
    /// - Complexity: O(1) expected; O(*s*) at worst for *s* sections.
    private func identified(_ section: Section, at position: Int, replacing replaced: ItemID? = nil) -> Section {
        guard section.hasPositionalID else { return section }
        var positioned = section
        var index = position
        while true {
            let id = ItemID(PositionalSectionID(index: index))
            if id == replaced || self.index.sectionPositions[id] == nil {
                positioned.id = id
                return positioned
            }
            index += 1
        }
    }

    /// Throws unless the rows of `section` (going to `position`) have identities unique among
    /// themselves and in the table, not counting the section being replaced.
    private func checkNewRows(of section: Section, at position: Int, replacing replaced: ItemID?)
        throws(TableUpdateError.Problem)
    {
        var seen: [ItemID: Int] = [:]
        for (rowIndex, row) in section.rows.enumerated() {
            if let first = seen.updateValue(rowIndex, forKey: row.id) {
                throw .duplicateRowID(row.id, existing: RowPath(section: position, row: first))
            }
            if let existing = path(of: row.id), table.sections[existing.section].id != replaced {
                throw .duplicateRowID(row.id, existing: existing)
            }
        }
    }

    private func checkSection(_ section: Int, allowingEnd: Bool) throws(TableUpdateError.Problem) {
        let valid = 0..<(table.sections.count + (allowingEnd ? 1 : 0))
        guard valid.contains(section) else { throw .sectionOutOfRange(section, valid: valid) }
    }

    private func resolve(_ target: TableBatch.SectionTarget, log: BatchLog) throws(TableUpdateError.Problem) -> Int {
        switch target {
        case .index(let position):
            try checkSection(position, allowingEnd: false)
            return position
        case .id(let id):
            if let position = index.sectionPositions[id] { return position }
            throw log.sections.everRemoved.contains(id) ? .sectionDeletedEarlier(id) : .unknownSectionID(id)
        }
    }

    private func resolve(_ target: TableBatch.RowTarget, log: BatchLog) throws(TableUpdateError.Problem) -> RowPath {
        switch target {
        case .path(let path):
            try checkSection(path.section, allowingEnd: false)
            let count = table.sections[path.section].rows.count
            guard (0..<count).contains(path.row) else { throw .rowOutOfRange(path, valid: 0..<count) }
            return path
        case .id(let id):
            if let path = path(of: id) { return path }
            throw log.rows.everRemoved.contains(id) ? .rowDeletedEarlier(id) : .unknownRowID(id)
        }
    }
}
