extension TableModel {
    /// The changeset of a batch, derived from identities: each section's and row's position before
    /// the batch and after it, and what the batch did to it explicitly.
    ///
    /// Sections: present before and not after (or deleted and inserted again) → delete at the old
    /// index; present after and not before (or deleted and inserted again) → insert at the new
    /// index; otherwise reloaded → reload, moved → move (both for a section moved and reloaded).
    /// Sections that merely shift are not listed.
    ///
    /// Rows are listed only in *tracked* sections: present before and after and neither reloaded
    /// nor rebuilt (deleted sections, inserted sections and reloaded sections cover their rows). A
    /// row's old path counts only if its old section is tracked, its new path only if its new
    /// section is; then: old only → delete, new only → insert, both and deleted-then-inserted →
    /// delete + insert, otherwise moved → move and reloaded → reload (both for a row moved and
    /// reloaded).
    /// Rows the batch did not move keep their relative order (inserts and deletes do not reorder the
    /// others), which is why shifts are never listed; nor is a move that is only a shift (a row or
    /// section moved to where the other changes take it, such as its own index), which
    /// `Changeset.removeShiftOnlyMoves()` leaves out (a reload listed with it stays).
    ///
    /// - Complexity: O(*s* + *c* log *c* + *c* log *k*) for *s* sections, *c* identities the batch
    ///   touched and sections of at most *k* rows.
    func makeChangeset(from before: BatchStart, log: BatchLog, to next: Revision) -> Changeset {
        var changes = Changeset()
        changes.fromRevision = before.revision
        changes.toRevision = next
        changes.oldRowCounts = before.rowCounts
        changes.newRowCounts = table.sections.map(\.rows.count)

        let rows = log.rows
        let sections = log.sections
        for (oldIndex, id) in before.sectionIDs.enumerated() {
            guard let newIndex = index.sectionPositions[id], !sections.isRebuilt(id) else {
                let animation = sections.deleteAnimations[id] ?? sections.animations[id] ?? .automatic
                changes.deletedSections.append(.init(oldIndex, animation: animation))
                continue
            }
            let animation = sections.animations[id] ?? .automatic
            if sections.reloaded.contains(id) {
                changes.reloadedSections.append(.init(oldIndex, animation: animation))
            }
            if sections.moved.contains(id) {
                changes.movedSections.append(.init(from: oldIndex, to: newIndex, animation: animation))
            }
        }
        for (newIndex, section) in table.sections.enumerated()
        where before.sectionPositions[section.id] == nil || sections.isRebuilt(section.id) {
            changes.insertedSections.append(.init(newIndex, animation: sections.animations[section.id] ?? .automatic))
        }

        func tracked(_ id: ItemID) -> Bool {
            before.sectionPositions[id] != nil && index.sectionPositions[id] != nil
                && !sections.recreated.contains(id) && !sections.reloaded.contains(id)
        }
        func oldPath(_ id: ItemID) -> RowPath? {
            var location = log.oldRowLocations[id]
            if location == nil, !rows.inserted.contains(id), let now = indexedPath(of: id) {
                // Not moved, removed or replaced: where it is now, moved back through the shifts.
                let section = table.sections[now.section].id
                location = OldRowLocation(section: section, row: log.rowBeforeBatch(now.row, inSection: section))
            }
            guard let location, tracked(location.section), let section = before.sectionPositions[location.section]
            else {
                return nil
            }
            return RowPath(section: section, row: location.row)
        }
        func newPath(_ id: ItemID) -> RowPath? {
            guard let path = indexedPath(of: id), tracked(table.sections[path.section].id) else { return nil }
            return path
        }
        var candidates = Set(log.oldRowLocations.keys)
        candidates.formUnion(rows.inserted)
        candidates.formUnion(rows.reloaded)
        candidates.formUnion(rows.moved)
        for id in candidates {
            let animation = rows.animations[id] ?? .automatic
            let deleteAnimation = rows.deleteAnimations[id] ?? animation
            switch (oldPath(id), newPath(id)) {
            case (let old?, let new?):
                if rows.isRebuilt(id) {
                    changes.deletedRows.append(.init(old, animation: deleteAnimation))
                    changes.insertedRows.append(.init(new, animation: animation))
                    continue
                }
                if rows.moved.contains(id) {
                    changes.movedRows.append(.init(from: old, to: new, animation: animation))
                }
                if rows.reloaded.contains(id) {
                    changes.reloadedRows.append(.init(old, animation: animation))
                }
            case (let old?, nil):
                changes.deletedRows.append(.init(old, animation: deleteAnimation))
            case (nil, let new?):
                changes.insertedRows.append(.init(new, animation: animation))
            case (nil, nil):
                break
            }
        }
        changes.deletedRows.sort { $0.index < $1.index }
        changes.insertedRows.sort { $0.index < $1.index }
        changes.reloadedRows.sort { $0.index < $1.index }
        changes.movedRows.sort { $0.from < $1.from }
        changes.removeShiftOnlyMoves()
        return changes
    }
}
