import RowKit
import Testing

/// A custom row compares its content by `==` when it is `Equatable`, and sections take rows of
/// any types in an array, or another section's rows.
@Suite struct CustomRowTests {
    struct Contact: Row, Equatable {
        typealias Cell = EquatableContactCell
        var id: String
        var name: String
    }

    /// `Equatable` only when its value is: the conformance is found at run time.
    struct Tagged<Value: Sendable>: Row {
        typealias Cell = TaggedCell<Value>
        var id: String
        var value: Value
    }

    static func contacts(_ names: [String: String]) -> Table {
        Table(style: .plain) {
            Section(id: "people") {
                for id in names.keys.sorted() { Contact(id: id, name: names[id] ?? "") }
            }
        }
    }

    @Test func whenACustomRowIsEquatable_thenADiffReloadsOnlyTheRowsWhoseContentChanged() throws {
        var model = try TableModel(Self.contacts(["a": "Ann", "b": "Bob"]))
        #expect(try model.update(to: Self.contacts(["a": "Ann", "b": "Bob"])).isEmpty)
        let changes = try model.update(to: Self.contacts(["a": "Ann", "b": "Bea"]))
        #expect(changes.reloadedRows.map(\.index) == [RowPath(section: 0, row: 1)])
    }

    @Test func whenAGenericRowIsEquatableForItsValue_thenItComparesByValueAndOtherwiseAlwaysReloads() {
        let one = AnyRow(Tagged(id: "x", value: 1))
        #expect(one.isContentEqual(to: AnyRow(Tagged(id: "x", value: 1))))
        #expect(!one.isContentEqual(to: AnyRow(Tagged(id: "x", value: 2))))
        struct Opaque: Sendable {}
        let opaque = AnyRow(Tagged(id: "y", value: Opaque()))
        #expect(!opaque.isContentEqual(to: AnyRow(Tagged(id: "y", value: Opaque()))))
    }

    @Test func whenASectionIsGivenAnArrayOfMixedRows_thenItHoldsThemInOrder() {
        let section = Section(
            "Network", footer: "Wi-Fi and VPN", rows: [Value1Row("Wi-Fi", detail: "HomeNet"), DefaultRow("VPN")])
        #expect(section.id == "Network" && section.footer?.title == "Wi-Fi and VPN")
        #expect(section.rows.map(\.id) == ["Wi-Fi", "VPN"])
        #expect(section.rows[0].as(Value1Row.self)?.content.detail == "HomeNet")
    }

    @Test func whenASectionsRowsAreReused_thenTheyConvertToAnArrayAndMakeAnotherSection() {
        let first = Section("Network", rows: [DefaultRow("Wi-Fi"), SwitchRow("Airplane Mode", isOn: false)])
        let array: [AnyRow] = Array(first.rows)
        #expect(array.map(\.id) == ["Wi-Fi", "Airplane Mode"])
        let copy = Section(id: "copy", rows: first.rows)
        #expect(copy.rows.map(\.id) == array.map(\.id))
        let fromArray = Section(id: "array", rows: array)
        #expect(fromArray.rows.count == 2)
    }
}

extension CustomRowTests.Tagged: Equatable where Value: Equatable {}

@MainActor
final class EquatableContactCell: TableCell, CellConfiguring {
    private(set) var name = ""
    func configure(with row: CustomRowTests.Contact) { name = row.name }
}

@MainActor
final class TaggedCell<Value: Sendable>: TableCell, CellConfiguring {
    func configure(with row: CustomRowTests.Tagged<Value>) {}
}
