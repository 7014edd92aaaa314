import RowKit
import Testing

@Suite struct ChangesetStagesTests {
    @Test func whenARowMovesAndChanges_thenItIsReloadedInTheFirstStageAndMovedInTheLast() throws {
        let old = snapshot([(100, [(1, 0), (2, 0), (3, 0)])])
        let new = snapshot([(100, [(2, 0), (3, 0), (1, 9)])])
        let stages = try TableDiff.changeset(from: old, to: new).stages()
        #expect(stages.count == 2)
        #expect(stages[0].reloadedRows == [.init(RowPath(section: 0, row: 0))])
        #expect(stages[0].movedRows.isEmpty)
        #expect(stages[0].oldRowCounts == [3] && stages[0].newRowCounts == [3])
        #expect(stages[1].movedRows == [.init(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 2))])
        #expect(stages[1].reloadedRows.isEmpty)
    }

    @Test func whenRowsAboveAMoveAreDeleted_thenTheMoveStartsFromTheShiftedRow() throws {
        let old = snapshot([(100, rows(1, 2, 3, 4, 5))])
        let new = snapshot([(100, rows(5, 2, 4))])  // delete 1 and 3, move 5 to the top
        let changeset = try TableDiff.changeset(from: old, to: new)
        #expect(changeset.movedRows == [.init(from: RowPath(section: 0, row: 4), to: RowPath(section: 0, row: 0))])
        let stages = changeset.stages()
        #expect(stages.count == 2)
        #expect(stages[0].deletedRows.map(\.index) == [RowPath(section: 0, row: 0), RowPath(section: 0, row: 2)])
        #expect(stages[0].oldRowCounts == [5] && stages[0].newRowCounts == [3])
        #expect(stages[1].movedRows == [.init(from: RowPath(section: 0, row: 2), to: RowPath(section: 0, row: 0))])
        #expect(stages[1].oldRowCounts == [3] && stages[1].newRowCounts == [3])
    }

    @Test func whenSectionsAboveAMovedSectionAreDeleted_thenTheSectionMoveIsShiftedToo() throws {
        let old = snapshot([(100, []), (101, rows(1)), (102, rows(2)), (103, rows(3))])
        let new = snapshot([(103, rows(3)), (101, rows(1)), (102, rows(2))])
        let stages = try TableDiff.changeset(from: old, to: new).stages()
        #expect(stages.map(\.deletedSections.count) == [1, 0])
        #expect(stages[1].movedSections == [.init(from: 2, to: 0)])
        #expect(stages[1].oldRowCounts == [1, 1, 1])
    }

    @Test func whenEveryKindOfChangeHappens_thenThereAreThreeStagesInOrder() throws {
        let old = snapshot([(100, [(1, 0), (2, 0), (3, 0)])])
        let new = snapshot([(100, [(3, 0), (1, 1), (4, 0)])])
        let stages = try TableDiff.changeset(from: old, to: new).stages()
        #expect(stages.count == 3)
        #expect(!stages[0].reloadedRows.isEmpty && !stages[1].deletedRows.isEmpty)
        #expect(!stages[2].insertedRows.isEmpty && !stages[2].movedRows.isEmpty)
    }

    @Test func whenStagesAreMade_thenEachCarriesTheWholeChangesRevisions() throws {
        let from = Revision.next()
        let to = Revision.next()
        let old = snapshot([(100, [(1, 0), (2, 0), (3, 0)])], revision: from)
        let new = snapshot([(100, [(3, 0), (1, 1), (4, 0)])], revision: to)
        let stages = try TableDiff.changeset(from: old, to: new).stages()
        #expect(stages.allSatisfy { $0.fromRevision == from && $0.toRevision == to && !$0.reloadsEverything })
    }

    @Test func whenTheChangesetReloadsEverything_thenItIsItsOnlyStage() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1, 2))]), to: snapshot([(100, rows(3, 4))]),
            options: DiffOptions(reloadThreshold: .changedRows(0)))
        #expect(changeset.stages() == [changeset])
    }

    @Test func whenNothingChanged_thenThereAreNoStages() throws {
        #expect(
            try TableDiff.changeset(from: snapshot([(100, rows(1))]), to: snapshot([(100, rows(1))])).stages().isEmpty)
    }
}
