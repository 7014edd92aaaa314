import RowKit
import Testing

/// `Changeset.validate()` against hand-made changesets, and `replay` on hand-made mirrors.
struct ChangesetValidationTests {
    static func changeset(old: [Int], new: [Int], _ edit: (inout Changeset) -> Void = { _ in }) -> Changeset {
        var changes = Changeset()
        changes.oldRowCounts = old
        changes.newRowCounts = new
        edit(&changes)
        return changes
    }

    static func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }

    @Test func whenCountsAddUp_thenAUIKitStyleChangesetValidatesAndReplays() throws {
        // Old: [a b c] [d e]; delete b, move c to the start of section 1, insert x at [0, 0],
        // insert a section at 0, reload e.
        let changes = Self.changeset(old: [3, 2], new: [0, 2, 3]) {
            $0.insertedSections = [.init(0)]
            $0.deletedRows = [.init(Self.path(0, 1))]
            $0.insertedRows = [.init(Self.path(1, 0))]
            $0.reloadedRows = [.init(Self.path(1, 1))]
            $0.movedRows = [.init(from: Self.path(0, 2), to: Self.path(2, 0))]
        }
        try changes.validate()
        let replayed = try changes.replay(
            on: [["a", "b", "c"], ["d", "e"]], newSection: { _ in [] }, insertedRow: { _ in "x" },
            reloadedRow: { path, old in "\(old)'\(path.section)\(path.row)" })
        #expect(replayed == [[], ["x", "a"], ["c", "d", "e'22"]])
        let sections = try changes.replaySections(
            on: ["S0", "S1"], insertedSection: { "new\($0)" }, reloadedSection: { _, old in old })
        #expect(sections == ["new0", "S0", "S1"])
    }

    @Test func whenSectionsMove_thenTheOthersFillTheRemainingPositionsInOrder() throws {
        let changes = Self.changeset(old: [1, 1, 1, 1], new: [1, 1, 1, 1]) {
            $0.movedSections = [.init(from: 0, to: 3)]
            $0.reloadedSections = [.init(2)]
        }
        let replayed = try changes.replay(
            on: [["a"], ["b"], ["c"], ["d"]], newSection: { ["new\($0)"] }, insertedRow: { _ in "?" },
            reloadedRow: { _, old in old })
        #expect(replayed == [["b"], ["new1"], ["d"], ["a"]])
    }

    @Test func whenTheRowCountsDoNotAddUp_thenValidationNamesTheSection() {
        let changes = Self.changeset(old: [2], new: [2]) { $0.deletedRows = [.init(Self.path(0, 0))] }
        #expect(throws: ChangesetError.rowCountMismatch(oldSection: 0, newSection: 0, expected: 1, actual: 2)) {
            try changes.validate()
        }
    }

    @Test func whenARowIsBothDeletedAndMoved_thenValidationFails() {
        let changes = Self.changeset(old: [2], new: [1]) {
            $0.deletedRows = [.init(Self.path(0, 0))]
            $0.movedRows = [.init(from: Self.path(0, 0), to: Self.path(0, 0))]
        }
        #expect(throws: ChangesetError.rowInTwoLists(path: Self.path(0, 0), side: .old, .deletedRows, .movedRows)) {
            try changes.validate()
        }
    }

    @Test func whenAListIsUnsortedOrRepeats_thenValidationNamesTheListAndEntry() {
        let unsorted = Self.changeset(old: [3], new: [1]) {
            $0.deletedRows = [.init(Self.path(0, 2)), .init(Self.path(0, 0))]
        }
        #expect(throws: ChangesetError.notAscending(.deletedRows, position: 1)) { try unsorted.validate() }
        let repeated = Self.changeset(old: [1, 1], new: [1]) {
            $0.deletedSections = [.init(1), .init(1)]
        }
        #expect(throws: ChangesetError.notAscending(.deletedSections, position: 1)) { try repeated.validate() }
    }

    @Test func whenIndicesAreOutOfRange_thenValidationSaysWhichSide() {
        let section = Self.changeset(old: [0], new: [0, 0]) { $0.insertedSections = [.init(2)] }
        #expect(throws: ChangesetError.sectionOutOfRange(.insertedSections, index: 2, sectionCount: 2)) {
            try section.validate()
        }
        let row = Self.changeset(old: [1], new: [0]) { $0.deletedRows = [.init(Self.path(0, 1))] }
        #expect(throws: ChangesetError.rowOutOfRange(.deletedRows, path: Self.path(0, 1), rowCount: 1)) {
            try row.validate()
        }
        let count = Self.changeset(old: [0], new: [])
        #expect(throws: ChangesetError.sectionCountMismatch(old: 1, deleted: 0, inserted: 0, new: 0)) {
            try count.validate()
        }
    }

    @Test func whenARowChangeLiesInsideADeletedOrInsertedSection_thenValidationFails() {
        let deleted = Self.changeset(old: [1], new: []) {
            $0.deletedSections = [.init(0)]
            $0.deletedRows = [.init(Self.path(0, 0))]
        }
        #expect(
            throws: ChangesetError.rowInsideChangedSection(
                .deletedRows, path: Self.path(0, 0), sectionList: .deletedSections)
        ) {
            try deleted.validate()
        }
        let inserted = Self.changeset(old: [], new: [1]) {
            $0.insertedSections = [.init(0)]
            $0.insertedRows = [.init(Self.path(0, 0))]
        }
        #expect(
            throws: ChangesetError.rowInsideChangedSection(
                .insertedRows, path: Self.path(0, 0), sectionList: .insertedSections)
        ) {
            try inserted.validate()
        }
    }

    @Test func whenTheMirrorDoesNotMatchTheOldCounts_thenReplayThrowsInsteadOfGuessing() {
        let changes = Self.changeset(old: [2], new: [2])
        #expect(throws: ChangesetError.mirrorRowCountMismatch(side: .old, section: 0, expected: 2, actual: 1)) {
            try changes.replay(on: [["a"]], newSection: { _ in [] }, insertedRow: { _ in "" }, reloadedRow: { $1 })
        }
        #expect(throws: ChangesetError.mirrorSectionCountMismatch(side: .old, expected: 1, actual: 0)) {
            try changes.replay(on: [[String]](), newSection: { _ in [] }, insertedRow: { _ in "" }, reloadedRow: { $1 })
        }
        let inserted = Self.changeset(old: [], new: [2]) { $0.insertedSections = [.init(0)] }
        #expect(throws: ChangesetError.mirrorRowCountMismatch(side: .new, section: 0, expected: 2, actual: 0)) {
            try inserted.replay(
                on: [[String]](), newSection: { _ in [] }, insertedRow: { _ in "" }, reloadedRow: { $1 })
        }
    }
}
