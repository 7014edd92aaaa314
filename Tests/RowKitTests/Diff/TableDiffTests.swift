import RowKit
import RowKitBench
import Testing

/// Builds a snapshot from `[section: [row: content]]` literals, sections and rows in order.
func snapshot(_ sections: [(Int, [(Int, Int)])], revision: Revision = .initial) -> TableSnapshot<Int, Int> {
    TableSnapshot(
        sections: sections.map { (id: $0.0, rows: $0.1.map { (id: $0.0, content: $0.1) }) }, revision: revision)
}

/// Rows `ids` with content 0.
func rows(_ ids: Int...) -> [(Int, Int)] { ids.map { ($0, 0) } }

@Suite struct TableDiffTests {
    @Test func whenSnapshotsAreEqual_thenChangesetIsEmptyButCarriesCountsAndRevisions() throws {
        let from = Revision.next()
        let to = Revision.next()
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1, 2)), (101, [])], revision: from),
            to: snapshot([(100, rows(1, 2)), (101, [])], revision: to))
        #expect(changeset.isEmpty)
        #expect(changeset.oldRowCounts == [2, 0] && changeset.newRowCounts == [2, 0])
        #expect(changeset.fromRevision == from && changeset.toRevision == to)
        #expect(!changeset.reloadsEverything)
    }

    @Test func whenTwoAdjacentRowsSwap_thenOneMoveIsReported() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1, 2, 3))]), to: snapshot([(100, rows(2, 1, 3))]))
        #expect(changeset.movedRows.count == 1)
        #expect(changeset.insertedRows.isEmpty && changeset.deletedRows.isEmpty)
    }

    @Test func whenTheFirstRowMovesToTheEnd_thenOnlyThatRowMoves() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1, 2, 3, 4, 5))]), to: snapshot([(100, rows(2, 3, 4, 5, 1))]))
        #expect(changeset.movedRows == [.init(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 4))])
    }

    @Test func whenRowsAreReversed_thenAllButOneMove() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1, 2, 3, 4, 5))]), to: snapshot([(100, rows(5, 4, 3, 2, 1))]))
        #expect(changeset.movedRows.count == 4)
    }

    @Test func whenARowChangesSection_thenItMovesAcrossSections() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1, 2)), (101, rows(3))]), to: snapshot([(100, rows(2)), (101, rows(3, 1))]))
        #expect(changeset.movedRows == [.init(from: RowPath(section: 0, row: 0), to: RowPath(section: 1, row: 1))])
        #expect(changeset.oldRowCounts == [2, 1] && changeset.newRowCounts == [1, 2])
    }

    @Test func whenSectionsSwap_thenOneSectionMovesAndItsRowsAreNotListed() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1)), (101, rows(2)), (102, rows(3))]),
            to: snapshot([(101, rows(2)), (100, rows(1)), (102, rows(3))]))
        #expect(changeset.movedSections.count == 1)
        #expect(changeset.movedRows.isEmpty)
    }

    @Test func whenContentChanges_thenTheRowIsReloadedAtItsOldPath() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, [(1, 0), (2, 0)])]), to: snapshot([(100, [(0, 0), (1, 0), (2, 7)])]))
        #expect(changeset.reloadedRows == [.init(RowPath(section: 0, row: 1))])
        #expect(changeset.insertedRows == [.init(RowPath(section: 0, row: 0))])
    }

    @Test func whenARowMovesAndChanges_thenTheDefaultIsAMovePlusAReloadAtTheOldPath() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, [(1, 0), (2, 0), (3, 0)])]), to: snapshot([(100, [(2, 0), (3, 0), (1, 9)])]))
        #expect(changeset.movedRows == [.init(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 2))])
        #expect(changeset.reloadedRows == [.init(RowPath(section: 0, row: 0))])
    }

    @Test func whenARowMovesAndChangesUnderDeleteAndInsert_thenItIsDeletedAndInsertedInstead() throws {
        let options = DiffOptions(movedChanges: .deleteAndInsert)
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, [(1, 0), (2, 0), (3, 0)])]), to: snapshot([(100, [(2, 0), (3, 0), (1, 9)])]),
            options: options)
        #expect(changeset.movedRows.isEmpty && changeset.reloadedRows.isEmpty)
        #expect(changeset.deletedRows == [.init(RowPath(section: 0, row: 0))])
        #expect(changeset.insertedRows == [.init(RowPath(section: 0, row: 2))])
    }

    @Test func whenARowLeavesADeletedSection_thenItIsOnlyInserted() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1)), (101, rows(2))]), to: snapshot([(101, rows(2, 1))]))
        #expect(changeset.deletedSections == [.init(0)])
        #expect(changeset.insertedRows == [.init(RowPath(section: 0, row: 1))])
        #expect(changeset.movedRows.isEmpty && changeset.deletedRows.isEmpty)
    }

    @Test func whenARowEntersAnInsertedSection_thenItIsOnlyDeleted() throws {
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, rows(1, 2))]), to: snapshot([(100, rows(1)), (101, rows(2))]))
        #expect(changeset.insertedSections == [.init(1)])
        #expect(changeset.deletedRows == [.init(RowPath(section: 0, row: 1))])
        #expect(changeset.movedRows.isEmpty && changeset.insertedRows.isEmpty)
    }

    @Test func whenTheTableEmpties_thenEverySectionIsDeletedAndNoRowIsListed() throws {
        let changeset = try TableDiff.changeset(from: snapshot([(100, rows(1, 2)), (101, [])]), to: snapshot([]))
        #expect(changeset.deletedSections.map(\.index) == [0, 1])
        #expect(changeset.deletedRows.isEmpty && changeset.newRowCounts.isEmpty)
    }

    @Test func whenChangesExceedTheRowThreshold_thenEverythingReloadsAndTheListsStayComplete() throws {
        let old = snapshot([(100, rows(1, 2, 3, 4))])
        let new = snapshot([(100, [(1, 1), (2, 1), (3, 1), (4, 0)])])
        let over = try TableDiff.changeset(from: old, to: new, options: DiffOptions(reloadThreshold: .changedRows(2)))
        #expect(over.reloadsEverything && over.reloadedRows.count == 3)
        let under = try TableDiff.changeset(from: old, to: new, options: DiffOptions(reloadThreshold: .changedRows(3)))
        #expect(!under.reloadsEverything)
    }

    @Test func whenChangesExceedTheFractionThreshold_thenEverythingReloads() throws {
        let old = snapshot([(100, rows(1, 2, 3, 4))])
        let new = snapshot([(100, rows(1, 2, 5, 6))])  // 2 deletes + 2 inserts of 4 rows
        let half = DiffOptions(reloadThreshold: .changedFraction(0.5))
        #expect(try TableDiff.changeset(from: old, to: new, options: half).reloadsEverything)
        let never = DiffOptions(reloadThreshold: .never)
        #expect(try !TableDiff.changeset(from: old, to: new, options: never).reloadsEverything)
    }

    @Test func whenAnimationsAreGiven_thenEachKindOfEditCarriesItsOwn() throws {
        let options = DiffOptions(
            insertAnimation: .top, deleteAnimation: .bottom, reloadAnimation: .fade, moveAnimation: .none)
        let changeset = try TableDiff.changeset(
            from: snapshot([(100, [(1, 0), (2, 0), (3, 0)])]), to: snapshot([(100, [(3, 0), (2, 5), (4, 0)])]),
            options: options)
        #expect(changeset.insertedRows.allSatisfy { $0.animation == .top })
        #expect(changeset.deletedRows.allSatisfy { $0.animation == .bottom })
        #expect(changeset.reloadedRows.allSatisfy { $0.animation == .fade })
        #expect(changeset.movedRows.allSatisfy { $0.animation == RowAnimation.none })
        #expect(
            !changeset.insertedRows.isEmpty && !changeset.deletedRows.isEmpty && !changeset.reloadedRows.isEmpty
                && !changeset.movedRows.isEmpty)
    }

    @Test func whenBenchmarkSnapshotsAreDiffed_thenTheChangesetReplaysToTheNewSnapshot() throws {
        let (old, new) = DiffBenchmark.makeSnapshots(rows: 5_000, changeFraction: 0.05, seed: 7)
        #expect(old.rowCount == 5_000 && old.sectionCount == 5)
        let again = DiffBenchmark.makeSnapshots(rows: 5_000, changeFraction: 0.05, seed: 7)
        #expect(again.old == old && again.new == new)
        let changeset = try TableDiff.changeset(from: old, to: new, options: DiffOptions(reloadThreshold: .never))
        #expect(!changeset.movedRows.isEmpty && !changeset.reloadedRows.isEmpty)
        let replayed = try DiffReplay.apply(
            changeset, to: Mirror(old), dataSource: Mirror(new), allowsMovedReloads: true)
        #expect(replayed == Mirror(new))
    }
}
