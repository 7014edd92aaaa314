import RowKit
import Testing

@MainActor
@Suite("TableView layout")
struct TableViewLayoutTests {
    nonisolated static let styles: [TableStyle] = [.plain, .insetGrouped]

    @Test(arguments: TableViewBackend.allCases, styles)
    func whenScrollingThroughTenThousandMixedRows_thenEveryStepShowsTheBruteForceLayout(
        backend: TableViewBackend, style: TableStyle
    ) throws {
        let recorder = MeasureRecorder()
        let table = TestTables.mixed(style: style, sections: 40, rowsPerSection: 250, seed: 7, recorder: recorder)
        let view = TableView(
            model: try TableModel(table), viewport: TableViewport(width: 320, height: 480), backend: backend)
        var random = SeededRandom(seed: 42)
        let spec = NaiveLayout.Spec(table)
        expectMatchesNaiveLayout(view, spec: spec, recorder: recorder)
        for step in 0..<150 {
            switch step % 10 {
            case 9: view.scroll(to: Double.random(in: 0...view.contentHeight, using: &random))
            case 4: view.scroll(by: -Double.random(in: 0...700, using: &random))
            default: view.scroll(by: Double.random(in: 0...700, using: &random))
            }
            expectMatchesNaiveLayout(view, spec: spec, recorder: recorder)
        }
        // Rows measured at the end change the content height; scrolling to the end again settles.
        for _ in 0..<5 where view.contentOffset != view.maximumContentOffset { view.scroll(to: .infinity) }
        expectMatchesNaiveLayout(view, spec: spec, recorder: recorder)
        #expect(view.contentOffset == view.maximumContentOffset)
        try view.checkInvariants()
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenARowAboveTheTopIsMeasured_thenTheOffsetMovesByTheDeltaAndTheContentStaysPut(backend: TableViewBackend)
        throws
    {
        let recorder = MeasureRecorder()
        let rows = (0..<50).map { AnyRow(TestRow(id: $0, fixed: nil, estimate: 44, actual: 100, recorder: recorder)) }
        let table = Table(style: .grouped, sections: [Section(id: "s", rows: rows)])
        let view = TableView(
            model: try TableModel(table), viewport: TableViewport(width: 320, height: 200), backend: backend)
        view.layoutIfNeeded()
        let estimated = try view.rect(forRowAt: RowPath(section: 0, row: 20))
        #expect(estimated.height == 44)
        view.scroll(to: estimated.y + 10)  // 10 points into row 20, which is still an estimate
        // Row 20 is measured at 100 (was 44) while its top is above the viewport: the offset moves
        // by the 56 points it grew, so row 21 stays 34 points below the viewport's top.
        let rect = try view.rect(forRowAt: RowPath(section: 0, row: 20))
        #expect(rect.height == 100)
        #expect(view.contentOffset == estimated.y + 10 + 56)
        #expect(try view.rect(forRowAt: RowPath(section: 0, row: 21)).y - view.contentOffset == 34)
        #expect(view.visibleRowPaths.first == RowPath(section: 0, row: 20))
        expectMatchesNaiveLayout(view, recorder: recorder)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenPlainSectionsScroll_thenTheirHeaderFloatsAndIsPushedUpByTheSectionEnd(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let sections = (0..<2).map { s in
            Section(
                id: ItemID("s\(s)"), header: .custom(TestHeader(key: "h\(s)", fixed: 30, recorder: recorder)),
                rows: (0..<5).map { AnyRow(TestRow(id: s * 10 + $0, fixed: 40, recorder: recorder)) })
        }
        let view = TableView(
            model: try TableModel(Table(style: .plain, sections: sections)),
            viewport: TableViewport(width: 300, height: 100),
            backend: backend)
        view.scroll(to: 100)
        #expect(try view.displayedRectForHeader(inSection: 0) == TableRect(x: 0, y: 100, width: 300, height: 30))
        #expect(view.visibleItems.first?.isPinned == true)
        view.scroll(to: 210)  // section 0 ends at 230: its header is pushed up to 200
        #expect(try view.displayedRectForHeader(inSection: 0).y == 200)
        #expect(try view.rectForHeader(inSection: 0).y == 0)
        expectMatchesNaiveLayout(view, recorder: recorder)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenAskedForRects_thenBadPathsThrowAndGroupedSectionsHaveSpacing(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let table = Table(
            style: .insetGrouped,
            sections: [
                Section(
                    id: "a", header: .custom(TestHeader(key: "a", fixed: 28, recorder: recorder)),
                    footer: .custom(TestHeader(key: "af", fixed: 20, recorder: recorder)),
                    rows: [AnyRow(TestRow(id: 1, fixed: 44, recorder: recorder))]),
                Section(id: "b", rows: [AnyRow(TestRow(id: 2, fixed: 50, recorder: recorder))]),
            ])
        let view = TableView(
            model: try TableModel(table), viewport: TableViewport(width: 400, height: 600), backend: backend)
        #expect(try view.rectForHeader(inSection: 0) == TableRect(x: 20, y: 35, width: 360, height: 28))
        #expect(try view.rect(forRowAt: RowPath(section: 0, row: 0)) == TableRect(x: 20, y: 63, width: 360, height: 44))
        #expect(try view.rectForFooter(inSection: 0) == TableRect(x: 20, y: 107, width: 360, height: 20))
        #expect(try view.rect(forRowAt: RowPath(section: 1, row: 0)).y == 127 + 35)
        #expect(try view.rectForHeader(inSection: 1).height == 0)
        #expect(view.contentHeight == 127 + 35 + 50)
        #expect(view.rowPath(at: 70) == RowPath(section: 0, row: 0))
        #expect(view.rowPath(at: 10) == nil)
        #expect(throws: TableViewError.rowOutOfRange(path: RowPath(section: 1, row: 1), rowCount: 1)) {
            try view.rect(forRowAt: RowPath(section: 1, row: 1))
        }
        #expect(throws: TableViewError.sectionOutOfRange(section: 2, sectionCount: 2)) {
            try view.rectForHeader(inSection: 2)
        }
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenTheViewportWidthChanges_thenHeightsAreMeasuredAgainForTheNewWidth(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let rows = (0..<30).map { AnyRow(TestRow(id: $0, fixed: nil, estimate: 44, actual: 70, recorder: recorder)) }
        let view = TableView(
            model: try TableModel(Table(style: .plain, sections: [Section(id: "s", rows: rows)])),
            viewport: TableViewport(width: 320, height: 300), backend: backend)
        view.layoutIfNeeded()
        let calls = recorder.measureCalls
        view.setViewport(TableViewport(width: 500, height: 300))
        #expect(recorder.measureCalls > calls)
        view.setViewport(TableViewport(width: 500, height: 400))
        try view.checkInvariants()
        expectMatchesNaiveLayout(view, recorder: recorder)
    }
}
