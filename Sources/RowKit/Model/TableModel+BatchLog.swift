/// What a batch has done so far: an undo journal, and the facts its changeset is computed from.
///
/// The changeset is derived from identities: where each row and section was before the batch
/// (`oldRowLocations`, or its current location if the batch never displaced it), where it is
/// after, and what the batch explicitly did to it (inserted, deleted, moved, reloaded).
struct BatchLog {
    /// The inverse of one primitive edit.
    enum Undo {
        case removeRow(RowPath)
        case insertRow(AnyRow, RowPath)
        case replaceRow(AnyRow, RowPath)
        case moveRow(from: RowPath, to: RowPath)
        case removeSection(Int)
        case insertSection(Section, Int)
        case replaceSection(Section, Int)
        case moveSection(from: Int, to: Int)
    }

    /// Whether edits are journaled and noted (not while rolling back).
    var isRecording = true
    /// Inverses of the primitive edits, oldest first.
    var undoJournal: [Undo] = []
    /// The location before the batch of every pre-existing row the batch displaced or removed.
    var oldRowLocations: [ItemID: TableIndex.Location] = [:]

    /// Rows present now that the batch inserted (including `recreatedRows`).
    var insertedRows: Set<ItemID> = []
    /// Rows present before the batch and absent now.
    var deletedRows: Set<ItemID> = []
    /// Rows present before the batch, deleted and inserted again by it.
    var recreatedRows: Set<ItemID> = []
    /// Rows the batch moved explicitly.
    var movedRows: Set<ItemID> = []
    /// Rows the batch reloaded (or replaced by a row with the same identity).
    var reloadedRows: Set<ItemID> = []
    /// Every row identity the batch removed, inserted later or not (for error messages).
    var removedRowIDs: Set<ItemID> = []
    /// The animation of the last operation that inserted, moved or reloaded each row.
    var rowAnimations: [ItemID: RowAnimation] = [:]
    /// The animation of the operation that deleted each pre-existing row.
    var rowDeleteAnimations: [ItemID: RowAnimation] = [:]

    /// Sections present now that the batch inserted (including `recreatedSections`).
    var insertedSections: Set<ItemID> = []
    /// Sections present before the batch and absent now.
    var deletedSections: Set<ItemID> = []
    /// Sections present before the batch, deleted and inserted again by it.
    var recreatedSections: Set<ItemID> = []
    /// Sections the batch moved explicitly.
    var movedSections: Set<ItemID> = []
    /// Sections the batch reloaded (or replaced by a section with the same identity).
    var reloadedSections: Set<ItemID> = []
    /// Every section identity the batch removed, inserted later or not (for error messages).
    var removedSectionIDs: Set<ItemID> = []
    /// The animation of the last operation that inserted, moved or reloaded each section.
    var sectionAnimations: [ItemID: RowAnimation] = [:]
    /// The animation of the operation that deleted each pre-existing section.
    var sectionDeleteAnimations: [ItemID: RowAnimation] = [:]

    /// Journals `undo`.
    mutating func record(_ undo: Undo) {
        if isRecording { undoJournal.append(undo) }
    }

    /// Notes that a row is leaving `location`; keeps only the first location of pre-existing rows.
    mutating func noteLocation(of id: ItemID, _ location: TableIndex.Location) {
        guard isRecording, !insertedRows.contains(id), oldRowLocations[id] == nil else { return }
        oldRowLocations[id] = location
    }

    /// Notes that the batch inserted a row.
    mutating func rowInserted(_ id: ItemID, animation: RowAnimation) {
        if deletedRows.remove(id) != nil { recreatedRows.insert(id) }
        insertedRows.insert(id)
        rowAnimations[id] = animation
    }

    /// Notes that the batch removed a row.
    mutating func rowRemoved(_ id: ItemID, animation: RowAnimation) {
        removedRowIDs.insert(id)
        let wasInserted = insertedRows.remove(id) != nil
        let wasRecreated = recreatedRows.remove(id) != nil
        if !wasInserted || wasRecreated {
            deletedRows.insert(id)
            rowDeleteAnimations[id] = animation
        }
    }

    /// Notes that the batch inserted a section.
    mutating func sectionInserted(_ id: ItemID, animation: RowAnimation) {
        if deletedSections.remove(id) != nil { recreatedSections.insert(id) }
        insertedSections.insert(id)
        sectionAnimations[id] = animation
    }

    /// Notes that the batch removed a section.
    mutating func sectionRemoved(_ id: ItemID, animation: RowAnimation) {
        removedSectionIDs.insert(id)
        let wasInserted = insertedSections.remove(id) != nil
        let wasRecreated = recreatedSections.remove(id) != nil
        if !wasInserted || wasRecreated {
            deletedSections.insert(id)
            sectionDeleteAnimations[id] = animation
        }
    }
}
