/// Why a snapshot cannot be diffed, or why a diff cannot be applied.
///
/// Duplicate identities are always rejected, never silently dropped or renamed: a table in which two
/// rows (or two sections) claim the same identity has no well-defined change, and guessing is how
/// "invalid number of rows" crashes begin. The error names the identity and both positions.
public enum SnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which of the two snapshots of a diff an error is about.
    public enum Side: String, Sendable, Hashable {
        /// The snapshot the change starts from.
        case old
        /// The snapshot the change produces.
        case new
    }

    /// Two sections have the same identity: at section indices `first` and `second` (`first` <
    /// `second`). `side` is `nil` when the snapshot was validated on its own.
    case duplicateSectionID(ItemID, first: Int, second: Int, side: Side?)
    /// Two rows, anywhere in the table, have the same identity: at `first` and `second`
    /// (`first` < `second`). `side` is `nil` when the snapshot was validated on its own.
    case duplicateRowID(ItemID, first: RowPath, second: RowPath, side: Side?)
    /// The diff was computed from the model at revision `base`, but the model is now at `current`:
    /// applying it would describe a change from a state the model is no longer in.
    case stale(base: Revision, current: Revision)
    /// The diff carries the model's revision but does not describe a change from the model's
    /// table (for example `TableDiff.diff(from:revision:to:)` was given another table with the
    /// model's revision): applying it would leave a view disagreeing with its model.
    case notFromModel(revision: Revision, Mismatch)

    /// A sentence naming what was wrong and where.
    public var description: String {
        switch self {
        case .duplicateSectionID(let id, let first, let second, let side):
            return "\(Self.prefix(side))section identity \(id) appears twice: sections \(first) and \(second)"
        case .duplicateRowID(let id, let first, let second, let side):
            return "\(Self.prefix(side))row identity \(id) appears twice: rows \(first) and \(second)"
        case .stale(let base, let current):
            return "stale diff: computed from revision \(base), but the model is at \(current)"
        case .notFromModel(let revision, let mismatch):
            return "the diff does not start from the model's table at revision \(revision): \(mismatch)"
        }
    }

    private static func prefix(_ side: Side?) -> String {
        side.map { "\($0.rawValue) snapshot: " } ?? ""
    }
}
