import RowKit
import Testing

/// A switch row in the headless view: `toggleSwitch(at:)` updates the model through a batch and
/// posts `switchToggled`, then the row's reload, then calls `onToggle`.
@MainActor
@Suite struct TableViewSwitchTests {
    /// What happened, in order: events and actions.
    @MainActor final class Log {
        var lines: [String] = []
    }

    static func settings(onToggle: @escaping @MainActor @Sendable (RowActionContext, Bool) -> Void) -> Table {
        Table(style: .insetGrouped) {
            Section("Connections") {
                SwitchRow("Airplane Mode", isOn: false, id: "airplane").onToggle(onToggle)
                Value1Row("Wi-Fi", detail: "HomeNet", accessory: .disclosureIndicator)
            }
        }
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenTheSwitchIsToggled_thenTheModelChangesAndTheEventsComeInTheDocumentedOrder(backend: TableViewBackend)
        throws
    {
        let log = Log()
        let view = try TableView(
            table: Self.settings(onToggle: { _, _ in }), viewport: TableViewport(width: 390, height: 844),
            backend: backend)
        view.layoutIfNeeded()
        let path = RowPath(section: 0, row: 0)
        let cell = try #require(view.cell(forRowAt: path) as? SwitchCell)
        #expect(cell.isOn == false && cell.content?.text == "Airplane Mode")
        let revision = view.model.revision
        try view.performBatch {
            $0.replace(
                .id("airplane"),
                with: SwitchRow("Airplane Mode", isOn: false, id: "airplane").onToggle { context, isOn in
                    log.lines.append("onToggle \(context.id)@\(context.path) \(isOn ? "on" : "off")")
                })
        }
        view.onEvent = { log.lines.append($0.description) }
        log.lines.removeAll()

        let changes = try view.toggleSwitch(at: path)
        #expect(changes.reloadedRows == [.init(path)] && changes.movedRows.isEmpty)
        #expect(view.model.revision != revision && changes.toRevision == view.model.revision)
        #expect(view.model.row(at: path)?.as(SwitchRow.self)?.isOn == true)
        #expect(
            log.lines == [
                "switchToggled airplane@[0, 0] on",
                "didEndDisplaying cell #2 airplane@[0, 0]",
                "willDisplay cell #2 airplane@[0, 0]",
                "onToggle airplane@[0, 0] on",
            ])
        #expect((view.cell(forRowAt: path) as? SwitchCell)?.isOn == true)
        #expect(view.cell(forRowAt: path) === cell)

        log.lines.removeAll()
        try view.toggleSwitch(at: path)
        #expect(
            log.lines.first == "switchToggled airplane@[0, 0] off" && log.lines.last == "onToggle airplane@[0, 0] off")
        #expect(cell.isOn == false)
        try view.checkInvariants()
    }

    @Test func whenTheRowHasNoSwitchOrThePathIsWrong_thenToggleThrowsAndNothingChanges() throws {
        var events: [TableEvent] = []
        let view = try TableView(
            table: Self.settings(onToggle: { _, _ in }), viewport: TableViewport(width: 390, height: 844))
        view.layoutIfNeeded()
        view.onEvent = { events.append($0) }
        let revision = view.model.revision
        #expect(throws: TableViewError.rowHasNoSwitch(RowPath(section: 0, row: 1))) {
            try view.toggleSwitch(at: RowPath(section: 0, row: 1))
        }
        #expect(throws: TableViewError.rowOutOfRange(path: RowPath(section: 0, row: 2), rowCount: 2)) {
            try view.toggleSwitch(at: RowPath(section: 0, row: 2))
        }
        #expect(view.model.revision == revision && events.isEmpty)
        #expect(
            TableViewError.rowHasNoSwitch(RowPath(section: 0, row: 1)).description
                == "row [0, 1] has no switch (it is not a SwitchRow)")
    }

    @Test func whenASwitchRowIsDiffed_thenOnlyAChangedStateReloadsIt() throws {
        var model = try TableModel(Self.settings(onToggle: { _, _ in }))
        let same = try model.update(to: Self.settings(onToggle: { _, _ in }))
        #expect(same.isEmpty)
        let flipped = Table(style: .insetGrouped) {
            Section("Connections") {
                SwitchRow("Airplane Mode", isOn: true, id: "airplane")
                Value1Row("Wi-Fi", detail: "HomeNet", accessory: .disclosureIndicator)
            }
        }
        #expect(try model.update(to: flipped).reloadedRows == [.init(RowPath(section: 0, row: 0))])
        #expect(
            model.table.dump.contains(#"[0, 0] id=airplane cell=SwitchCell text="Airplane Mode" switch=on"#),
            "\(model.table.dump)")
    }
}
