import RowKit
import Testing

@MainActor
@Suite("TableView height limit")
struct TableViewHeightLimitTests {
    /// The tree's limit: every total stays below it.
    static let limit = COffsetTree.maximumTotalHeight

    /// Rows whose estimates (10^9 points each) add up to far more than the limit.
    static func hugeEstimates(_ ids: Range<Int>, recorder: MeasureRecorder) -> [AnyRow] {
        ids.map { AnyRow(TestRow(id: $0, fixed: nil, estimate: 1e9, actual: 44, recorder: recorder)) }
    }

    /// Expects every row's rectangle to start at or below the previous one's and the content to
    /// stay below the limit.
    static func expectMonotonicOffsets(_ view: TableView) throws {
        #expect(view.contentHeight < limit)
        var last = -1.0
        for section in 0..<view.numberOfSections {
            for row in 0..<(try view.numberOfRows(inSection: section)) {
                let rect = try view.rect(forRowAt: RowPath(section: section, row: row))
                #expect(rect.y >= last, "row [\(section), \(row)] at \(rect.y) is above the row before it")
                #expect(rect.height >= 0 && rect.y + rect.height <= view.contentHeight)
                last = rect.y
            }
        }
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenEstimatedHeightsWouldPassTheLimit_thenTheTableLaysOutWithMonotonicOffsets(backend: TableViewBackend)
        throws
    {
        let recorder = MeasureRecorder()
        let table = Table(
            style: .grouped,
            sections: [
                Section(id: "a", rows: Self.hugeEstimates(0..<300, recorder: recorder)),
                Section(id: "b", rows: Self.hugeEstimates(300..<600, recorder: recorder)),
            ])
        let view = TableView(
            model: try TableModel(table), viewport: TableViewport(width: 320, height: 480), backend: backend)
        view.layoutIfNeeded()
        try view.checkInvariants()
        try Self.expectMonotonicOffsets(view)
        // 600 × 10^9 points do not fit: the last rows are cut (to 0).
        #expect(try view.rect(forRowAt: RowPath(section: 1, row: 299)).height < 1e9)
        #expect(!view.visibleRowPaths.isEmpty)

        // Scrolling measures rows (44 points each) and frees room for the rows after them.
        for y in [view.contentHeight / 2, view.contentHeight, 0] {
            view.scroll(to: y)
            try view.checkInvariants()
            try Self.expectMonotonicOffsets(view)
        }
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenOneFixedHeightIsAboveTheLimit_thenItIsCutAndTheRowsAfterItFollow(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let rows = (0..<20).map { id in
            AnyRow(TestRow(id: id, fixed: id == 5 ? 1e15 : 44, recorder: recorder))
        }
        let view = TableView(
            model: try TableModel(Table(style: .plain, sections: [Section(id: "s", rows: rows)])),
            viewport: TableViewport(width: 320, height: 480), backend: backend)
        view.layoutIfNeeded()
        try view.checkInvariants()
        try Self.expectMonotonicOffsets(view)
        #expect(try view.rect(forRowAt: RowPath(section: 0, row: 4)).height == 44)
        #expect(try view.rect(forRowAt: RowPath(section: 0, row: 5)).height < Self.limit)
        view.scroll(to: .infinity)
        try view.checkInvariants()
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenHeightsAddUpToExactlyTheLimit_thenTheLastIsCutByOneQuantum(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let half = Self.limit / 2
        let rows = (0..<3).map { id in AnyRow(TestRow(id: id, fixed: id == 2 ? 0 : half, recorder: recorder)) }
        let view = TableView(
            model: try TableModel(Table(style: .plain, sections: [Section(id: "s", rows: rows)])),
            viewport: TableViewport(width: 320, height: 480), backend: backend)
        view.layoutIfNeeded()
        try view.checkInvariants()
        #expect(try view.rect(forRowAt: RowPath(section: 0, row: 0)).height == half)
        #expect(try view.rect(forRowAt: RowPath(section: 0, row: 1)).height == half - COffsetTree.heightQuantum)
        #expect(view.contentHeight == Self.limit - COffsetTree.heightQuantum)
        try Self.expectMonotonicOffsets(view)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenBatchesInsertAndReloadRowsPastTheLimit_thenTheViewStaysConsistent(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        let table = Table(
            style: .plain, sections: [Section(id: "s", rows: Self.hugeEstimates(0..<100, recorder: recorder))])
        let view = TableView(
            model: try TableModel(table), viewport: TableViewport(width: 320, height: 480), backend: backend)
        view.layoutIfNeeded()
        _ = try view.performBatch { batch in
            for (offset, row) in Self.hugeEstimates(1000..<1200, recorder: recorder).enumerated() {
                batch.insert(row, at: RowPath(section: 0, row: 50 + offset))
            }
        }
        try view.checkInvariants()
        try Self.expectMonotonicOffsets(view)
        _ = try view.performBatch { batch in
            batch.insertSection(
                Section(id: "t", rows: Self.hugeEstimates(2000..<2100, recorder: recorder)), at: 0)
            batch.delete(.path(RowPath(section: 0, row: 0)))
            batch.reload(.path(RowPath(section: 1, row: 200)))
        }
        view.scroll(to: view.contentHeight / 3)
        try view.checkInvariants()
        try Self.expectMonotonicOffsets(view)
        #expect(view.contentHeight < Self.limit)
    }
}
