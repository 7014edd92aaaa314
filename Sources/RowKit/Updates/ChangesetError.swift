/// Why a changeset breaks UIKit's batch-update contract, or does not fit the mirror it is replayed on.
public enum ChangesetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Which side of the change an index belongs to.
    public enum Side: String, Sendable, Hashable {
        /// Before the change (deletes, reloads, move sources).
        case old
        /// After the change (inserts, move destinations).
        case new
    }

    /// `list` is not strictly ascending at `position` (an entry is out of order or repeated).
    case notAscending(Changeset.List, position: Int)
    /// `list` names section `index`, but that side of the change has only `sectionCount` sections.
    case sectionOutOfRange(Changeset.List, index: Int, sectionCount: Int)
    /// `list` names row `path`; `rowCount` is the number of rows of that section, or `nil` when the
    /// section itself does not exist on that side.
    case rowOutOfRange(Changeset.List, path: RowPath, rowCount: Int?)
    /// Section `index` (on `side`) is named by two lists; each section may be deleted, reloaded or
    /// moved (old side), inserted or a move destination (new side), only once.
    case sectionInTwoLists(index: Int, side: Side, Changeset.List, Changeset.List)
    /// Row `path` (on `side`) is named by two lists, e.g. both deleted and moved.
    case rowInTwoLists(path: RowPath, side: Side, Changeset.List, Changeset.List)
    /// A row change lies inside a section that is itself deleted, inserted or reloaded (`sectionList`),
    /// which already covers its rows.
    case rowInsideChangedSection(Changeset.List, path: RowPath, sectionList: Changeset.List)
    /// The section counts do not add up: new ≠ old − deleted + inserted.
    case sectionCountMismatch(old: Int, deleted: Int, inserted: Int, new: Int)
    /// The row counts of a surviving section do not add up:
    /// new ≠ old − deleted − moved out + inserted + moved in.
    case rowCountMismatch(oldSection: Int, newSection: Int, expected: Int, actual: Int)
    /// A row count below zero.
    case negativeRowCount(side: Side, section: Int, count: Int)
    /// The mirror a replay starts from (`old`) or a new section it was given (`new`) has `actual`
    /// sections where the changeset expects `expected`.
    case mirrorSectionCountMismatch(side: Side, expected: Int, actual: Int)
    /// A mirror section has `actual` rows where the changeset expects `expected`.
    case mirrorRowCountMismatch(side: Side, section: Int, expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .notAscending(let list, let position):
            return "\(list) is not strictly ascending at entry \(position)"
        case .sectionOutOfRange(let list, let index, let count):
            return "\(list) names section \(index), but that side has \(count) section\(count == 1 ? "" : "s")"
        case .rowOutOfRange(let list, let path, let count?):
            return "\(list) names row \(path), but section \(path.section) has \(count) row\(count == 1 ? "" : "s")"
        case .rowOutOfRange(let list, let path, nil):
            return "\(list) names row \(path), but there is no section \(path.section)"
        case .sectionInTwoLists(let index, let side, let first, let second):
            return "\(side) section \(index) is in both \(first) and \(second)"
        case .rowInTwoLists(let path, let side, let first, let second):
            return "\(side) row \(path) is in both \(first) and \(second)"
        case .rowInsideChangedSection(let list, let path, let sectionList):
            return "\(list) names row \(path), inside a section listed in \(sectionList)"
        case .sectionCountMismatch(let old, let deleted, let inserted, let new):
            return "section counts do not add up: \(old) old − \(deleted) deleted + \(inserted) inserted ≠ \(new) new"
        case .rowCountMismatch(let oldSection, let newSection, let expected, let actual):
            return
                "old section \(oldSection) (new section \(newSection)) should have \(expected) rows after the change, "
                + "but newRowCounts says \(actual)"
        case .negativeRowCount(let side, let section, let count):
            return "\(side) section \(section) has a negative row count (\(count))"
        case .mirrorSectionCountMismatch(let side, let expected, let actual):
            return "the \(side) mirror has \(actual) sections; the changeset expects \(expected)"
        case .mirrorRowCountMismatch(let side, let section, let expected, let actual):
            return "\(side) mirror section \(section) has \(actual) rows; the changeset expects \(expected)"
        }
    }
}
