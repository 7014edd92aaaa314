/// How a row lays out its text and detail; raw values are the spellings used in listing files.
public enum ListingCellStyle: String, Sendable, Hashable, CaseIterable {
    /// Text only, left aligned (the default).
    case `default`
    /// Text on the left, detail right aligned on the same line.
    case value1
    /// A small right-aligned label then the text, as in contact cards.
    case value2
    /// Text with the detail underneath.
    case subtitle
}
