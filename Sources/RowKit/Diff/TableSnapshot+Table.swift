extension TableSnapshot where ID == ItemID, Content == AnyRow {
    /// A snapshot of `table`: section identities, and for each row its identity (`AnyRow.id`) and the
    /// row itself as content, compared with `AnyRow.isContentEqual(to:)`.
    ///
    /// Headers, footers and index titles are not part of the snapshot: the diff matches sections
    /// by identity only and never reloads a section.
    ///
    /// - Parameters:
    ///   - table: The table.
    ///   - revision: The revision of the model `table` was read from (`Revision.initial` when not
    ///     read from a model); the diff records it so a stale result can be refused.
    /// - Complexity: O(*n*), where *n* is the number of rows.
    public init(_ table: Table, revision: Revision = .initial) {
        self.init(table.sections, revision: revision)
    }

    /// A snapshot of `sections`, as `init(_:revision:)` with a table.
    ///
    /// - Complexity: O(*n*), where *n* is the number of rows.
    public init(_ sections: [Section], revision: Revision = .initial) {
        self.init(revision: revision)
        reserveCapacity(sections: sections.count, rows: sections.reduce(0) { $0 + $1.rows.count })
        for section in sections {
            appendSection(section.id)
            for row in section.rows { appendRow(row.id, content: row) }
        }
    }
}
