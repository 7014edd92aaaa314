extension Changeset {
    /// Refuses to be applied to a model that is no longer at the revision the change starts from.
    ///
    /// A diff computed off the main actor may finish after the model changed again; applying it
    /// then would describe a change from a state the view no longer shows. Call this with the
    /// model's current revision just before applying.
    ///
    /// - Throws: `SnapshotError.stale` when `fromRevision` is not `current`.
    /// - Complexity: O(1).
    public func checkFresh(current: Revision) throws(SnapshotError) {
        guard fromRevision == current else { throw .stale(base: fromRevision, current: current) }
    }
}
