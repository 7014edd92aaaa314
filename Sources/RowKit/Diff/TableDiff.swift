/// Computes the changeset that turns one table snapshot into another: the snapshot diff.
///
/// Declare the new state, get a minimal changeset that a view can animate:
///
/// ```swift
/// let old = TableSnapshot(model.table, revision: model.revision)
/// let new = TableSnapshot(newTable)
/// let changes = try await Task.detached { try TableDiff.changeset(from: old, to: new) }.value
/// for stage in changes.stages() { /* one performBatchUpdates per stage */ }
/// ```
///
/// What the changeset contains (in `Changeset`'s coordinates):
/// - Sections are matched by identity: unmatched old sections are deleted, unmatched new ones
///   inserted, and matched sections that leave the longest run in unchanged order are moved.
/// - Rows are matched by identity across the whole table, so a row can move between sections.
///   Within each matched section the rows in the longest run of unchanged relative order stay;
///   every other matched row (including every row that changed section) is a move.
/// - A row whose identity stays but whose content changed is reloaded at its old path. A row that
///   moved and changed is a move plus a reload, or a delete plus an insert (`DiffOptions`).
/// - Rows of inserted and deleted sections are not listed: the section change covers them. A row
///   that leaves a deleted section, or enters an inserted one, is an insert or a delete on the
///   other side (UIKit refuses moves out of deleted and into inserted sections).
/// - Sections are never reloaded: snapshots compare sections by identity only.
public enum TableDiff {
    /// The changeset that turns `old` into `new`.
    ///
    /// Pure and `Sendable` in, `Sendable` out: run it off the main actor for big tables. The
    /// changeset's `fromRevision` is `old.revision` and its `toRevision` is `new.revision`.
    ///
    /// - Throws: `SnapshotError.duplicateSectionID` or `.duplicateRowID` when either snapshot
    ///   repeats an identity (old snapshot first, sections before rows).
    /// - Complexity: O(*n* + *k* log *k*) expected time and O(*n*) memory, where *n* is the number of
    ///   rows and sections in both snapshots and *k* the length of the longest section; O(*n*) when
    ///   few rows move. One hash-table access per identity (Heckel's symbol table), then linear
    ///   passes and a longest increasing subsequence per section to keep moves minimal.
    @inlinable
    public static func changeset<ID, Content>(
        from old: TableSnapshot<ID, Content>, to new: TableSnapshot<ID, Content>, options: DiffOptions = .default
    ) throws(SnapshotError) -> Changeset {
        var diff = try Computation(old: old, new: new, options: options)
        return diff.run()
    }
}

extension TableDiff {
    /// The state of one diff: matchings of sections and rows, and the changeset being built.
    @usableFromInline
    struct Computation<ID: Hashable & Sendable, Content: SnapshotContent> {
        @usableFromInline let old: TableSnapshot<ID, Content>
        @usableFromInline let new: TableSnapshot<ID, Content>
        @usableFromInline let options: DiffOptions
        @usableFromInline let sections: Heckel.Matching
        @usableFromInline let rows: Heckel.Matching
        @usableFromInline var changeset = Changeset()

        @inlinable
        init(old: TableSnapshot<ID, Content>, new: TableSnapshot<ID, Content>, options: DiffOptions)
            throws(SnapshotError)
        {
            self.old = old
            self.new = new
            self.options = options
            sections = Heckel.Matching(uniqueOld: old.sectionIDs, new: new.sectionIDs)
            if let (first, second) = sections.firstOldRepeat {
                throw .duplicateSectionID(ItemID(old.sectionIDs[first]), first: first, second: second, side: .old)
            }
            if let (first, second) = sections.firstNewRepeat {
                throw .duplicateSectionID(ItemID(new.sectionIDs[first]), first: first, second: second, side: .new)
            }
            rows = Heckel.Matching(uniqueOld: old.rowIDs, new: new.rowIDs)
            if let (first, second) = rows.firstOldRepeat {
                throw old.duplicateRowError(first: first, second: second, side: .old)
            }
            if let (first, second) = rows.firstNewRepeat {
                throw new.duplicateRowError(first: first, second: second, side: .new)
            }
        }

        /// Bit flags per new row.
        @inlinable static var stays: UInt8 { 1 }
        @inlinable static var replaced: UInt8 { 2 }

        @inlinable
        mutating func run() -> Changeset {
            changeset.oldRowCounts = old.rowCounts
            changeset.newRowCounts = new.rowCounts
            changeset.fromRevision = old.revision
            changeset.toRevision = new.revision
            var changes = diffSections()

            let oldRowSection = Self.sectionOfEachRow(old)
            let newRowSection = Self.sectionOfEachRow(new)
            var flags = markStayingRows(oldRowSection: oldRowSection)

            // Old rows in old order: deletes, moves and reloads come out sorted by old path.
            for oldSection in 0..<old.sectionCount {
                let range = old.rowRange(inSection: oldSection)
                guard sections.oldToNew[oldSection] >= 0 else {
                    changes += range.count  // covered by the section delete
                    continue
                }
                for oldIndex in range {
                    let from = RowPath(section: oldSection, row: oldIndex - range.lowerBound)
                    let newIndex = rows.oldToNew[oldIndex]
                    guard newIndex >= 0, sections.newToOld[Int(newRowSection[newIndex])] >= 0 else {
                        changeset.deletedRows.append(.init(from, animation: options.deleteAnimation))
                        continue
                    }
                    let changed = !old.contents[oldIndex].isContentEqual(to: new.contents[newIndex])
                    if flags[newIndex] & Self.stays != 0 {
                        if changed { changeset.reloadedRows.append(.init(from, animation: options.reloadAnimation)) }
                    } else if changed && options.movedChanges == .deleteAndInsert {
                        changeset.deletedRows.append(.init(from, animation: options.deleteAnimation))
                        flags[newIndex] |= Self.replaced
                    } else {
                        let newSection = Int(newRowSection[newIndex])
                        let to = RowPath(section: newSection, row: newIndex - new.sectionStarts[newSection])
                        changeset.movedRows.append(.init(from: from, to: to, animation: options.moveAnimation))
                        if changed { changeset.reloadedRows.append(.init(from, animation: options.reloadAnimation)) }
                    }
                }
            }
            // New rows in new order: inserts come out sorted by new path.
            for newSection in 0..<new.sectionCount {
                let range = new.rowRange(inSection: newSection)
                guard sections.newToOld[newSection] >= 0 else {
                    changes += range.count  // covered by the section insert
                    continue
                }
                for newIndex in range {
                    let oldIndex = rows.newToOld[newIndex]
                    if oldIndex < 0 || sections.oldToNew[Int(oldRowSection[oldIndex])] < 0
                        || flags[newIndex] & Self.replaced != 0
                    {
                        let to = RowPath(section: newSection, row: newIndex - range.lowerBound)
                        changeset.insertedRows.append(.init(to, animation: options.insertAnimation))
                    }
                }
            }
            changes +=
                changeset.deletedRows.count + changeset.insertedRows.count
                + changeset.movedRows.count + changeset.reloadedRows.count
            changeset.reloadsEverything = options.reloadThreshold.isExceeded(
                changes: changes, rows: max(old.rowCount, new.rowCount))
            return changeset
        }

        /// Section deletes, inserts and moves; returns the number of moved sections.
        @inlinable
        mutating func diffSections() -> Int {
            var keep = [Bool](repeating: false, count: new.sectionCount)
            var matchedNew = [Int]()
            var matchedOld = [Int]()
            for (newSection, oldSection) in sections.newToOld.enumerated() where oldSection >= 0 {
                matchedNew.append(newSection)
                matchedOld.append(oldSection)
            }
            var keepMatched = [Bool](repeating: false, count: matchedOld.count)
            IncreasingSubsequence.mark(matchedOld, in: &keepMatched)
            for (position, kept) in keepMatched.enumerated() where kept { keep[matchedNew[position]] = true }

            for (oldSection, newSection) in sections.oldToNew.enumerated() {
                if newSection < 0 {
                    changeset.deletedSections.append(.init(oldSection, animation: options.deleteAnimation))
                } else if !keep[newSection] {
                    changeset.movedSections.append(
                        .init(from: oldSection, to: newSection, animation: options.moveAnimation))
                }
            }
            for (newSection, oldSection) in sections.newToOld.enumerated() where oldSection < 0 {
                changeset.insertedSections.append(.init(newSection, animation: options.insertAnimation))
            }
            return changeset.movedSections.count
        }

        /// Flags (`stays`) the new rows that keep their place: in each matched section, the rows
        /// from the same section that form the longest run in unchanged order.
        @inlinable
        func markStayingRows(oldRowSection: [Int32]) -> [UInt8] {
            var flags = [UInt8](repeating: 0, count: new.rowCount)
            var values = [Int]()
            var positions = [Int]()
            var keep = [Bool]()
            for newSection in 0..<new.sectionCount {
                let oldSection = sections.newToOld[newSection]
                guard oldSection >= 0 else { continue }
                values.removeAll(keepingCapacity: true)
                positions.removeAll(keepingCapacity: true)
                for newIndex in new.rowRange(inSection: newSection) {
                    let oldIndex = rows.newToOld[newIndex]
                    if oldIndex >= 0 && Int(oldRowSection[oldIndex]) == oldSection {
                        values.append(oldIndex)
                        positions.append(newIndex)
                    }
                }
                keep.removeAll(keepingCapacity: true)
                keep.append(contentsOf: repeatElement(false, count: values.count))
                IncreasingSubsequence.mark(values, in: &keep)
                for (position, kept) in keep.enumerated() where kept { flags[positions[position]] = Self.stays }
            }
            return flags
        }

        /// The section index of every row of `snapshot`.
        @inlinable
        static func sectionOfEachRow(_ snapshot: TableSnapshot<ID, Content>) -> [Int32] {
            var result = [Int32](repeating: 0, count: snapshot.rowCount)
            for section in 0..<snapshot.sectionCount {
                for index in snapshot.rowRange(inSection: section) {
                    result[index] = Int32(truncatingIfNeeded: section)
                }
            }
            return result
        }
    }
}
