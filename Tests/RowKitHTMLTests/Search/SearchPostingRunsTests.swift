import Foundation
import Testing

@testable import RowKitHTML

/// The word–row pairs of the search index merged from spilled runs give every word the rows a
/// naive model gives it, however the runs cut the rows and whatever order section headers come in.
@Suite struct SearchPostingRunsTests {
    /// What one word's rows should be: every row that has it, and the rows that have it outside
    /// their body when some have it in their body only (`nil` otherwise).
    struct Expected: Equatable {
        var all: [UInt32]
        var cell: [UInt32]?
    }

    /// A listing of `rows` rows drawn from a small vocabulary (so words repeat within and across
    /// rows and runs), in sections whose headers' words are added once each section ends, as the
    /// exporter adds them: the calls made to `runs`, and the words the model expects.
    static func feed(_ runs: SearchPostingRuns, rows: Int, seed: UInt64) throws -> [String: Expected] {
        var random = SearchRowSetTests.Seeded(state: seed)
        let vocabulary = (0..<12).map { "w\($0)" }
        var inCell: [String: Set<UInt32>] = [:]
        var inBody: [String: Set<UInt32>] = [:]
        var sectionStart: UInt32 = 0
        func add(_ word: String, inBody body: Bool) throws {
            var word = word
            try word.withUTF8 { try runs.addDistinct($0, inBody: body) }
        }
        func endSection(at end: UInt32) throws {
            guard end > sectionStart else { return }
            for word in vocabulary.shuffled(using: &random).prefix(Int.random(in: 0...2, using: &random)) {
                try runs.add(word, rows: sectionStart..<end)
                for row in sectionStart..<end { inCell[word, default: []].insert(row) }
            }
            sectionStart = end
        }
        for row in 0..<UInt32(rows) {
            if Int.random(in: 0..<8, using: &random) == 0 { try endSection(at: row) }
            runs.beginRow(row)
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                let word = vocabulary.randomElement(using: &random)!
                try add(word, inBody: false)
                inCell[word, default: []].insert(row)
            }
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let word = vocabulary.randomElement(using: &random)!
                try add(word, inBody: true)
                inBody[word, default: []].insert(row)
            }
        }
        try endSection(at: UInt32(rows))
        var expected: [String: Expected] = [:]
        for word in Set(inCell.keys).union(inBody.keys) {
            let cell = inCell[word] ?? []
            let all = cell.union(inBody[word] ?? [])
            expected[word] = Expected(all: all.sorted(), cell: all.count == cell.count ? nil : cell.sorted())
        }
        return expected
    }

    static func merged(_ runs: SearchPostingRuns) throws -> (words: [String], rows: [String: Expected]) {
        var words: [String] = []
        var rows: [String: Expected] = [:]
        try runs.forEachWord { word, wordRows in
            let word = String(decoding: word, as: UTF8.self)
            words.append(word)
            rows[word] = Expected(all: Array(wordRows.all), cell: wordRows.cell.map { Array($0) })
        }
        return (words, rows)
    }

    @Test(arguments: 0..<40)
    func wordsMergedFromRunsHaveTheRowsOfANaiveModel(seed: UInt64) throws {
        // Runs of 3 to 60 pairs: a row's words, and a section's header rows, straddle runs.
        let runs = SearchPostingRuns(pairsPerRun: 3 + Int(seed * 7 % 58))
        let expected = try Self.feed(runs, rows: 40 + Int(seed * 13 % 160), seed: seed)
        #expect(runs.runCount > 1)
        let merged = try Self.merged(runs)
        #expect(merged.words == merged.words.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(merged.rows == expected)
        // The same as all in memory, which sorts instead of merging.
        let inMemory = SearchPostingRuns(pairsPerRun: 1 << 20)
        _ = try Self.feed(inMemory, rows: 40 + Int(seed * 13 % 160), seed: seed)
        #expect(inMemory.runCount == 0)
        #expect(try Self.merged(inMemory).rows == expected)
    }

    /// Every run goes to one file, so that a merge reads them all through one descriptor
    /// however many there are, and their words come out as a naive model says.
    @Test func everyRunIsSpilledToOneFile() throws {
        let runs = SearchPostingRuns(pairsPerRun: 8)
        let expected = try Self.feed(runs, rows: 400, seed: 7)
        #expect(runs.runCount > 50)
        let folder = try #require(runs.folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["runs"])
        #expect(try Self.merged(runs).rows == expected)
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// A run whose file is cut short or damaged is an error that names it, never a crash or a
    /// silent loss.
    @Test func aDamagedRunIsAnError() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.url.appendingPathComponent("run").path
        func reader(of bytes: [UInt8]) throws -> SearchRunReader {
            let file = try SearchRunFile(creating: path)
            try file.write(bytes, at: 0)
            let reader = SearchRunReader(file: file, order: 0, range: 0..<UInt64(bytes.count))
            try reader.nextEntry()
            #expect(reader.hasEntry && reader.word == Array("ab".utf8) && reader.first == 5 && reader.last == 9)
            return reader
        }
        // An entry of the word "ab" with 3 postings, of which only the head was written.
        let cut = try reader(of: [2, 0x61, 0x62, 3, 5, 4])
        #expect(throws: ExportError.self) { try cut.forEachPosting { _ in } }
        // A posting of six bytes, read where the buffer holds whole postings.
        let long = try reader(of: [2, 0x61, 0x62, 3, 5, 4] + Array(repeating: 0x80, count: 6) + [1, 1, 0, 0, 0, 0])
        #expect(throws: ExportError.self) { try long.forEachPosting { _ in } }
    }
}
