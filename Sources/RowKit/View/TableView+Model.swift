extension TableView {
    /// A view of `table` in `viewport`: the view owns the table's model, and every change goes
    /// through the view (`performBatch(_:)`, `update(to:options:)`, `apply(_:)`), so the view and
    /// its model cannot disagree.
    ///
    /// - Throws: `TableModelError.duplicateRowID` / `.duplicateSectionID` when `table` repeats an
    ///   identity.
    /// - Complexity: O(n) for n rows.
    public convenience init(
        table: Table, viewport: TableViewport, backend: TableViewBackend = .c, reuseCapacity: Int = 32
    ) throws(TableModelError) {
        self.init(model: try TableModel(table), viewport: viewport, backend: backend, reuseCapacity: reuseCapacity)
    }

    /// Edits the view's model in one atomic batch (see `TableModel.performBatch(_:)`) and updates
    /// the view to match, with the events `TableView` documents for a changeset; returns the
    /// changeset.
    ///
    /// ```swift
    /// try view.performBatch { batch in
    ///     batch.delete(.id("wifi"))
    ///     batch.insert(DefaultRow("VPN"), at: RowPath(section: 0, row: 1))
    /// }
    /// ```
    ///
    /// - Throws: `TableUpdateError` naming the first wrong operation; the model and the view are
    ///   then exactly as before and no event is sent.
    /// - Complexity: The batch's (see `TableModel.performBatch(_:)`) plus the view's update,
    ///   O(k log n + s + v) for k changes, n items, s sections and v visible items.
    @discardableResult
    public func performBatch(_ body: (inout TableBatch) throws -> Void) throws(TableUpdateError) -> Changeset {
        var next = model
        let changeset = try next.performBatch(body)
        follow(changeset, to: next)
        return changeset
    }

    /// Applies `operations` as one atomic batch (see `performBatch(_:)`).
    @discardableResult
    public func perform(_ operations: [TableBatch.Operation]) throws(TableUpdateError) -> Changeset {
        var next = model
        let changeset = try next.perform(operations)
        follow(changeset, to: next)
        return changeset
    }

    /// Makes the view show `newTable`: diffs the model's table against it on the calling thread
    /// (see `TableModel.update(to:options:)`) and animates the difference; returns the changeset.
    ///
    /// - Throws: `SnapshotError.duplicateRowID` / `.duplicateSectionID` when `newTable` repeats an
    ///   identity; the model and the view are then as before.
    /// - Complexity: Expected O(n) for n rows in the two tables, plus the view's update.
    @discardableResult
    public func update(to newTable: Table, options: DiffOptions = .default) throws(SnapshotError) -> Changeset {
        var next = model
        let changeset = try next.update(to: newTable, options: options)
        follow(changeset, to: next)
        return changeset
    }

    /// Applies a diff computed off the main actor from the view's model, and updates the view.
    ///
    /// ```swift
    /// let (table, revision) = (view.model.table, view.model.revision)
    /// let diff = try await Task.detached { try TableDiff.diff(from: table, revision: revision, to: newTable) }.value
    /// try view.apply(diff)      // throws .stale if the view's model changed meanwhile
    /// ```
    ///
    /// - Throws: `SnapshotError.stale` when the model is no longer at the diff's base revision;
    ///   `SnapshotError.notFromModel` when the diff does not start from the view's table (computed
    ///   from another table given the view's revision, or a hand-made changeset that does not fit).
    ///   The model and the view are then as before, and no event is sent.
    @discardableResult
    public func apply(_ diff: SnapshotDiff) throws(SnapshotError) -> Changeset {
        var next = model
        let changeset = try next.apply(diff)
        follow(changeset, to: next)
        return changeset
    }

    /// Moves the view to `next`, which the model reached through `changeset`. Every changeset the
    /// model produces is one the view takes (<doc:Changesets>); should that ever fail, the view
    /// reloads rather than disagree with its model.
    func follow(_ changeset: Changeset, to next: TableModel) {
        do {
            try apply(changeset, to: next)
        } catch {
            assertionFailure("the view refused its own model's changeset: \(error)")
            reload(next)
        }
    }
}
