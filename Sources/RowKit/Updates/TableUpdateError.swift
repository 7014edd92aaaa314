/// Why a batch update was refused: which operation, and what was wrong with it. The model is
/// unchanged.
public struct TableUpdateError: Error, CustomStringConvertible {
    /// What was wrong.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// A section index outside `valid` (the indices the operation accepts at that point).
        case sectionOutOfRange(Int, valid: Range<Int>)
        /// A row path whose row is outside `valid` (the rows the operation accepts in that section).
        case rowOutOfRange(RowPath, valid: Range<Int>)
        /// The row identity is already in the table, at `existing`.
        case duplicateRowID(ItemID, existing: RowPath)
        /// The section identity is already in the table, at `existing`.
        case duplicateSectionID(ItemID, existing: Int)
        /// No row has this identity.
        case unknownRowID(ItemID)
        /// No section has this identity.
        case unknownSectionID(ItemID)
        /// The row was deleted by an earlier operation of the same batch.
        case rowDeletedEarlier(ItemID)
        /// The section was deleted by an earlier operation of the same batch.
        case sectionDeletedEarlier(ItemID)
        /// A reload of a row the batch inserted (an inserted row has nothing to reload).
        case reloadOfInsertedRow(ItemID)
        /// A reload of a section the batch inserted.
        case reloadOfInsertedSection(ItemID)
        /// The batch body threw; the error's description (the error itself is the
        /// `TableUpdateError`'s `underlyingError`).
        case bodyThrew(String)
        /// The changeset computed for the batch failed validation: a bug in RowKit, reported
        /// rather than handed to a view.
        case inconsistentChangeset(ChangesetError)

        public var description: String {
            switch self {
            case .sectionOutOfRange(let index, let valid):
                return valid.isEmpty
                    ? "section \(index) is out of range: there are no sections at this point"
                    : "section \(index) is out of range: valid here is \(valid.lowerBound)...\(valid.upperBound - 1)"
            case .rowOutOfRange(let path, let valid):
                return valid.isEmpty
                    ? "row \(path) is out of range: section \(path.section) has no rows at this point"
                    : "row \(path) is out of range: valid rows in section \(path.section) here are "
                        + "\(valid.lowerBound)...\(valid.upperBound - 1)"
            case .duplicateRowID(let id, let existing):
                return "duplicate row identity \"\(id)\": already at \(existing)"
            case .duplicateSectionID(let id, let existing):
                return "duplicate section identity \"\(id)\": already section \(existing)"
            case .unknownRowID(let id): return "no row has the identity \"\(id)\""
            case .unknownSectionID(let id): return "no section has the identity \"\(id)\""
            case .rowDeletedEarlier(let id): return "row \"\(id)\" was deleted earlier in this batch"
            case .sectionDeletedEarlier(let id): return "section \"\(id)\" was deleted earlier in this batch"
            case .reloadOfInsertedRow(let id): return "row \"\(id)\" was inserted by this batch; it cannot be reloaded"
            case .reloadOfInsertedSection(let id):
                return "section \"\(id)\" was inserted by this batch; it cannot be reloaded"
            case .bodyThrew(let error): return "the batch body threw: \(error)"
            case .inconsistentChangeset(let error): return "internal error, inconsistent changeset: \(error)"
            }
        }
    }

    /// The index of the failing operation in the batch (the number of operations recorded, when
    /// the body threw).
    public var operationIndex: Int
    /// The failing operation; `nil` when the body threw or the changeset was inconsistent.
    public var operation: TableBatch.Operation?
    /// What was wrong.
    public var problem: Problem
    /// The error the batch body threw, when `problem` is `.bodyThrew`; otherwise `nil`.
    public var underlyingError: (any Error)?

    /// Creates an error.
    public init(
        operationIndex: Int, operation: TableBatch.Operation?, problem: Problem, underlyingError: (any Error)? = nil
    ) {
        self.operationIndex = operationIndex
        self.operation = operation
        self.problem = problem
        self.underlyingError = underlyingError
    }

    /// `operation 2 (delete row "x"): row "x" was deleted earlier in this batch`.
    public var description: String {
        if let operation {
            return "operation \(operationIndex) (\(operation)): \(problem)"
        }
        return "after \(operationIndex) operation\(operationIndex == 1 ? "" : "s"): \(problem)"
    }
}
