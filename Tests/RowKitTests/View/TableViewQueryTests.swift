import RowKit
import Testing

/// What a host asks a view between events: editing mode, the swiped row, selection by path, the
/// views of headers and footers, rows in a band, and the width cells are laid out at.
@MainActor
@Suite("TableView queries")
struct TableViewQueryTests {
    /// Sections A (rows 0–5) and B (rows 10–15) of a plain table: 28-point headers and footers,
    /// 44-point editable rows, in a 320 × 150 viewport.
    static func view(backend: TableViewBackend) throws -> TableView {
        let recorder = MeasureRecorder()
        func rows(_ ids: Range<Int>) -> [AnyRow] {
            ids.map { AnyRow(TestRow(id: $0, fixed: 44, editing: .delete, recorder: recorder)) }
        }
        func item(_ key: String) -> HeaderFooter { .custom(TestHeader(key: key, fixed: 28, recorder: recorder)) }
        let table = Table(
            style: .plain,
            sections: [
                Section(id: "A", header: item("A"), footer: item("a"), rows: rows(0..<6)),
                Section(id: "B", header: item("B"), footer: item("b"), rows: rows(10..<16)),
            ])
        return try TableView(table: table, viewport: TableViewport(width: 320, height: 150), backend: backend)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenAVisibleItemIsARow_thenItHasAPathAndHeadersAndFootersHaveNone(backend: TableViewBackend) throws {
        let view = try Self.view(backend: backend)
        view.layoutIfNeeded()
        for item in view.visibleItems {
            switch item.kind {
            case .row: #expect(item.path == RowPath(section: item.section, row: item.row ?? -1))
            case .header, .footer: #expect(item.path == nil)
            }
        }
        #expect(view.visibleItems.compactMap(\.path) == view.visibleRowPaths)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenEditingModeIsTurnedOnAndOff_thenEveryVisibleCellFollowsAtOnce(backend: TableViewBackend) throws {
        let view = try Self.view(backend: backend)
        let visible = view.visibleRowPaths
        #expect(!view.isEditing && !visible.isEmpty)
        view.setEditing(true)
        #expect(view.isEditing)
        #expect(visible.allSatisfy { view.cell(forRowAt: $0)?.isEditing == true })
        view.scroll(by: 200)
        #expect(view.visibleRowPaths.allSatisfy { view.cell(forRowAt: $0)?.isEditing == true })
        view.setEditing(false)
        #expect(!view.isEditing)
        #expect(view.visibleRowPaths.allSatisfy { view.cell(forRowAt: $0)?.isEditing == false })
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenASwipedRowIsClosed_thenItIsNoLongerTheSwipedRowAndDidEndEditingIsPosted(backend: TableViewBackend) throws {
        let view = try Self.view(backend: backend)
        view.layoutIfNeeded()
        var events: [String] = []
        view.onEvent = { events.append($0.description) }
        try view.beginSwipeEditing(at: RowPath(section: 0, row: 1))
        #expect(view.swipeEditingRow?.id == 1)
        #expect(view.cell(forRowAt: RowPath(section: 0, row: 1))?.isEditing == true)
        view.endSwipeEditing()
        #expect(view.swipeEditingRow == nil)
        #expect(view.cell(forRowAt: RowPath(section: 0, row: 1))?.isEditing == false)
        #expect(events.count == 2 && events.last?.hasPrefix("didEndEditing") == true, "\(events)")
        view.endSwipeEditing()
        #expect(events.count == 2, "closing when no row is swiped posts nothing: \(events)")
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenARowIsTapped_thenIsRowSelectedFollowsItByPath(backend: TableViewBackend) throws {
        let view = try Self.view(backend: backend)
        try view.tapRow(at: RowPath(section: 0, row: 2))
        #expect(view.isRowSelected(at: RowPath(section: 0, row: 2)))
        #expect(!view.isRowSelected(at: RowPath(section: 0, row: 3)))
        try view.performBatch { $0.delete(.path(RowPath(section: 0, row: 0))) }
        #expect(view.isRowSelected(at: RowPath(section: 0, row: 1)), "the selection follows the row's identity")
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenAFooterIsOnScreen_thenFooterViewReturnsTheViewShowingIt(backend: TableViewBackend) throws {
        let view = try Self.view(backend: backend)
        #expect(view.footerView(inSection: 0) == nil, "section A's footer starts below the first screen")
        view.scroll(to: 28 + 6 * 44 - 100)
        let footer = try #require(view.footerView(inSection: 0))
        #expect((footer as? TestHeaderView)?.model?.key == "a")
        #expect(view.footerView(inSection: 1) == nil && view.footerView(inSection: 7) == nil)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenRowsInABandAreAsked_thenTheirPathsComeInOrderSkippingHeadersAndFooters(backend: TableViewBackend) throws {
        let view = try Self.view(backend: backend)
        // Section A: header 0–28, rows 28–292, footer 292–320; section B's header 320–348.
        #expect(view.rowPaths(in: 0..<28).isEmpty)
        #expect(view.rowPaths(in: 30..<80) == [RowPath(section: 0, row: 0), RowPath(section: 0, row: 1)])
        #expect(view.rowPaths(in: 280..<360) == [RowPath(section: 0, row: 5), RowPath(section: 1, row: 0)])
    }

    @Test func whenTheStyleIsInsetGrouped_thenTheContentWidthLeavesTheInsetsOnBothSides() throws {
        let table = Table(style: .insetGrouped) { Section(id: "s") { DefaultRow("a") } }
        let view = try TableView(table: table, viewport: TableViewport(width: 390, height: 844))
        #expect(view.contentWidth == 390 - 2 * view.metrics.horizontalInset)
        #expect(view.metrics.horizontalInset > 0)
        let plain = try TableView(
            table: Table(style: .plain) { Section(id: "s") { DefaultRow("a") } },
            viewport: TableViewport(width: 390, height: 844))
        #expect(plain.contentWidth == 390)
    }
}
