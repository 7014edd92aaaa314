/// Why a table cannot become a `TableModel`, or why a checked lookup found nothing.
public enum TableModelError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two rows share `id`: the first at `first`, the second at `second`.
    case duplicateRowID(ItemID, first: RowPath, second: RowPath)
    /// Two sections share `id`: the first at index `first`, the second at `second`.
    case duplicateSectionID(ItemID, first: Int, second: Int)
    /// A section index outside `0..<sectionCount`.
    case sectionOutOfRange(Int, sectionCount: Int)
    /// A row path whose row is outside `0..<rowCount` of its (existing) section.
    case rowOutOfRange(RowPath, rowCount: Int)
    /// No row has this identity.
    case unknownRowID(ItemID)

    public var description: String {
        switch self {
        case .duplicateRowID(let id, let first, let second):
            return "duplicate row identity \"\(id)\": at \(first) and again at \(second)"
        case .duplicateSectionID(let id, let first, let second):
            return "duplicate section identity \"\(id)\": section \(first) and again section \(second)"
        case .sectionOutOfRange(let section, let count):
            return "section \(section) is out of range: the table has \(count) section\(count == 1 ? "" : "s")"
        case .rowOutOfRange(let path, let count):
            return "row \(path) is out of range: section \(path.section) has \(count) row\(count == 1 ? "" : "s")"
        case .unknownRowID(let id):
            return "no row has the identity \"\(id)\""
        }
    }
}
