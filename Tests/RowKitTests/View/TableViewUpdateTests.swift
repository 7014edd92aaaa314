import RowKit
import Testing

@MainActor
@Suite("TableView updates")
struct TableViewUpdateTests {
    /// Random batches against a model: inserts, deletes, moves and reloads of rows and sections.
    @MainActor
    struct Mutator {
        var random: SeededRandom
        var nextID = 100_000
        var nextSection = 1_000
        let recorder: MeasureRecorder

        mutating func newRow() -> TestRow {
            defer { nextID += 1 }
            return TestTables.randomRow(id: nextID, using: &random, recorder: recorder)
        }

        mutating func record(into batch: inout TableBatch, model: TableModel, operations: Int) {
            var counts = model.sections.map(\.rows.count)
            for _ in 0..<operations {
                let nonEmpty = counts.indices.filter { counts[$0] > 0 }
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<25 where !counts.isEmpty:
                    let s = Int.random(in: 0..<counts.count, using: &random)
                    batch.insert(newRow(), at: RowPath(section: s, row: Int.random(in: 0...counts[s], using: &random)))
                    counts[s] += 1
                case 25..<50 where !nonEmpty.isEmpty:
                    let s = nonEmpty.randomElement(using: &random)!
                    batch.delete(.path(RowPath(section: s, row: Int.random(in: 0..<counts[s], using: &random))))
                    counts[s] -= 1
                case 50..<65 where !nonEmpty.isEmpty:
                    let s = nonEmpty.randomElement(using: &random)!
                    let t = Int.random(in: 0..<counts.count, using: &random)
                    let from = RowPath(section: s, row: Int.random(in: 0..<counts[s], using: &random))
                    counts[s] -= 1
                    batch.move(.path(from), to: RowPath(section: t, row: Int.random(in: 0...counts[t], using: &random)))
                    counts[t] += 1
                case 65..<80 where !nonEmpty.isEmpty:
                    let s = nonEmpty.randomElement(using: &random)!
                    let path = RowPath(section: s, row: Int.random(in: 0..<counts[s], using: &random))
                    if batch.operations.isEmpty, let old = model.row(at: path)?.as(TestRow.self) {
                        // Replaced by a row of the same identity: a reload with a new height.
                        var row = newRow()
                        nextID -= 1
                        row.id = old.id
                        row.version = old.version + 1
                        batch.replace(.path(path), with: row)
                    } else {
                        batch.reload(.path(path))
                    }
                case 80..<86:
                    let rows = (0..<Int.random(in: 0...6, using: &random)).map { _ in AnyRow(newRow()) }
                    let index = Int.random(in: 0...counts.count, using: &random)
                    nextSection += 1
                    batch.insertSection(
                        TestTables.section(nextSection, rows: rows, using: &random, recorder: recorder), at: index)
                    counts.insert(rows.count, at: index)
                case 86..<91 where counts.count > 1:
                    let index = Int.random(in: 0..<counts.count, using: &random)
                    batch.deleteSection(.index(index))
                    counts.remove(at: index)
                case 91..<96 where counts.count > 1:
                    let from = Int.random(in: 0..<counts.count, using: &random)
                    let to = Int.random(in: 0..<counts.count, using: &random)
                    batch.moveSection(.index(from), to: to)
                    counts.insert(counts.remove(at: from), at: to)
                case 96..<100 where !counts.isEmpty:
                    batch.reloadSection(.index(Int.random(in: 0..<counts.count, using: &random)))
                default:
                    break
                }
            }
        }
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenThousandsOfRandomUpdatesAndScrollsRun_thenCountsCellsAndMeasuredHeightsStayConsistent(
        backend: TableViewBackend
    ) throws {
        let recorder = MeasureRecorder()
        var model = try TableModel(
            TestTables.mixed(style: .plain, sections: 5, rowsPerSection: 20, seed: 3, recorder: recorder))
        let view = TableView(
            model: model, viewport: TableViewport(width: 320, height: 400), backend: backend, reuseCapacity: 4)
        view.selectionMode = .multiple
        view.prefetchDistance = 100
        var mutator = Mutator(random: SeededRandom(seed: 11), recorder: recorder)
        var applied = 0
        for step in 0..<2_000 {
            let dice = Int.random(in: 0..<10, using: &mutator.random)
            if dice < 3 {
                view.scroll(to: Double.random(in: -50...(view.contentHeight + 50), using: &mutator.random))
            } else if dice == 3, !view.visibleRowPaths.isEmpty {
                try view.tapRow(at: view.visibleRowPaths.randomElement(using: &mutator.random)!)
            } else {
                var batch = TableBatch()
                mutator.record(into: &batch, model: model, operations: Int.random(in: 1...6, using: &mutator.random))
                let before = model
                let changes: Changeset
                do {
                    changes = try model.perform(batch.operations)
                } catch {
                    model = before
                    continue
                }
                try view.apply(changes, to: model)
                applied += 1
            }
            #expect(view.rowCountsBySection == model.sections.map(\.rows.count), "step \(step)")
            #expect(view.numberOfSections == model.numberOfSections)
            try view.checkInvariants()
            expectMatchesNaiveLayout(view, recorder: recorder)
            for id in view.selectedRowIDs { #expect(model.contains(rowID: id)) }
        }
        #expect(applied > 1_000)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenAChangesetDoesNotStartFromTheViewsState_thenItIsRefusedAndTheViewIsUnchanged(backend: TableViewBackend)
        throws
    {
        let recorder = MeasureRecorder()
        var model = try TableModel(
            TestTables.mixed(style: .grouped, sections: 2, rowsPerSection: 5, seed: 1, recorder: recorder))
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 400), backend: backend)
        view.layoutIfNeeded()
        let dumpBefore = view.dump
        let changes = try model.performBatch { $0.delete(.path(RowPath(section: 0, row: 0))) }
        try view.apply(changes, to: model)
        let dumpAfter = view.dump
        // The same changeset again: it starts from a revision the view no longer shows.
        #expect(throws: TableViewError.self) { try view.apply(changes, to: model) }
        // Without revisions, the row counts give it away.
        var anonymous = changes
        anonymous.fromRevision = .initial
        #expect(
            throws: TableViewError.changesetDoesNotStartFromCurrentState(
                viewRowCounts: [4, 5], changesetOldRowCounts: [5, 5])
        ) { try view.apply(anonymous, to: model) }
        // Counts that match but do not add up: one row deleted, none inserted, counts unchanged.
        var bogus = Changeset()
        bogus.oldRowCounts = [4, 5]
        bogus.newRowCounts = [4, 5]
        bogus.deletedRows = [.init(RowPath(section: 1, row: 0))]
        #expect(
            throws: TableViewError.invalidChangeset(
                .rowCountMismatch(oldSection: 1, newSection: 1, expected: 4, actual: 5))
        ) { try view.apply(bogus, to: model) }
        #expect(view.dump == dumpAfter)
        #expect(dumpAfter != dumpBefore)
        try view.checkInvariants()
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenSelectedRowsMoveAndReload_thenTheSelectionFollowsTheirIdentity(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        var model = try TableModel(
            TestTables.mixed(style: .plain, sections: 2, rowsPerSection: 6, seed: 5, recorder: recorder))
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 1000), backend: backend)
        view.selectionMode = .multiple
        try view.tapRow(at: RowPath(section: 0, row: 1))
        try view.tapRow(at: RowPath(section: 1, row: 2))
        let ids = view.selectedRowIDs
        try view.apply(
            try model.performBatch { $0.move(.path(RowPath(section: 0, row: 1)), to: RowPath(section: 1, row: 0)) },
            to: model)
        try view.apply(
            try model.performBatch {
                $0.insert(TestRow(id: 555, fixed: 44, recorder: recorder), at: RowPath(section: 1, row: 0))
            }, to: model)
        try view.apply(try model.performBatch { $0.reload(.path(RowPath(section: 1, row: 1))) }, to: model)
        #expect(view.selectedRowIDs == ids)
        #expect(view.selectedRowPaths == ids.compactMap { model.path(of: $0) }.sorted())
        for path in view.selectedRowPaths { #expect(view.cell(forRowAt: path)?.isSelected == true) }
        try view.apply(try model.performBatch { $0.delete(.path(RowPath(section: 1, row: 1))) }, to: model)
        #expect(view.selectedRowIDs.count == 1)
        try view.checkInvariants()
    }
}
