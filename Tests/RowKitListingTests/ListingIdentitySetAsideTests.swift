import Foundation
import RowKit
import Testing

@testable import RowKitListing

/// Explicit ids set aside on disk past a bound (``HashRuns``): the reader finds the same repeats,
/// derives the same ids and reports the same problems as when it remembers every id.
struct ListingIdentitySetAsideTests {
    /// Records every call but progress.
    struct Recorder: ListingVisitor {
        var calls: [String] = []

        mutating func begin(_ header: ListingHeader) { calls.append("begin \(header)") }
        mutating func row(_ row: ListingRow, section: Int) { calls.append("row \(section) \(row)") }
        mutating func endSection(_ section: ListingSection, index: Int) { calls.append("end \(index) \(section)") }
        mutating func abandon() { calls.append("abandon") }
    }

    /// The calls and the summary of reading `reader` with at most `bound` ids in memory.
    private static func read(_ reader: ListingReader, bound: Int) throws -> (calls: [String], summary: String) {
        var reader = reader
        reader.identitiesInMemory = bound
        var recorder = Recorder()
        let summary = try reader.read(into: &recorder)
        return (recorder.calls, "\(summary)")
    }

    @Test func whenValuesAreSetAsideInRuns_thenTheRepeatsAndTheValuesAreThoseAppended() throws {
        var random = SeededRandom(seed: 0x5EED_A51D)
        for runLength in [1, 2, 7, 64] {
            let runs = try #require(HashRuns(runLength: runLength))
            var counts: [UInt64: Int] = [:]
            for _ in 0..<1_000 {
                // Small values repeat often; large ones almost never.
                let value = random.next() % 3 == 0 ? random.next() % 200 : random.next()
                #expect(runs.append(value))
                counts[value, default: 0] += 1
            }
            var seen: [UInt64: Int] = [:]
            #expect(runs.readBack { seen[$0, default: 0] += 1 })
            #expect(seen == counts, "run length \(runLength)")
            #expect(runs.repeated() == Set(counts.filter { $0.value > 1 }.keys), "run length \(runLength)")
            #expect(runs.count == 1_000)
        }
    }

    @Test func whenNothingIsAppended_thenNothingRepeats() throws {
        let runs = try #require(HashRuns(runLength: 4))
        #expect(runs.repeated() == [])
        #expect(runs.readBack { _ in Issue.record("no value") })
    }

    @Test func whenSeededRandomDocumentsAreReadWithFewIDsInMemory_thenEachReadsAsWithTheBound() throws {
        var generator = RandomListing(seed: 0x5EED_1D5A)
        for index in 0..<400 {
            let (name, text) = generator.next(index)
            let reader = ListingReader(Data(text.utf8), path: name)
            let whole = try Self.read(reader, bound: 1 << 19)
            for bound in [1, 2, 3] {
                let setAside = try Self.read(reader, bound: bound)
                #expect(setAside.summary == whole.summary, "\(name), \(bound) in memory")
                // A repeat among ids set aside is found at the end of the pass, so an invalid
                // document may hand out more rows before abandoning them; a valid one hands out
                // exactly the same.
                if !whole.calls.contains("abandon") {
                    #expect(setAside.calls == whole.calls, "\(name), \(bound) in memory")
                }
            }
        }
    }

    /// A CSV listing of 5,000 rows with explicit ids `row-<n>` but the ids `edits` gives (an empty
    /// one is derived from the text), read with 64 ids in memory; expects the summary and the
    /// calls of a read with every id in memory, and returns the reader.
    private static func readAsWithEveryIDInMemory(editing edits: [Int: String]) throws -> ListingReader {
        var text = "id,text\n"
        for row in 0..<5_000 { text += "\(edits[row] ?? "row-\(row)"),Row \(row)\n" }
        let reader = ListingReader(Data(text.utf8), path: "ids.csv")
        let whole = try read(reader, bound: 1 << 19)
        let setAside = try read(reader, bound: 64)
        #expect(setAside.summary == whole.summary)
        if !whole.calls.contains("abandon") { #expect(setAside.calls == whole.calls) }
        return reader
    }

    @Test func whenIDsFarApartRepeat_thenBothPlacesAreNamedAsWithEveryIDInMemory() throws {
        // Rows 10 and 4,990 repeat (in memory and set aside), and 3,000 and 3,001 (both set aside).
        let reader = try Self.readAsWithEveryIDInMemory(editing: [4_990: "row-10", 3_001: "row-3000"])
        let summary = reader.validate()
        #expect(
            summary.diagnostics.map(\.description) == [
                "ids.csv:3003:1: duplicate id 'row-3000'; first used at ids.csv:3002:1",
                "ids.csv:4992:1: duplicate id 'row-10'; first used at ids.csv:12:1",
            ])
    }

    @Test func whenAnIDIsDerivedAfterIDsWereSetAside_thenItIsCheckedAgainstAllOfThem() throws {
        // Row 4,000 has no id, and its text "Row 4000" gives `row-4000`: the explicit id of row
        // 100, which was set aside. The derived id must see it and take a suffix.
        let reader = try Self.readAsWithEveryIDInMemory(editing: [4_000: "", 100: "row-4000"])
        let document = try reader.document().get()
        #expect(document.allRows[4_000].id == "row-4000-2")
    }
}
