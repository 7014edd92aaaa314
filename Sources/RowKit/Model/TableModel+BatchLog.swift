/// What a batch has done so far: an undo journal, and the facts its changeset is computed from.
///
/// The changeset is derived from identities: where each row and section was before the batch
/// (`oldRowLocations`, or for a row the batch only shifted, its index entry moved through its
/// section's journal up to `journalStarts`), where it is after, and what the batch explicitly did
/// to it (`rows`, `sections`).
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

    /// What a batch did to the rows, or to the sections, by identity.
    struct Fates {
        /// Present now and inserted by the batch (including `recreated`).
        var inserted: Set<ItemID> = []
        /// Present before the batch and absent now.
        var deleted: Set<ItemID> = []
        /// Present before the batch, deleted and inserted again by it.
        var recreated: Set<ItemID> = []
        /// Moved explicitly.
        var moved: Set<ItemID> = []
        /// Reloaded, or replaced by an item with the same identity.
        var reloaded: Set<ItemID> = []
        /// Every identity the batch removed, inserted again or not (for error messages).
        var everRemoved: Set<ItemID> = []
        /// The animation of the last operation that inserted, moved or reloaded each item.
        var animations: [ItemID: RowAnimation] = [:]
        /// The animation of the operation that deleted each pre-existing item.
        var deleteAnimations: [ItemID: RowAnimation] = [:]

        /// Notes an insert.
        mutating func insert(_ id: ItemID, animation: RowAnimation) {
            if deleted.remove(id) != nil { recreated.insert(id) }
            inserted.insert(id)
            animations[id] = animation
        }

        /// Notes a removal.
        mutating func remove(_ id: ItemID, animation: RowAnimation) {
            everRemoved.insert(id)
            let wasInserted = inserted.remove(id) != nil
            let wasRecreated = recreated.remove(id) != nil
            if !wasInserted || wasRecreated {
                deleted.insert(id)
                deleteAnimations[id] = animation
            }
        }

        /// Notes a reload; `false` (and nothing noted) for an item the batch inserted.
        mutating func reload(_ id: ItemID, animation: RowAnimation) -> Bool {
            guard !inserted.contains(id) else { return false }
            reloaded.insert(id)
            animations[id] = animation
            return true
        }

        /// Notes that `old` was replaced by `new`: a reload for the same identity (nothing for an
        /// item the batch inserted), otherwise a removal and an insert.
        mutating func replace(_ old: ItemID, by new: ItemID, animation: RowAnimation) {
            if old == new {
                _ = reload(old, animation: animation)
            } else {
                remove(old, animation: animation)
                insert(new, animation: animation)
            }
        }

        /// Notes a move (an inserted item keeps its insert animation).
        mutating func move(_ id: ItemID, animation: RowAnimation) {
            moved.insert(id)
            if !inserted.contains(id) { animations[id] = animation }
        }

        /// Whether the changeset must show the item as deleted and inserted rather than moved or
        /// reloaded: the batch deleted it and inserted it again.
        func isRebuilt(_ id: ItemID) -> Bool { recreated.contains(id) }
    }

    /// Whether edits are journaled and noted (not while rolling back).
    var isRecording = true
    /// Inverses of the primitive edits, oldest first.
    var undoJournal: [Undo] = []
    /// The location before the batch of every pre-existing row the batch moved, removed or
    /// replaced, or whose section it renumbered.
    var oldRowLocations: [ItemID: TableIndex.Location] = [:]
    /// Section identity → the length of its shift journal before the batch's first shift there,
    /// or `sealed` once every entry of the section is one the batch wrote or noted (after the
    /// section is inserted, removed, replaced or renumbered).
    var journalStarts: [ItemID: Int] = [:]
    /// The journal start of a sealed section: below every stamp.
    static let sealed = -1
    /// What the batch did to rows.
    var rows = Fates()
    /// What the batch did to sections.
    var sections = Fates()

    /// Journals `undo`.
    mutating func record(_ undo: Undo) {
        if isRecording { undoJournal.append(undo) }
    }

    /// Whether the location before the batch of the row `id` is still to be noted: while
    /// recording, for a row the batch did not insert and whose location is not noted yet.
    func needsOldLocation(of id: ItemID) -> Bool {
        isRecording && !rows.inserted.contains(id) && oldRowLocations[id] == nil
    }
}
