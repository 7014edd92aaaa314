import Foundation
import RowKit
import Testing

@testable import RowKitListing

/// CSV listings: RFC 4180 parsing, column mapping, sections and sorting.
struct ListingCSVTests {
    private let contacts = ListingFixtures.data("valid/contacts.csv")

    /// Every record of `data`, header first, read in buffers of `capacity` bytes.
    private func records(_ data: Data, capacity: Int = 1 << 20) throws -> [CSVRecordReader.Record] {
        let input = ListingInput(data: data, path: "c.csv", capacity: capacity)
        let reader = CSVRecordReader(input: input, file: "c.csv")
        var all: [CSVRecordReader.Record] = []
        while let record = try reader.next() { all.append(record) }
        return all
    }

    @Test func whenFieldsAreQuoted_thenDoubledQuotesCommasAndLineBreaksSurvive() throws {
        for capacity in [1 << 20, 5, 1] {
            let all = try records(contacts, capacity: capacity)
            #expect(all[0].fields.map(\.text) == ["group", "name", "phone", "notes"])
            #expect(all.count == 4)
            #expect(all[1].fields[3].text == "Met at \"the\" park,\r\nin 2019")
            #expect(all[2].line == 4)
            #expect(all[2].fields[1].column == 6)
        }
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
        #expect(document.allRows.map(\.accessory) == [.disclosureIndicator, .checkmark, Accessory.none])
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
        #expect(
            diagnostics.map(\.description) == [
                "x.csv:1:1: the detail column 'phone' is not in the header; the header has: 'text', 'detail'",
                "x.csv:1:1: the section column 'team' is not in the header; the header has: 'text', 'detail'",
            ])
    }

    @Test func whenAHeaderIsSeparatedBySemicolonsOrTabs_thenTheErrorSaysFieldsAreSeparatedByCommas() {
        let semicolons = ListingReader.validate(Data("text;style\r\nA;value1\r\n".utf8), path: "s.csv")
        #expect(
            semicolons.map(\.description) == [
                "s.csv:1:1: the text column 'text' is not in the header; the header has: 'text;style' "
                    + "(one column: fields are separated by commas, not by ';')"
            ])
        let tabs = ListingReader.validate(Data("text\tstyle\nA\tvalue1\n".utf8), path: "t.csv")
        #expect(
            tabs.map(\.description) == [
                #"t.csv:1:1: the text column 'text' is not in the header; the header has: 'text\u{9}style' "#
                    + #"(one column: fields are separated by commas, not by '\u{9}')"#
            ])
    }

    @Test func whenAHeaderNameDiffersOnlyInCaseOrSpaces_thenTheErrorSuggestsIt() {
        let options = CSVListingOptions(sectionBy: "group")
        let diagnostics = ListingReader.validate(Data("Text, group\nA,B\n".utf8), path: "x.csv", csv: options)
        #expect(
            diagnostics.map(\.description) == [
                "x.csv:1:1: the text column 'text' is not in the header; the header has: 'Text', ' group' "
                    + "(did you mean 'Text'? names must match exactly)",
                "x.csv:1:1: the section column 'group' is not in the header; the header has: 'Text', ' group' "
                    + "(did you mean ' group'? names must match exactly)",
            ])
    }

    @Test func whenAColumnTheListingIgnoresRepeats_thenItIsNoProblem() throws {
        // A spreadsheet's export with trailing empty columns, and two columns of notes.
        let csv = "text,style,notes,notes,,\r\nA,value1,x,y,,\r\nB,,,,,\r\n"
        let document = try ListingReader.read(Data(csv.utf8), path: "s.csv")
        #expect(document.allRows.map(\.text) == ["A", "B"])
        #expect(document.allRows.map(\.style) == [.value1, .default])
    }

    @Test func whenAColumnTheListingReadsRepeats_thenEachRepeatIsAnError() {
        let options = CSVListingOptions(sectionBy: "group", detail: "phone")
        let csv = "text,,,group,phone,group,phone,text\nA,,,g,1,g,1,A\n"
        #expect(
            ListingReader.validate(Data(csv.utf8), path: "d.csv", csv: options).map(\.description) == [
                "d.csv:1:20: duplicate column 'group' in the header",
                "d.csv:1:26: duplicate column 'phone' in the header",
                "d.csv:1:32: duplicate column 'text' in the header",
            ])
    }

    @Test func whenLinesEndInCROnlyOrBlankLinesAppear_thenRecordsStillSplit() throws {
        let all = try records(Data("text\rA\r\n\nB".utf8))
        #expect(all.dropFirst().map { $0.fields[0].text } == ["A", "B"])
        #expect(all[2].line == 4)
    }

    @Test func whenACSVRowHasNoText_thenTheRowIsReportedAtItsLine() {
        let diagnostics = ListingReader.validate(Data("text,detail\n,x\n".utf8), path: "x.csv")
        #expect(diagnostics.map(\.description) == ["x.csv:2:1: missing required field 'text' in a row"])
    }

    @Test func whenACSVHasOnlyAHeader_thenItIsReportedWhereTheRowsShouldStart() {
        let message = "the CSV has a header but no rows; a CSV listing needs at least one row"
        for (csv, position) in [("text\n", "2:1"), ("text\r\n\n\n", "2:1"), ("text", "1:5"), ("\"te\nxt\"\n", "3:1")] {
            let options = CSVListingOptions(text: csv.hasPrefix("\"") ? "te\nxt" : "text")
            let diagnostics = ListingReader.validate(Data(csv.utf8), path: "h.csv", csv: options)
            #expect(diagnostics.map(\.description) == ["h.csv:\(position): \(message)"], "\(csv.debugDescription)")
        }
    }
}
