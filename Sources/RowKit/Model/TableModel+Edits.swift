// Single operations outside a batch: each is a batch of one (`performBatch(_:)`), atomic, and
// returns its changeset. Complexity as for `performBatch(_:)` with one operation.
extension TableModel {
    /// Inserts `row` at `path` (a batch of one).
    @discardableResult
    public mutating func insert(_ row: some Row, at path: RowPath, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.insertRow(AnyRow(row), at: path, animation: animation)])
    }
    /// Appends `row` to the section at `section` (a batch of one).
    @discardableResult
    public mutating func append(_ row: some Row, toSection section: Int, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.appendRow(AnyRow(row), toSection: .index(section), animation: animation)])
    }
    /// Appends `row` to the section with identity `sectionID` (a batch of one).
    @discardableResult
    public mutating func append(_ row: some Row, toSectionWithID sectionID: ItemID, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.appendRow(AnyRow(row), toSection: .id(sectionID), animation: animation)])
    }
    /// Deletes the row at `path` (a batch of one).
    @discardableResult
    public mutating func delete(at path: RowPath, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.deleteRow(.path(path), animation: animation)])
    }
    /// Deletes the row with identity `id` (a batch of one).
    @discardableResult
    public mutating func delete(id: ItemID, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.deleteRow(.id(id), animation: animation)])
    }
    /// Reloads the row at `path` (a batch of one).
    @discardableResult
    public mutating func reload(at path: RowPath, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.reloadRow(.path(path), animation: animation)])
    }
    /// Reloads the row with identity `id` (a batch of one).
    @discardableResult
    public mutating func reload(id: ItemID, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.reloadRow(.id(id), animation: animation)])
    }
    /// Replaces the row at `path` with `row` (a batch of one).
    @discardableResult
    public mutating func replace(at path: RowPath, with row: some Row, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.replaceRow(.path(path), with: AnyRow(row), animation: animation)])
    }
    /// Replaces the row with identity `id` with `row` (a batch of one).
    @discardableResult
    public mutating func replace(id: ItemID, with row: some Row, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.replaceRow(.id(id), with: AnyRow(row), animation: animation)])
    }
    /// Moves the row at `from` to its final path `to` (a batch of one).
    @discardableResult
    public mutating func move(from: RowPath, to: RowPath, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.moveRow(.path(from), to: to, animation: animation)])
    }
    /// Moves the row with identity `id` to its final path `to` (a batch of one).
    @discardableResult
    public mutating func move(id: ItemID, to: RowPath, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.moveRow(.id(id), to: to, animation: animation)])
    }
    /// Inserts `section` at `index` (a batch of one).
    @discardableResult
    public mutating func insertSection(_ section: Section, at index: Int, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.insertSection(section, at: index, animation: animation)])
    }
    /// Appends `section` (a batch of one).
    @discardableResult
    public mutating func appendSection(_ section: Section, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.appendSection(section, animation: animation)])
    }
    /// Deletes the section at `index` (a batch of one).
    @discardableResult
    public mutating func deleteSection(at index: Int, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.deleteSection(.index(index), animation: animation)])
    }
    /// Deletes the section with identity `id` (a batch of one).
    @discardableResult
    public mutating func deleteSection(id: ItemID, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.deleteSection(.id(id), animation: animation)])
    }
    /// Reloads the section at `index` (a batch of one).
    @discardableResult
    public mutating func reloadSection(at index: Int, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.reloadSection(.index(index), animation: animation)])
    }
    /// Reloads the section with identity `id` (a batch of one).
    @discardableResult
    public mutating func reloadSection(id: ItemID, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.reloadSection(.id(id), animation: animation)])
    }
    /// Replaces the section at `index` with `section` (a batch of one).
    @discardableResult
    public mutating func replaceSection(at index: Int, with section: Section, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.replaceSection(.index(index), with: section, animation: animation)])
    }
    /// Replaces the section with identity `id` with `section` (a batch of one).
    @discardableResult
    public mutating func replaceSection(id: ItemID, with section: Section, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.replaceSection(.id(id), with: section, animation: animation)])
    }
    /// Moves the section at `from` to its final index `to` (a batch of one).
    @discardableResult
    public mutating func moveSection(from: Int, to: Int, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.moveSection(.index(from), to: to, animation: animation)])
    }
    /// Moves the section with identity `id` to its final index `to` (a batch of one).
    @discardableResult
    public mutating func moveSection(id: ItemID, to: Int, animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.moveSection(.id(id), to: to, animation: animation)])
    }
    /// Deletes every section (a batch of one).
    @discardableResult
    public mutating func removeAll(animation: RowAnimation = .automatic) throws(TableUpdateError) -> Changeset {
        try perform([.removeAll(animation: animation)])
    }
}
