import RowKit
import Testing

@Suite struct SnapshotValidationTests {
    @Test func whenTheOldSnapshotRepeatsARowAcrossSections_thenTheDiffNamesItAndBothPaths() {
        let old = snapshot([(100, rows(1, 2)), (101, rows(3, 2))])
        #expect(
            throws: SnapshotError.duplicateRowID(
                ItemID(2), first: RowPath(section: 0, row: 1), second: RowPath(section: 1, row: 1), side: .old)
        ) {
            try TableDiff.changeset(from: old, to: snapshot([]))
        }
    }

    @Test func whenTheNewSnapshotRepeatsAMatchedRow_thenTheDiffRejectsIt() {
        // Row 2 is found once next to its neighbour and once through the symbol table.
        let old = snapshot([(100, rows(1, 2, 3))])
        let new = snapshot([(100, rows(1, 2, 3)), (101, rows(2))])
        #expect(
            throws: SnapshotError.duplicateRowID(
                ItemID(2), first: RowPath(section: 0, row: 1), second: RowPath(section: 1, row: 0), side: .new)
        ) {
            try TableDiff.changeset(from: old, to: new)
        }
    }

    @Test func whenTheNewSnapshotRepeatsAnInsertedRow_thenTheDiffRejectsIt() {
        let new = snapshot([(100, rows(7, 1, 7))])
        #expect(
            throws: SnapshotError.duplicateRowID(
                ItemID(7), first: RowPath(section: 0, row: 0), second: RowPath(section: 0, row: 2), side: .new)
        ) {
            try TableDiff.changeset(from: snapshot([(100, rows(1))]), to: new)
        }
    }

    @Test func whenASectionIdentityRepeats_thenTheDiffNamesItAndBothIndices() {
        let new = snapshot([(100, []), (101, []), (100, [])])
        #expect(throws: SnapshotError.duplicateSectionID(ItemID(100), first: 0, second: 2, side: .new)) {
            try TableDiff.changeset(from: snapshot([]), to: new)
        }
    }

    @Test func whenBothSnapshotsHaveDuplicates_thenTheOldOneIsReportedFirst() {
        let bad = snapshot([(100, rows(1, 1))])
        #expect(
            throws: SnapshotError.duplicateRowID(
                ItemID(1), first: RowPath(section: 0, row: 0), second: RowPath(section: 0, row: 1), side: .old)
        ) {
            try TableDiff.changeset(from: bad, to: bad)
        }
    }

    @Test func whenASnapshotIsValidatedAlone_thenTheErrorHasNoSide() {
        #expect(
            throws: SnapshotError.duplicateRowID(
                ItemID(5), first: RowPath(section: 1, row: 0), second: RowPath(section: 3, row: 0), side: nil)
        ) {
            try snapshot([(100, []), (101, rows(5)), (102, []), (103, rows(5))]).validate()
        }
        #expect(throws: Never.self) { try snapshot([(1, rows(1)), (2, rows(2))]).validate() }
    }

    @Test func whenASectionAndARowShareAnIdentity_thenThatIsAllowed() throws {
        let changeset = try TableDiff.changeset(from: snapshot([(1, rows(1))]), to: snapshot([(1, rows(1))]))
        #expect(changeset.isEmpty)
    }

    @Test func whenAnErrorIsPrinted_thenItNamesTheIdentityAndPositions() {
        let error = SnapshotError.duplicateRowID(
            ItemID("inbox"), first: RowPath(section: 0, row: 3), second: RowPath(section: 2, row: 1), side: .new)
        #expect(error.description == "new snapshot: row identity inbox appears twice: rows [0, 3] and [2, 1]")
    }
}
