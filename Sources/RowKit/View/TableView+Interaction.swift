extension TableView {
    /// The paths of the selected rows, ascending.
    public var selectedRowPaths: [RowPath] { selected.values.sorted() }

    /// The identities of the selected rows.
    public var selectedRowIDs: Set<ItemID> { Set(selected.keys) }

    /// Whether the row at `path` is selected. - Complexity: O(1).
    public func isRowSelected(at path: RowPath) -> Bool {
        guard (try? checkPath(path)) != nil else { return false }
        return selected[row(at: path).id] != nil
    }

    /// The row the user is swipe-editing, if any.
    public var swipeEditingRow: RowReference? { swipeEditing }

    /// The user taps the row at `path`: posts `highlight` and `unhighlight`, then, by the selection
    /// mode, `deselect` of the row losing the selection and `select` (and calls the row's
    /// `onSelect` after its event). Nothing happens for unselectable rows or with mode `.none`.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange` or `.rowOutOfRange`.
    public func tapRow(at path: RowPath) throws(TableViewError) {
        layoutIfNeeded()
        try checkPath(path)
        let row = row(at: path)
        guard selectionMode != .none, row.isSelectable else { return }
        let reference = RowReference(id: row.id, path: path)
        post(.highlight(reference))
        post(.unhighlight(reference))
        switch selectionMode {
        case .none:
            break
        case .single:
            for (id, other) in selected.sorted(by: { $0.value < $1.value }) where id != row.id {
                setSelected(false, id: id)
                post(.deselect(RowReference(id: id, path: other)))
            }
            select(row, reference)
        case .multiple:
            if selected[row.id] != nil {
                setSelected(false, id: row.id)
                post(.deselect(reference))
            } else {
                select(row, reference)
            }
        }
        deliver()
    }

    /// Selects the row at `path` without events or actions (a programmatic selection, as UIKit's
    /// `selectRow`); in single selection the previous selection is cleared.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange` or `.rowOutOfRange`.
    public func selectRow(at path: RowPath) throws(TableViewError) {
        layoutIfNeeded()
        try checkPath(path)
        guard selectionMode != .none else { return }
        if selectionMode == .single {
            for id in Array(selected.keys) { setSelected(false, id: id) }
        }
        let row = row(at: path)
        selected[row.id] = path
        setCellSelected(true, id: row.id)
    }

    /// Deselects the row at `path` without events.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange` or `.rowOutOfRange`.
    public func deselectRow(at path: RowPath) throws(TableViewError) {
        layoutIfNeeded()
        try checkPath(path)
        setSelected(false, id: row(at: path).id)
    }

    /// The user taps the accessory button of the row at `path`: posts `accessoryTapped`, then calls
    /// the row's `onAccessoryTap`.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange` or `.rowOutOfRange`.
    public func tapAccessory(at path: RowPath) throws(TableViewError) {
        layoutIfNeeded()
        try checkPath(path)
        let row = row(at: path)
        post(.accessoryTapped(RowReference(id: row.id, path: path)))
        if let action = row.actions.onAccessoryTap {
            let context = RowActionContext(id: row.id, path: path)
            postAction { action(context) }
        }
        deliver()
    }

    /// The user swipes the row at `path` open: posts `didEndEditing` for another row being swiped,
    /// then `willBeginEditing`.
    ///
    /// - Throws: `.rowNotEditable` when the row has neither an editing style nor trailing actions.
    public func beginSwipeEditing(at path: RowPath) throws(TableViewError) {
        layoutIfNeeded()
        try checkPath(path)
        let row = row(at: path)
        guard row.editing.style != .none || !row.editing.trailingActions.isEmpty else {
            throw .rowNotEditable(path)
        }
        if swipeEditing?.id == row.id { return }
        endSwipeEditingWithoutDelivery()
        let reference = RowReference(id: row.id, path: path)
        swipeEditing = reference
        setCellEditing(id: row.id)
        post(.willBeginEditing(reference))
        deliver()
    }

    /// The swiped row closes: posts `didEndEditing`. Nothing happens when no row is swiped.
    public func endSwipeEditing() {
        layoutIfNeeded()
        endSwipeEditingWithoutDelivery()
        deliver()
    }

    /// The user commits the editing action of the row at `path` (the delete or insert control):
    /// posts `commitEdit` and calls the row's `onCommitEdit`. The view does not change: the owner
    /// updates the model and applies the changeset, which ends the row's display and editing.
    ///
    /// - Throws: `.rowNotEditable` when the row's editing style is `.none`.
    public func commitEdit(forRowAt path: RowPath) throws(TableViewError) {
        layoutIfNeeded()
        try checkPath(path)
        let row = row(at: path)
        let style = row.editing.style
        guard style != .none else { throw .rowNotEditable(path) }
        post(.commitEdit(RowReference(id: row.id, path: path), style: style))
        if let action = row.actions.onCommitEdit {
            let context = RowActionContext(id: row.id, path: path)
            postAction { action(context, style) }
        }
        deliver()
    }

    /// The user drags the row at `from` to `to` (a path after the row's removal, as UIKit's
    /// `moveRowAt:to:`): posts `move`. The view does not change: the owner moves the row in the
    /// model and applies the changeset.
    ///
    /// - Throws: `.rowNotMovable` for a row whose `isMovable` is `false`; range errors for paths
    ///   outside the table.
    public func moveRow(from: RowPath, to: RowPath) throws(TableViewError) {
        layoutIfNeeded()
        try checkPath(from)
        try checkSection(to.section)
        let limit = rowCounts[to.section] - (to.section == from.section ? 1 : 0)
        guard to.row >= 0, to.row <= limit else { throw .rowOutOfRange(path: to, rowCount: limit + 1) }
        let row = row(at: from)
        guard row.isMovable else { throw .rowNotMovable(from) }
        post(.move(id: row.id, from: from, to: to))
        deliver()
    }

    // MARK: Helpers

    private func select(_ row: AnyRow, _ reference: RowReference) {
        selected[row.id] = reference.path
        setCellSelected(true, id: row.id)
        post(.select(reference))
        if let action = row.actions.onSelect {
            let context = RowActionContext(id: row.id, path: reference.path)
            postAction { action(context) }
        }
    }

    func setSelected(_ isSelected: Bool, id: ItemID) {
        if isSelected { return }
        selected[id] = nil
        setCellSelected(false, id: id)
    }

    func setCellSelected(_ isSelected: Bool, id: ItemID) {
        for entry in visible where entry.kind == .row && entry.id == id {
            reuse.cell(entry.handle)?.isSelected = isSelected
        }
    }

    func setCellEditing(id: ItemID) {
        for entry in visible where entry.kind == .row && entry.id == id {
            reuse.cell(entry.handle)?.isEditing = true
        }
    }

    func endSwipeEditingWithoutDelivery() {
        guard let reference = swipeEditing else { return }
        swipeEditing = nil
        for entry in visible where entry.kind == .row && entry.id == reference.id {
            reuse.cell(entry.handle)?.isEditing = isEditing
        }
        post(.didEndEditing(reference))
    }
}

extension TableView {
    /// The user flips the switch of the `SwitchRow` at `path`: the view's model gets the row with
    /// its switch flipped, in one validated batch (a replace of the row by its toggled copy, so the
    /// changeset reloads it), and the view follows.
    ///
    /// Events, in order: `switchToggled` with the new state; the reload's events (when the row is
    /// on screen, `didEndDisplayingCell`, then `willDisplayCell`, usually with the same cell, now
    /// showing the new state); then the row's `onToggle` action is called with the new state.
    ///
    /// - Returns: The batch's changeset.
    /// - Throws: `.sectionOutOfRange` or `.rowOutOfRange`; `.rowHasNoSwitch` when the row is not a
    ///   `SwitchRow`. The model and the view are then unchanged and no event is sent.
    /// - Complexity: As `performBatch(_:)` for one replaced row.
    @discardableResult
    public func toggleSwitch(at path: RowPath) throws(TableViewError) -> Changeset {
        layoutIfNeeded()
        try checkPath(path)
        let row = row(at: path)
        guard let switchRow = row.as(SwitchRow.self) else { throw .rowHasNoSwitch(path) }
        let toggled = switchRow.toggled()
        var next = model
        let changeset: Changeset
        do {
            changeset = try next.performBatch { $0.replace(.path(path), with: toggled) }
        } catch {
            preconditionFailure("replacing the row at a checked path by its own identity failed: \(error)")
        }
        let reference = RowReference(id: row.id, path: path)
        post(.switchToggled(reference, isOn: toggled.isOn))
        follow(changeset, to: next)
        if let action = toggled.actions.onToggle {
            let context = RowActionContext(id: row.id, path: path)
            let isOn = toggled.isOn
            postAction { action(context, isOn) }
            deliver()
        }
        return changeset
    }
}
