extension Changeset {
    /// The changeset split into batches that a host UI such as UIKit applies one after another
    /// without complaint; the last batch leaves the view in the changeset's final state.
    ///
    /// Each stage is a valid changeset (`validate()` passes) in the coordinates valid when it
    /// starts, with its own `oldRowCounts` and `newRowCounts`; each stage's `oldRowCounts` is the
    /// previous stage's `newRowCounts`, the first one's is this changeset's and the last one's
    /// `newRowCounts` is this changeset's. Empty stages are left out, so there are zero to three:
    ///
    /// 1. **Reloads** (rows and sections), in old coordinates, with nothing else. UIKit performs a
    ///    reload as a delete plus an insert, so it refuses a reload and a move of the same item in
    ///    one batch ("attempt to perform a delete and a move from the same index path"); and a
    ///    reload's old path is easy to misread once deletes and moves are in the same batch. Alone
    ///    and first, the old coordinates are exactly the view's current coordinates. A reloaded
    ///    section takes its final rows here, so its row count after this stage is its final count.
    /// 2. **Deletes** (rows and sections), in old coordinates. Separating them from inserts and
    ///    moves means no batch mixes coordinates from before and after a removal.
    /// 3. **Inserts and moves** (rows and sections): inserts in final coordinates, moves from the
    ///    coordinates after stage 2 to final coordinates.
    ///
    /// Between stages 1 and 2, a row that moves into a reloaded section from another section is in
    /// both: the reloaded section shows its final rows, and the row's old section loses it in
    /// stage 2 (the changeset lists it there as a delete).
    ///
    /// Every stage carries the whole change's `fromRevision` and `toRevision`: the intermediate
    /// states belong to no model revision, so a host checks freshness once, before the first stage,
    /// and then applies all stages. A changeset marked `reloadsEverything` is returned whole, as its
    /// only stage (a host reloads instead of animating).
    ///
    /// - Precondition: The changeset is valid (`validate()` passes), as every changeset from a
    ///   batch or a diff is.
    /// - Complexity: O(*c* + *m* log *d* + *s*), where *c* is the number of edits, *m* the moved
    ///   rows, *d* the deleted rows and *s* the number of sections.
    public func stages() -> [Changeset] {
        do {
            try validate()
        } catch {
            preconditionFailure("stages() of an invalid changeset: \(error)")
        }
        if reloadsEverything { return [self] }
        var result = [Changeset]()

        // The state after stage 1: every reloaded section has its final rows.
        var afterReloads = oldRowCounts
        if !reloadedSections.isEmpty {
            let map = sectionMap()
            for edit in reloadedSections {
                guard let new = map.newIndex(ofOld: edit.index) else { continue }
                afterReloads[edit.index] = newRowCounts[new]
            }
        }
        if !reloadedRows.isEmpty || !reloadedSections.isEmpty {
            var stage = stageShell(oldRowCounts: oldRowCounts, newRowCounts: afterReloads)
            stage.reloadedRows = reloadedRows
            stage.reloadedSections = reloadedSections
            result.append(stage)
        }

        // The state after stage 2: old sections that survive, each without its deleted rows.
        var isDeletedSection = [Bool](repeating: false, count: afterReloads.count)
        for edit in deletedSections { isDeletedSection[edit.index] = true }
        var deletedRowsBySection = [Int](repeating: 0, count: afterReloads.count)
        for edit in deletedRows { deletedRowsBySection[edit.index.section] += 1 }
        var intermediateSection = [Int](repeating: -1, count: afterReloads.count)
        var intermediateCounts = [Int]()
        intermediateCounts.reserveCapacity(afterReloads.count - deletedSections.count)
        for (section, count) in afterReloads.enumerated() where !isDeletedSection[section] {
            intermediateSection[section] = intermediateCounts.count
            intermediateCounts.append(count - deletedRowsBySection[section])
        }

        if !deletedRows.isEmpty || !deletedSections.isEmpty {
            var stage = stageShell(oldRowCounts: afterReloads, newRowCounts: intermediateCounts)
            stage.deletedRows = deletedRows
            stage.deletedSections = deletedSections
            result.append(stage)
        }

        if !insertedRows.isEmpty || !insertedSections.isEmpty || !movedRows.isEmpty || !movedSections.isEmpty {
            var stage = stageShell(oldRowCounts: intermediateCounts, newRowCounts: newRowCounts)
            stage.insertedRows = insertedRows
            stage.insertedSections = insertedSections
            stage.movedSections = movedSections.map { move in
                Move(from: intermediateSection[move.from], to: move.to, animation: move.animation)
            }
            stage.movedRows = movedRows.map { move in
                let section = intermediateSection[move.from.section]
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
