/// The four standard cell layouts: how a cell places its text and detail.
///
/// The standard cells are classes (`DefaultCell`, `Value1Cell`, `Value2Cell`, `SubtitleCell`);
/// this enum names their layouts where a value is needed instead of a type, as in listing files
/// (the raw values are the spellings used there) and in the exporter's templates.
public enum CellLayout: String, Sendable, Hashable, CaseIterable {
    /// An optional image, then the text, left aligned (the default).
    case `default`
    /// Text on the left, grey detail right aligned on the same line.
    case value1
    /// The text as a narrow, right-aligned, tinted label, then the detail as its value, as in contact cards.
    case value2
    /// Text over smaller grey detail.
    case subtitle
}
