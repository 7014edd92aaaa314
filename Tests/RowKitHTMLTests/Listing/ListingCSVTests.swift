import Foundation
import Testing

@testable import RowKitHTML

/// CSV listings: RFC 4180 parsing, column mapping, sections and sorting.
struct ListingCSVTests {
    private let contacts = ListingFixtures.data("valid/contacts.csv")

    @Test func whenFieldsAreQuoted_thenDoubledQuotesCommasAndLineBreaksSurvive() throws {
        let table = try CSVTable(bytes: Array(contacts), file: "c.csv")
        #expect(table.header.fields.map(\.text) == ["group", "name", "phone", "notes"])
        #expect(table.records.count == 3)
        #expect(table.records[0].fields[3].text == "Met at \"the\" park,\r\nin 2019")
        #expect(table.records[1].location.line == 4)
        #expect(table.records[1].fields[1].location.column == 6)
    }

    @Test func whenColumnsAreMapped_thenRowsAreGroupedInFirstSeenOrder() throws {
        let options = CSVListingOptions(sectionBy: "group", text: "name", detail: "phone", body: "notes")
        let document = try ListingReader.read(contacts, path: "people/contacts.csv", csv: options)
        #expect(document.title == "contacts")
        #expect(document.sections.map(\.header) == ["Friends", "Work"])
        #expect(document.sections[0].rows.map(\.text) == ["Ann", "Cid"])
        #expect(document.sections[0].rows[1].detail == nil)
    }

    @Test func whenARowHasABody_thenItDisclosesUnlessAnAccessoryColumnSaysOtherwise() throws {
        let csv = "text,body,accessory\nA,Body,\nB,Body,checkmark\nC,,\n"
        let document = try ListingReader.read(Data(csv.utf8), path: "a.csv")
        #expect(document.allRows.map(\.accessory) == [.disclosureIndicator, .checkmark, ListingAccessory.none])
    }

    @Test func whenSortIsSet_thenSectionsAreOrderedByNameIndependentlyOfLocale() throws {
        let csv = "g,text\nb,1\nÄ,2\na,3\nB,4\nb,5\n"
        let options = CSVListingOptions(sectionBy: "g", sort: true, title: "T", tableStyle: .plain)
        let document = try ListingReader.read(Data(csv.utf8), path: "s.csv", csv: options)
        #expect(document.sections.map(\.header) == ["B", "a", "b", "Ä"])
        #expect(document.sections[2].rows.map(\.text) == ["1", "5"])
        #expect(document.title == "T" && document.style == .plain)
    }

    @Test func whenAnExplicitColumnIsMissing_thenTheErrorNamesItAndListsTheHeader() {
        let options = CSVListingOptions(sectionBy: "team", detail: "phone")
        let diagnostics = ListingReader.validate(Data("text,detail\nA,1\n".utf8), path: "x.csv", csv: options)
        #expect(diagnostics.map(\.description) == [
            "x.csv:1:1: the detail column 'phone' is not in the header; the header has: 'text', 'detail'",
            "x.csv:1:1: the section column 'team' is not in the header; the header has: 'text', 'detail'",
        ])
    }

    @Test func whenLinesEndInCROnlyOrBlankLinesAppear_thenRecordsStillSplit() throws {
        let table = try CSVTable(bytes: Array("text\rA\r\n\nB".utf8), file: "x.csv")
        #expect(table.records.map { $0.fields[0].text } == ["A", "B"])
        #expect(table.records[1].location.line == 4)
    }

    @Test func whenACSVRowHasNoText_thenTheRowIsReportedAtItsLine() {
        let diagnostics = ListingReader.validate(Data("text,detail\n,x\n".utf8), path: "x.csv")
        #expect(diagnostics.map(\.description) == ["x.csv:2:1: missing required field 'text' in a row"])
    }
}
