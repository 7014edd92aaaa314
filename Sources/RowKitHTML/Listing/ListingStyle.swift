/// The look of the whole table; raw values are the spellings used in listing files.
public enum ListingStyle: String, Sendable, Hashable, CaseIterable {
    /// Rows run edge to edge; section headers float.
    case plain
    /// Sections are separated into groups.
    case grouped
    /// Groups are inset from the edges with rounded corners (the default).
    case insetGrouped
}
