extension Changeset {
    /// Applies the changeset to a mirror of the old rows, the way a host UI does, and returns the
    /// mirror of the new rows.
    ///
    /// `old` holds one array per old section, with `oldRowCounts` elements each. The result holds
    /// one array per new section, with `newRowCounts` elements each, built by these rules:
    ///
    /// 1. Sections. Inserted sections (`insertedSections`, new indices) and reloaded sections
    ///    (`reloadedSections`, old indices) take their rows from `newSection(newIndex)`; no row
    ///    change is applied inside them. Deleted sections (old indices) are dropped with their rows.
    ///    A moved section goes from `from` to `to` with its rows. Every other section keeps its
    ///    order relative to the other such sections and fills, in order, the new positions that
    ///    are neither inserted nor move destinations.
    /// 2. Rows leave, in old coordinates: `deletedRows` are dropped; `movedRows` are taken out at
    ///    `from`. The remaining rows of each surviving section keep their order.
    /// 3. Rows arrive, in new coordinates: each `insertedRows` path gets `insertedRow(path)`; each
    ///    `movedRows` destination gets the row taken at its `from`. The remaining rows fill the
    ///    other positions in order (equivalently: inserts and move destinations are applied in
    ///    ascending order).
    /// 4. `reloadedRows` (old paths) end where rules 2 and 3 put them (in place, or at their move
    ///    destination when they are also moved) and are replaced by `reloadedRow(newPath, oldElement)`.
    ///
    /// Closures are called in ascending new section, then new row order. The changeset is validated
    /// first (`validate()`), and the mirror and every new section must have the sizes the changeset
    /// states.
    ///
    /// ```swift
    /// let ids = try changeset.replay(
    ///     on: oldIDs, newSection: { newIDs[$0] }, insertedRow: { newIDs[$0.section][$0.row] },
    ///     reloadedRow: { _, id in id })
    /// ```
    ///
    /// - Complexity: O(*n* + *s* + *c*) for *n* rows in the new mirror, *s* sections and *c* listed
    ///   changes.
    public func replay<Element>(
        on old: [[Element]],
        newSection: (_ newIndex: Int) -> [Element],
        insertedRow: (_ newPath: RowPath) -> Element,
        reloadedRow: (_ newPath: RowPath, _ old: Element) -> Element
    ) throws(ChangesetError) -> [[Element]] {
        try validate()
        guard old.count == oldRowCounts.count else {
            throw .mirrorSectionCountMismatch(side: .old, expected: oldRowCounts.count, actual: old.count)
        }
        for (section, rows) in old.enumerated() where rows.count != oldRowCounts[section] {
            throw .mirrorRowCountMismatch(
                side: .old, section: section, expected: oldRowCounts[section], actual: rows.count)
        }
        let map = sectionMap()
        let reloadedOldSections = Set(reloadedSections.map(\.index))
        var leaving: [Int: Set<Int>] = [:]
        var reloading: [Int: Set<Int>] = [:]
        var arriving: Set<RowPath> = []
        var movedIn: [RowPath: (element: Element, isReloaded: Bool)] = [:]
        for edit in deletedRows { leaving[edit.index.section, default: []].insert(edit.index.row) }
        for edit in reloadedRows { reloading[edit.index.section, default: []].insert(edit.index.row) }
        for edit in insertedRows { arriving.insert(edit.index) }
        for move in movedRows {
            leaving[move.from.section, default: []].insert(move.from.row)
            let isReloaded = reloading[move.from.section]?.contains(move.from.row) ?? false
            movedIn[move.to] = (old[move.from.section][move.from.row], isReloaded)
        }

        var result: [[Element]] = []
        result.reserveCapacity(newRowCounts.count)
        for newIndex in newRowCounts.indices {
            guard let oldIndex = map.oldIndex(ofNew: newIndex), !reloadedOldSections.contains(oldIndex) else {
                let rows = newSection(newIndex)
                guard rows.count == newRowCounts[newIndex] else {
                    throw .mirrorRowCountMismatch(
                        side: .new, section: newIndex, expected: newRowCounts[newIndex], actual: rows.count)
                }
                result.append(rows)
                continue
            }
            let left = leaving[oldIndex] ?? []
            let reloaded = reloading[oldIndex] ?? []
            var stayers = old[oldIndex].indices.lazy.filter { !left.contains($0) }.makeIterator()
            var rows: [Element] = []
            rows.reserveCapacity(newRowCounts[newIndex])
            for row in 0..<newRowCounts[newIndex] {
                let path = RowPath(section: newIndex, row: row)
                if arriving.contains(path) {
                    rows.append(insertedRow(path))
                } else if let moved = movedIn[path] {
                    rows.append(moved.isReloaded ? reloadedRow(path, moved.element) : moved.element)
                } else if let stayer = stayers.next() {
                    let element = old[oldIndex][stayer]
                    rows.append(reloaded.contains(stayer) ? reloadedRow(path, element) : element)
                }
            }
            result.append(rows)
        }
        return result
    }

    /// Applies the section changes to a mirror of the old sections (one element per section, e.g.
    /// header models or identities) and returns the mirror of the new sections.
    ///
    /// The same section rules as `replay(on:newSection:insertedRow:reloadedRow:)`: inserted
    /// sections get `insertedSection(newIndex)`, reloaded ones `reloadedSection(newIndex, old)`,
    /// deleted ones are dropped, moved ones go from `from` to `to`, and the rest keep their order in
    /// the remaining positions. Closures are called in ascending new index order.
    ///
    /// - Complexity: O(*s* + *c*) for *s* sections and *c* listed changes.
    public func replaySections<Element>(
        on old: [Element],
        insertedSection: (_ newIndex: Int) -> Element,
        reloadedSection: (_ newIndex: Int, _ old: Element) -> Element
    ) throws(ChangesetError) -> [Element] {
        try validate()
        guard old.count == oldRowCounts.count else {
            throw .mirrorSectionCountMismatch(side: .old, expected: oldRowCounts.count, actual: old.count)
        }
        let map = sectionMap()
        let reloaded = Set(reloadedSections.map(\.index))
        var result: [Element] = []
        result.reserveCapacity(newRowCounts.count)
        for newIndex in newRowCounts.indices {
            if let oldIndex = map.oldIndex(ofNew: newIndex) {
                let element = old[oldIndex]
                result.append(reloaded.contains(oldIndex) ? reloadedSection(newIndex, element) : element)
            } else {
                result.append(insertedSection(newIndex))
            }
        }
        return result
    }
}
