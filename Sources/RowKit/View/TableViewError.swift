/// What a `TableView` refuses to do, and why; the view is unchanged after every thrown error.
public enum TableViewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The section index is not a section of the view's current model.
    case sectionOutOfRange(section: Int, sectionCount: Int)
    /// The path names no row of the view's current model.
    case rowOutOfRange(path: RowPath, rowCount: Int)
    /// No section has this index title.
    case unknownIndexTitle(String)
    /// The changeset does not start from the view's current state: its `oldRowCounts` differ from
    /// the rows the view shows (UIKit's "invalid number of rows", refused instead of crashing).
    case changesetDoesNotStartFromCurrentState(viewRowCounts: [Int], changesetOldRowCounts: [Int])
    /// The changeset starts from another revision of the model than the one the view shows.
    case changesetDoesNotStartFromCurrentRevision(viewRevision: Revision, changesetRevision: Revision)
    /// The changeset's `newRowCounts` differ from the new model's row counts.
    case changesetDoesNotProduceModel(modelRowCounts: [Int], changesetNewRowCounts: [Int])
    /// The changeset breaks the changeset contract: `Changeset.validate()` throws this error (for
    /// example `.rowCountMismatch`, UIKit's "invalid number of rows in section").
    case invalidChangeset(ChangesetError)
    /// The row cannot be moved (its `isMovable` is `false`).
    case rowNotMovable(RowPath)
    /// The row has no editing style for this commit.
    case rowNotEditable(RowPath)
    /// The row has no switch to flip (it is not a `SwitchRow`).
    case rowHasNoSwitch(RowPath)
    /// The view's internal state is inconsistent (found by `checkInvariants()`; a bug in RowKit).
    case inconsistent(String)

    public var description: String {
        switch self {
        case .sectionOutOfRange(let section, let count):
            return "section \(section) out of range (the table has \(count) sections)"
        case .rowOutOfRange(let path, let count):
            return "row \(path) out of range (its section has \(count) rows)"
        case .unknownIndexTitle(let title):
            return "no section has the index title \"\(title)\""
        case .changesetDoesNotStartFromCurrentState(let view, let changeset):
            return "changeset starts from row counts \(changeset) but the view shows \(view)"
        case .changesetDoesNotStartFromCurrentRevision(let view, let changeset):
            return "changeset starts from revision \(changeset) but the view shows \(view)"
        case .changesetDoesNotProduceModel(let model, let changeset):
            return "changeset produces row counts \(changeset) but the new model has \(model)"
        case .invalidChangeset(let error):
            return "invalid changeset: \(error)"
        case .rowNotMovable(let path):
            return "row \(path) is not movable"
        case .rowNotEditable(let path):
            return "row \(path) has no editing style"
        case .rowHasNoSwitch(let path):
            return "row \(path) has no switch (it is not a SwitchRow)"
        case .inconsistent(let message):
            return "inconsistent table view: \(message)"
        }
    }
}
