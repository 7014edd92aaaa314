import Foundation
import RowKitListing
import Testing

/// What every fixture, example and crafted corpus file reads as (each row with every field and
/// position, or every diagnostic) is pinned in `Fixtures/golden/`, and so are seeded
/// random documents and mutations of valid ones. Any change in what a listing reads as fails here.
///
/// Set `LISTING_UPDATE_GOLDEN=1` to rewrite the golden files from the current output (then review
/// the diff).
struct ReaderGoldenTests {
    static let update = ProcessInfo.processInfo.environment["LISTING_UPDATE_GOLDEN"] == "1"

    static func check(_ actual: String, golden name: String) throws {
        let url = ReaderGolden.folder.appendingPathComponent(name)
        if update {
            try FileManager.default.createDirectory(at: ReaderGolden.folder, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "\(name) differs from its golden file")
    }

    @Test func everyFixtureExampleAndCorpusFileIsCovered() {
        #expect(ReaderGolden.cases.count >= 100)
    }

    @Test(arguments: ReaderGolden.cases)
    func whenAFileIsRead_thenItsRowsOrDiagnosticsMatchTheGoldenFile(item: ReaderGolden.Case) throws {
        try Self.check(ReaderGolden.text(of: item), golden: item.name + ".txt")
    }

    @Test(arguments: ReaderGolden.cases.filter { !$0.name.contains("many-problems") })
    func whenAFileIsReadInTinyPieces_thenItReadsTheSame(item: ReaderGolden.Case) throws {
        let url = ReaderGolden.folder.appendingPathComponent(item.name + ".txt")
        let expected = try String(contentsOf: url, encoding: .utf8)
        for size in [1, 2, 3, 7] {
            #expect(
                ReaderGolden.text(of: item, bufferSize: size) == expected, "\(item.name) read \(size) bytes at a time")
        }
    }

    @Test func whenSeededRandomDocumentsAreRead_thenEachResultMatchesTheGoldenFile() throws {
        var generator = RandomListing(seed: 0x5EED_6012)
        var lines: [String] = []
        for index in 0..<2_000 {
            let (name, text) = generator.next(index)
            let options =
                index % 8 == 3 ? CSVListingOptions(sectionBy: "group", sort: index % 16 == 3) : CSVListingOptions()
            // Every fifth document is read a few bytes at a time, so reads cross every boundary.
            var reader = ListingReader(Data(text.utf8), path: name, csv: options)
            if index % 5 == 4 { reader.bufferSize = 1 + index % 7 }
            lines.append("\(name): \(ReaderGolden.summary(of: reader.document()))")
        }
        try Self.check(lines.joined(separator: "\n") + "\n", golden: "random-documents.txt")
    }

    @Test func whenValidListingsAreMutated_thenEachResultMatchesTheGoldenFile() throws {
        var lines: [String] = []
        for name in [
            "valid/settings.yaml", "valid/settings.json", "valid/contacts.csv", "corpus/derived-conflict.yaml",
        ] {
            var generator = SeededRandom(seed: 0x5EED_1200 &+ UInt64(name.utf8.count))
            let original = [UInt8](ListingFixtures.data(name))
            let alphabet = Array("{}[]:,\"'\\-&*!|>#%@`\n\r\t 0aZ\u{0}".utf8) + [0xC3, 0xFF, 0x80]
            for index in 0..<400 {
                var bytes = original
                for _ in 0..<Int(generator.next() % 4 + 1) where !bytes.isEmpty {
                    let position = Int(generator.next() % UInt64(bytes.count))
                    switch generator.next() % 4 {
                    case 0: bytes[position] = alphabet[Int(generator.next() % UInt64(alphabet.count))]
                    case 1: bytes.remove(at: position)
                    case 2: bytes.insert(alphabet[Int(generator.next() % UInt64(alphabet.count))], at: position)
                    default: bytes.removeSubrange(position...)
                    }
                }
                let options =
                    name.hasSuffix(".csv") && index % 2 == 1
                    ? CSVListingOptions(sectionBy: "group", text: "name", body: "notes") : CSVListingOptions()
                var reader = ListingReader(Data(bytes), path: name, csv: options)
                if index % 5 == 4 { reader.bufferSize = 1 + index % 7 }
                lines.append("\(name) #\(index): \(ReaderGolden.summary(of: reader.document()))")
            }
        }
        try Self.check(lines.joined(separator: "\n") + "\n", golden: "mutations.txt")
    }
}
