import Foundation
import RowKit
import RowKitListing
import Testing

/// A CSV listing's settings a CSV file cannot hold: a default cell style, sections' footers and
/// index titles from columns or from their headers' first letters; and the one warning, with its
/// fix, for a detail column that the `default` style hides.
struct CSVSectionOptionsTests {
    static let csv = """
        section,name,value,note,letter
        battery,Level,87%,Measured today,B
        battery,Health,Good,,X
        display,Brightness,Auto,,
        """

    private func read(_ options: CSVListingOptions) throws -> ListingDocument {
        try ListingReader.read(Data(Self.csv.utf8), path: "/tmp/t.csv", csv: options)
    }

    @Test func whenADefaultStyleIsGiven_thenRowsWithoutAStyleCellTakeIt() throws {
        var options = CSVListingOptions(sectionBy: "section", text: "name", detail: "value")
        #expect(try read(options).sections.flatMap(\.rows).allSatisfy { $0.style == .default })
        options.defaultStyle = .value2
        #expect(try read(options).sections.flatMap(\.rows).map(\.style) == [.value2, .value2, .value2])
    }

    @Test func whenFooterAndIndexColumnsAreGiven_thenEachSectionTakesItsFirstValue() throws {
        let document = try read(
            CSVListingOptions(sectionBy: "section", text: "name", footer: "note", index: "letter"))
        #expect(document.sections.map(\.footer) == ["Measured today", nil])
        #expect(document.sections.map(\.indexTitle) == ["B", nil])
    }

    @Test func whenIndexInitialsAreAsked_thenSectionsWithoutAnIndexValueTakeTheirHeadersFirstLetter() throws {
        var options = CSVListingOptions(sectionBy: "section", text: "name", indexInitials: true)
        #expect(try read(options).sections.map(\.indexTitle) == ["B", "D"])
        options.index = "letter"
        #expect(try read(options).sections.map(\.indexTitle) == ["B", "D"])
    }

    @Test func whenAFooterColumnIsMissing_thenTheReadFailsNamingIt() {
        let summary = ListingReader(
            Data(Self.csv.utf8), path: "/tmp/t.csv", csv: CSVListingOptions(text: "name", footer: "notes")
        ).validate()
        #expect(summary.diagnostics.first?.message.hasPrefix("the footer column 'notes' is not in the header") == true)
    }

    @Test func whenTheDefaultStyleHidesDetails_thenThereIsOneWarningNamingTheFix() {
        let summary = ListingReader(
            Data(Self.csv.utf8), path: "/tmp/t.csv", csv: CSVListingOptions(text: "name", detail: "value")
        ).validate()
        #expect(summary.warningCount == 1)
        #expect(
            summary.warnings.map(\.description) == [
                "/tmp/t.csv:2:15: the detail column 'value' is not shown by rows of style 'default' (this row and "
                    + "every row like it); to show it, give a default style (rowkit's --default-style value1, value2 "
                    + "or subtitle) or a style column (--style)"
            ])
        let shown = ListingReader(
            Data(Self.csv.utf8), path: "/tmp/t.csv",
            csv: CSVListingOptions(text: "name", detail: "value", defaultStyle: .value1)
        ).validate()
        #expect(shown.warningCount == 0)
    }
}
