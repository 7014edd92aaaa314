/// What reading a listing found: its problems (none when it is valid) and its outline.
public struct ListingSummary: Sendable {
    /// Every problem, in file order, as `file:line:column: message`; empty when the listing is valid.
    public var diagnostics: [ListingDiagnostic]
    /// The document's path, title, style and version (defaults where it has none).
    public var header: ListingHeader
    /// The number of sections.
    public var sectionCount: Int
    /// The number of rows.
    public var rowCount: Int
    /// The size of the input in bytes.
    public var byteCount: Int
    /// How many times the input was read (more than once when rows could not be handed out in one
    /// pass; see ``ListingVisitor``).
    public var passes: Int
    /// Data the export will drop although the listing is valid (a detail its row's style does not
    /// show, a link with a scheme the export does not link to), in file order: the first 100.
    public var warnings: [ListingDiagnostic] = []
    /// How many warnings there are in all (more than `warnings` holds past 100).
    public var warningCount = 0
    /// A hash of the input's bytes (``StableHash``), when it was read to its end.
    package var contentHash: UInt64?
    /// The bytes read from the input in all passes, bytes read again counted again (0 where not
    /// counted).
    package var bytesRead = 0

    /// Whether the listing has no problems.
    public var isValid: Bool { diagnostics.isEmpty }
}
