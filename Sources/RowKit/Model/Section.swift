/// A section of a table: optional header and footer, rows, and an optional index title.
///
/// Identity: `id` when given; otherwise the header title; otherwise the section's position,
/// assigned when the table is built (see `Table`).
public struct Section: Sendable, Identifiable {
    /// The section's identity.
    public var id: ItemID
    /// The header, if any.
    public var header: HeaderFooter?
    /// The footer, if any.
    public var footer: HeaderFooter?
    /// The title of the section in the index bar (the A–Z bar), if any.
    public var indexTitle: String?
    /// The rows, in order (a `RowList`: index, iterate and edit it like an array).
    public var rows: RowList
    /// Whether `id` was derived rather than given (the table replaces positional identities).
    var hasPositionalID: Bool

    /// Declares a section with an optional header title, footer title and index title.
    public init(
        _ header: String? = nil, id: (any Hashable & Sendable)? = nil, footer: String? = nil,
        index: String? = nil, @RowBuilder rows: () -> [AnyRow] = { [] }
    ) {
        self.init(
            id: id.map { ItemID($0) } ?? header.map { ItemID($0) },
            header: header.map { HeaderFooter.title($0) }, footer: footer.map { HeaderFooter.title($0) },
            indexTitle: index, rows: rows())
    }

    /// Declares a section from an array of rows of any row types, with an optional header title,
    /// footer title and index title: `Section("Network", rows: [Value1Row("Wi-Fi"), DefaultRow("VPN")])`.
    ///
    /// - Complexity: O(*n*) for *n* rows.
    public init(
        _ header: String? = nil, id: (any Hashable & Sendable)? = nil, footer: String? = nil,
        index: String? = nil, rows: [any Row]
    ) {
        self.init(
            id: id.map { ItemID($0) } ?? header.map { ItemID($0) },
            header: header.map { HeaderFooter.title($0) }, footer: footer.map { HeaderFooter.title($0) },
            indexTitle: index, rows: rows.map { AnyRow($0) })
    }

    /// Creates a section from parts; a `nil` identity is replaced by the section's position.
    /// `rows` is any sequence of erased rows: an array, or another section's `rows`.
    ///
    /// - Complexity: O(*n*) for *n* rows; O(1) for a `RowList`.
    public init(
        id: ItemID?, header: HeaderFooter? = nil, footer: HeaderFooter? = nil, indexTitle: String? = nil,
        rows: some Sequence<AnyRow>
    ) {
        self.id = id ?? ItemID(PositionalSectionID(index: -1))
        self.hasPositionalID = id == nil
        self.header = header
        self.footer = footer
        self.indexTitle = indexTitle
        // Another section's rows are shared until one of the two changes them.
        self.rows = rows as? RowList ?? RowList(rows)
    }
}

/// The identity of a section declared without an identity or a header title: its position.
public struct PositionalSectionID: Hashable, Sendable, CustomStringConvertible {
    /// The section's position when its table was built.
    public var index: Int
    public var description: String { "#\(index)" }
}
