extension Changeset {
    /// Checks the changeset against RowKit's changeset contract (<doc:Changesets>), UIKit's
    /// batch-update rules with one addition: an item may be both moved and reloaded.
    ///
    /// Passes when:
    /// - every list is strictly ascending (moves by `from`), so no entry repeats;
    /// - deletes, reloads and move sources name existing **old** sections and rows; inserts and move
    ///   destinations name existing **new** ones (`oldRowCounts`, `newRowCounts`);
    /// - an old section is deleted, reloaded or moved at most once, except that it may be both
    ///   reloaded and moved (it moves, and its content is new); a new section is inserted or a move
    ///   destination at most once; the same holds for rows (a row may be both reloaded and moved);
    /// - new section count = old − deleted + inserted;
    /// - no row change lies inside a deleted, inserted or reloaded section, on either side (the
    ///   section change covers its rows; a row that enters or leaves a reloaded section is an insert
    ///   or a delete in the other section); rows may change inside moved sections;
    /// - for every surviving section that is not reloaded: new row count = old − deleted − moved out +
    ///   inserted + moved in. A reloaded section may end with any number of rows.
    ///
    /// Every changeset a batch or a diff produces passes; `replay`, `stages()` and
    /// the headless `TableView` accept exactly the changesets that pass.
    ///
    /// Throws the first violation found.
    ///
    /// - Complexity: O(*s* + *c*) for *s* sections (old and new) and *c* listed changes.
    public func validate() throws(ChangesetError) {
        for (section, count) in oldRowCounts.enumerated() where count < 0 {
            throw .negativeRowCount(side: .old, section: section, count: count)
        }
        for (section, count) in newRowCounts.enumerated() where count < 0 {
            throw .negativeRowCount(side: .new, section: section, count: count)
        }
        try checkListsAscend()
        let sections = try checkSectionUse()
        let map = sectionMap()
        let flow = try checkRowUse(sections, map: map)
        for old in 0..<oldRowCounts.count {
            guard let new = map.newIndex(ofOld: old), !sections.reloadedOld(old) else { continue }
            let expected = oldRowCounts[old] - flow.outOfSection[old, default: 0] + flow.intoSection[new, default: 0]
            guard newRowCounts[new] == expected else {
                throw .rowCountMismatch(oldSection: old, newSection: new, expected: expected, actual: newRowCounts[new])
            }
        }
    }

    /// How the section lists use the old and the new sections (see `validate()`).
    fileprivate struct SectionUse {
        var old: [Int: List] = [:]
        var new: [Int: List] = [:]
        /// Empty (no allocation) when no section is reloaded.
        var isReloadedOld: [Bool]

        func reloadedOld(_ section: Int) -> Bool { !isReloadedOld.isEmpty && isReloadedOld[section] }
    }

    /// Checks that every list is strictly ascending (moves by `from`).
    private func checkListsAscend() throws(ChangesetError) {
        // (No arrays of the indices are made: a batch's changeset is validated on every batch, and
        // its allocations were a large part of a one-row batch's cost.)
        try Self.checkAscending(deletedSections, .deletedSections) { $0.index }
        try Self.checkAscending(insertedSections, .insertedSections) { $0.index }
        try Self.checkAscending(reloadedSections, .reloadedSections) { $0.index }
        try Self.checkAscending(movedSections, .movedSections) { $0.from }
        try Self.checkAscending(deletedRows, .deletedRows) { $0.index }
        try Self.checkAscending(insertedRows, .insertedRows) { $0.index }
        try Self.checkAscending(reloadedRows, .reloadedRows) { $0.index }
        try Self.checkAscending(movedRows, .movedRows) { $0.from }
    }

    /// Checks the section lists: ranges, single use per side, and the new section count.
    private func checkSectionUse() throws(ChangesetError) -> SectionUse {
        let oldSectionCount = oldRowCounts.count
        let newSectionCount = newRowCounts.count
        var use = SectionUse(
            isReloadedOld: [Bool](repeating: false, count: reloadedSections.isEmpty ? 0 : oldSectionCount))
        func useOld(_ index: Int, _ list: List) throws(ChangesetError) {
            guard (0..<oldSectionCount).contains(index) else {
                throw .sectionOutOfRange(list, index: index, sectionCount: oldSectionCount)
            }
            // A section may be reloaded and moved: it moves, and its content is new.
            if let first = use.old.updateValue(list, forKey: index),
                !(first == .reloadedSections && list == .movedSections)
            {
                throw .sectionInTwoLists(index: index, side: .old, first, list)
            }
            if list == .reloadedSections { use.isReloadedOld[index] = true }
        }
        func useNew(_ index: Int, _ list: List) throws(ChangesetError) {
            guard (0..<newSectionCount).contains(index) else {
                throw .sectionOutOfRange(list, index: index, sectionCount: newSectionCount)
            }
            if let first = use.new.updateValue(list, forKey: index) {
                throw .sectionInTwoLists(index: index, side: .new, first, list)
            }
        }
        for edit in deletedSections { try useOld(edit.index, .deletedSections) }
        for edit in reloadedSections { try useOld(edit.index, .reloadedSections) }
        for move in movedSections { try useOld(move.from, .movedSections) }
        for edit in insertedSections { try useNew(edit.index, .insertedSections) }
        for move in movedSections { try useNew(move.to, .movedSections) }
        guard newSectionCount == oldSectionCount - deletedSections.count + insertedSections.count else {
            throw .sectionCountMismatch(
                old: oldSectionCount, deleted: deletedSections.count, inserted: insertedSections.count,
                new: newSectionCount)
        }
        return use
    }

    /// Checks the row lists: ranges, enclosing section changes, single use per side. Returns how
    /// many rows leave each old section and enter each new one.
    private func checkRowUse(
        _ sections: SectionUse, map: SectionMap
    ) throws(ChangesetError) -> (outOfSection: [Int: Int], intoSection: [Int: Int]) {
        let oldSectionCount = oldRowCounts.count
        let newSectionCount = newRowCounts.count
        var oldRowUse: [RowPath: List] = [:]
        var newRowUse: [RowPath: List] = [:]
        var outOfSection: [Int: Int] = [:]
        var intoSection: [Int: Int] = [:]
        func useOldRow(_ path: RowPath, _ list: List) throws(ChangesetError) {
            guard (0..<oldSectionCount).contains(path.section) else {
                throw .rowOutOfRange(list, path: path, rowCount: nil)
            }
            guard (0..<oldRowCounts[path.section]).contains(path.row) else {
                throw .rowOutOfRange(list, path: path, rowCount: oldRowCounts[path.section])
            }
            if sections.reloadedOld(path.section) {
                throw .rowInsideChangedSection(list, path: path, sectionList: .reloadedSections)
            }
            if let sectionList = sections.old[path.section], sectionList != .movedSections {
                throw .rowInsideChangedSection(list, path: path, sectionList: sectionList)
            }
            // A row may be reloaded and moved: it moves, and its content is new.
            if let first = oldRowUse.updateValue(list, forKey: path), !(first == .reloadedRows && list == .movedRows) {
                throw .rowInTwoLists(path: path, side: .old, first, list)
            }
            if list != .reloadedRows { outOfSection[path.section, default: 0] += 1 }
        }
        func useNewRow(_ path: RowPath, _ list: List) throws(ChangesetError) {
            guard (0..<newSectionCount).contains(path.section) else {
                throw .rowOutOfRange(list, path: path, rowCount: nil)
            }
            guard (0..<newRowCounts[path.section]).contains(path.row) else {
                throw .rowOutOfRange(list, path: path, rowCount: newRowCounts[path.section])
            }
            if let sectionList = sections.new[path.section], sectionList == .insertedSections {
                throw .rowInsideChangedSection(list, path: path, sectionList: sectionList)
            }
            if let old = map.oldIndex(ofNew: path.section), sections.reloadedOld(old) {
                throw .rowInsideChangedSection(list, path: path, sectionList: .reloadedSections)
            }
            if let first = newRowUse.updateValue(list, forKey: path) {
                throw .rowInTwoLists(path: path, side: .new, first, list)
            }
            intoSection[path.section, default: 0] += 1
        }
        for edit in deletedRows { try useOldRow(edit.index, .deletedRows) }
        for edit in reloadedRows { try useOldRow(edit.index, .reloadedRows) }
        for move in movedRows { try useOldRow(move.from, .movedRows) }
        for edit in insertedRows { try useNewRow(edit.index, .insertedRows) }
        for move in movedRows { try useNewRow(move.to, .movedRows) }
        return (outOfSection, intoSection)
    }

    /// Where each section goes: old index → new index for surviving sections (moved or not), and
    /// back. Surviving sections that are not moved keep their order and fill the new positions that
    /// are neither inserted nor move destinations, in order.
    ///
    /// Expects section lists that passed the range, uniqueness and count checks of `validate()`.
    struct SectionMap {
        /// The section count when every section keeps its index (no section inserted, deleted or
        /// moved, the common case of a batch): then the map holds no arrays, and every changeset a
        /// batch validates costs none.
        fileprivate var identity: Int?
        fileprivate var newOfOldMap: [Int?] = []
        fileprivate var oldOfNewMap: [Int?] = []

        /// The new index of old section `old`; `nil` for a deleted section.
        func newIndex(ofOld old: Int) -> Int? { identity == nil ? newOfOldMap[old] : old }
        /// The old index of new section `new`; `nil` for an inserted section.
        func oldIndex(ofNew new: Int) -> Int? { identity == nil ? oldOfNewMap[new] : new }
        /// The new index of each old section; `nil` for deleted sections.
        var newOfOld: [Int?] { identity.map { (0..<$0).map { $0 } } ?? newOfOldMap }
        /// The old index of each new section; `nil` for inserted sections.
        var oldOfNew: [Int?] { identity.map { (0..<$0).map { $0 } } ?? oldOfNewMap }
    }

    /// The section map (see `SectionMap`).
    ///
    /// - Complexity: O(*s*) for *s* sections; O(1) when no section is inserted, deleted or moved.
    func sectionMap() -> SectionMap {
        if insertedSections.isEmpty && deletedSections.isEmpty && movedSections.isEmpty
            && oldRowCounts.count == newRowCounts.count
        {
            return SectionMap(identity: oldRowCounts.count)
        }
        var map = SectionMap(
            newOfOldMap: Array(repeating: nil, count: oldRowCounts.count),
            oldOfNewMap: Array(repeating: nil, count: newRowCounts.count))
        var taken = Array(repeating: false, count: newRowCounts.count)
        var gone = Array(repeating: false, count: oldRowCounts.count)
        for edit in insertedSections { taken[edit.index] = true }
        for edit in deletedSections { gone[edit.index] = true }
        for move in movedSections {
            map.newOfOldMap[move.from] = move.to
            map.oldOfNewMap[move.to] = move.from
            taken[move.to] = true
            gone[move.from] = true
        }
        var slot = 0
        for old in gone.indices where !gone[old] {
            while slot < taken.count, taken[slot] { slot += 1 }
            guard slot < taken.count else { break }
            map.newOfOldMap[old] = slot
            map.oldOfNewMap[slot] = old
            slot += 1
        }
        return map
    }

    private static func checkAscending<Element, Index: Comparable>(
        _ items: [Element], _ list: List, by index: (Element) -> Index
    ) throws(ChangesetError) {
        for position in items.indices.dropFirst() where !(index(items[position - 1]) < index(items[position])) {
            throw .notAscending(list, position: position)
        }
    }
}
