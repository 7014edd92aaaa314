/// Builds the rows of a section: row expressions, `if`/`else`, `switch`, `for` loops and arrays.
@resultBuilder
public enum RowBuilder {
    public static func buildExpression<R: Row>(_ row: R) -> [AnyRow] { [AnyRow(row)] }
    public static func buildExpression(_ row: AnyRow) -> [AnyRow] { [row] }
    public static func buildExpression<R: Row>(_ rows: [R]) -> [AnyRow] { rows.map(AnyRow.init) }
    public static func buildExpression(_ rows: [AnyRow]) -> [AnyRow] { rows }
    public static func buildBlock(_ parts: [AnyRow]...) -> [AnyRow] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [AnyRow]?) -> [AnyRow] { part ?? [] }
    public static func buildEither(first: [AnyRow]) -> [AnyRow] { first }
    public static func buildEither(second: [AnyRow]) -> [AnyRow] { second }
    public static func buildArray(_ parts: [[AnyRow]]) -> [AnyRow] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [AnyRow]) -> [AnyRow] { part }
}

/// Builds the sections of a table: sections, `if`/`else`, `switch`, `for` loops and arrays.
@resultBuilder
public enum TableBuilder {
    public static func buildExpression(_ section: Section) -> [Section] { [section] }
    public static func buildExpression(_ sections: [Section]) -> [Section] { sections }
    public static func buildBlock(_ parts: [Section]...) -> [Section] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Section]?) -> [Section] { part ?? [] }
    public static func buildEither(first: [Section]) -> [Section] { first }
    public static func buildEither(second: [Section]) -> [Section] { second }
    public static func buildArray(_ parts: [[Section]]) -> [Section] { parts.flatMap { $0 } }
    public static func buildLimitedAvailability(_ part: [Section]) -> [Section] { part }
}
