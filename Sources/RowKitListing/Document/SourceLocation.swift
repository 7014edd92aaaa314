/// A position in a listing file: the path as given, and a 1-based line and column.
///
/// Columns count Unicode scalars from the start of the line, so a position matches what an editor
/// shows for UTF-8 text.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file path exactly as the caller gave it.
    public var file: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a location in `file` at `line` and `column` (both 1-based).
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The location as `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}
