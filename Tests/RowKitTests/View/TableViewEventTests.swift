import RowKit
import Testing

@MainActor
@Suite("TableView events")
struct TableViewEventTests {
    /// A plain table of two sections, fixed heights: 28-point headers, 44-point rows.
    static func fruitModel(recorder: MeasureRecorder) throws -> TableModel {
        func rows(_ ids: Range<Int>) -> [AnyRow] {
            ids.map { AnyRow(TestRow(id: $0, fixed: 44, editing: .delete, isMovable: true, recorder: recorder)) }
        }
        return try TableModel(
            Table(
                style: .plain,
                sections: [
                    Section(
                        id: "A", header: .custom(TestHeader(key: "A", fixed: 28, recorder: recorder)), indexTitle: "A",
                        rows: rows(0..<6)),
                    Section(
                        id: "B", header: .custom(TestHeader(key: "B", fixed: 28, recorder: recorder)), indexTitle: "B",
                        rows: rows(10..<16)),
                ]))
    }

    /// Runs the scripted session and returns its log: a `# step` line before each step's events.
    static func scriptedSession(backend: TableViewBackend) throws -> String {
        let recorder = MeasureRecorder()
        var model = try fruitModel(recorder: recorder)
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 150), backend: backend)
        view.prefetchDistance = 60
        var log: [String] = []
        view.onEvent = { log.append($0.description) }
        func step(_ title: String, _ body: () throws -> Void) rethrows {
            log.append("# \(title)")
            try body()
        }
        func apply(_ batch: (inout TableBatch) throws -> Void) throws {
            let changes = try model.performBatch(batch)
            try view.apply(changes, to: model)
        }
        step("layout") { view.layoutIfNeeded() }
        step("scroll by 100") { view.scroll(by: 100) }
        try step("tap [0, 4]") { try view.tapRow(at: RowPath(section: 0, row: 4)) }
        try step("tap [0, 5]") { try view.tapRow(at: RowPath(section: 0, row: 5)) }
        view.selectionMode = .multiple
        try step("multiple: tap [0, 3], tap [0, 5]") {
            try view.tapRow(at: RowPath(section: 0, row: 3))
            try view.tapRow(at: RowPath(section: 0, row: 5))
        }
        try step("tap accessory [0, 4]") { try view.tapAccessory(at: RowPath(section: 0, row: 4)) }
        try step("swipe [0, 4], commit delete, model deletes it") {
            try view.beginSwipeEditing(at: RowPath(section: 0, row: 4))
            try view.commitEdit(forRowAt: RowPath(section: 0, row: 4))
            try apply { $0.delete(.path(RowPath(section: 0, row: 4))) }
        }
        try step("insert 99 at [0, 3]") {
            try apply { $0.insert(TestRow(id: 99, fixed: 44, recorder: recorder), at: RowPath(section: 0, row: 3)) }
        }
        try step("user moves [0, 2] to [1, 0], model moves it") {
            try view.moveRow(from: RowPath(section: 0, row: 2), to: RowPath(section: 1, row: 0))
            try apply { $0.move(.path(RowPath(section: 0, row: 2)), to: RowPath(section: 1, row: 0)) }
        }
        try step("reload [0, 3]") {
            try apply {
                $0.replace(
                    .path(RowPath(section: 0, row: 3)), with: TestRow(id: 3, fixed: 60, version: 1, recorder: recorder))
            }
        }
        try step("scroll to index title B") { try view.scrollToSection(indexTitle: "B") }
        step("scroll to nearest selected, middle") { view.scrollToNearestSelectedRow(position: .middle) }
        step("scroll to top") { view.scroll(to: 0) }
        log.append("# dump")
        log.append(view.dump)
        log.append("# pool \(view.reusePoolStatistics)")
        try view.checkInvariants()
        return log.joined(separator: "\n")
    }

    /// The golden log of `scriptedSession`, checked by hand: geometry, event order, reuse (LIFO)
    /// and prefetch bands.
    static let golden = """
        # layout
        willDisplay header #1 A@0
        willDisplay cell #2 0@[0, 0]
        willDisplay cell #3 1@[0, 1]
        willDisplay cell #4 2@[0, 2]
        prefetch 3@[0, 3] 4@[0, 4]
        # scroll by 100
        didEndDisplaying cell #2 0@[0, 0]
        willDisplay cell #2 3@[0, 3]
        willDisplay cell #5 4@[0, 4]
        willDisplay cell #6 5@[0, 5]
        # tap [0, 4]
        highlight 4@[0, 4]
        unhighlight 4@[0, 4]
        select 4@[0, 4]
        # tap [0, 5]
        highlight 5@[0, 5]
        unhighlight 5@[0, 5]
        deselect 4@[0, 4]
        select 5@[0, 5]
        # multiple: tap [0, 3], tap [0, 5]
        highlight 3@[0, 3]
        unhighlight 3@[0, 3]
        select 3@[0, 3]
        highlight 5@[0, 5]
        unhighlight 5@[0, 5]
        deselect 5@[0, 5]
        # tap accessory [0, 4]
        accessoryTapped 4@[0, 4]
        # swipe [0, 4], commit delete, model deletes it
        willBeginEditing 4@[0, 4]
        commitEdit delete 4@[0, 4]
        didEndEditing 4@[0, 4]
        didEndDisplaying cell #5 4@[0, 4]
        willDisplay header #7 B@1
        prefetch 10@[1, 0]
        # insert 99 at [0, 3]
        didEndDisplaying header #7 B@1
        willDisplay cell #5 99@[0, 3]
        cancelPrefetch 10@[1, 0]
        # user moves [0, 2] to [1, 0], model moves it
        move 2 [0, 2] -> [1, 0]
        didEndDisplaying cell #4 2@[1, 0]
        willDisplay header #7 B@1
        prefetch 2@[1, 0]
        # reload [0, 3]
        didEndDisplaying cell #2 3@[0, 3]
        didEndDisplaying header #7 B@1
        willDisplay cell #2 3@[0, 3]
        # scroll to index title B
        didEndDisplaying header #1 A@0
        didEndDisplaying cell #3 1@[0, 1]
        didEndDisplaying cell #5 99@[0, 2]
        didEndDisplaying cell #2 3@[0, 3]
        didEndDisplaying cell #6 5@[0, 4]
        willDisplay header #1 B@1
        willDisplay cell #6 2@[1, 0]
        willDisplay cell #2 10@[1, 1]
        willDisplay cell #5 11@[1, 2]
        prefetch 12@[1, 3] 13@[1, 4]
        # scroll to nearest selected, middle
        didEndDisplaying cell #6 2@[1, 0]
        didEndDisplaying cell #2 10@[1, 1]
        didEndDisplaying cell #5 11@[1, 2]
        willDisplay header #7 A@0
        willDisplay cell #5 1@[0, 1]
        willDisplay cell #2 99@[0, 2]
        willDisplay cell #6 3@[0, 3]
        willDisplay cell #3 5@[0, 4]
        cancelPrefetch 12@[1, 3] 13@[1, 4]
        prefetch 0@[0, 0]
        # scroll to top
        didEndDisplaying cell #6 3@[0, 3]
        didEndDisplaying cell #3 5@[0, 4]
        didEndDisplaying header #1 B@1
        willDisplay cell #3 0@[0, 0]
        # dump
        TableView plain 320x150 offset=0 content=600
          header 0 id=A (0, 0, 320x28) #7
          row [0, 0] id=0 (0, 28, 320x44) #3
          row [0, 1] id=1 (0, 72, 320x44) #5
          row [0, 2] id=99 (0, 116, 320x44) #2
        # pool hits=14 misses=7 evictions=0 created=7 pooled=3
        """

    @Test(arguments: TableViewBackend.allCases)
    func whenAScriptedSessionRuns_thenItsEventsMatchTheGoldenLog(backend: TableViewBackend) throws {
        let log = try Self.scriptedSession(backend: backend)
        #expect(log == Self.golden)
        if log != Self.golden { print(log) }
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenAnUpdateDeletesOrReloadsAPrefetchedRow_thenOnlyThatPrefetchIsCancelled(backend: TableViewBackend) throws {
        let recorder = MeasureRecorder()
        var model = try Self.fruitModel(recorder: recorder)
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 150), backend: backend)
        view.prefetchDistance = 60
        var log: [String] = []
        view.onEvent = { log.append($0.description) }
        view.layoutIfNeeded()
        #expect(log.last == "prefetch 3@[0, 3] 4@[0, 4]")

        // Row 3 goes (cancelled at its old path); 4 moves up to [0, 3] and stays prefetched; 5
        // enters the band.
        log.removeAll()
        try view.apply(try model.performBatch { $0.delete(.path(RowPath(section: 0, row: 3))) }, to: model)
        #expect(log == ["cancelPrefetch 3@[0, 3]", "prefetch 5@[0, 4]"])

        // A reloaded row's prefetch is cancelled and, still in the band, made again.
        log.removeAll()
        try view.apply(
            try model.performBatch {
                $0.replace(
                    .path(RowPath(section: 0, row: 3)), with: TestRow(id: 4, fixed: 44, version: 1, recorder: recorder))
            }, to: model)
        #expect(log == ["cancelPrefetch 4@[0, 3]", "prefetch 4@[0, 3]"])
        try view.checkInvariants()
    }

    @Test
    func whenEventsAreReadAsAnAsyncSequence_thenTheyArriveInTheOrderOnEventSawThem() async throws {
        let recorder = MeasureRecorder()
        let view = TableView(
            model: try Self.fruitModel(recorder: recorder), viewport: TableViewport(width: 320, height: 150))
        var seen: [TableEvent] = []
        view.onEvent = { seen.append($0) }
        let events = view.events
        view.layoutIfNeeded()
        try view.tapRow(at: RowPath(section: 0, row: 1))
        var streamed: [TableEvent] = []
        for await event in events {
            streamed.append(event)
            if streamed.count == seen.count { break }
        }
        #expect(streamed == seen)
        #expect(seen.last == .select(RowReference(id: 1, path: RowPath(section: 0, row: 1))))
    }

    @Test
    func whenARowIsSelectedOrItsAccessoryTapped_thenItsActionRunsAfterTheEvent() throws {
        let logBox = LogBox()
        let row = DefaultRow("Wi-Fi", accessory: .detailButton)
            .onSelect { context in logBox.lines.append("action select \(context.id)@\(context.path)") }
            .onAccessoryTap { context in logBox.lines.append("action accessory \(context.id)") }
            .onCommitEdit { context, style in logBox.lines.append("action commit \(style.rawValue) \(context.id)") }
            .editing(.delete)
        let model = try TableModel(Table(style: .plain, sections: [Section(id: "s", rows: [AnyRow(row)])]))
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 100))
        view.onEvent = { event in logBox.lines.append(event.description) }
        try view.tapRow(at: RowPath(section: 0, row: 0))
        try view.tapAccessory(at: RowPath(section: 0, row: 0))
        try view.commitEdit(forRowAt: RowPath(section: 0, row: 0))
        #expect(
            logBox.lines == [
                "willDisplay cell #1 Wi-Fi@[0, 0]",
                "highlight Wi-Fi@[0, 0]", "unhighlight Wi-Fi@[0, 0]", "select Wi-Fi@[0, 0]",
                "action select Wi-Fi@[0, 0]",
                "accessoryTapped Wi-Fi@[0, 0]", "action accessory Wi-Fi",
                "commitEdit delete Wi-Fi@[0, 0]", "action commit delete Wi-Fi",
            ])
    }

    @Test(arguments: [SelectionMode.none, .single, .multiple])
    func whenRowsAreTapped_thenTheSelectionFollowsTheMode(mode: SelectionMode) throws {
        let recorder = MeasureRecorder()
        let view = TableView(
            model: try Self.fruitModel(recorder: recorder), viewport: TableViewport(width: 320, height: 600))
        view.selectionMode = mode
        try view.tapRow(at: RowPath(section: 0, row: 0))
        try view.tapRow(at: RowPath(section: 1, row: 2))
        switch mode {
        case .none: #expect(view.selectedRowPaths.isEmpty)
        case .single: #expect(view.selectedRowPaths == [RowPath(section: 1, row: 2)])
        case .multiple: #expect(view.selectedRowPaths == [RowPath(section: 0, row: 0), RowPath(section: 1, row: 2)])
        }
        #expect(view.cell(forRowAt: RowPath(section: 1, row: 2))?.isSelected == (mode != .none))
        try view.checkInvariants()
    }

    @Test
    func whenAUserActionIsInvalid_thenTheViewThrowsATypedError() throws {
        let recorder = MeasureRecorder()
        let model = try TableModel(
            Table(
                style: .plain,
                sections: [Section(id: "s", rows: [AnyRow(TestRow(id: 1, fixed: 44, recorder: recorder))])]))
        let view = TableView(model: model, viewport: TableViewport(width: 320, height: 100))
        #expect(throws: TableViewError.rowNotMovable(RowPath(section: 0, row: 0))) {
            try view.moveRow(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 0))
        }
        #expect(throws: TableViewError.rowNotEditable(RowPath(section: 0, row: 0))) {
            try view.commitEdit(forRowAt: RowPath(section: 0, row: 0))
        }
        #expect(throws: TableViewError.unknownIndexTitle("Z")) { try view.scrollToSection(indexTitle: "Z") }
        #expect(throws: TableViewError.rowOutOfRange(path: RowPath(section: 0, row: 3), rowCount: 1)) {
            try view.tapRow(at: RowPath(section: 0, row: 3))
        }
    }
}

/// A main-actor log that row actions (sendable closures) can append to.
@MainActor
final class LogBox {
    var lines: [String] = []
}
