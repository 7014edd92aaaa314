/// The position of a row: its section and its row within that section.
///
/// RowKit's own index path, so it means the same on every platform and never collides with
/// Foundation's `IndexPath`. Ordered section first, then row.
public struct RowPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section's index in the table.
    public var section: Int
    /// The row's index in its section.
    public var row: Int

    /// Creates a path to `row` in `section`.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Creates a path to `row` in `section` (UIKit's argument order).
    public init(row: Int, section: Int) {
        self.init(section: section, row: row)
    }

    public static func < (lhs: RowPath, rhs: RowPath) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`, as UIKit prints index paths.
    public var description: String { "[\(section), \(row)]" }
}
