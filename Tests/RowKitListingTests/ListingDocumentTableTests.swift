import Foundation
import RowKit
import RowKitListing
import Testing

/// The mapping from a listing document to a RowKit table.
@Suite struct ListingDocumentTableTests {
    static func location(_ line: Int) -> RowKitListing.SourceLocation {
        RowKitListing.SourceLocation(file: "t.yaml", line: line, column: 1)
    }

    @Test func eachCellStyleBecomesItsStandardRowAndFieldsBecomeCellContent() {
        let document = ListingDocument(
            path: "t.yaml", title: "T", style: .grouped,
            sections: [
                ListingSection(
                    header: "Network", footer: "Foot", indexTitle: "N",
                    rows: [
                        ListingRow(id: "a", style: .default, text: "A", location: Self.location(1)),
                        ListingRow(
                            id: "b", style: .value1, text: "B", detail: "b", accessory: .checkmark,
                            location: Self.location(2)),
                        ListingRow(
                            id: "c", style: .value2, text: "C", accessory: .detailButton, body: "# C",
                            location: Self.location(3)),
                        ListingRow(
                            id: "d", style: .subtitle, text: "D", image: "icons/d.png",
                            accessory: .detailDisclosureButton, link: "https://example.com",
                            location: Self.location(4)),
                    ], location: Self.location(1)),
                ListingSection(
                    rows: [ListingRow(id: "e", text: "E", location: Self.location(5))], location: Self.location(5)),
            ])
        let table = document.makeTable()
        #expect(
            table.dump == """
                Table(grouped)
                  Section 0 id=Network header="Network" footer="Foot" index="N"
                    [0, 0] id=a cell=DefaultCell text="A"
                    [0, 1] id=b cell=Value1Cell text="B" detail="b" accessory=checkmark
                    [0, 2] id=c cell=Value2Cell text="C" accessory=detailButton
                    [0, 3] id=d cell=SubtitleCell text="D" accessory=detailDisclosureButton
                  Section 1 id=#1
                    [1, 0] id=e cell=DefaultCell text="E"
                """)
        let last = table.sections[0].rows[3].as(SubtitleRow.self)?.content
        #expect(last?.image == CellImage("icons/d.png"))
        #expect(last?.link == "https://example.com")
        #expect(table.sections[0].rows[2].as(Value2Row.self)?.content.body == "# C")
        #expect(table.sections[0].rows[0].id == ItemID("a"))
    }

    @Test func repeatedHeadersFallBackToPositionalSectionIdentities() {
        let row = ListingRow(id: "x", text: "X", location: Self.location(1))
        let row2 = ListingRow(id: "y", text: "Y", location: Self.location(2))
        let document = ListingDocument(
            path: "t.yaml", title: "T",
            sections: [
                ListingSection(header: "Same", rows: [row], location: Self.location(1)),
                ListingSection(header: "Same", rows: [row2], location: Self.location(2)),
            ])
        let ids = document.makeTable().sections.map(\.id.description)
        #expect(ids == ["#0", "#1"])
    }

    @Test func withAnImageBase_imagesAreRelativeToIt() throws {
        let document = try ListingReader.read(
            contentsOfFile: ReaderGolden.packageRoot.appendingPathComponent("Examples").appendingPathComponent(
                "settings.yaml"
            ).path)
        let base = try #require(realpath(ReaderGolden.packageRoot.path, nil))
        defer { free(base) }
        let table = document.makeTable(imageBase: String(cString: base))
        let account = table.sections[0].rows[0].as(SubtitleRow.self)?.content.image
        #expect(account == CellImage("Examples/icons/avatar.png"))
        let asWritten = document.makeTable().sections[0].rows[0].as(SubtitleRow.self)?.content.image
        #expect(asWritten == CellImage("icons/avatar.png"))
    }

    @Test func theSettingsExampleUsesEveryCellStyleAndEveryAccessory() throws {
        let document = try ListingReader.read(
            contentsOfFile: ReaderGolden.packageRoot.appendingPathComponent("Examples").appendingPathComponent(
                "settings.yaml"
            ).path)
        let rows = document.allRows
        #expect(Set(rows.map(\.style)) == Set(CellLayout.allCases))
        #expect(Set(rows.map(\.accessory)) == Set(Accessory.allCases))
        #expect(document.style == .insetGrouped)
        #expect(document.sections.allSatisfy { $0.indexTitle != nil })
        #expect(rows.filter(\.hasDetailPage).count >= 2)
    }
}
