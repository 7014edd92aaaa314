extension Changeset {
    /// The changeset split into batches that a host UI such as UIKit applies one after another
    /// without complaint; the last batch leaves the view in the changeset's final state.
    ///
    /// Each stage is a complete changeset in the coordinates valid when it starts, with its own
    /// `oldRowCounts` and `newRowCounts`. Empty stages are left out, so there are zero to three:
    ///
    /// 1. **Reloads** (rows and sections), in old coordinates, with nothing else. UIKit performs a
    ///    reload as a delete plus an insert, so it refuses a reload and a move of the same row in
    ///    one batch ("attempt to perform a delete and a move from the same index path"); and a
    ///    reload's old path is easy to misread once deletes and moves are in the same batch. Alone
    ///    and first, the old coordinates are exactly the view's current coordinates.
    /// 2. **Deletes** (rows and sections), in old coordinates. Separating them from inserts and
    ///    moves means no batch mixes coordinates from before and after a removal.
    /// 3. **Inserts and moves** (rows and sections): inserts in final coordinates, moves from the
    ///    coordinates after stage 2 to final coordinates.
    ///
    /// Every stage carries the whole change's `fromRevision` and `toRevision`: the intermediate
    /// states belong to no model revision, so a host checks freshness once, before the first stage,
    /// and then applies all stages. A changeset marked `reloadsEverything` is returned whole, as its
    /// only stage (a host reloads instead of animating).
    ///
    /// - Precondition: The changeset is valid: sorted lists, no move out of a deleted section,
    ///   counts consistent with the edits (as `TableDiff` and batches produce it).
    /// - Complexity: O(*c* + *m* log *d* + *s*), where *c* is the number of edits, *m* the moved
    ///   rows, *d* the deleted rows and *s* the number of sections.
    public func stages() -> [Changeset] {
        if reloadsEverything { return [self] }
        var result = [Changeset]()

        if !reloadedRows.isEmpty || !reloadedSections.isEmpty {
            var stage = stageShell(oldRowCounts: oldRowCounts, newRowCounts: oldRowCounts)
            stage.reloadedRows = reloadedRows
            stage.reloadedSections = reloadedSections
            result.append(stage)
        }

        // The state after stage 2: old sections that survive, each without its deleted rows.
        var isDeletedSection = [Bool](repeating: false, count: oldRowCounts.count)
        for edit in deletedSections { isDeletedSection[edit.index] = true }
        var deletedRowsBySection = [Int](repeating: 0, count: oldRowCounts.count)
        for edit in deletedRows { deletedRowsBySection[edit.index.section] += 1 }
        var intermediateSection = [Int](repeating: -1, count: oldRowCounts.count)
        var intermediateCounts = [Int]()
        intermediateCounts.reserveCapacity(oldRowCounts.count - deletedSections.count)
        for (section, count) in oldRowCounts.enumerated() where !isDeletedSection[section] {
            intermediateSection[section] = intermediateCounts.count
            intermediateCounts.append(count - deletedRowsBySection[section])
        }

        if !deletedRows.isEmpty || !deletedSections.isEmpty {
            var stage = stageShell(oldRowCounts: oldRowCounts, newRowCounts: intermediateCounts)
            stage.deletedRows = deletedRows
            stage.deletedSections = deletedSections
            result.append(stage)
        }

        if !insertedRows.isEmpty || !insertedSections.isEmpty || !movedRows.isEmpty || !movedSections.isEmpty {
            var stage = stageShell(oldRowCounts: intermediateCounts, newRowCounts: newRowCounts)
            stage.insertedRows = insertedRows
            stage.insertedSections = insertedSections
            stage.movedSections = movedSections.map { move in
                let from = intermediateSection[move.from]
                precondition(from >= 0, "section \(move.from) is both deleted and moved")
                return Move(from: from, to: move.to, animation: move.animation)
            }
            stage.movedRows = movedRows.map { move in
                let section = intermediateSection[move.from.section]
                precondition(section >= 0, "row \(move.from) moves out of a deleted section")
                let deletedBefore = deletedRowCount(before: move.from)
                let from = RowPath(section: section, row: move.from.row - deletedBefore)
                return Move(from: from, to: move.to, animation: move.animation)
            }
            result.append(stage)
        }
        return result
    }

    /// An empty stage of this changeset with the given counts and the whole change's revisions.
    private func stageShell(oldRowCounts: [Int], newRowCounts: [Int]) -> Changeset {
        var stage = Changeset()
        stage.oldRowCounts = oldRowCounts
        stage.newRowCounts = newRowCounts
        stage.fromRevision = fromRevision
        stage.toRevision = toRevision
        return stage
    }

    /// The number of deleted rows in `path`'s section above `path`.
    ///
    /// - Complexity: O(log *d*), where *d* is the number of deleted rows.
    private func deletedRowCount(before path: RowPath) -> Int {
        lowerBound(of: path) - lowerBound(of: RowPath(section: path.section, row: 0))
    }

    /// The first position in `deletedRows` whose path is not less than `path`.
    private func lowerBound(of path: RowPath) -> Int {
        var low = 0
        var high = deletedRows.count
        while low < high {
            let mid = (low + high) / 2
            if deletedRows[mid].index < path { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
