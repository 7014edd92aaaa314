/// A valid changeset, resolved into what a `TableView` edits: which sections leave and enter the
/// tree whole, which rows leave and enter one by one, and what happens to each displayed item.
///
/// Moves split into a removal at the source and an insertion at the destination. A section that is
/// deleted, moved or reloaded leaves the tree whole (`isWholesaleOld`), and one that is inserted,
/// moved in or reloaded enters it whole (`isWholesaleNew`); row changes inside such sections are
/// covered by the section change and skipped. Surviving rows are found by identity in the new
/// model, not here. Building it never touches the view, so a changeset that breaks the contract
/// is refused before anything changes.
struct UpdatePlan {
    /// For each old section, its new index (kept, moved or reloaded), or `nil` when deleted.
    var newSection: [Int?]
    /// Whether each old section is deleted.
    var isDeletedOld: [Bool]
    /// Whether each old section is reloaded (its items all count as new; it may also move).
    var isReloadedOld: [Bool]
    /// Whether each old section leaves the tree whole.
    var isWholesaleOld: [Bool]
    /// Whether each new section enters the tree whole.
    var isWholesaleNew: [Bool]
    /// For each old section not leaving whole: its removed rows (deleted or moved out), ascending.
    var removedRows: [[Int]]
    /// For each new section not entering whole: its added rows (inserted or moved in), ascending.
    var addedRows: [[Int]]
    /// Deleted rows, old paths.
    var deletedSet: Set<RowPath>
    /// Reloaded rows (moved or not), old paths, ascending.
    var reloadedRows: [RowPath]
    /// Reloaded rows as a set, old paths.
    var reloadedSet: Set<RowPath>
    /// Rows both moved and reloaded, old paths: a displayed one keeps its cell, configured again.
    var movedReloadedSet: Set<RowPath>

    /// Resolves `changeset`, after checking it with `Changeset.validate()`.
    ///
    /// - Throws: `TableViewError.invalidChangeset` with the first violation `validate()` finds.
    /// - Complexity: O(s + k log k) for s sections and k changes.
    init(_ changeset: Changeset) throws(TableViewError) {
        do {
            try changeset.validate()
        } catch {
            throw .invalidChangeset(error)
        }
        let oldSectionCount = changeset.oldRowCounts.count
        let newSectionCount = changeset.newRowCounts.count
        let map = changeset.sectionMap()
        let isDeletedOld = map.newOfOld.map { $0 == nil }
        var isReloadedOld = [Bool](repeating: false, count: oldSectionCount)
        for edit in changeset.reloadedSections { isReloadedOld[edit.index] = true }
        var isMovedOld = [Bool](repeating: false, count: oldSectionCount)
        var isMovedIn = [Bool](repeating: false, count: newSectionCount)
        for move in changeset.movedSections {
            isMovedOld[move.from] = true
            isMovedIn[move.to] = true
        }
        let isWholesaleOld = (0..<oldSectionCount).map { isDeletedOld[$0] || isMovedOld[$0] || isReloadedOld[$0] }
        let isWholesaleNew = map.oldOfNew.enumerated().map { new, old in
            guard let old else { return true }
            return isMovedIn[new] || isReloadedOld[old]
        }
        newSection = map.newOfOld
        self.isDeletedOld = isDeletedOld
        self.isReloadedOld = isReloadedOld
        self.isWholesaleOld = isWholesaleOld
        self.isWholesaleNew = isWholesaleNew

        removedRows = [[Int]](repeating: [], count: oldSectionCount)
        addedRows = [[Int]](repeating: [], count: newSectionCount)
        deletedSet = []
        deletedSet.reserveCapacity(changeset.deletedRows.count)
        for edit in changeset.deletedRows {
            deletedSet.insert(edit.index)
            if !isWholesaleOld[edit.index.section] { removedRows[edit.index.section].append(edit.index.row) }
        }
        for edit in changeset.insertedRows where !isWholesaleNew[edit.index.section] {
            addedRows[edit.index.section].append(edit.index.row)
        }
        reloadedRows = changeset.reloadedRows.map(\.index)
        reloadedSet = Set(reloadedRows)
        movedReloadedSet = []
        for move in changeset.movedRows {
            if !isWholesaleOld[move.from.section] { removedRows[move.from.section].append(move.from.row) }
            if !isWholesaleNew[move.to.section] { addedRows[move.to.section].append(move.to.row) }
            if reloadedSet.contains(move.from) { movedReloadedSet.insert(move.from) }
        }
        for section in removedRows.indices where removedRows[section].count > 1 { removedRows[section].sort() }
        for section in addedRows.indices where addedRows[section].count > 1 { addedRows[section].sort() }
    }

    /// Whether the displayed row at old path `path` ends with the update: it is deleted, in a
    /// deleted or reloaded section, or reloaded without moving (UIKit's `reloadRows`: its cell is
    /// replaced). A row moved and reloaded keeps its cell.
    func rowEnds(at path: RowPath) -> Bool {
        isDeletedOld[path.section] || isReloadedOld[path.section] || deletedSet.contains(path)
            || (reloadedSet.contains(path) && !movedReloadedSet.contains(path))
    }
}
