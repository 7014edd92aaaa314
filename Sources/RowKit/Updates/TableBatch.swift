/// The operations of one batch update, recorded in order by the body of
/// `TableModel.performBatch(_:)` and then applied together.
///
/// Recording never fails; each operation is checked when the batch is applied, against the table
/// as the operations before it left it. Every method takes an animation (default `.automatic`)
/// that the changeset carries to the view.
///
/// ```swift
/// let changes = try model.performBatch { batch in
///     batch.delete(id: "bluetooth")
///     batch.append(DefaultRow("VPN"), toSection: 0, animation: .fade)
///     batch.move(from: RowPath(section: 0, row: 0), to: RowPath(section: 1, row: 2))
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
    /// Appends `row` to the end of the section at `section`.
    public mutating func append(_ row: some Row, toSection section: Int, animation: RowAnimation = .automatic) {
        record(.appendRow(AnyRow(row), toSection: .index(section), animation: animation))
    }
    /// Appends `row` to the end of the section with identity `sectionID`.
    public mutating func append(_ row: some Row, toSectionWithID sectionID: ItemID, animation: RowAnimation = .automatic) {
        record(.appendRow(AnyRow(row), toSection: .id(sectionID), animation: animation))
    }
    /// Deletes the row at `path`.
    public mutating func delete(at path: RowPath, animation: RowAnimation = .automatic) {
        record(.deleteRow(.path(path), animation: animation))
    }
    /// Deletes the row with identity `id`.
    public mutating func delete(id: ItemID, animation: RowAnimation = .automatic) {
        record(.deleteRow(.id(id), animation: animation))
    }
    /// Reloads the row at `path` (its content changed; it keeps identity and position).
    public mutating func reload(at path: RowPath, animation: RowAnimation = .automatic) {
        record(.reloadRow(.path(path), animation: animation))
    }
    /// Reloads the row with identity `id`.
    public mutating func reload(id: ItemID, animation: RowAnimation = .automatic) {
        record(.reloadRow(.id(id), animation: animation))
    }
    /// Replaces the row at `path` with `row`: a reload if the identity is the same, otherwise a
    /// delete and an insert.
    public mutating func replace(at path: RowPath, with row: some Row, animation: RowAnimation = .automatic) {
        record(.replaceRow(.path(path), with: AnyRow(row), animation: animation))
    }
    /// Replaces the row with identity `id` with `row` (see `replace(at:with:animation:)`).
    public mutating func replace(id: ItemID, with row: some Row, animation: RowAnimation = .automatic) {
        record(.replaceRow(.id(id), with: AnyRow(row), animation: animation))
    }
    /// Moves the row at `from` so that it ends up at `to`, in this or another section.
    ///
    /// `to` is the row's final path: within one section it ranges over the section's existing
    /// rows; into another section it may be that section's row count (the end).
    public mutating func move(from: RowPath, to: RowPath, animation: RowAnimation = .automatic) {
        record(.moveRow(.path(from), to: to, animation: animation))
    }
    /// Moves the row with identity `id` so that it ends up at `to` (see `move(from:to:animation:)`).
    public mutating func move(id: ItemID, to: RowPath, animation: RowAnimation = .automatic) {
        record(.moveRow(.id(id), to: to, animation: animation))
    }

    // MARK: Sections

    /// Inserts `section` at `index` (up to the section count).
    ///
    /// A section declared without an identity or header title takes `PositionalSectionID(index:)`
    /// of the index it is inserted at.
    public mutating func insertSection(_ section: Section, at index: Int, animation: RowAnimation = .automatic) {
        record(.insertSection(section, at: index, animation: animation))
    }
    /// Appends `section` after the last section.
    public mutating func appendSection(_ section: Section, animation: RowAnimation = .automatic) {
        record(.appendSection(section, animation: animation))
    }
    /// Deletes the section at `index` with its rows.
    public mutating func deleteSection(at index: Int, animation: RowAnimation = .automatic) {
        record(.deleteSection(.index(index), animation: animation))
    }
    /// Deletes the section with identity `id` with its rows.
    public mutating func deleteSection(id: ItemID, animation: RowAnimation = .automatic) {
        record(.deleteSection(.id(id), animation: animation))
    }
    /// Reloads the section at `index` (header, footer and rows).
    public mutating func reloadSection(at index: Int, animation: RowAnimation = .automatic) {
        record(.reloadSection(.index(index), animation: animation))
    }
    /// Reloads the section with identity `id`.
    public mutating func reloadSection(id: ItemID, animation: RowAnimation = .automatic) {
        record(.reloadSection(.id(id), animation: animation))
    }
    /// Replaces the section at `index` with `section`: a reload if the identity is the same,
    /// otherwise a delete and an insert.
    public mutating func replaceSection(at index: Int, with section: Section, animation: RowAnimation = .automatic) {
        record(.replaceSection(.index(index), with: section, animation: animation))
    }
    /// Replaces the section with identity `id` with `section`.
    public mutating func replaceSection(id: ItemID, with section: Section, animation: RowAnimation = .automatic) {
        record(.replaceSection(.id(id), with: section, animation: animation))
    }
    /// Moves the section at `from` so that it ends up at index `to`.
    public mutating func moveSection(from: Int, to: Int, animation: RowAnimation = .automatic) {
        record(.moveSection(.index(from), to: to, animation: animation))
    }
    /// Moves the section with identity `id` so that it ends up at index `to`.
    public mutating func moveSection(id: ItemID, to: Int, animation: RowAnimation = .automatic) {
        record(.moveSection(.id(id), to: to, animation: animation))
    }
    /// Deletes every section and row.
    public mutating func removeAll(animation: RowAnimation = .automatic) {
        record(.removeAll(animation: animation))
    }
}
