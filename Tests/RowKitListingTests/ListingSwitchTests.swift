import Foundation
import RowKit
import RowKitListing
import Testing

/// A row's `switch` field: `true` or `false` in YAML and JSON, a `SwitchRow` in the table, and
/// errors at the value's position for anything else.
struct ListingSwitchTests {
    private func summary(_ text: String, path: String = "/tmp/listing.yaml") -> ListingSummary {
        ListingReader(Data(text.utf8), path: path).validate()
    }

    @Test func whenARowHasASwitch_thenItIsReadInYAMLAndJSONAndBecomesASwitchRow() throws {
        let yaml = """
            sections:
              - header: Connections
                rows:
                  - text: Airplane Mode
                    switch: false
                  - text: Personal Hotspot
                    style: subtitle
                    detail: Off
                    switch: true
                  - text: Wi-Fi
                    switch: ~
            """
        let json = """
            {"sections": [{"header": "Connections", "rows": [
              {"text": "Airplane Mode", "switch": false},
              {"text": "Personal Hotspot", "style": "subtitle", "detail": "Off", "switch": true},
              {"text": "Wi-Fi", "switch": null}]}]}
            """
        for (data, path) in [(yaml, "/tmp/switch.yaml"), (json, "/tmp/switch.json")] {
            let document = try ListingReader.read(Data(data.utf8), path: path)
            let rows = try #require(document.sections.first?.rows)
            #expect(rows.map(\.switchIsOn) == [false, true, nil], "\(path)")
            #expect(
                rows[0].accessory == Accessory.none
                    && rows[0].location(of: .switch)?.line == (path.hasSuffix("yaml") ? 5 : 2))
            let table = document.makeTable()
            let airplane = try #require(table.sections[0].rows[0].as(SwitchRow.self))
            #expect(airplane.isOn == false && airplane.content.text == "Airplane Mode" && airplane.layout == .default)
            let hotspot = try #require(table.sections[0].rows[1].as(SwitchRow.self))
            #expect(hotspot.isOn && hotspot.layout == .subtitle && hotspot.content.detail == "Off")
            #expect(table.sections[0].rows[2].as(DefaultRow.self) != nil)
        }
    }

    @Test func whenASwitchIsNotABoolean_thenTheErrorSaysWhereAndWhatWasFound() {
        let yaml = """
            sections:
              - rows:
                  - text: A
                    switch: "true"
                  - text: B
                    switch: 1
                  - text: C
                    switch: [on]
                  - text: D
                    switch: maybe
            """
        #expect(
            summary(yaml).diagnostics.map(\.description) == [
                "/tmp/listing.yaml:4:17: 'switch' must be true or false, found a string",
                "/tmp/listing.yaml:6:17: 'switch' must be true or false, found the number 1",
                "/tmp/listing.yaml:8:17: 'switch' must be true or false, found a sequence",
                "/tmp/listing.yaml:10:17: 'switch' must be true or false, found a string",
            ])
        let json = #"{"sections": [{"rows": [{"text": "A", "switch": "false"}]}]}"#
        #expect(
            summary(json, path: "/tmp/listing.json").diagnostics.map(\.description) == [
                "/tmp/listing.json:1:49: 'switch' must be true or false, found a string"
            ])
    }

    @Test func whenASwitchRowHasAnAccessory_thenItIsAnErrorAtTheAccessory() {
        let yaml = """
            sections:
              - rows:
                  - text: A
                    switch: true
                    accessory: checkmark
                  - text: B
                    switch: true
                    accessory: none
                    body: Shown under the row, not on a detail page.
            """
        let result = summary(yaml)
        #expect(
            result.diagnostics.map(\.description) == [
                "/tmp/listing.yaml:5:20: a row with a 'switch' has no accessory (the switch stands where it would be); "
                    + "remove 'accessory' or give it 'none'"
            ])
        let document = try? ListingReader.read(
            Data(
                yaml.split(separator: "\n").enumerated().filter { $0.offset != 4 }
                    .map { String($0.element) }.joined(separator: "\n").utf8), path: "/tmp/listing.yaml")
        #expect(document?.sections.first?.rows.map(\.hasDetailPage) == [false, false])
    }
}
