import RowKit
import Testing

/// What the view does with each kind of changeset entry: moved-and-changed rows, rows deleted and
/// inserted again, moved sections, reloads inside moved sections.
@MainActor
@Suite("TableView changesets")
struct TableViewChangesetTests {
    static func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }

    /// A view of rows 0…29 (one section, all automatic, about 44 points), the first screen laid
    /// out, and a ledger of its events.
    static func thirtyRowView(backend: TableViewBackend) throws -> (TableModel, TableView, EventLedger) {
        let model = try TableModel(ChangesetContractTests.thirtyRows())
        let view = TableView(model: model, viewport: TableViewport(width: 390, height: 844), backend: backend)
        view.layoutIfNeeded()
        return (model, view, EventLedger(view))
    }

    static func detail(_ view: TableView, _ path: RowPath) -> String? {
        (view.cell(forRowAt: path) as? StandardCell)?.content?.detail
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenTheDiffMovesAndChangesAVisibleRow_thenItsCellMovesWithItAndShowsTheNewContent(backend: TableViewBackend)
        throws
    {
        let (initial, view, ledger) = try Self.thirtyRowView(backend: backend)
        var model = initial
        let cell = view.cell(forRowAt: Self.path(0, 2))
        let changes = try model.update(to: ChangesetContractTests.thirtyRowsWithRowTwoMovedAndChanged())
        try view.apply(changes, to: model)
        #expect(ledger.take().isEmpty, "the row moves and stays visible; nothing comes or goes")
        #expect(view.cell(forRowAt: Self.path(0, 5)) === cell)
        #expect(Self.detail(view, Self.path(0, 5)) == "changed")
        #expect(Self.detail(view, Self.path(0, 2)) == "detail")
        try view.checkInvariants()
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenABatchMovesAndReplacesAVisibleRow_thenItsCellMovesWithItAndShowsTheNewContent(backend: TableViewBackend)
        throws
    {
        let (initial, view, ledger) = try Self.thirtyRowView(backend: backend)
        var model = initial
        let cell = view.cell(forRowAt: Self.path(0, 5))
        let changes = try model.performBatch { batch in
            batch.move(.id(5), to: Self.path(0, 0))
            batch.replace(.id(5), with: Value1Row("Row 5", detail: "new", id: 5))
        }
        try view.apply(changes, to: model)
        #expect(ledger.take().isEmpty)
        #expect(view.cell(forRowAt: Self.path(0, 0)) === cell)
        #expect(Self.detail(view, Self.path(0, 0)) == "new")
        try view.checkInvariants()
    }

    /// The row deleted at [0, 5] and inserted at [0, 0]: its old cell ends, and a cell showing the
    /// new content is displayed.
    static func expectDeletedAndInserted(_ view: TableView, _ ledger: EventLedger, oldCell: ReusableViewID) throws {
        let events = ledger.take()
        guard events.count == 2, case .didEndDisplayingCell(let ended, let endedCell) = events[0],
            case .willDisplayCell(let shown, let shownCell) = events[1]
        else {
            Issue.record("expected one didEndDisplaying and one willDisplay, got \(events)")
            return
        }
        #expect(ended == RowReference(id: 5, path: Self.path(0, 5)) && endedCell == oldCell)
        #expect(shown == RowReference(id: 5, path: Self.path(0, 0)))
        #expect(view.visibleItems.first { $0.row == 0 }?.view == shownCell)
        #expect(Self.detail(view, Self.path(0, 0)) == "new")
        #expect(ledger.disagreement(with: view) == nil)
        try view.checkInvariants()
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenTheDiffDeletesAndInsertsAMovedChangedRow_thenItsOldCellEndsAndTheNewContentIsDisplayed(
        backend: TableViewBackend
    ) throws {
        let (initial, view, ledger) = try Self.thirtyRowView(backend: backend)
        var model = initial
        let oldCell = try #require(view.visibleItems.first { $0.row == 5 }).view
        var order = Array(0..<30)
        order.insert(order.remove(at: 5), at: 0)
        let changes = try model.update(
            to: ChangesetContractTests.thirtyRows(detail: { $0 == 5 ? "new" : "detail" }, order: order),
            options: DiffOptions(movedChanges: .deleteAndInsert))
        #expect(changes.deletedRows == [.init(Self.path(0, 5))] && changes.insertedRows == [.init(Self.path(0, 0))])
        try view.apply(changes, to: model)
        try Self.expectDeletedAndInserted(view, ledger, oldCell: oldCell)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenABatchDeletesARowAndInsertsItAgain_thenItsOldCellEndsAndTheNewContentIsDisplayed(
        backend: TableViewBackend
    ) throws {
        let (initial, view, ledger) = try Self.thirtyRowView(backend: backend)
        var model = initial
        let oldCell = try #require(view.visibleItems.first { $0.row == 5 }).view
        let changes = try model.performBatch { batch in
            batch.delete(.id(5))
            batch.insert(Value1Row("Row 5", detail: "new", id: 5), at: Self.path(0, 0))
        }
        #expect(changes.deletedRows == [.init(Self.path(0, 5))] && changes.insertedRows == [.init(Self.path(0, 0))])
        try view.apply(changes, to: model)
        try Self.expectDeletedAndInserted(view, ledger, oldCell: oldCell)
    }

    /// Two plain sections with titled headers, everything on screen.
    static func twoSectionView(backend: TableViewBackend) throws -> (TableModel, TableView, EventLedger) {
        let model = try TableModel(
            Table(style: .plain) {
                Section("A") {
                    DefaultRow("a0"); DefaultRow("a1"); DefaultRow("a2")
                }
                Section("B") {
                    DefaultRow("b0"); DefaultRow("b1")
                }
            })
        let view = TableView(model: model, viewport: TableViewport(width: 390, height: 844), backend: backend)
        view.layoutIfNeeded()
        return (model, view, EventLedger(view))
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenAVisibleSectionMoves_thenItsHeaderAndRowsStayWithTheirViews(backend: TableViewBackend) throws {
        let (initial, view, ledger) = try Self.twoSectionView(backend: backend)
        var model = initial
        let header = view.headerView(inSection: 0)
        let cell = view.cell(forRowAt: Self.path(0, 1))
        try view.apply(try model.performBatch { $0.moveSection(.index(0), to: 1) }, to: model)
        #expect(ledger.take().isEmpty)
        #expect(view.headerView(inSection: 1) === header)
        #expect(view.cell(forRowAt: Self.path(1, 1)) === cell)
        #expect(view.visibleItems.filter { $0.kind == .header }.map(\.id) == ["B", "A"])
        try view.checkInvariants()
    }

    /// A row reloaded and moved to its own path is a reload in place, which ends
    /// and starts again (UIKit's `reloadRows`).
    @Test(arguments: TableViewBackend.allCases)
    func whenARowIsReloadedAndMovedToItsOwnPath_thenItEndsAndIsDisplayedAgain(backend: TableViewBackend) throws {
        let (_, view, ledger) = try Self.twoSectionView(backend: backend)
        let changes = try view.performBatch { batch in
            batch.replace(.id("a1"), with: DefaultRow("a1", detail: "new"))
            batch.move(.id("a1"), to: Self.path(0, 1))
        }
        #expect(changes.movedRows.isEmpty && changes.reloadedRows == [.init(Self.path(0, 1))])
        let events = ledger.take().map(\.description)
        #expect(events.count == 2, "\(events)")
        #expect(events.first?.hasPrefix("didEndDisplaying") == true && events.first?.hasSuffix("a1@[0, 1]") == true)
        #expect(events.last?.hasPrefix("willDisplay") == true && events.last?.hasSuffix("a1@[0, 1]") == true)
        #expect(Self.detail(view, Self.path(0, 1)) == "new")
        #expect(ledger.disagreement(with: view) == nil)
        try view.checkInvariants()
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenARowIsReloadedInsideAMovedSection_thenItShowsItsNewContent(backend: TableViewBackend) throws {
        let (initial, view, ledger) = try Self.twoSectionView(backend: backend)
        var model = initial
        let changes = try model.performBatch { batch in
            batch.moveSection(.index(0), to: 1)
            batch.replace(.id("a1"), with: DefaultRow("a1", detail: "new"))
        }
        #expect(changes.movedSections == [.init(from: 0, to: 1)] && changes.reloadedRows == [.init(Self.path(0, 1))])
        try view.apply(changes, to: model)
        let events = ledger.take().map(\.description)
        #expect(
            events.count == 2 && events.allSatisfy { $0.hasSuffix("a1@[0, 1]") || $0.hasSuffix("a1@[1, 1]") },
            "\(events)")
        #expect(Self.detail(view, Self.path(1, 1)) == "new")
        #expect(ledger.disagreement(with: view) == nil)
        try view.checkInvariants()
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenAMovedAndChangedRowHasAnAutomaticHeight_thenItIsMeasuredAgainWhereItLands(backend: TableViewBackend) throws
    {
        let recorder = MeasureRecorder()
        let rows = (0..<8).map { AnyRow(TestRow(id: $0, fixed: nil, estimate: 44, actual: 50, recorder: recorder)) }
        var model = try TableModel(Table(style: .plain, sections: [Section(id: "s", rows: rows)]))
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 600), backend: backend)
        view.layoutIfNeeded()
        let ledger = EventLedger(view)
        let cell = view.cell(forRowAt: Self.path(0, 6))
        let changes = try model.performBatch { batch in
            batch.replace(
                .id(6), with: TestRow(id: 6, fixed: nil, estimate: 44, actual: 90, version: 1, recorder: recorder))
            batch.move(.id(6), to: Self.path(0, 1))
        }
        try view.apply(changes, to: model)
        #expect(ledger.take().isEmpty)
        #expect(view.cell(forRowAt: Self.path(0, 1)) === cell)
        #expect((cell as? TestCell)?.row?.version == 1)
        #expect(try view.rect(forRowAt: Self.path(0, 1)).height == 90)
        expectMatchesNaiveLayout(view, recorder: recorder)
        try view.checkInvariants()
    }
}
