extension TableBatch {
    /// A row named by its path or by its identity, resolved when the operation is interpreted.
    public enum RowTarget: Sendable, Hashable, CustomStringConvertible {
        /// The row at this path.
        case path(RowPath)
        /// The row with this identity.
        case id(ItemID)

        public var description: String {
            switch self {
            case .path(let path): return "row at \(path)"
            case .id(let id): return "row \"\(id)\""
            }
        }
    }

    /// A section named by its index or by its identity, resolved when the operation is interpreted.
    public enum SectionTarget: Sendable, Hashable, CustomStringConvertible {
        /// The section at this index.
        case index(Int)
        /// The section with this identity.
        case id(ItemID)

        public var description: String {
            switch self {
            case .index(let index): return "section \(index)"
            case .id(let id): return "section \"\(id)\""
            }
        }
    }

    /// One recorded operation of a batch.
    ///
    /// Paths and indices are interpreted against the table as the previous operations of the same
    /// batch left it (see `TableModel.performBatch(_:)`).
    public enum Operation: Sendable, CustomStringConvertible {
        /// Insert a row at a path (the row may go one past the last row of the section).
        case insertRow(AnyRow, at: RowPath, animation: RowAnimation)
        /// Append a row to the end of a section (what `TableBatch.append(_:to:animation:)` records).
        case appendRow(AnyRow, to: SectionTarget, animation: RowAnimation)
        /// Delete a row.
        case deleteRow(RowTarget, animation: RowAnimation)
        /// Reload a row whose content changed in place (its identity and position stay).
        case reloadRow(RowTarget, animation: RowAnimation)
        /// Replace a row: a reload when the identity stays, a delete and an insert otherwise.
        case replaceRow(RowTarget, with: AnyRow, animation: RowAnimation)
        /// Move a row to a path (its final path, after it has been taken out).
        case moveRow(RowTarget, to: RowPath, animation: RowAnimation)
        /// Insert a section at an index (up to the section count).
        case insertSection(Section, at: Int, animation: RowAnimation)
        /// Append a section after the last one.
        case appendSection(Section, animation: RowAnimation)
        /// Delete a section and its rows.
        case deleteSection(SectionTarget, animation: RowAnimation)
        /// Reload a section (header, footer and rows).
        case reloadSection(SectionTarget, animation: RowAnimation)
        /// Replace a section: a reload when the identity stays, a delete and an insert otherwise.
        case replaceSection(SectionTarget, with: Section, animation: RowAnimation)
        /// Move a section to an index (its final index, after it has been taken out).
        case moveSection(SectionTarget, to: Int, animation: RowAnimation)

        /// Renamed `appendRow(_:to:animation:)`, as `TableBatch.append(_:to:animation:)` names it.
        @available(*, unavailable, renamed: "appendRow(_:to:animation:)")
        public static func appendRow(_ row: AnyRow, toSection section: SectionTarget, animation: RowAnimation)
            -> Self
        { .appendRow(row, to: section, animation: animation) }
        /// Delete every section.
        case removeAll(animation: RowAnimation)

        /// The operation's animation.
        public var animation: RowAnimation {
            switch self {
            case .insertRow(_, _, let animation), .appendRow(_, _, let animation), .deleteRow(_, let animation),
                .reloadRow(_, let animation), .replaceRow(_, _, let animation), .moveRow(_, _, let animation),
                .insertSection(_, _, let animation), .appendSection(_, let animation),
                .deleteSection(_, let animation), .reloadSection(_, let animation),
                .replaceSection(_, _, let animation), .moveSection(_, _, let animation),
                .removeAll(let animation):
                return animation
            }
        }

        /// What the operation does, e.g. `insert row "Wi-Fi" at [0, 2] (fade)`.
        public var description: String {
            let text: String
            switch self {
            case .insertRow(let row, let path, _): text = "insert row \"\(row.id)\" at \(path)"
            case .appendRow(let row, let section, _): text = "append row \"\(row.id)\" to \(section)"
            case .deleteRow(let target, _): text = "delete \(target)"
            case .reloadRow(let target, _): text = "reload \(target)"
            case .replaceRow(let target, let row, _): text = "replace \(target) with row \"\(row.id)\""
            case .moveRow(let target, let path, _): text = "move \(target) to \(path)"
            case .insertSection(let section, let index, _): text = "insert section \(Self.name(section)) at \(index)"
            case .appendSection(let section, _): text = "append section \(Self.name(section))"
            case .deleteSection(let target, _): text = "delete \(target)"
            case .reloadSection(let target, _): text = "reload \(target)"
            case .replaceSection(let target, let section, _):
                text = "replace \(target) with section \(Self.name(section))"
            case .moveSection(let target, let index, _): text = "move \(target) to \(index)"
            case .removeAll: text = "remove all sections"
            }
            return animation == .automatic ? text : "\(text) (\(animation))"
        }

        /// A section as the description names it: its identity in quotes, or `(untitled)` for one
        /// declared without an identity or header title (which gets its identity when inserted).
        private static func name(_ section: Section) -> String {
            section.hasPositionalID ? "(untitled)" : "\"\(section.id)\""
        }
    }
}
