import Foundation
import RowKit
import RowKitListing
import Testing

/// The stream a ``ListingVisitor`` sees: sections and rows in document order, each pass started by
/// `begin`, and what turns out void abandoned.
struct ListingVisitorTests {
    /// Records every call.
    struct Recorder: ListingVisitor {
        var events: [String] = []

        mutating func begin(_ header: ListingHeader) { events.append("begin \(header.title) \(header.style)") }
        mutating func row(_ row: ListingRow, section: Int) { events.append("row \(section) \(row.id)") }
        mutating func endSection(_ section: ListingSection, index: Int) {
            events.append("end \(index) \(section.header ?? "-") \(section.footer ?? "-") \(section.indexTitle ?? "-")")
        }
        mutating func abandon() { events.append("abandon") }
    }

    private func read(_ text: String, path: String, csv: CSVListingOptions = .init()) throws -> (
        ListingSummary, [String]
    ) {
        var recorder = Recorder()
        let summary = try ListingReader(Data(text.utf8), path: path, csv: csv).read(into: &recorder)
        return (summary, recorder.events)
    }

    @Test func whenAListingIsValid_thenItsSectionsAndRowsComeInOrderInOnePass() throws {
        let yaml = """
            title: T
            style: plain
            sections:
              - header: A
                rows: [{text: One}, {text: Two}]
                footer: After A
              - rows: []
                index: B
            """
        let (summary, events) = try read(yaml, path: "t.yaml")
        #expect(events == ["begin T plain", "row 0 one", "row 0 two", "end 0 A After A -", "end 1 - - B"])
        #expect(summary.isValid && summary.passes == 1 && summary.sectionCount == 2 && summary.rowCount == 2)
    }

    @Test func whenATitleFollowsTheRowsOutOfSightOfTheEnd_thenTheRowsAreHandedOutAgainWithIt() throws {
        // The title is not in the last 64 KiB, so the first pass guesses the file name.
        let yaml = "sections:\n  - rows: [{text: One}]\ntitle: Late\n" + String(repeating: "# padding\n", count: 7_000)
        let (summary, events) = try read(yaml, path: "guess.yaml")
        #expect(
            events == [
                "begin guess insetGrouped", "row 0 one", "end 0 - - -", "abandon", "begin Late insetGrouped",
                "row 0 one", "end 0 - - -",
            ])
        #expect(summary.header.title == "Late" && summary.passes == 2)
    }

    @Test func whenATitleFollowsTheRowsNearTheEnd_thenTheFirstPassGuessesIt() throws {
        let json = #"{"sections": [{"rows": [{"text": "One"}]}], "style": "grouped", "title": "Sorted \"keys\""}"#
        let (summary, events) = try read(json, path: "s.json")
        #expect(events == [#"begin Sorted "keys" grouped"#, "row 0 one", "end 0 - - -"])
        #expect(summary.passes == 1)
    }

    @Test func whenAnExplicitIDFurtherDownTakesADerivedOne_thenTheRowsAreHandedOutAgain() throws {
        let yaml = "sections:\n  - rows:\n      - text: Foo\n      - id: foo\n        text: Bar\n"
        let (summary, events) = try read(yaml, path: "ids.yaml")
        #expect(
            events == [
                "begin ids insetGrouped", "row 0 foo", "abandon", "begin ids insetGrouped", "row 0 foo-2", "row 0 foo",
                "end 0 - - -",
            ])
        #expect(summary.passes == 2)
    }

    @Test func whenAProblemIsFound_thenNothingMoreIsHandedOutAndEveryProblemIsReported() throws {
        let yaml =
            "sections:\n  - rows:\n      - text: One\n      - detail: no text\n      - text: Three\n      - text: [x]\n"
        let (summary, events) = try read(yaml, path: "p.yaml")
        #expect(events == ["begin p insetGrouped", "row 0 one", "abandon"])
        #expect(
            summary.diagnostics.map(\.description) == [
                "p.yaml:4:9: missing required field 'text' in a row",
                "p.yaml:6:15: 'text' must be a string, found a sequence",
            ])
    }

    @Test func whenRepeatedIDsAreFound_thenASecondLookNamesBothPlaces() throws {
        let yaml =
            "sections:\n  - rows:\n      - {id: a, text: One}\n      - {id: b, text: Two}\n      - {id: a, text: Three}\n"
        let (summary, _) = try read(yaml, path: "d.yaml")
        #expect(summary.diagnostics.map(\.description) == ["d.yaml:5:14: duplicate id 'a'; first used at d.yaml:3:14"])
        #expect(summary.passes == 2)
    }

    @Test func whenCSVRowsAlternateBetweenSections_thenTheSecondPassReadsTheFileAtMostOncePerSection() throws {
        // 20,000 rows in five sections, one row per run: the grouped pass visits 20,000 runs. It
        // used to read a whole buffer (up to 1 MiB, here the rest of the file) at each one: some
        // 10,000 times the file. Now at most once per section, beside the first pass's two reads of
        // a file this small (opening the input reads its first buffer, and the pass starts over).
        var csv = "text,g\n"
        for row in 0..<20_000 { csv += "row \(row),S\(row % 5)\n" }
        let (summary, events) = try read(csv, path: "g.csv", csv: CSVListingOptions(sectionBy: "g"))
        #expect(summary.isValid && summary.passes == 2 && summary.rowCount == 20_000)
        let lastPass = events.split(separator: "abandon").last ?? []
        #expect(
            lastPass.filter { $0.hasPrefix("row ") }.map { $0.split(separator: " ")[1] }
                == (0..<5).flatMap { section in
                    Array(repeating: Substring("\(section)"), count: 4_000)
                })
        #expect(
            summary.bytesRead <= (2 + 5) * summary.byteCount,
            "read \(summary.bytesRead) bytes of a \(summary.byteCount)-byte file in \(summary.passes) passes")
    }

    @Test func whenCSVSectionsAreNotContiguous_thenRowsAreHandedOutSectionBySection() throws {
        let csv = "g,text\nB,One\nA,Two\nB,Three\n"
        let (summary, events) = try read(csv, path: "g.csv", csv: CSVListingOptions(sectionBy: "g"))
        #expect(
            events == [
                "begin g insetGrouped", "row 0 one", "end 0 B - -", "row 1 two", "abandon",
                "begin g insetGrouped", "row 0 one", "row 0 three", "end 0 B - -", "row 1 two", "end 1 A - -",
            ])
        #expect(summary.passes == 2)
    }

    @Test func whenCSVSectionsAreAlreadyInOrder_thenOnePassIsEnough() throws {
        let csv = "g,text\nA,One\nA,Two\nB,Three\n"
        let (summary, events) = try read(csv, path: "g.csv", csv: CSVListingOptions(sectionBy: "g", sort: true))
        #expect(
            events == ["begin g insetGrouped", "row 0 one", "row 0 two", "end 0 A - -", "row 1 three", "end 1 B - -"])
        #expect(summary.passes == 1)
    }
}
