extension SnapshotDiff {
    /// Refuses the diff unless it describes a change from `table`, the table of a model at the
    /// diff's base revision: its changeset starts from `table`'s row counts, ends with the diff
    /// table's, and passes `Changeset.validate()`; and the table the diff was computed from (when
    /// known) has `table`'s section and row identities, in order, and rows of equal content.
    ///
    /// A diff computed from the model's own table shares its rows' storage, and is accepted
    /// without comparing rows.
    ///
    /// - Throws: `SnapshotError.notFromModel` naming the first disagreement.
    /// - Complexity: O(*s* + *c*) for *s* sections and *c* listed changes, plus O(*n*) for *n*
    ///   rows of sections whose rows the diff's base table does not share with `table`.
    func checkStarts(from table: Table) throws(SnapshotError) {
        let revision = baseRevision
        let modelCounts = table.sections.map(\.rows.count)
        guard changeset.oldRowCounts == modelCounts else {
            throw .notFromModel(
                revision: revision, .oldRowCounts(model: modelCounts, changeset: changeset.oldRowCounts))
        }
        let newCounts = self.table.sections.map(\.rows.count)
        guard changeset.newRowCounts == newCounts else {
            throw .notFromModel(
                revision: revision, .newRowCounts(table: newCounts, changeset: changeset.newRowCounts))
        }
        do {
            try changeset.validate()
        } catch {
            throw .notFromModel(revision: revision, .invalidChangeset(error))
        }
        guard let baseTable else { return }
        for (index, (mine, theirs)) in zip(table.sections, baseTable.sections).enumerated() {
            guard mine.id == theirs.id else {
                throw .notFromModel(revision: revision, .sectionID(index: index, model: mine.id, diff: theirs.id))
            }
            guard !mine.rows.sharesStorage(with: theirs.rows) else { continue }
            for (row, (a, b)) in zip(mine.rows, theirs.rows).enumerated() {
                let path = RowPath(section: index, row: row)
                guard a.id == b.id else {
                    throw .notFromModel(revision: revision, .rowID(path: path, model: a.id, diff: b.id))
                }
                guard a.isContentEqual(to: b) else {
                    throw .notFromModel(revision: revision, .rowContent(path: path, id: a.id))
                }
            }
        }
    }
}
