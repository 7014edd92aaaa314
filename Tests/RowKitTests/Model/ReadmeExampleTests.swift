import Testing

import RowKit

/// The README's Swift API example, line for line, so the README cannot drift from the API.
@MainActor
@Suite struct ReadmeExampleTests {
    @Test func whenTheReadmeExampleRuns_thenTheViewFollowsTheBatchAndTheDiff() throws {
        let settings = Table(style: .insetGrouped) {
            Section("Network", footer: "Wi-Fi and cellular") {
                Value1Row("Wi-Fi", detail: "HomeNet", accessory: .disclosureIndicator)
                DefaultRow("Bluetooth", accessory: .checkmark)
            }
            Section("Display") { SubtitleRow("Text Size", detail: "Larger text for reading"); Value2Row("Mode", detail: "Dark") }
        }

        var model = try TableModel(settings)
        let changes = try model.performBatch { batch in
            batch.delete(id: "Bluetooth", animation: .fade)
            batch.append(DefaultRow("VPN"), toSection: 0)
        }
        #expect(changes.deletedRows.map(\.index) == [RowPath(section: 0, row: 1)])
        #expect(changes.insertedRows.map(\.index) == [RowPath(section: 0, row: 1)])

        let view = TableView(model: model, viewport: TableViewport(width: 390, height: 844))
        var events: [TableEvent] = []
        view.onEvent = { events.append($0) }
        view.layoutIfNeeded()
        try view.tapRow(at: RowPath(section: 0, row: 0))
        let newTable = Table(style: .insetGrouped) {
            Section("Network", footer: "Wi-Fi and cellular") { DefaultRow("VPN"); Value1Row("Wi-Fi", detail: "Office") }
        }
        let diff = try model.update(to: newTable)
        try view.apply(diff, to: model)

        #expect(!events.isEmpty)
        #expect(view.dump.contains("VPN"))
        #expect(model.numberOfSections == 1)
    }
}
