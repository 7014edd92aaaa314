/// The operations of one batch update, recorded in order by the body of
/// `TableModel.performBatch(_:)` and then applied together.
///
/// Recording never fails; each operation is checked when the batch is applied, against the table
/// as the operations before it left it. Every method takes an animation (default `.automatic`)
/// that the changeset carries to the view.
///
/// There is one method per edit, and one way to name what it edits: a row is a ``RowTarget``,
/// `.id(_:)` (its identity, the usual way) or `.path(_:)` (where it is now, as the operations
/// before it left the table); a section is a ``SectionTarget``, `.id(_:)` or `.index(_:)`.
///
/// ```swift
/// let changes = try view.performBatch { batch in
///     batch.delete(.id("bluetooth"))
///     batch.append(DefaultRow("VPN"), to: .index(0), animation: .fade)
///     batch.move(.path(RowPath(section: 0, row: 0)), to: RowPath(section: 1, row: 2))
/// }
/// ```
public struct TableBatch: Sendable {
    /// The operations recorded so far, in order.
    public private(set) var operations: [Operation] = []

    /// Creates an empty batch.
    public init() {}

    /// Records `operation`.
    public mutating func record(_ operation: Operation) { operations.append(operation) }

    // MARK: Rows

    /// Inserts `row` at `path`; `path.row` may be the section's row count (the end).
    public mutating func insert(_ row: some Row, at path: RowPath, animation: RowAnimation = .automatic) {
        record(.insertRow(AnyRow(row), at: path, animation: animation))
    }
    /// Inserts an erased row at `path`; `path.row` may be the section's row count (the end).
    public mutating func insert(_ row: AnyRow, at path: RowPath, animation: RowAnimation = .automatic) {
        record(.insertRow(row, at: path, animation: animation))
    }
    /// Appends `row` to the end of `section` (`.index(1)` or `.id("Display")`).
    public mutating func append(_ row: some Row, to section: SectionTarget, animation: RowAnimation = .automatic) {
        record(.appendRow(AnyRow(row), to: section, animation: animation))
    }
    /// Deletes `row` (`.id("wifi")` or `.path(RowPath(section: 0, row: 2))`).
    public mutating func delete(_ row: RowTarget, animation: RowAnimation = .automatic) {
        record(.deleteRow(row, animation: animation))
    }
    /// Reloads `row`: its content changed; it keeps its identity and position.
    public mutating func reload(_ row: RowTarget, animation: RowAnimation = .automatic) {
        record(.reloadRow(row, animation: animation))
    }
    /// Replaces `row` with `newRow`: a reload if the identity is the same, otherwise a delete and
    /// an insert.
    public mutating func replace(_ row: RowTarget, with newRow: some Row, animation: RowAnimation = .automatic) {
        record(.replaceRow(row, with: AnyRow(newRow), animation: animation))
    }
    /// Moves `row` so that it ends up at `path`, in this or another section.
    ///
    /// `path` is the row's final path: within one section it ranges over the section's existing
    /// rows; into another section it may be that section's row count (the end).
    public mutating func move(_ row: RowTarget, to path: RowPath, animation: RowAnimation = .automatic) {
        record(.moveRow(row, to: path, animation: animation))
    }

    // MARK: Sections

    /// Inserts `section` at `index` (up to the section count).
    ///
    /// A section declared without an identity or header title takes `PositionalSectionID(index:)`
    /// of the index it is inserted at, or, when a section of the table already has that identity
    /// (an untitled section inserted among untitled ones), of the next index above it that no
    /// section has.
    public mutating func insertSection(_ section: Section, at index: Int, animation: RowAnimation = .automatic) {
        record(.insertSection(section, at: index, animation: animation))
    }
    /// Appends `section` after the last section.
    public mutating func appendSection(_ section: Section, animation: RowAnimation = .automatic) {
        record(.appendSection(section, animation: animation))
    }
    /// Deletes `section` (`.index(0)` or `.id("Network")`) with its rows.
    public mutating func deleteSection(_ section: SectionTarget, animation: RowAnimation = .automatic) {
        record(.deleteSection(section, animation: animation))
    }
    /// Reloads `section` (header, footer and rows).
    public mutating func reloadSection(_ section: SectionTarget, animation: RowAnimation = .automatic) {
        record(.reloadSection(section, animation: animation))
    }
    /// Replaces `section` with `newSection`: a reload if the identity is the same, otherwise a
    /// delete and an insert.
    public mutating func replaceSection(
        _ section: SectionTarget, with newSection: Section, animation: RowAnimation = .automatic
    ) {
        record(.replaceSection(section, with: newSection, animation: animation))
    }
    /// Moves `section` so that it ends up at index `index`.
    public mutating func moveSection(_ section: SectionTarget, to index: Int, animation: RowAnimation = .automatic) {
        record(.moveSection(section, to: index, animation: animation))
    }
    /// Deletes every section and row.
    public mutating func removeAll(animation: RowAnimation = .automatic) {
        record(.removeAll(animation: animation))
    }
}
