import RowKit

/// The naive reference model of the randomized batch tests: sections of rows as plain arrays,
/// plus what the current batch has inserted and removed (to generate valid and invalid operations).
struct ShadowTable {
    struct Row: Hashable { var id: Int; var text: String }
    struct Section { var id: String; var rows: [Row] }

    var sections: [Section]
    /// Rows present now that the current batch inserted.
    var insertedRows: Set<Int> = []
    /// Sections present now that the current batch inserted.
    var insertedSections: Set<String> = []
    /// Rows the current batch removed (some may be back).
    var removedRows: [Row] = []
    /// Sections the current batch removed (some may be back).
    var removedSections: [Section] = []

    var presentRowIDs: Set<Int> { Set(sections.flatMap { $0.rows.map(\.id) }) }
    var presentSectionIDs: Set<String> { Set(sections.map(\.id)) }
    var allPaths: [RowPath] {
        sections.indices.flatMap { section in sections[section].rows.indices.map { RowPath(section: section, row: $0) }
        }
    }

    func path(of id: Int) -> RowPath? {
        for (section, item) in sections.enumerated() {
            if let row = item.rows.firstIndex(where: { $0.id == id }) { return RowPath(section: section, row: row) }
        }
        return nil
    }

    subscript(path: RowPath) -> Row { sections[path.section].rows[path.row] }

    /// Starts a new batch: forgets what the last one inserted and removed.
    mutating func beginBatch() {
        insertedRows = []
        insertedSections = []
        removedRows = []
        removedSections = []
    }

    mutating func insertRow(_ row: Row, at path: RowPath) {
        sections[path.section].rows.insert(row, at: path.row)
        insertedRows.insert(row.id)
    }

    mutating func removeRow(at path: RowPath) {
        let row = sections[path.section].rows.remove(at: path.row)
        insertedRows.remove(row.id)
        removedRows.append(row)
    }

    mutating func insertSection(_ section: Section, at index: Int) {
        sections.insert(section, at: index)
        insertedSections.insert(section.id)
        insertedRows.formUnion(section.rows.map(\.id))
    }

    mutating func removeSection(at index: Int) {
        let section = sections.remove(at: index)
        insertedSections.remove(section.id)
        removedSections.append(section)
        for row in section.rows {
            insertedRows.remove(row.id)
            removedRows.append(row)
        }
    }
}

extension ShadowTable.Row {
    var anyRow: AnyRow { AnyRow(DefaultRow(text, id: id)) }
    var mirror: MirrorRow { MirrorRow(id: ItemID(id), text: text) }
}

extension ShadowTable.Section {
    var section: RowKit.Section { RowKit.Section(id: ItemID(id), rows: rows.map(\.anyRow)) }
}

extension ShadowTable {
    var table: Table { Table(style: .plain, sections: sections.map(\.section)) }
    var mirror: [[MirrorRow]] { sections.map { $0.rows.map(\.mirror) } }
    var sectionIDs: [ItemID] { sections.map { ItemID($0.id) } }
}

/// Generates random tables and random batch operations, valid or with one known problem, and
/// applies valid ones to a `ShadowTable`.
struct BatchGenerator {
    var random: SeededRandom
    private var nextRowID = 0
    private var nextSectionID = 0
    private var nextText = 0

    /// Whether operations on whole sections are generated too (otherwise only row operations).
    var sectionOperations = true

    init(seed: UInt64) { random = SeededRandom(seed: seed) }

    mutating func freshRow() -> ShadowTable.Row {
        nextRowID += 1
        return ShadowTable.Row(id: nextRowID, text: freshText())
    }

    mutating func freshText() -> String {
        nextText += 1
        return "t\(nextText)"
    }

    mutating func freshSection(maxRows: Int = 3) -> ShadowTable.Section {
        nextSectionID += 1
        return ShadowTable.Section(
            id: "s\(nextSectionID)", rows: (0..<random.int(in: 0...maxRows)).map { _ in freshRow() })
    }

    /// A random table: sometimes empty, often with empty sections of up to `maxRows` rows.
    mutating func table(maxRows: Int = 6, sections: ClosedRange<Int> = 1...5) -> ShadowTable {
        if random.chance(0.08) { return ShadowTable(sections: []) }
        return ShadowTable(
            sections: (0..<random.int(in: sections)).map { _ in freshSection(maxRows: random.chance(0.3) ? 0 : maxRows)
            })
    }

    private mutating func animation() -> RowAnimation { random.pick(RowAnimation.allCases) ?? .automatic }

    private mutating func rowTarget(_ path: RowPath, in shadow: ShadowTable) -> TableBatch.RowTarget {
        random.chance(0.5) ? .path(path) : .id(ItemID(shadow[path].id))
    }

    private mutating func sectionTarget(_ index: Int, in shadow: ShadowTable) -> TableBatch.SectionTarget {
        random.chance(0.5) ? .index(index) : .id(ItemID(shadow.sections[index].id))
    }

    /// A random valid operation for `shadow`, applied to it.
    mutating func validOperation(on shadow: inout ShadowTable) -> TableBatch.Operation {
        while true {
            if let operation = tryValidOperation(on: &shadow) { return operation }
        }
    }

    private mutating func tryValidOperation(on shadow: inout ShadowTable) -> TableBatch.Operation? {
        let sectionCount = shadow.sections.count
        // With no section, only a section operation is possible.
        switch random.int(in: 0...(sectionOperations || sectionCount == 0 ? 15 : 9)) {
        case 0, 1:  // insert a row
            guard let section = random.pick(shadow.sections.indices) else { return nil }
            let path = RowPath(section: section, row: random.int(in: 0...shadow.sections[section].rows.count))
            let row = freshRow()
            shadow.insertRow(row, at: path)
            return .insertRow(row.anyRow, at: path, animation: animation())
        case 2:  // append a row
            guard let section = random.pick(shadow.sections.indices) else { return nil }
            let row = freshRow()
            let target = sectionTarget(section, in: shadow)
            shadow.insertRow(row, at: RowPath(section: section, row: shadow.sections[section].rows.count))
            return .appendRow(row.anyRow, to: target, animation: animation())
        case 3:  // insert a row the batch removed, with its identity (deleted and inserted again)
            let present = shadow.presentRowIDs
            guard let removed = random.pick(shadow.removedRows.filter { !present.contains($0.id) }),
                let section = random.pick(shadow.sections.indices)
            else { return nil }
            let row = ShadowTable.Row(id: removed.id, text: random.chance(0.5) ? removed.text : freshText())
            let path = RowPath(section: section, row: random.int(in: 0...shadow.sections[section].rows.count))
            shadow.insertRow(row, at: path)
            return .insertRow(row.anyRow, at: path, animation: animation())
        case 4, 5:  // delete a row
            guard let path = random.pick(shadow.allPaths) else { return nil }
            let target = rowTarget(path, in: shadow)
            shadow.removeRow(at: path)
            return .deleteRow(target, animation: animation())
        case 6:  // reload a row the batch did not insert
            guard let path = random.pick(shadow.allPaths.filter { !shadow.insertedRows.contains(shadow[$0].id) }) else {
                return nil
            }
            return .reloadRow(rowTarget(path, in: shadow), animation: animation())
        case 7:  // replace a row: same identity with new text, or a new row
            guard let path = random.pick(shadow.allPaths) else { return nil }
            let target = rowTarget(path, in: shadow)
            if random.chance(0.5) {
                let row = ShadowTable.Row(id: shadow[path].id, text: freshText())
                shadow.sections[path.section].rows[path.row] = row
                return .replaceRow(target, with: row.anyRow, animation: animation())
            }
            let row = freshRow()
            shadow.removeRow(at: path)
            shadow.insertRow(row, at: path)
            return .replaceRow(target, with: row.anyRow, animation: animation())
        case 8, 9:  // move a row, within or across sections, often to the end
            guard let from = random.pick(shadow.allPaths), let section = random.pick(shadow.sections.indices) else {
                return nil
            }
            let target = rowTarget(from, in: shadow)
            let last = shadow.sections[section].rows.count - (section == from.section ? 1 : 0)
            let to = RowPath(section: section, row: random.chance(0.3) ? last : random.int(in: 0...last))
            let row = shadow.sections[from.section].rows.remove(at: from.row)
            shadow.sections[to.section].rows.insert(row, at: to.row)
            return .moveRow(target, to: to, animation: animation())
        case 10:  // insert or append a section, sometimes one the batch removed
            let present = shadow.presentSectionIDs
            var section = freshSection()
            if random.chance(0.3), let removed = random.pick(shadow.removedSections.filter { !present.contains($0.id) })
            {
                let presentRows = shadow.presentRowIDs
                section = ShadowTable.Section(
                    id: removed.id, rows: removed.rows.filter { !presentRows.contains($0.id) })
            }
            let index = random.int(in: 0...sectionCount)
            let append = index == sectionCount && random.chance(0.5)
            shadow.insertSection(section, at: index)
            return append
                ? .appendSection(section.section, animation: animation())
                : .insertSection(section.section, at: index, animation: animation())
        case 11:  // delete a section
            guard let index = random.pick(shadow.sections.indices) else { return nil }
            let target = sectionTarget(index, in: shadow)
            shadow.removeSection(at: index)
            return .deleteSection(target, animation: animation())
        case 12:  // reload a section the batch did not insert
            guard
                let index = random.pick(
                    shadow.sections.indices.filter { !shadow.insertedSections.contains(shadow.sections[$0].id) })
            else { return nil }
            return .reloadSection(sectionTarget(index, in: shadow), animation: animation())
        case 13:  // replace a section: same identity (keeping some rows) or a new section
            guard let index = random.pick(shadow.sections.indices) else { return nil }
            let target = sectionTarget(index, in: shadow)
            let old = shadow.sections[index]
            var section = freshSection()
            if random.chance(0.5) {
                section.id = old.id
                section.rows =
                    old.rows.filter { _ in random.chance(0.5) }.map { .init(id: $0.id, text: freshText()) }
                    + section.rows
            }
            let keepsIdentity = section.id == old.id
            let wasInserted = shadow.insertedSections.contains(old.id)
            shadow.removeSection(at: index)
            shadow.insertSection(section, at: index)
            if keepsIdentity && !wasInserted { shadow.insertedSections.remove(section.id) }
            return .replaceSection(target, with: section.section, animation: animation())
        case 14:  // move a section
            guard let from = random.pick(shadow.sections.indices) else { return nil }
            let target = sectionTarget(from, in: shadow)
            let to = random.int(in: 0...(sectionCount - 1))
            shadow.sections.insert(shadow.sections.remove(at: from), at: to)
            return .moveSection(target, to: to, animation: animation())
        default:  // remove everything (rarely)
            guard random.chance(0.1) else { return nil }
            while !shadow.sections.isEmpty { shadow.removeSection(at: shadow.sections.count - 1) }
            return .removeAll(animation: animation())
        }
    }

    /// A random operation that is wrong for `shadow`, with the problem the model must report.
    mutating func badOperation(for shadow: ShadowTable) -> (TableBatch.Operation, TableUpdateError.Problem) {
        while true {
            if let bad = tryBadOperation(for: shadow) { return bad }
        }
    }

    private mutating func tryBadOperation(for shadow: ShadowTable) -> (TableBatch.Operation, TableUpdateError.Problem)?
    {
        let sectionCount = shadow.sections.count
        switch random.int(in: 0...11) {
        case 0:  // a section past the end
            let path = RowPath(section: sectionCount + random.int(in: 0...3), row: 0)
            return (
                .deleteRow(.path(path), animation: .fade), .sectionOutOfRange(path.section, valid: 0..<sectionCount)
            )
        case 1:  // a row past the end
            guard let section = random.pick(shadow.sections.indices) else { return nil }
            let count = shadow.sections[section].rows.count
            let path = RowPath(section: section, row: count + random.int(in: 0...3))
            return (.reloadRow(.path(path), animation: .none), .rowOutOfRange(path, valid: 0..<count))
        case 2:  // a negative row
            guard let section = random.pick(shadow.sections.indices) else { return nil }
            let count = shadow.sections[section].rows.count
            let path = RowPath(section: section, row: -1 - random.int(in: 0...3))
            return (
                .insertRow(freshRow().anyRow, at: path, animation: .top), .rowOutOfRange(path, valid: 0..<(count + 1))
            )
        case 3:  // a duplicate row identity
            guard let existing = random.pick(shadow.allPaths) else { return nil }
            let row = ShadowTable.Row(id: shadow[existing].id, text: "dup")
            return (
                .appendRow(row.anyRow, to: .index(existing.section), animation: .left),
                .duplicateRowID(ItemID(row.id), existing: existing)
            )
        case 4:  // an unknown row identity
            let id = ItemID(1_000_000 + random.int(in: 0...1000))
            return (.deleteRow(.id(id), animation: .automatic), .unknownRowID(id))
        case 5:  // moving a row the batch deleted
            let present = shadow.presentRowIDs
            guard let removed = random.pick(shadow.removedRows.filter { !present.contains($0.id) }) else { return nil }
            return (
                .moveRow(.id(ItemID(removed.id)), to: RowPath(section: 0, row: 0), animation: .middle),
                .rowDeletedEarlier(ItemID(removed.id))
            )
        case 6:  // reloading a row the batch inserted
            guard let id = random.pick(shadow.insertedRows) else { return nil }
            return (.reloadRow(.id(ItemID(id)), animation: .fade), .reloadOfInsertedRow(ItemID(id)))
        case 7:  // moving a section past the end
            guard let from = random.pick(shadow.sections.indices) else { return nil }
            let to = sectionCount + random.int(in: 0...2)
            return (
                .moveSection(.index(from), to: to, animation: .bottom), .sectionOutOfRange(to, valid: 0..<sectionCount)
            )
        case 8:  // a duplicate section identity
            guard let index = random.pick(shadow.sections.indices) else { return nil }
            let section = ShadowTable.Section(id: shadow.sections[index].id, rows: [])
            return (
                .insertSection(section.section, at: 0, animation: .right),
                .duplicateSectionID(ItemID(section.id), existing: index)
            )
        case 9:  // reloading a section the batch inserted
            guard let id = random.pick(shadow.insertedSections) else { return nil }
            return (.reloadSection(.id(ItemID(id)), animation: .none), .reloadOfInsertedSection(ItemID(id)))
        case 10:  // moving a row past the end of its destination section
            guard let from = random.pick(shadow.allPaths), let section = random.pick(shadow.sections.indices) else {
                return nil
            }
            let last = shadow.sections[section].rows.count - (section == from.section ? 1 : 0)
            let to = RowPath(section: section, row: last + 1 + random.int(in: 0...2))
            return (.moveRow(.path(from), to: to, animation: .automatic), .rowOutOfRange(to, valid: 0..<(last + 1)))
        default:  // a new section whose rows repeat an identity
            let row = freshRow()
            let section = ShadowTable.Section(id: "dup-rows", rows: [row, row])
            guard !shadow.presentSectionIDs.contains(section.id) else { return nil }
            let index = random.int(in: 0...sectionCount)
            return (
                .insertSection(section.section, at: index, animation: .fade),
                .duplicateRowID(ItemID(row.id), existing: RowPath(section: index, row: 0))
            )
        }
    }
}
