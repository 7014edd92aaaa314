import RowKit
import Testing

@MainActor
@Suite("TableView scrolling")
struct TableViewScrollingTests {
    static func fixedModel(style: TableStyle, recorder: MeasureRecorder) throws -> TableModel {
        let sections = (0..<4).map { s in
            Section(
                id: ItemID("s\(s)"), header: .custom(TestHeader(key: "h\(s)", fixed: 30, recorder: recorder)),
                indexTitle: String(UnicodeScalar(UInt8(65 + s))),
                rows: (0..<10).map { AnyRow(TestRow(id: s * 100 + $0, fixed: 50, recorder: recorder)) })
        }
        return try TableModel(Table(style: style, sections: sections))
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenScrollingToARow_thenThePositionPutsItAtTheTopMiddleBottomOrNearest(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let view = TableView(
            model: try Self.fixedModel(style: .grouped, recorder: recorder),
            viewport: TableViewport(width: 300, height: 200),
            backend: backend)
        let path = RowPath(section: 1, row: 4)
        let rect = try view.rect(forRowAt: path)  // 35+30+500 + 35+30+200 = 830
        #expect(rect.y == 830)
        try view.scrollToRow(at: path, position: .top)
        #expect(view.contentOffset == 830)
        try view.scrollToRow(at: path, position: .middle)
        #expect(view.contentOffset == 830 + 25 - 100)
        try view.scrollToRow(at: path, position: .bottom)
        #expect(view.contentOffset == 880 - 200)
        try view.scrollToRow(at: path, position: .nearest)  // fully visible: no scrolling
        #expect(view.contentOffset == 680)
        try view.scrollToRow(at: RowPath(section: 1, row: 7), position: .nearest)  // below: bottom
        #expect(view.contentOffset == 830 + 150 + 50 - 200)
        try view.scrollToRow(at: RowPath(section: 0, row: 0), position: .nearest)  // above: top
        #expect(view.contentOffset == 65)
        try view.scrollToRow(at: RowPath(section: 3, row: 9), position: .top)  // clamped to the end
        #expect(view.contentOffset == view.maximumContentOffset)
        #expect(view.visibleRowPaths.last == RowPath(section: 3, row: 9))
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenScrollingToATopRowInPlainStyle_thenItLandsBelowTheFloatingHeader(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let view = TableView(
            model: try Self.fixedModel(style: .plain, recorder: recorder),
            viewport: TableViewport(width: 300, height: 200),
            backend: backend)
        try view.scrollToRow(at: RowPath(section: 1, row: 3), position: .top)
        let rect = try view.rect(forRowAt: RowPath(section: 1, row: 3))
        #expect(rect.y - view.contentOffset == 30)
        #expect(view.visibleItems.first?.kind == .header)
        #expect(view.visibleItems.first?.isPinned == true)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenScrollingToAnIndexTitleOrTheNearestSelection_thenTheSectionOrRowComesIntoView(backend: TableViewBackend)
        throws
    {
        let recorder = MeasureRecorder()
        let view = TableView(
            model: try Self.fixedModel(style: .plain, recorder: recorder),
            viewport: TableViewport(width: 300, height: 200),
            backend: backend)
        #expect(view.sectionIndexTitles == ["A", "B", "C", "D"])
        try view.scrollToSection(indexTitle: "C")
        #expect(try view.rect(forSection: 2).y == view.contentOffset)
        #expect(view.scrollToNearestSelectedRow(position: .top) == false)
        try view.selectRow(at: RowPath(section: 0, row: 2))
        #expect(view.scrollToNearestSelectedRow(position: .nearest))
        #expect(view.visibleRowPaths.contains(RowPath(section: 0, row: 2)))
        #expect(view.cell(forRowAt: RowPath(section: 0, row: 2))?.isSelected == true)
        try view.checkInvariants()
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenScrollingBackAndForth_thenCellsComeFromThePoolAndAreNeverBoundTwice(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let view = TableView(
            model: try Self.fixedModel(style: .plain, recorder: recorder),
            viewport: TableViewport(width: 300, height: 200),
            backend: backend)
        for step in 0..<100 {
            view.scroll(to: Double(step % 20) * 90)
            try view.checkInvariants()
        }
        let statistics = view.reusePoolStatistics
        #expect(statistics.hits > 10 * statistics.misses)
        #expect(statistics.created <= 12)
        let cells = view.visibleRowPaths.compactMap { view.cell(forRowAt: $0) }
        #expect(Set(cells.map(ObjectIdentifier.init)).count == cells.count)
    }
}
