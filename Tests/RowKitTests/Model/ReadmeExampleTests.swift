import RowKit
import Testing

/// The README's Swift API example, line for line, so the README cannot drift from the API.
@MainActor
@Suite struct ReadmeExampleTests {
    @Test func whenTheReadmeExampleRuns_thenTheViewFollowsTheBatchAndTheDiff() throws {
        let settings = Table(style: .insetGrouped) {
            Section("Network", footer: "Wi-Fi and cellular") {
                Value1Row("Wi-Fi", detail: "HomeNet", accessory: .disclosureIndicator)
                DefaultRow("Bluetooth", accessory: .checkmark)
            }
            Section("Display") {
                SubtitleRow("Text Size", detail: "Larger text for reading"); Value2Row("Mode", detail: "Dark")
            }
        }

        var model = try TableModel(settings)
        let changes = try model.performBatch { batch in
            batch.delete(.id("Bluetooth"), animation: .fade)
            batch.append(DefaultRow("VPN"), to: .index(0))
        }
        #expect(changes.deletedRows.map(\.index) == [RowPath(section: 0, row: 1)])
        #expect(changes.insertedRows.map(\.index) == [RowPath(section: 0, row: 1)])

        let view = TableView(model: model, viewport: TableViewport(width: 390, height: 844))
        var events: [TableEvent] = []
        view.onEvent = { events.append($0) }
        view.layoutIfNeeded()
        try view.tapRow(at: RowPath(section: 0, row: 0))
        let newTable = Table(style: .insetGrouped) {
            Section("Network", footer: "Wi-Fi and cellular") {
                DefaultRow("VPN"); Value1Row("Wi-Fi", detail: "Office")
            }
        }
        let diff = try model.update(to: newTable)
        try view.apply(diff, to: model)

        #expect(!events.isEmpty)
        #expect(view.dump.contains("VPN"))
        #expect(model.numberOfSections == 1)
    }

    /// The same flow, where the new table moves Wi-Fi to the other section and changes its detail:
    /// the diff's default changeset (a move plus a reload) goes to the view whole.
    @Test func whenTheReadmeFlowMovesAndChangesARow_thenTheViewTakesTheDiffWholeAndTheCellShowsTheNewContent() throws {
        let settings = Table(style: .insetGrouped) {
            Section("Network", footer: "Wi-Fi and cellular") {
                Value1Row("Wi-Fi", detail: "HomeNet", accessory: .disclosureIndicator)
                DefaultRow("Bluetooth", accessory: .checkmark)
            }
            Section("Display") {
                SubtitleRow("Text Size", detail: "Larger text for reading"); Value2Row("Mode", detail: "Dark")
            }
        }

        var model = try TableModel(settings)
        _ = try model.performBatch { batch in
            batch.delete(.id("Bluetooth"), animation: .fade)
            batch.append(DefaultRow("VPN"), to: .index(0))
        }
        let view = TableView(model: model, viewport: TableViewport(width: 390, height: 844))
        var events: [TableEvent] = []
        view.onEvent = { events.append($0) }
        view.layoutIfNeeded()
        try view.tapRow(at: RowPath(section: 0, row: 0))
        let wifiCell = view.cell(forRowAt: RowPath(section: 0, row: 0))
        let newTable = Table(style: .insetGrouped) {
            Section("Network", footer: "Wi-Fi and cellular") { DefaultRow("VPN") }
            Section("Display") {
                SubtitleRow("Text Size", detail: "Larger text for reading")
                Value1Row("Wi-Fi", detail: "Office", accessory: .disclosureIndicator)
                Value2Row("Mode", detail: "Dark")
            }
        }
        events.removeAll()
        let diff = try model.update(to: newTable)
        #expect(diff.movedRows == [.init(from: RowPath(section: 0, row: 0), to: RowPath(section: 1, row: 1))])
        #expect(diff.reloadedRows == [.init(RowPath(section: 0, row: 0))])
        try view.apply(diff, to: model)

        #expect(view.cell(forRowAt: RowPath(section: 1, row: 1)) === wifiCell)
        #expect((wifiCell as? StandardCell)?.content?.detail == "Office")
        #expect(view.selectedRowPaths == [RowPath(section: 1, row: 1)])
        #expect(!events.contains { $0.description.contains("Wi-Fi") }, "\(events)")
        #expect(view.dump.contains("Wi-Fi"))
        try view.checkInvariants()
    }
}
