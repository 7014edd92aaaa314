extension SnapshotError {
    /// Where a diff and the model it is applied to disagree (`SnapshotError.notFromModel`).
    public enum Mismatch: Sendable, Hashable, CustomStringConvertible {
        /// The changeset starts from `changeset` rows per section; the model has `model`.
        case oldRowCounts(model: [Int], changeset: [Int])
        /// The changeset ends with `changeset` rows per section; the diff's table has `table`.
        case newRowCounts(table: [Int], changeset: [Int])
        /// The changeset breaks the changeset contract (`Changeset.validate()`).
        case invalidChangeset(ChangesetError)
        /// Section `index` has the identity `model` in the model and `diff` in the table the diff
        /// was computed from.
        case sectionID(index: Int, model: ItemID, diff: ItemID)
        /// The row at `path` has the identity `model` in the model and `diff` in the table the
        /// diff was computed from.
        case rowID(path: RowPath, model: ItemID, diff: ItemID)
        /// The row `id` at `path` shows other content in the table the diff was computed from.
        case rowContent(path: RowPath, id: ItemID)

        /// A phrase naming the disagreement and where it is.
        public var description: String {
            switch self {
            case .oldRowCounts(let model, let changeset):
                return "the model's rows per section are \(model), the changeset starts from \(changeset)"
            case .newRowCounts(let table, let changeset):
                return "the diff's table has rows per section \(table), the changeset ends with \(changeset)"
            case .invalidChangeset(let error):
                return "invalid changeset: \(error)"
            case .sectionID(let index, let model, let diff):
                return "section \(index) is \"\(model)\" in the model but \"\(diff)\" in the diff's base table"
            case .rowID(let path, let model, let diff):
                return "row \(path) is \"\(model)\" in the model but \"\(diff)\" in the diff's base table"
            case .rowContent(let path, let id):
                return "row \(path) (\"\(id)\") shows other content in the diff's base table"
            }
        }
    }
}
