/// A validated changeset, resolved into what a `TableView` edits: which sections leave and enter
/// the tree whole, which rows leave and enter one by one, and where every surviving row goes.
///
/// Moves split into a removal at the source and an insertion at the destination. A section that is
/// deleted, moved or reloaded leaves the tree whole (`isWholesaleOld`), and one that is inserted,
/// moved in or reloaded enters it whole (`isWholesaleNew`); row changes inside such sections are
/// covered by the section change and skipped. Surviving rows are found by identity in the new
/// model, not here. Building it never touches the view, so a changeset
/// that does not add up is refused before anything changes.
struct UpdatePlan {
    /// For each old section, its new index (kept, moved or reloaded), or `nil` when deleted.
    var newSection: [Int?]
    /// Whether each old section leaves the tree whole.
    var isWholesaleOld: [Bool]
    /// Whether each new section enters the tree whole.
    var isWholesaleNew: [Bool]
    /// Whether each old section is reloaded (its items all count as new).
    var isReloadedOld: [Bool]
    /// For each old section not leaving whole: its removed rows (deleted or moved out), ascending.
    var removedRows: [[Int]]
    /// For each new section not entering whole: its added rows (inserted or moved in), ascending.
    var addedRows: [[Int]]
    /// Reloaded rows (old paths) in sections that stay in the tree.
    var reloadedRows: [RowPath] = []
    /// Reloaded rows as a set, old paths.
    var reloadedSet: Set<RowPath> = []

    /// Resolves `changeset` from `oldCounts` to `newCounts` rows per section.
    ///
    /// - Throws: `TableViewError.invalidChangeset`, `.invalidNumberOfSections` or
    ///   `.invalidNumberOfRows` when the changeset does not add up.
    /// - Complexity: O(s + k log k) for s sections and k changes.
    init(_ changeset: Changeset, oldCounts: [Int], newCounts: [Int]) throws(TableViewError) {
        let oldSectionCount = oldCounts.count
        let newSectionCount = newCounts.count
        var deleted = [Bool](repeating: false, count: oldSectionCount)
        var movedOut = [Bool](repeating: false, count: oldSectionCount)
        var reloaded = [Bool](repeating: false, count: oldSectionCount)
        var inserted = [Bool](repeating: false, count: newSectionCount)
        var movedIn = [Bool](repeating: false, count: newSectionCount)
        newSection = [Int?](repeating: nil, count: oldSectionCount)

        func checkOld(_ section: Int, _ what: String) throws(TableViewError) {
            guard section >= 0, section < oldSectionCount else {
                throw .invalidChangeset("\(what) section \(section) is not among the \(oldSectionCount) old sections")
            }
        }
        func checkNew(_ section: Int, _ what: String) throws(TableViewError) {
            guard section >= 0, section < newSectionCount else {
                throw .invalidChangeset("\(what) section \(section) is not among the \(newSectionCount) new sections")
            }
        }

        for edit in changeset.deletedSections {
            try checkOld(edit.index, "deleted")
            guard !deleted[edit.index] else { throw .invalidChangeset("section \(edit.index) deleted twice") }
            deleted[edit.index] = true
        }
        for edit in changeset.insertedSections {
            try checkNew(edit.index, "inserted")
            guard !inserted[edit.index] else { throw .invalidChangeset("section \(edit.index) inserted twice") }
            inserted[edit.index] = true
        }
        for move in changeset.movedSections {
            try checkOld(move.from, "moved")
            try checkNew(move.to, "moved-to")
            guard !deleted[move.from], !movedOut[move.from] else {
                throw .invalidChangeset("section \(move.from) moved after a delete or another move")
            }
            guard !inserted[move.to], !movedIn[move.to] else {
                throw .invalidChangeset("section \(move.to) is the target of an insert or another move")
            }
            movedOut[move.from] = true
            movedIn[move.to] = true
            newSection[move.from] = move.to
        }
        for edit in changeset.reloadedSections {
            try checkOld(edit.index, "reloaded")
            guard !deleted[edit.index], !movedOut[edit.index] else {
                throw .invalidChangeset("section \(edit.index) reloaded and deleted or moved")
            }
            reloaded[edit.index] = true
        }

        // Survivors keep their order: the i-th old survivor is the i-th new free slot.
        let survivors = (0..<oldSectionCount).filter { !deleted[$0] && !movedOut[$0] }
        let slots = (0..<newSectionCount).filter { !inserted[$0] && !movedIn[$0] }
        guard survivors.count == slots.count else {
            throw .invalidNumberOfSections(
                before: oldSectionCount, after: newSectionCount, inserted: changeset.insertedSections.count,
                deleted: changeset.deletedSections.count)
        }
        isWholesaleOld = (0..<oldSectionCount).map { deleted[$0] || movedOut[$0] || reloaded[$0] }
        isWholesaleNew = (0..<newSectionCount).map { inserted[$0] || movedIn[$0] }
        isReloadedOld = reloaded
        for (old, new) in zip(survivors, slots) {
            newSection[old] = new
            if reloaded[old] { isWholesaleNew[new] = true }
        }

        removedRows = [[Int]](repeating: [], count: oldSectionCount)
        addedRows = [[Int]](repeating: [], count: newSectionCount)
        var deletedCount = [Int](repeating: 0, count: oldSectionCount)
        var movedOutCount = [Int](repeating: 0, count: oldSectionCount)
        var insertedCount = [Int](repeating: 0, count: newSectionCount)
        var movedInCount = [Int](repeating: 0, count: newSectionCount)

        func checkOldRow(_ path: RowPath, _ what: String) throws(TableViewError) {
            try checkOld(path.section, what)
            guard path.row >= 0, path.row < oldCounts[path.section] else {
                throw .invalidChangeset("\(what) row \(path) is not among the \(oldCounts[path.section]) old rows")
            }
        }
        func checkNewRow(_ path: RowPath, _ what: String) throws(TableViewError) {
            try checkNew(path.section, what)
            guard path.row >= 0, path.row < newCounts[path.section] else {
                throw .invalidChangeset("\(what) row \(path) is not among the \(newCounts[path.section]) new rows")
            }
        }

        for edit in changeset.deletedRows {
            try checkOldRow(edit.index, "deleted")
            guard !isWholesaleOld[edit.index.section] else { continue }
            removedRows[edit.index.section].append(edit.index.row)
            deletedCount[edit.index.section] += 1
        }
        for edit in changeset.insertedRows {
            try checkNewRow(edit.index, "inserted")
            guard !isWholesaleNew[edit.index.section] else { continue }
            addedRows[edit.index.section].append(edit.index.row)
            insertedCount[edit.index.section] += 1
        }
        for move in changeset.movedRows {
            try checkOldRow(move.from, "moved")
            try checkNewRow(move.to, "moved-to")
            if !isWholesaleOld[move.from.section] {
                removedRows[move.from.section].append(move.from.row)
                movedOutCount[move.from.section] += 1
            }
            if !isWholesaleNew[move.to.section] {
                addedRows[move.to.section].append(move.to.row)
                movedInCount[move.to.section] += 1
            }
        }
        for section in removedRows.indices where !removedRows[section].isEmpty {
            removedRows[section].sort()
            try Self.checkUnique(removedRows[section], "row removed twice in old section \(section)")
        }
        for section in addedRows.indices where !addedRows[section].isEmpty {
            addedRows[section].sort()
            try Self.checkUnique(addedRows[section], "row added twice in new section \(section)")
        }
        for edit in changeset.reloadedRows {
            try checkOldRow(edit.index, "reloaded")
            guard !isWholesaleOld[edit.index.section] else { continue }
            guard Self.contains(removedRows[edit.index.section], edit.index.row) == false else {
                throw .invalidChangeset("row \(edit.index) reloaded and deleted or moved")
            }
            reloadedRows.append(edit.index)
            reloadedSet.insert(edit.index)
        }

        for old in survivors where !isWholesaleOld[old] {
            guard let new = newSection[old] else { continue }
            let before = oldCounts[old]
            let after = newCounts[new]
            guard before - removedRows[old].count + addedRows[new].count == after else {
                throw .invalidNumberOfRows(
                    oldSection: old, newSection: new, before: before, after: after, inserted: insertedCount[new],
                    deleted: deletedCount[old], movedIn: movedInCount[new], movedOut: movedOutCount[old])
            }
        }
    }

    /// How many elements of ascending `values` are less than `value`. - Complexity: O(log n).
    static func countLess(_ values: [Int], than value: Int) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let mid = (low + high) / 2
            if values[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Whether ascending `values` contains `value`. - Complexity: O(log n).
    static func contains(_ values: [Int], _ value: Int) -> Bool {
        let index = countLess(values, than: value)
        return index < values.count && values[index] == value
    }

    private static func checkUnique(_ sorted: [Int], _ message: String) throws(TableViewError) {
        for index in sorted.indices.dropFirst() where sorted[index] == sorted[index - 1] {
            throw .invalidChangeset(message)
        }
    }
}
