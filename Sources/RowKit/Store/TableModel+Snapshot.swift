extension TableModel {
    /// Applies a diff computed from this model (possibly off the main actor) and returns its
    /// changeset, stamped with the model's new revision.
    ///
    /// ```swift
    /// let (table, revision) = (model.table, model.revision)
    /// let diff = try await Task.detached { try TableDiff.diff(from: table, revision: revision, to: newTable) }.value
    /// let changes = try model.apply(diff)     // throws .stale if the model changed meanwhile
    /// ```
    ///
    /// - Throws: `SnapshotError.stale` when the model is no longer at the diff's base revision;
    ///   `SnapshotError.notFromModel` when the diff does not describe a change from the model's
    ///   table (it was computed from another table with the model's revision, or its changeset
    ///   does not fit the model's rows or the diff's table). The model is then unchanged.
    ///   `SnapshotError.duplicateRowID` / `.duplicateSectionID` cannot
    ///   occur here because the diff already rejected them.
    /// - Complexity: O(*n* + *s*): the identity index is rebuilt for the new table (and the rows
    ///   of the diff's base table are compared with the model's unless they share storage).
    @discardableResult
    public mutating func apply(_ diff: SnapshotDiff) throws(SnapshotError) -> Changeset {
        try diff.checkFresh(current: revision)
        try diff.checkStarts(from: table)
        let rebuilt: TableModel
        do {
            rebuilt = try TableModel(diff.table)
        } catch {
            // The diff validated both tables' identities; a failure here means the diff's table
            // was edited after diffing. Report it as the duplicate it is.
            switch error {
            case .duplicateRowID(let id, let first, let second):
                throw .duplicateRowID(id, first: first, second: second, side: .new)
            case .duplicateSectionID(let id, let first, let second):
                throw .duplicateSectionID(id, first: first, second: second, side: .new)
            case .sectionOutOfRange, .rowOutOfRange, .unknownRowID:
                preconditionFailure("TableModel.init(_:) reports only duplicate identities: \(error)")
            }
        }
        var changeset = diff.changeset
        table = rebuilt.table
        index = rebuilt.index
        // Always a new revision, even for an empty changeset: headers and footers are not diffed,
        // so the table may have changed where no changeset shows it.
        revision = .next()
        changeset.toRevision = revision
        return changeset
    }

    /// Makes the model become `newTable`, diffing on the calling thread, and returns the changeset.
    ///
    /// - Throws: `SnapshotError.duplicateRowID` / `.duplicateSectionID` when `newTable` repeats an
    ///   identity (the model is unchanged).
    /// - Complexity: Expected O(*n*) for *n* rows in the two tables (see `TableDiff`).
    @discardableResult
    public mutating func update(to newTable: Table, options: DiffOptions = .default) throws(SnapshotError) -> Changeset
    {
        try apply(TableDiff.diff(from: table, revision: revision, to: newTable, options: options))
    }
}
