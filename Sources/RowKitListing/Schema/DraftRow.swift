/// A row that passed the schema, before its identity is settled (explicit ids must be unique in
/// the document; derived ones are made in document order).
struct DraftRow: Sendable {
    /// The row; its `id` is the explicit id, or empty until one is derived.
    var row: ListingRow
    /// The explicit id and where it is written.
    var explicitID: (id: String, line: Int, column: Int)?
}

/// What the schema hands on as a document streams past.
enum SchemaOutput {
    /// A section (a mapping in `sections`) starts.
    case sectionStart(SourceLocation)
    /// A row passed the schema.
    case row(DraftRow)
    /// The section that started last ends; header, footer and index title are final.
    case sectionEnd(ListingSection)
}
