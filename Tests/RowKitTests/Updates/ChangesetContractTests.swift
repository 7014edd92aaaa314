import RowKit
import Testing

/// The changeset contract (`Changeset.validate()`, `replay`, `stages()`) on the changesets the
/// producers make, one rule per test; the view's side is in `TableViewChangesetTests`.
struct ChangesetContractTests {
    static func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }

    /// One section of rows 0…29 with a detail text.
    static func thirtyRows(detail: (Int) -> String = { _ in "detail" }, order: [Int] = Array(0..<30)) -> Table {
        Table(
            style: .plain,
            sections: [
                Section(id: "rows", rows: order.map { AnyRow(Value1Row("Row \($0)", detail: detail($0), id: $0)) })
            ])
    }

    /// Rows 0…29, row 2 moved to position 5 with a new detail text.
    static func thirtyRowsWithRowTwoMovedAndChanged() -> Table {
        var order = Array(0..<30)
        order.insert(order.remove(at: 2), at: 5)
        return thirtyRows(detail: { $0 == 2 ? "changed" : "detail" }, order: order)
    }

    @Test func whenTheDiffMovesAndChangesARow_thenItsDefaultChangesetIsAMovePlusAReloadThatValidatesAndReplays() throws
    {
        var model = try TableModel(Self.thirtyRows())
        let oldIDs = model.sections.map { $0.rows.map(\.id) }
        let changes = try model.update(to: Self.thirtyRowsWithRowTwoMovedAndChanged())
        #expect(changes.movedRows == [.init(from: Self.path(0, 2), to: Self.path(0, 5))])
        #expect(changes.reloadedRows == [.init(Self.path(0, 2))])
        #expect(changes.deletedRows.isEmpty && changes.insertedRows.isEmpty)
        try changes.validate()

        var reloadedAt: [RowPath] = []
        let replayed = try changes.replay(
            on: oldIDs, newSection: { _ in [] }, insertedRow: { _ in "inserted" },
            reloadedRow: { path, id in
                reloadedAt.append(path)
                return id
            })
        #expect(replayed == model.sections.map { $0.rows.map(\.id) })
        #expect(reloadedAt == [Self.path(0, 5)], "the reload reaches the row where it moved")
    }

    @Test func whenABatchMovesAndReplacesARow_thenItIsAMovePlusAReloadLikeTheDiff() throws {
        var model = try TableModel(Self.thirtyRows())
        let changes = try model.performBatch { batch in
            batch.move(.id(5), to: Self.path(0, 0))
            batch.replace(.id(5), with: Value1Row("Row 5", detail: "new", id: 5))
        }
        #expect(changes.movedRows == [.init(from: Self.path(0, 5), to: Self.path(0, 0))])
        #expect(changes.reloadedRows == [.init(Self.path(0, 5))])
        #expect(changes.deletedRows.isEmpty && changes.insertedRows.isEmpty)
        try changes.validate()
    }

    @Test func whenABatchMovesAndReloadsASection_thenItIsAMovePlusAReload() throws {
        var model = try TableModel(
            Table {
                Section("A") { DefaultRow("a") }
                Section("B") {
                    DefaultRow("b1"); DefaultRow("b2")
                }
            })
        let changes = try model.performBatch { batch in
            batch.replaceSection(.id("B"), with: Section("B") { DefaultRow("b3") })
            batch.moveSection(.id("B"), to: 0)
        }
        #expect(changes.movedSections == [.init(from: 1, to: 0)])
        #expect(changes.reloadedSections == [.init(1)])
        #expect(changes.deletedSections.isEmpty && changes.insertedSections.isEmpty)
        #expect(changes.oldRowCounts == [1, 2] && changes.newRowCounts == [1, 1])
        try changes.validate()
        let stages = changes.stages()
        #expect(stages.map(\.newRowCounts) == [[1, 1], [1, 1]])
        for stage in stages { try stage.validate() }
    }

    /// Sections A (4 rows), B (`b0 b1 b2`), C (1 row), D (empty).
    static func fourSections() throws -> TableModel {
        try TableModel(
            Table {
                Section("A") {
                    DefaultRow("a0"); DefaultRow("a1"); DefaultRow("a2"); DefaultRow("a3")
                }
                Section("B") {
                    DefaultRow("b0"); DefaultRow("b1"); DefaultRow("b2")
                }
                Section("C") { DefaultRow("c0") }
                Section("D")
            })
    }

    @Test func whenAReloadedSectionLosesARow_thenItsReloadStageEndsAtItsNewCount() throws {
        var model = try Self.fourSections()
        let changes = try model.performBatch {
            $0.reloadSection(.id("B"))
            $0.delete(.id("b1"))
        }
        #expect(changes.reloadedSections == [.init(1)])
        #expect(changes.oldRowCounts == [4, 3, 1, 0] && changes.newRowCounts == [4, 2, 1, 0])
        try changes.validate()
        let stages = changes.stages()
        #expect(stages.count == 1)
        #expect(stages.first?.oldRowCounts == [4, 3, 1, 0])
        #expect(stages.first?.newRowCounts == [4, 2, 1, 0])
        for stage in stages { try stage.validate() }
    }

    @Test func whenRowsMoveIntoAndOutOfAReloadedSection_thenEveryStageValidatesAndTheyEndInTheNewCounts() throws {
        var model = try Self.fourSections()
        let changes = try model.performBatch {
            $0.reloadSection(.id("B"))
            $0.delete(.id("b1"))
            $0.move(.id("a0"), to: Self.path(1, 0))  // into B
            $0.move(.id("b2"), to: Self.path(2, 1))  // out of B, into C
            $0.move(.id("a3"), to: Self.path(3, 0))  // A to D
        }
        #expect(changes.oldRowCounts == [4, 3, 1, 0] && changes.newRowCounts == [2, 2, 2, 1])
        try changes.validate()
        let stages = changes.stages()
        #expect(stages.first?.oldRowCounts == changes.oldRowCounts)
        #expect(stages.last?.newRowCounts == changes.newRowCounts)
        for (stage, next) in zip(stages, stages.dropFirst()) { #expect(stage.newRowCounts == next.oldRowCounts) }
        for (index, stage) in stages.enumerated() {
            #expect(throws: Never.self, "stage \(index)") { try stage.validate() }
        }
    }

    @Test func whenARowIsMovedAndReloaded_thenValidationPassesButReloadedAndDeletedStillFails() {
        var changes = Changeset()
        changes.oldRowCounts = [3]
        changes.newRowCounts = [3]
        changes.reloadedRows = [.init(Self.path(0, 0))]
        changes.movedRows = [.init(from: Self.path(0, 0), to: Self.path(0, 2))]
        #expect(throws: Never.self) { try changes.validate() }

        changes.movedRows = []
        changes.deletedRows = [.init(Self.path(0, 0))]
        changes.insertedRows = [.init(Self.path(0, 2))]
        #expect(throws: ChangesetError.rowInTwoLists(path: Self.path(0, 0), side: .old, .deletedRows, .reloadedRows)) {
            try changes.validate()
        }
    }

    @Test func whenASectionIsMovedAndReloaded_thenValidationPassesButARowChangeInsideItFails() {
        var changes = Changeset()
        changes.oldRowCounts = [1, 2]
        changes.newRowCounts = [5, 1]
        changes.reloadedSections = [.init(1)]
        changes.movedSections = [.init(from: 1, to: 0)]
        #expect(throws: Never.self) { try changes.validate() }

        changes.deletedRows = [.init(Self.path(1, 0))]
        #expect(
            throws: ChangesetError.rowInsideChangedSection(
                .deletedRows, path: Self.path(1, 0), sectionList: .reloadedSections)
        ) { try changes.validate() }
        changes.deletedRows = []
        changes.insertedRows = [.init(Self.path(0, 4))]
        #expect(
            throws: ChangesetError.rowInsideChangedSection(
                .insertedRows, path: Self.path(0, 4), sectionList: .reloadedSections)
        ) { try changes.validate() }
    }

    @Test func whenASectionIsDeletedAndReloaded_thenValidationFails() {
        var changes = Changeset()
        changes.oldRowCounts = [1, 2]
        changes.newRowCounts = [1]
        changes.deletedSections = [.init(1)]
        changes.reloadedSections = [.init(1)]
        #expect(throws: ChangesetError.sectionInTwoLists(index: 1, side: .old, .deletedSections, .reloadedSections)) {
            try changes.validate()
        }
    }
}
