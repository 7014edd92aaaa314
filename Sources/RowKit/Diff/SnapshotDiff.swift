/// The result of diffing a model's table against a new table: the changeset and the table it
/// produces, tied to the model revision it was computed from.
///
/// Everything in it is `Sendable`, so it can be computed off the main actor
/// (`TableDiff.diff(from:revision:to:options:)`) and handed back to the model, which refuses it
/// with `SnapshotError.stale` if it changed in between (`checkFresh(current:)`).
public struct SnapshotDiff: Sendable {
    /// The change from the model's table to `table`; `fromRevision` is the model's revision when
    /// the diff was computed, `toRevision` is `Revision.initial` (the model assigns the next
    /// revision when it applies the diff).
    public var changeset: Changeset
    /// The table the changeset produces.
    public var table: Table
    /// The table the diff was computed from, when `TableDiff.diff(from:revision:to:options:)` made
    /// it; a model applying the diff checks that it is the model's table.
    var baseTable: Table?

    /// Creates a result from its parts. A model applying it checks that the changeset starts
    /// from the model's row counts and ends with `table`'s, and that it passes
    /// `Changeset.validate()`.
    public init(changeset: Changeset, table: Table) {
        self.changeset = changeset
        self.table = table
    }

    /// The model revision the diff was computed from.
    public var baseRevision: Revision { changeset.fromRevision }

    /// Refuses the diff when the model is no longer at `baseRevision`.
    ///
    /// - Throws: `SnapshotError.stale` when `current` is not `baseRevision`.
    /// - Complexity: O(1).
    public func checkFresh(current: Revision) throws(SnapshotError) {
        try changeset.checkFresh(current: current)
    }

    /// The changeset's stages, for a host that applies batches one at a time (`Changeset.stages()`).
    ///
    /// - Complexity: As `Changeset.stages()`.
    public func stages() -> [Changeset] { changeset.stages() }
}

extension TableDiff {
    /// The diff from `old`, a model's table at `revision`, to `new`.
    ///
    /// ```swift
    /// let (table, revision) = (model.table, model.revision)      // on the main actor
    /// let diff = try await Task.detached { try TableDiff.diff(from: table, revision: revision, to: newTable) }.value
    /// try diff.checkFresh(current: model.revision)               // back on the main actor
    /// ```
    ///
    /// - Throws: `SnapshotError.duplicateSectionID` or `.duplicateRowID` when either table repeats
    ///   an identity.
    /// - Complexity: As `changeset(from:to:options:)`, plus O(*n*) to take the snapshots.
    public static func diff(
        from old: Table, revision: Revision, to new: Table, options: DiffOptions = .default
    ) throws(SnapshotError) -> SnapshotDiff {
        let changeset = try changeset(
            from: TableSnapshot(old, revision: revision), to: TableSnapshot(new), options: options)
        var diff = SnapshotDiff(changeset: changeset, table: new)
        diff.baseTable = old
        return diff
    }
}
