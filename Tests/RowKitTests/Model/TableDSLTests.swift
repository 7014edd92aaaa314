import RowKit
import Testing

/// A contact row, shown by its own cell class: the compiler pairs `ContactRow` with `ContactCell`
/// (`Cell.Model == Self`), so no string names a class.
struct ContactRow: Row, Equatable {
    typealias Cell = ContactCell
    var id: String
    var name: String
    var phone: String
    var height: HeightPolicy { .fixed(60) }
}

/// The cell that shows a `ContactRow`.
@MainActor
final class ContactCell: TableCell, CellConfiguring {
    private(set) var shownName: String?
    private(set) var shownPhone: String?

    func configure(with row: ContactRow) {
        shownName = row.name
        shownPhone = row.phone
    }
}

struct TableDSLTests {
    static let settings = Table(style: .insetGrouped) {
        Section("Network", footer: "Wi-Fi and cellular") {
            Value1Row("Wi-Fi", detail: "HomeNet", accessory: .disclosureIndicator)
            DefaultRow("Bluetooth", accessory: .checkmark)
        }
        Section("Display") {
            SubtitleRow("Text Size", detail: "Larger text for reading")
            Value2Row("Mode", detail: "Dark")
        }
    }

    @Test func whenTheREADMESettingsAreDeclared_thenTheDumpShowsExactlyWhatWasDeclared() throws {
        let model = try TableModel(Self.settings)
        #expect(
            model.dump == """
                Table(insetGrouped)
                  Section 0 id=Network header="Network" footer="Wi-Fi and cellular"
                    [0, 0] id=Wi-Fi cell=Value1Cell text="Wi-Fi" detail="HomeNet" accessory=disclosureIndicator
                    [0, 1] id=Bluetooth cell=DefaultCell text="Bluetooth" accessory=checkmark
                  Section 1 id=Display header="Display"
                    [1, 0] id=Text Size cell=SubtitleCell text="Text Size" detail="Larger text for reading"
                    [1, 1] id=Mode cell=Value2Cell text="Mode" detail="Dark"
                """)
        #expect(model.path(of: "Mode") == RowPath(section: 1, row: 1))
        #expect(model.sectionIndex(of: "Display") == 1)
    }

    @Test func whenTheDSLUsesIfAndFor_thenOnlyTheChosenBranchesAndEveryIterationAreDeclared() {
        let showsAdvanced = false
        let isSignedIn = true
        let accounts = ["Mail", "Calendar", "Notes"]
        let table = Table(style: .grouped) {
            Section("Accounts") {
                for account in accounts {
                    DefaultRow(account, accessory: .disclosureIndicator)
                }
                if isSignedIn {
                    DefaultRow("Sign Out")
                } else {
                    DefaultRow("Sign In")
                }
            }
            if showsAdvanced {
                Section("Advanced") { DefaultRow("Debug Menu") }
            }
            for letter in ["A", "B"] {
                Section(id: "letter-\(letter)", index: letter) { DefaultRow("\(letter)1") }
            }
        }
        #expect(
            table.dump == """
                Table(grouped)
                  Section 0 id=Accounts header="Accounts"
                    [0, 0] id=Mail cell=DefaultCell text="Mail" accessory=disclosureIndicator
                    [0, 1] id=Calendar cell=DefaultCell text="Calendar" accessory=disclosureIndicator
                    [0, 2] id=Notes cell=DefaultCell text="Notes" accessory=disclosureIndicator
                    [0, 3] id=Sign Out cell=DefaultCell text="Sign Out"
                  Section 1 id=letter-A index="A"
                    [1, 0] id=A1 cell=DefaultCell text="A1"
                  Section 2 id=letter-B index="B"
                    [2, 0] id=B1 cell=DefaultCell text="B1"
                """)
    }

    @Test @MainActor func whenARowDeclaresItsOwnCellClass_thenTheRowMakesAndConfiguresThatCell() throws {
        let table = Table {
            Section("Contacts") {
                ContactRow(id: "ada", name: "Ada Lovelace", phone: "555-0101")
                DefaultRow("Add Contact")
            }
        }
        let model = try TableModel(table)
        let row = try #require(model.row(at: RowPath(section: 0, row: 0)))
        #expect(row.reuseIdentifier == ContactCell.reuseIdentifier)
        #expect(row.reuseIdentifier != DefaultCell.reuseIdentifier)
        #expect(row.height.initialHeight(width: 320) == 60)

        let cell = row.makeCell()
        #expect(row.configure(cell))
        let contactCell = try #require(cell as? ContactCell)
        #expect(contactCell.shownName == "Ada Lovelace")
        #expect(contactCell.shownPhone == "555-0101")
        #expect(!row.configure(DefaultCell()), "a contact row does not configure another cell class")
        #expect(model.row(at: RowPath(section: 0, row: 0), as: ContactRow.self)?.phone == "555-0101")
        #expect(model.dump.contains("[0, 0] id=ada cell=ContactCell"))
    }
}
