import RowKit
import Testing

/// The view owns its model: a program that only ever talks to the view (batches, failed batches,
/// snapshot updates, diffs made off the main actor, scrolls) always sees a view in step with its
/// model: the same row counts, every displayed row the model's row at that path, the displayed
/// rows a contiguous run of the model's rows, and display events that account for them.
@MainActor
@Suite struct TableViewOwnsModelTests {
    @Test(arguments: TableViewBackend.allCases)
    func whenAProgramTalksOnlyToTheView_thenTheViewAlwaysShowsItsModel(backend: TableViewBackend) async throws {
        var generator = BatchGenerator(seed: 0x0014_0002)
        var steps = [String: Int]()
        for tableNumber in 0..<40 {
            var shadow = generator.table(maxRows: 12)
            let view = try TableView(
                table: shadow.table, viewport: TableViewport(width: 320, height: 300), backend: backend)
            let ledger = EventLedger(view)
            for stepNumber in 0..<10 {
                let context = "table \(tableNumber) step \(stepNumber)"
                switch generator.random.int(in: 0...4) {
                case 0:
                    shadow.beginBatch()
                    let operations = (0..<generator.random.int(in: 1...6)).map { _ in
                        generator.validOperation(on: &shadow)
                    }
                    try view.perform(operations)
                    steps["batch", default: 0] += 1
                case 1:
                    shadow.beginBatch()
                    let (bad, _) = generator.badOperation(for: shadow)
                    let (revision, counts, shown) = (view.model.revision, view.rowCountsBySection, view.visibleItems)
                    _ = ledger.take()
                    #expect(throws: TableUpdateError.self, "\(context)") {
                        try view.perform([bad])
                    }
                    #expect(view.model.revision == revision, "\(context): a failed batch changed the model")
                    #expect(view.rowCountsBySection == counts && view.visibleItems == shown, "\(context)")
                    #expect(ledger.take().isEmpty, "\(context): a failed batch sent events")
                    steps["failed batch", default: 0] += 1
                case 2:
                    shadow.beginBatch()
                    for _ in 0..<generator.random.int(in: 1...6) { _ = generator.validOperation(on: &shadow) }
                    try view.update(to: shadow.table)
                    steps["update", default: 0] += 1
                case 3:
                    shadow.beginBatch()
                    for _ in 0..<generator.random.int(in: 1...6) { _ = generator.validOperation(on: &shadow) }
                    let (table, revision, newTable) = (view.model.table, view.model.revision, shadow.table)
                    let diff = try await Task.detached {
                        try TableDiff.diff(from: table, revision: revision, to: newTable)
                    }.value
                    try view.apply(diff)
                    steps["diff off the main actor", default: 0] += 1
                default:
                    view.scroll(to: Double(generator.random.int(in: 0...max(Int(view.contentHeight), 0))))
                    steps["scroll", default: 0] += 1
                }
                try expectInStep(view, with: shadow, ledger: ledger, context)
            }
        }
        #expect(steps.count == 5 && steps.values.allSatisfy { $0 >= 20 }, "\(steps)")
    }

    @Test func whenADiffIsStale_thenTheViewRefusesItAndStaysAsItWas() throws {
        let view = try TableView(
            table: Table(style: .plain) {
                Section(id: "s") {
                    DefaultRow("a"); DefaultRow("b")
                }
            },
            viewport: TableViewport(width: 320, height: 300))
        let before = (view.model.table, view.model.revision)
        try view.performBatch { $0.append(DefaultRow("c"), to: .index(0)) }
        let diff = try TableDiff.diff(
            from: before.0, revision: before.1, to: Table(style: .plain) { Section(id: "s") { DefaultRow("z") } })
        #expect(throws: SnapshotError.self) { try view.apply(diff) }
        #expect(view.rowCountsBySection == [3])
        #expect(view.visibleItems.filter { $0.kind == .row }.map(\.id) == ["a", "b", "c"])
    }

    /// A diff computed from another table stamped with the view's revision:
    /// refused with `SnapshotError.notFromModel` before anything changes, in debug and release.
    @Test(arguments: TableViewBackend.allCases)
    func whenADiffStartsFromAnotherTableAtTheCurrentRevision_thenTheViewRefusesItAndStaysAsItWas(
        backend: TableViewBackend
    ) throws {
        let view = try TableView(
            table: Table(style: .plain) {
                Section(id: "s") {
                    DefaultRow("a"); DefaultRow("b")
                }
            },
            viewport: TableViewport(width: 320, height: 300), backend: backend)
        view.layoutIfNeeded()
        let ledger = EventLedger(view)
        let revision = view.model.revision
        let others: [(Table, SnapshotError.Mismatch)] = [
            (
                Table(style: .plain) {
                    Section(id: "s") {
                        DefaultRow("x"); DefaultRow("y"); DefaultRow("z")
                    }
                },
                .oldRowCounts(model: [2], changeset: [3])
            ),
            (
                Table(style: .plain) {
                    Section(id: "s") {
                        DefaultRow("a"); DefaultRow("y")
                    }
                },
                .rowID(path: RowPath(section: 0, row: 1), model: "b", diff: "y")
            ),
            (
                Table(style: .plain) {
                    Section(id: "t") {
                        DefaultRow("a"); DefaultRow("b")
                    }
                },
                .sectionID(index: 0, model: "s", diff: "t")
            ),
            (
                Table(style: .plain) {
                    Section(id: "s") {
                        DefaultRow("a"); DefaultRow("b", detail: "new")
                    }
                },
                .rowContent(path: RowPath(section: 0, row: 1), id: "b")
            ),
        ]
        for (other, mismatch) in others {
            let diff = try TableDiff.diff(
                from: other, revision: revision,
                to: Table(style: .plain) { Section(id: "s") { DefaultRow("x") } })
            #expect(throws: SnapshotError.notFromModel(revision: revision, mismatch)) { try view.apply(diff) }
            #expect(view.model.revision == revision)
            #expect(view.rowCountsBySection == [2])
            #expect(view.visibleItems.filter { $0.kind == .row }.map(\.id) == ["a", "b"])
            #expect(ledger.take().isEmpty)
        }
        // A hand-made diff whose changeset does not end with its table is refused too.
        var changeset = Changeset()
        (changeset.oldRowCounts, changeset.newRowCounts, changeset.fromRevision) = ([2], [2], revision)
        let handMade = SnapshotDiff(
            changeset: changeset, table: Table(style: .plain) { Section(id: "s") { DefaultRow("a") } })
        #expect(throws: SnapshotError.notFromModel(revision: revision, .newRowCounts(table: [1], changeset: [2]))) {
            try view.apply(handMade)
        }
        // The view's own table, copied or equal, is accepted.
        try view.apply(
            TableDiff.diff(
                from: view.model.table, revision: revision,
                to: Table(style: .plain) {
                    Section(id: "s") { DefaultRow("b") }
                }))
        #expect(view.visibleItems.filter { $0.kind == .row }.map(\.id) == ["b"])
    }

    private func expectInStep(
        _ view: TableView, with shadow: ShadowTable, ledger: EventLedger, _ context: String
    ) throws {
        let model = view.model
        let modelCounts = (0..<model.numberOfSections).map { model.numberOfRows(inSection: $0) ?? -1 }
        #expect(modelCounts == shadow.sections.map(\.rows.count), "\(context): the model is not the program's table")
        #expect(view.rowCountsBySection == modelCounts, "\(context): the view's counts are not its model's")
        let rows = view.visibleItems.filter { $0.kind == .row }
        for item in rows {
            let path = RowPath(section: item.section, row: item.row ?? -1)
            #expect(model.row(at: path)?.id == item.id, "\(context): \(item) is not the model's row at \(path)")
        }
        let flat = rows.map { item in
            (0..<item.section).reduce(0) { $0 + modelCounts[$1] } + (item.row ?? 0)
        }
        #expect(flat == Array(flat.first.map { $0..<$0 + flat.count } ?? 0..<0), "\(context): rows \(flat)")
        if let disagreement = ledger.disagreement(with: view) { Issue.record("\(context): \(disagreement)") }
    }
}
