/// One step of a YAML or JSON document, as the syntax readers report it: the schema sees the same
/// stream whatever the syntax.
enum ListingEvent {
    /// A mapping starts at line and column.
    case mappingStart(Int, Int)
    /// A sequence starts at line and column.
    case sequenceStart(Int, Int)
    /// The innermost open mapping or sequence ends.
    case end
    /// A mapping's next key (always plain text) at line and column; its value follows.
    case key(String, Int, Int)
    /// A scalar value: its text, its kind, whether it was written unquoted (so a field that wants
    /// text takes it as written), and its line and column.
    case scalar(String, ScalarKind, Bool, Int, Int)
}

/// A scalar's type as the source syntax states it. Numbers keep their literal text, so huge
/// numbers cannot overflow.
enum ScalarKind: Sendable {
    case string, number, bool, null
}
