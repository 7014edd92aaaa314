import RowKit
import Testing

/// Display events are exactly the difference between the items displayed before and after an
/// operation, each once, in layout order, however many measurement passes the layout takes.
@MainActor
@Suite("TableView display events")
struct TableViewDisplayEventTests {
    /// An item as the difference is taken: what it is, where, and which view shows it.
    struct Shown: Hashable {
        var kind: VisibleItem.Kind
        var section: Int
        var row: Int?
        var id: ItemID
        var view: ReusableViewID

        init(_ item: VisibleItem) {
            (kind, section, row, id, view) = (item.kind, item.section, item.row, item.id, item.view)
        }

        func event(ending: Bool) -> TableEvent {
            switch kind {
            case .row:
                let reference = RowReference(id: id, path: RowPath(section: section, row: row ?? -1))
                return ending ? .didEndDisplayingCell(reference, cell: view) : .willDisplayCell(reference, cell: view)
            case .header:
                let reference = SectionReference(id: id, section: section)
                return ending
                    ? .didEndDisplayingHeader(reference, view: view) : .willDisplayHeader(reference, view: view)
            case .footer:
                let reference = SectionReference(id: id, section: section)
                return ending
                    ? .didEndDisplayingFooter(reference, view: view) : .willDisplayFooter(reference, view: view)
            }
        }
    }

    /// The display events `operation` must post: `didEndDisplaying…` of the items shown before and
    /// not after, in layout order, then `willDisplay…` of the items shown after and not before,
    /// in layout order.
    static func expectedEvents(before: [Shown], after: [Shown]) -> [TableEvent] {
        let afterSet = Set(after)
        let beforeSet = Set(before)
        return before.filter { !afterSet.contains($0) }.map { $0.event(ending: true) }
            + after.filter { !beforeSet.contains($0) }.map { $0.event(ending: false) }
    }

    /// Runs `operation` and checks that its display events are the difference of the displayed
    /// items; returns the display events.
    @discardableResult
    static func expectEventsAreTheDifference(
        _ view: TableView, _ ledger: EventLedger, _ context: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation, _ operation: () throws -> Void
    ) rethrows -> [TableEvent] {
        let before = view.visibleItems.map(Shown.init)
        _ = ledger.take()
        try operation()
        let after = view.visibleItems.map(Shown.init)
        let events = ledger.take().filter(\.isDisplayEvent)
        let expected = expectedEvents(before: before, after: after)
        #expect(events == expected, "\(context())", sourceLocation: sourceLocation)
        return events
    }

    static func rows(_ heights: [(fixed: Double?, estimate: Double, actual: Double)], recorder: MeasureRecorder)
        -> Table
    {
        let rows = heights.enumerated().map { id, height in
            AnyRow(
                TestRow(
                    id: id, fixed: height.fixed, estimate: height.estimate, actual: height.actual, recorder: recorder))
        }
        return Table(style: .plain, sections: [Section(id: "s", rows: rows)])
    }

    static func endedRows(_ events: [TableEvent]) -> [Int] {
        events.compactMap { if case .didEndDisplayingCell(let row, _) = $0 { return row.path.row } else { return nil } }
    }

    static func displayedRows(_ events: [TableEvent]) -> [Int] {
        events.compactMap { if case .willDisplayCell(let row, _) = $0 { return row.path.row } else { return nil } }
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenMeasurementsClampTheOffset_thenRowsVisibleBeforeAndAfterGetNoEvents(backend: TableViewBackend) throws {
        // Rows 0–9 fixed at 44, rows 10–14 estimated at 200 and measured at 44.
        let recorder = MeasureRecorder()
        let heights: [(fixed: Double?, estimate: Double, actual: Double)] = (0..<15).map {
            $0 < 10 ? (44, 44, 44) : (nil, 200, 44)
        }
        let model = try TableModel(Self.rows(heights, recorder: recorder))
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 400), backend: backend)
        view.layoutIfNeeded()
        let ledger = EventLedger(view)
        let events = Self.expectEventsAreTheDifference(view, ledger, "scroll to 1040") { view.scroll(to: 1040) }
        #expect(view.contentOffset == 260)
        #expect(Self.endedRows(events) == Array(0...4))
        #expect(Self.displayedRows(events) == Array(10...14))
        #expect(ledger.disagreement(with: view) == nil)
        expectMatchesNaiveLayout(view, recorder: recorder)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenMeasurementsClampTheOffsetNearTheEndOfTenThousandRows_thenEachRowGetsOneEventAtMost(
        backend: TableViewBackend
    ) throws {
        let recorder = MeasureRecorder()
        let heights: [(fixed: Double?, estimate: Double, actual: Double)] = (0..<10_000).map {
            $0 < 9_990 ? (44, 44, 44) : (nil, 200, 44)
        }
        let model = try TableModel(Self.rows(heights, recorder: recorder))
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 844), backend: backend)
        view.layoutIfNeeded()
        let ledger = EventLedger(view)
        view.scroll(to: 9_970 * 44)
        let events = Self.expectEventsAreTheDifference(view, ledger, "scroll to the end") {
            view.scroll(to: view.maximumContentOffset)
        }
        #expect(Set(Self.endedRows(events)).isDisjoint(with: Self.displayedRows(events)))
        #expect(Self.displayedRows(events).contains(9_999))
        #expect(ledger.disagreement(with: view) == nil)
        expectMatchesNaiveLayout(view, recorder: recorder)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenALayoutTakesTwoMeasurementPasses_thenItsEndsArriveInLayoutOrder(backend: TableViewBackend) throws {
        // Rows 0–9 fixed, 10–19 estimated at 44 and measured at 88, 20–29 fixed.
        let recorder = MeasureRecorder()
        let heights: [(fixed: Double?, estimate: Double, actual: Double)] = (0..<30).map {
            (10..<20).contains($0) ? (nil, 44, 88) : (44, 44, 44)
        }
        let model = try TableModel(Self.rows(heights, recorder: recorder))
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 400), backend: backend)
        view.layoutIfNeeded()
        let ledger = EventLedger(view)
        Self.expectEventsAreTheDifference(view, ledger, "scroll to 880") { view.scroll(to: 880) }
        let events = Self.expectEventsAreTheDifference(view, ledger, "scroll by -280") { view.scroll(by: -280) }
        let ended = Self.endedRows(events)
        #expect(!ended.isEmpty && ended == ended.sorted())
        #expect(ledger.disagreement(with: view) == nil)
        expectMatchesNaiveLayout(view, recorder: recorder)
    }

    /// A random table of mixed heights: fixed (some zero), automatic with estimates far from the
    /// measured height either way, headers and footers fixed or automatic.
    static func randomTable(_ random: inout SeededRandom, style: TableStyle, recorder: MeasureRecorder) -> Table {
        var nextID = 0
        let sections = (0..<random.int(in: 1...8)).map { s in
            let rows = (0..<random.int(in: 0...60)).map { _ in
                defer { nextID += 1 }
                if random.chance(0.4) {
                    return AnyRow(TestRow(id: nextID, fixed: random.pick([0.0, 30, 44, 60, 120])!, recorder: recorder))
                }
                return AnyRow(
                    TestRow(
                        id: nextID, fixed: nil, estimate: Double(random.int(in: 10...250)),
                        actual: Double(random.int(in: 0...180)), recorder: recorder))
            }
            func headerFooter(_ key: String) -> HeaderFooter? {
                guard random.chance(0.6) else { return nil }
                return .custom(
                    TestHeader(
                        key: key, fixed: random.chance(0.5) ? Double(random.int(in: 0...40)) : nil,
                        estimate: Double(random.int(in: 10...80)), actual: Double(random.int(in: 0...70)),
                        recorder: recorder))
            }
            return Section(
                id: ItemID("s\(s)"), header: headerFooter("h\(s)"), footer: headerFooter("f\(s)"), rows: rows)
        }
        return Table(style: style, sections: sections)
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenRandomScrollSessionsRunOverMixedHeights_thenDisplayEventsAreTheDifferenceOfTheVisibleSetsInLayoutOrder(
        backend: TableViewBackend
    ) throws {
        var steps = 0
        var measuringSteps = 0
        for seed in 0..<UInt64(60) {
            var random = SeededRandom(seed: 0x5C_0011 &+ seed)
            let recorder = MeasureRecorder()
            let style = random.pick([TableStyle.plain, .grouped, .insetGrouped])!
            let model = try TableModel(Self.randomTable(&random, style: style, recorder: recorder))
            let view = TableView(
                model: model, viewport: TableViewport(width: 320, height: Double(random.int(in: 60...700))),
                backend: backend,
                reuseCapacity: random.int(in: 1...8))
            view.prefetchDistance = random.chance(0.5) ? Double(random.int(in: 1...300)) : 0
            var firstLayout: [TableEvent] = []
            view.onEvent = { firstLayout.append($0) }
            view.layoutIfNeeded()
            let expected = Self.expectedEvents(before: [], after: view.visibleItems.map(Shown.init))
            #expect(firstLayout.filter(\.isDisplayEvent) == expected, "seed \(seed): first layout")
            let ledger = EventLedger(view)
            for step in 0..<40 {
                let context = "seed \(seed) step \(step)"
                let measuredBefore = recorder.measureCalls
                try Self.expectEventsAreTheDifference(view, ledger, context) {
                    switch random.int(in: 0...5) {
                    case 0: view.scroll(to: Double(random.int(in: -50...Int(view.contentHeight) + 50)))
                    case 1: view.scroll(by: Double(random.int(in: -900...900)))
                    case 2: view.scroll(to: random.chance(0.5) ? .infinity : view.maximumContentOffset)
                    case 3:
                        var height = view.viewport
                        height.height = Double(random.int(in: 1...900))
                        view.setViewport(height)
                    default:
                        let paths = (0..<view.numberOfSections).flatMap { s in
                            (0..<view.rowCountsBySection[s]).map { RowPath(section: s, row: $0) }
                        }
                        guard let path = random.pick(paths) else { return }
                        try view.scrollToRow(
                            at: path, position: random.pick([ScrollPosition.top, .middle, .bottom, .nearest])!)
                    }
                }
                if recorder.measureCalls > measuredBefore { measuringSteps += 1 }
                steps += 1
                #expect(ledger.disagreement(with: view) == nil, "\(context)")
                expectMatchesNaiveLayout(view, recorder: recorder)
                try view.checkInvariants()
            }
        }
        #expect(steps == 60 * 40)
        #expect(measuringSteps > 300, "the sessions must measure often, or they prove little")
    }
}
