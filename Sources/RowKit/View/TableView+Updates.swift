extension TableView {
    /// Applies `changeset`, which turns the view's current model into `newModel`: edits the offset
    /// tree in place (removals, insertions and height changes, never a rebuild), keeps the selection
    /// and the swipe-edited row by identity, and updates the displayed items.
    ///
    /// The view takes every changeset that passes `Changeset.validate()` whole, as every batch and
    /// diff produces it (<doc:Changesets>); there is no need to split it into `stages()`. Before
    /// anything changes, the changeset is checked against the view: its `oldRowCounts` must be the
    /// view's row counts, its `newRowCounts` the new table's, and it must pass `validate()`. A
    /// changeset that fails is refused with a typed error and the view stays as it was, so the
    /// view's counts always equal its model's.
    ///
    /// What happens to a displayed row: a deleted row ends (a row deleted and inserted again with
    /// the same identity ends, and its new self is displayed with a new cell); a reloaded row
    /// ends and is displayed again, usually with the same cell (UIKit's `reloadRows`); a moved
    /// row keeps its cell, and a row both moved and reloaded keeps its cell too, which is
    /// configured with the new content (and measured again when its height is automatic) with no
    /// display events. The items of deleted and reloaded sections end; the header and footer of a
    /// moved section stay.
    ///
    /// Events, in order: `didEndEditing` if the swiped row is deleted; `cancelPrefetch` of the
    /// prefetched rows deleted or reloaded (old paths); `didEndDisplaying…` of deleted and reloaded
    /// items (old paths, layout order); `didEndDisplaying…` of items the change pushed out of the
    /// viewport and `willDisplay…` of items that came in (new paths, layout order). Deleted
    /// selected rows leave the selection without a `deselect` event.
    ///
    /// A `reloadsEverything` changeset, or a change of table style, reloads (`reload(_:)`) after the
    /// same checks.
    ///
    /// - Throws: `TableViewError.changesetDoesNotStartFromCurrentRevision`,
    ///   `.changesetDoesNotStartFromCurrentState`, `.changesetDoesNotProduceModel`,
    ///   `.invalidChangeset`.
    /// - Complexity: O(k log n + s + v) for k changes, n items, s sections and v visible
    ///   items.
    package func apply(_ changeset: Changeset, to newModel: TableModel) throws(TableViewError) {
        layoutIfNeeded()
        if changeset.fromRevision != .initial, changeset.fromRevision != model.revision {
            throw .changesetDoesNotStartFromCurrentRevision(
                viewRevision: model.revision, changesetRevision: changeset.fromRevision)
        }
        guard changeset.oldRowCounts == rowCounts else {
            throw .changesetDoesNotStartFromCurrentState(
                viewRowCounts: rowCounts, changesetOldRowCounts: changeset.oldRowCounts)
        }
        let newCounts = newModel.sections.map(\.rows.count)
        guard changeset.newRowCounts == newCounts else {
            throw .changesetDoesNotProduceModel(
                modelRowCounts: newCounts, changesetNewRowCounts: changeset.newRowCounts)
        }
        let plan = try UpdatePlan(changeset)
        if changeset.reloadsEverything || newModel.style != model.style {
            reload(newModel)
            return
        }
        applyValidated(plan, newModel: newModel, newCounts: newCounts)
        deliver()
    }

    /// Replaces the model without a changeset: every displayed item ends, the tree is rebuilt, the
    /// selection keeps the rows whose identities are still in the model, and the rows at the
    /// (clamped) offset are displayed.
    ///
    /// - Complexity: O(n).
    public func reload(_ newModel: TableModel) {
        layoutIfNeeded()
        if let swiped = swipeEditing { swipeEditing = nil; post(.didEndEditing(swiped)) }
        cancelAllPrefetches()
        releaseAll()
        Self.retire(model)
        show(newModel)
        rebuildLayout()
        var paths: [ItemID: RowPath] = [:]
        for id in selected.keys {
            if let path = newModel.path(of: id) { paths[id] = path }
        }
        selected = paths
        layoutVisible()
        updatePrefetch()
        deliver()
    }

    /// Applies a validated plan (no checks left to fail), in three steps: the displayed items that
    /// survive (old coordinates), the tree's edits, and the selection, surviving cells and new
    /// screen.
    func applyValidated(_ plan: UpdatePlan, newModel: TableModel, newCounts: [Int]) {
        let oldStarts = sectionStarts
        let oldTable = table
        let newStarts = Self.starts(for: newCounts)

        // 1. Swiped row, prefetches and displayed items that do not survive (old coordinates).
        if let swiped = swipeEditing, newModel.path(of: swiped.id) == nil {
            swipeEditing = nil
            post(.didEndEditing(swiped))
        }
        carryPrefetches(plan, newModel: newModel, newStarts: newStarts)
        let (survivors, reconfigured) = carryVisible(plan, newModel: newModel, newStarts: newStarts)
        var newSelection: [ItemID: RowPath] = [:]
        for id in selected.keys {
            if let new = newModel.path(of: id) { newSelection[id] = new }
        }
        if let swiped = swipeEditing, let new = newModel.path(of: swiped.id) {
            swipeEditing = RowReference(id: swiped.id, path: new)
        }

        // 2. Tree edits: removals in old coordinates from the end, insertions in new coordinates
        //    from the start, then height changes of reloaded rows and kept headers and footers.
        removeEndedItems(plan, oldStarts: oldStarts)
        Self.retire(model)
        show(newModel)
        rowCounts = newCounts
        sectionStarts = newStarts
        insertAddedItems(plan, newStarts: newStarts)
        updateKeptHeights(plan, newModel: newModel, oldTable: oldTable, newStarts: newStarts)

        // 3. Selection, surviving cells, and the new screen.
        selected = newSelection
        visible = survivors.sorted { $0.flat < $1.flat }
        measureReconfigured(reconfigured, in: newModel)
        for entry in visible where entry.kind == .row {
            guard let cell = reuse.cell(entry.handle) else { continue }
            cell.isSelected = selected[entry.id] != nil
            cell.isEditing = isEditing || swipeEditing?.id == entry.id
        }
        layoutVisible()
        updatePrefetch()
    }

    /// The displayed items that survive the plan, moved to their new coordinates, and the cells
    /// of rows both moved and reloaded, configured with their new content; the others are
    /// released (old coordinates).
    private func carryVisible(
        _ plan: UpdatePlan, newModel: TableModel, newStarts: [Int]
    ) -> (survivors: [VisibleEntry], reconfigured: [(id: ItemID, handle: Int)]) {
        let newTable = newModel.table
        var survivors: [VisibleEntry] = []
        var reconfigured: [(id: ItemID, handle: Int)] = []
        for var entry in visible {
            var newFlat: Int?
            switch entry.kind {
            case .row:
                let old = RowPath(section: entry.section, row: entry.row)
                if !plan.rowEnds(at: old), let new = newModel.path(of: entry.id) {
                    if plan.movedReloadedSet.contains(old) {
                        // A move plus a content update: the cell follows the row and shows the new
                        // content, unless the new row needs another cell class.
                        let row = newTable.sections[new.section].rows[new.row]
                        guard let cell = reuse.cell(entry.handle), row.configure(cell) else {
                            release(entry)
                            continue
                        }
                        reconfigured.append((row.id, entry.handle))
                    }
                    newFlat = newStarts[new.section] + 1 + new.row
                    entry.section = new.section
                    entry.row = new.row
                }
            case .header, .footer:
                if !plan.isDeletedOld[entry.section], !plan.isReloadedOld[entry.section],
                    let new = plan.newSection[entry.section]
                {
                    let item = entry.kind == .header ? newTable.sections[new].header : newTable.sections[new].footer
                    if let item, let view = reuse.headerFooterView(entry.handle), item.configure(view) {
                        newFlat = entry.kind == .header ? newStarts[new] : newStarts[new + 1] - 1
                        entry.section = new
                        entry.id = newTable.sections[new].id
                    }
                }
            }
            if let newFlat {
                entry.flat = newFlat
                survivors.append(entry)
            } else {
                release(entry)
            }
        }
        return (survivors, reconfigured)
    }

    /// Removes the items of wholesale-removed sections and the removed rows from the tree, in old
    /// coordinates from the end.
    private func removeEndedItems(_ plan: UpdatePlan, oldStarts: [Int]) {
        var removals: [Range<Int>] = []
        for s in plan.isWholesaleOld.indices {
            if plan.isWholesaleOld[s] {
                Self.appendCoalescing(oldStarts[s]..<oldStarts[s + 1], to: &removals)
            } else {
                for r in plan.removedRows[s] {
                    Self.appendCoalescing(oldStarts[s] + 1 + r..<oldStarts[s] + 2 + r, to: &removals)
                }
            }
        }
        for range in removals.reversed() { tree.removeSubrange(range) }
    }

    /// Inserts the items of wholesale-inserted sections and the added rows into the tree, in new
    /// coordinates from the start, each run of adjacent items in one insertion.
    private func insertAddedItems(_ plan: UpdatePlan, newStarts: [Int]) {
        let newTable = table
        var insertAt = -1
        var run: [Double] = []
        func flush() {
            if !run.isEmpty { tree.insert(contentsOf: run, at: insertAt) }
            run.removeAll(keepingCapacity: true)
        }
        func add(_ height: Double, at flat: Int) {
            if run.isEmpty || insertAt + run.count != flat {
                flush()
                insertAt = flat
            }
            run.append(height)
        }
        for t in newTable.sections.indices {
            let section = newTable.sections[t]
            if plan.isWholesaleNew[t] {
                var heights: [Double] = []
                appendHeights(of: section, to: &heights)
                for (offset, height) in heights.enumerated() { add(height, at: newStarts[t] + offset) }
            } else {
                for r in plan.addedRows[t] { add(rowHeight(section.rows[r]), at: newStarts[t] + 1 + r) }
            }
        }
        flush()
    }

    /// Sets the heights of reloaded rows (an automatic one is measured again) and of the headers
    /// and footers of kept sections, in new coordinates.
    private func updateKeptHeights(_ plan: UpdatePlan, newModel: TableModel, oldTable: Table, newStarts: [Int]) {
        let newTable = newModel.table
        for old in plan.reloadedRows {
            guard let new = newModel.path(of: oldTable.sections[old.section].rows[old.row].id) else { continue }
            let row = newTable.sections[new.section].rows[new.row]
            if case .automatic = row.height {
                staleMeasurements.insert(HeightKey(id: row.id, kind: .row, width: contentWidth))
            }
            tree.setHeight(rowHeight(row), at: newStarts[new.section] + 1 + new.row)
        }
        for t in newTable.sections.indices where !plan.isWholesaleNew[t] {
            let section = newTable.sections[t]
            let header = headerSlotHeight(section)
            if tree.height(at: newStarts[t]) != header { tree.setHeight(header, at: newStarts[t]) }
            let footer = footerHeight(section)
            if tree.height(at: newStarts[t + 1] - 1) != footer { tree.setHeight(footer, at: newStarts[t + 1] - 1) }
        }
    }

    /// Measures the reconfigured cells' rows again where their height is automatic: a reconfigured
    /// cell is displayed, so the new height is taken now (anchored like any measurement).
    private func measureReconfigured(_ reconfigured: [(id: ItemID, handle: Int)], in newModel: TableModel) {
        for (id, handle) in reconfigured {
            guard let path = newModel.path(of: id), let cell = reuse.cell(handle) else { continue }
            let row = self.row(at: path)
            guard case .automatic = row.height,
                let measured = measureIfNeeded(HeightKey(id: id, kind: .row, width: contentWidth), cell.measureHeight)
            else { continue }
            let flat = flatIndex(of: path)
            let change = measured - tree.height(at: flat)
            guard change != 0 else { continue }
            if tree.offset(of: flat) < contentOffset { contentOffset += change }
            tree.setHeight(measured, at: flat)
        }
    }

    /// Posts `cancelPrefetch` (old paths) for the prefetched rows the update deletes or reloads, and
    /// moves the others to their new flat indices; the layout that ends the update cancels those
    /// that left the prefetch band and prefetches the rows that entered it.
    func carryPrefetches(_ plan: UpdatePlan, newModel: TableModel, newStarts: [Int]) {
        guard !prefetched.isEmpty else { return }
        var cancelled: [Int] = []
        var carried: [Int] = []
        for flat in prefetched where !isVisible(flat) {
            let s = section(containing: flat)
            let old = RowPath(section: s, row: flat - sectionStarts[s] - 1)
            if !plan.isDeletedOld[old.section], !plan.isReloadedOld[old.section], !plan.deletedSet.contains(old),
                !plan.reloadedSet.contains(old), let new = newModel.path(of: row(at: old).id)
            {
                carried.append(newStarts[new.section] + 1 + new.row)
            } else {
                cancelled.append(flat)
            }
        }
        cancelled.sort()
        if !cancelled.isEmpty { post(.cancelPrefetch(cancelled.map(rowReference(flat:)))) }
        prefetched = carried
    }

    /// Appends `range` to ascending `ranges`, merging it into the last one when they touch.
    static func appendCoalescing(_ range: Range<Int>, to ranges: inout [Range<Int>]) {
        if let last = ranges.last, last.upperBound == range.lowerBound {
            ranges[ranges.count - 1] = last.lowerBound..<range.upperBound
        } else {
            ranges.append(range)
        }
    }
}
