import Foundation
import RowKit
import Testing

@testable import RowKitListing

/// Identities set aside on disk past a bound (``HashRuns``, ``HashFilter``): the reader finds the
/// same repeats, derives the same ids and reports the same problems as when it remembers every id.
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

    @Test func whenSortedRunsAreWritten_thenTheyAreFoundMergedAndReadBack() throws {
        var random = SeededRandom(seed: 0x5EED_A51D)
        let runs = try #require(HashRuns())
        var all: [UInt64] = []
        for length in [1, 2, 7, 511, 512, 513, 1_500] {
            // Small values repeat across runs; large ones almost never. Bit 0 is a tag.
            let run = (0..<length).map { _ in random.next() % 3 == 0 ? random.next() % 400 : random.next() }.sorted()
            #expect(runs.append(run: run))
            all += run
        }
        #expect(runs.count == all.count)
        var merged: [UInt64] = []
        #expect(runs.merge(with: [5, 6, 1 << 63]) { merged.append($0) })
        #expect(merged == (all + [5, 6, 1 << 63]).sorted())
        var readBack: [UInt64] = []
        #expect(runs.readBack { readBack.append($0) })
        #expect(readBack == all)
        let present = Set(all.map { $0 & ~1 })
        for value in all.prefix(300) + (0..<300).map({ _ in random.next() }) + (0..<400).map(UInt64.init) {
            let found = runs.find(value, mask: ~1)
            #expect((found != nil) == present.contains(value & ~1), "\(value)")
            if let found { #expect(found & ~1 == value & ~1) }
        }
    }

    @Test func whenNothingIsWritten_thenNothingIsFound() throws {
        let runs = try #require(HashRuns())
        #expect(runs.find(42, mask: ~1) == nil)
        #expect(runs.merge(with: []) { _ in Issue.record("no value") })
    }

    @Test func whenAFilterIsAskedForValuesNeverInserted_thenItRarelySaysMaybe() {
        var random = SeededRandom(seed: 0x5EED_B100)
        var filter = HashFilter(capacity: 100_000)
        let inserted = (0..<100_000).map { _ in random.next() & ~1 }
        for value in inserted { filter.insert(value) }
        #expect(inserted.allSatisfy(filter.mayContain))
        let maybes = (0..<100_000).filter { _ in filter.mayContain(random.next() & ~1) }.count
        #expect(maybes < 1_000, "\(maybes) of 100,000 values never inserted")
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

    @Test(arguments: [true, false])
    func whenManyIDsAreDerivedPastTheBound_thenEachIsAsWithEveryIDInMemory(sameText: Bool) throws {
        // Every text the same: each row's slug is set aside, so the disk is asked for nearly every
        // row until every identity is taken back into memory. Otherwise 4,000 different texts,
        // which the filter answers, then 2,000 of them again, which the disk answers.
        var text = "text\n"
        for row in 0..<6_000 { text += sameText ? "Same\n" : "Row \(row % 4_000)\n" }
        let reader = ListingReader(Data(text.utf8), path: "derived.csv")
        let whole = try Self.read(reader, bound: 1 << 19)
        let setAside = try Self.read(reader, bound: 256)
        #expect(setAside.summary == whole.summary)
        #expect(setAside.calls == whole.calls)
        #expect(whole.calls.contains { $0.contains(sameText ? "same-6000" : "row-1999-2") })
    }

    @Test func whenAnIDIsDerivedAfterIDsWereSetAside_thenItIsCheckedAgainstAllOfThem() throws {
        // Row 4,000 has no id, and its text "Row 4000" gives `row-4000`: the explicit id of row
        // 100, which was set aside. The derived id must see it and take a suffix.
        let reader = try Self.readAsWithEveryIDInMemory(editing: [4_000: "", 100: "row-4000"])
        let document = try reader.document().get()
        #expect(document.allRows[4_000].id == "row-4000-2")
    }
}
