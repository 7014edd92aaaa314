import Foundation
import RowKit
import Testing

@testable import RowKitHTML

/// The search index: folding, the postings encoding, the files a table's rows make, bounded
/// memory through spilled runs, and incremental re-export.
@Suite struct SearchIndexTests {
    /// The index files of `rows` built in memory or through runs of `pairsPerRun` pairs, by name.
    static func build(_ rows: [SearchRow], pairsPerRun: Int = 1 << 20) throws -> (files: [String: [UInt8]], runs: Int) {
        let built = try build(rows, pairsPerRun: pairsPerRun, parallelWords: true)
        return (built.files, built.runs)
    }

    /// The index files of `rows`, with the words written on two threads when `parallelWords` and
    /// the table is large enough (`twoThreads` says whether they were).
    static func build(_ rows: [SearchRow], pairsPerRun: Int = 1 << 20, parallelWords: Bool) throws
        -> (files: [String: [UInt8]], runs: Int, twoThreads: Bool, wordRuns: Int)
    {
        // The word files may come from two threads at once.
        final class Files: @unchecked Sendable {
            let lock = NSLock()
            var files: [String: [UInt8]] = [:]
        }
        let written = Files()
        let builder = SearchIndexBuilder(key: "t", pairsPerRun: pairsPerRun) { name, data in
            written.lock.withLock {
                #expect(written.files[name] == nil, "\(name) written twice")
                written.files[name] = data
            }
        }
        builder.parallelWords = parallelWords
        for row in rows { try builder.add(row) }
        try builder.finish()
        return (written.files, builder.spilledRuns, builder.wroteWordsOnTwoThreads, builder.wordRunCount)
    }

    /// The JSON data of an index file (the argument after key and name).
    static func data(_ file: [UInt8]?) throws -> Any {
        let text = String(decoding: try #require(file), as: UTF8.self)
        let prefix = "RowKitSearch.load(\"t\",\""
        try #require(text.hasPrefix(prefix) && text.hasSuffix(");\n"))
        let afterName = text.dropFirst(prefix.count).drop { $0 != "\"" }.dropFirst(2).dropLast(3)
        return try JSONSerialization.jsonObject(with: Data(afterName.utf8), options: [.fragmentsAllowed])
    }

    /// The node of the root's child `letter`: in the root's file (its `e`), or a file of its own.
    static func rootChild(_ letter: String, in files: [String: [UInt8]]) throws -> [String: Any] {
        let root = try #require(try data(files["t-"]) as? [String: Any])
        let at = try #require((root["k"] as? [String])?.firstIndex(of: letter), "\(letter) is a child of the root")
        if let embedded = root["e"] as? [Any], let child = embedded[at] as? [String: Any] { return child }
        return try #require(try data(files["t-" + SearchScript.fileName(letter.unicodeScalars)]) as? [String: Any])
    }

    /// Decodes a postings string (the inverse of `SearchScript.postings`).
    static func decode(_ text: String) -> [Int] {
        let final = Array("0123456789abcdefghijklmnopqrstuv"), continuing = Array("wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_")
        if text.first == "!" {
            // A bitmap: the first row, then five rows a character.
            var characters = text.dropFirst()
            var first = 0
            while let character = characters.popFirst() {
                if let digit = final.firstIndex(of: character) {
                    first = first * 32 + digit
                    break
                }
                first = first * 32 + continuing.firstIndex(of: character)!
            }
            return characters.enumerated().flatMap { index, character in
                let bits = final.firstIndex(of: character)!
                return (0..<5).filter { bits >> $0 & 1 == 1 }.map { first + index * 5 + $0 }
            }
        }
        var rows: [Int] = [], value = 0, run = false
        for character in text {
            if character == "~" {
                run = true
            } else if let digit = final.firstIndex(of: character) {
                value = value * 32 + digit
                if run {
                    rows += (rows.last! + 1)...(rows.last! + value)
                    run = false
                } else {
                    rows.append(rows.last.map { $0 + value + 1 } ?? value)
                }
                value = 0
            } else {
                value = value * 32 + continuing.firstIndex(of: character)!
            }
        }
        return rows
    }

    /// The rows of `word` read from the files as search.js reads them: down the trie from `t-`,
    /// then the word's entry (inline or chunks) in its leaf, or the interior node's own word.
    static func rows(of word: String, in files: [String: [UInt8]]) throws -> [Int] {
        let letters = Array(word.unicodeScalars)
        var node = try #require(try data(files["t-"]) as? [String: Any])
        var depth = 0
        func list(_ field: [Any], stem: String) throws -> [Int] {
            if let inline = field[1] as? String { return decode(inline) }
            let starts = try #require(field[1] as? [Int])
            return try starts.indices.flatMap { decode(try #require(try data(files["\(stem)-\($0)"]) as? String)) }
        }
        while let children = node["k"] as? [String] {
            let prefix = String(String.UnicodeScalarView(letters[0..<depth]))
            if depth == letters.count {
                guard let exact = node["w"] as? [Any] else { return [] }
                return try list(exact, stem: "p-" + SearchScript.fileName(prefix.unicodeScalars))
            }
            guard let at = children.firstIndex(of: String(letters[depth])) else { return [] }
            if let embedded = node["e"] as? [Any], let child = embedded[at] as? [String: Any] {
                // A small child of the root, in the root's file.
                #expect(depth == 0, "only the root holds children")
                depth += 1
                node = child
                continue
            }
            if let packs = node["f"] as? [Int], packs[at] > 0 {
                // A leaf packed with its siblings': its words are spelled after this node's prefix.
                let name = prefix + children[packs[at] - 1]
                node = try #require(
                    try data(files["t-" + SearchScript.fileName(name.unicodeScalars)]) as? [String: Any])
                #expect(node["k"] == nil, "a pack is a leaf")
                break
            }
            depth += 1
            let next = String(String.UnicodeScalarView(letters[0..<depth]))
            node = try #require(try data(files["t-" + SearchScript.fileName(next.unicodeScalars)]) as? [String: Any])
        }
        let prefix = String(String.UnicodeScalarView(letters[0..<depth]))
        for entry in try #require(node["t"] as? [[Any]]) where prefix + (entry[0] as? String ?? "") == word {
            return try list([entry[1], entry[2]], stem: "p-" + SearchScript.fileName(word.unicodeScalars))
        }
        return []
    }

    static func generated(_ count: Int) -> [SearchRow] {
        (0..<count).map { index in
            SearchRow(
                text: "\(["Alpha", "Beta", "Gamma"][index % 3]) item \(index + 1)", detail: "No. \(index + 1)",
                header: "Section \(index / 1000)", layout: .value1, accessory: .none,
                target: .link("page-1.html#r-\(index + 1)")
            )
        }
    }

    @Test func foldingIgnoresCaseAndDiacriticsAndSpellsOutLettersWithoutDecomposition() {
        #expect(SearchText.words(in: "Crème BRÛLÉE") == ["creme", "brulee"])
        #expect(
            SearchText.words(in: "Straße ẞ Æsir Øresund Łódź Þór") == [
                "strasse", "ss", "aesir", "oresund", "lodz", "thor",
            ])
        #expect(SearchText.words(in: "İstanbul ıI") == ["istanbul", "ii"])
        #expect(SearchText.words(in: "ΟΔΥΣΣΕΥΣ") == ["οδυσσευσ"])
        #expect(SearchText.words(in: "ﬁne Ⅻ ℌ ①") == ["fine", "xii", "h", "1"])
        #expect(SearchText.words(in: "Jane's iPhone, 18.2 (4G) 87%") == ["jane", "s", "iphone", "18", "2", "4g", "87"])
        #expect(SearchText.words(in: "e\u{301}te\u{301} 日本茶") == ["ete", "日本茶"])
        #expect(SearchText.words(in: String(repeating: "ab", count: 20)) == [String(repeating: "ab", count: 12)])
        #expect(SearchText.words(in: String(repeating: "é", count: 30)) == [String(repeating: "e", count: 24)])
    }

    @Test func postingsRoundTripThroughTheirEncoding() {
        var random = SystemRandomNumberGenerator()
        let cases: [[UInt32]] = [
            [], [0], [0, 1, 2, 3], [31, 32, 1023, 1024, 1_000_000, 4_000_000_000],
            (0..<500).map { UInt32($0 * 7) }.filter { _ in Bool.random(using: &random) },
        ]
        for rows in cases {
            var encoded: [UInt8] = []
            SearchScript.postings(rows, into: &encoded)
            let text = String(decoding: encoded.dropFirst().dropLast(), as: UTF8.self)
            #expect(Self.decode(text) == rows.map(Int.init))
        }
        var dense: [UInt8] = []
        SearchScript.postings((0..<1000).map(UInt32.init), into: &dense)
        #expect(String(decoding: dense, as: UTF8.self) == "\"0~_7\"", "a run is the row before it, ~ and its count")
        var everyOther: [UInt8] = []
        SearchScript.postings(stride(from: UInt32(0), to: 2000, by: 2), into: &everyOther)
        #expect(everyOther.count == 1002, "rows a gap of one apart cost one character each")
        // Runs of every length, between gaps of every size, round-trip.
        for _ in 0..<200 {
            var rows: [UInt32] = []
            var row = UInt32.random(in: 0..<50, using: &random)
            for _ in 0..<Int.random(in: 1..<40, using: &random) {
                for _ in 0..<Int.random(in: 1..<8, using: &random) {
                    rows.append(row)
                    row += 1
                }
                row += UInt32.random(in: 1..<100, using: &random)
            }
            var encoded: [UInt8] = []
            SearchScript.postings(rows, into: &encoded)
            #expect(Self.decode(String(decoding: encoded.dropFirst().dropLast(), as: UTF8.self)) == rows.map(Int.init))
        }
        // A string past its limit is not written.
        var limited: [UInt8] = [1]
        #expect(!SearchScript.postings(stride(from: UInt32(0), to: 2000, by: 2), into: &limited, limit: 100))
        #expect(limited == [1])
    }

    @Test func everyWordFindsExactlyItsRowsWhereverItIsStored() throws {
        let rows = Self.generated(20_000)
        let (files, _) = try Self.build(rows)
        #expect(try Self.rows(of: "item", in: files) == Array(0..<20_000))
        #expect(try Self.rows(of: "beta", in: files) == Array(stride(from: 1, to: 20_000, by: 3)))
        #expect(try Self.rows(of: "12345", in: files) == [12_344])
        #expect(try Self.rows(of: "1", in: files) == [0] + Array(1000..<2000), "row 1, and Section 1's rows")
        #expect(try Self.rows(of: "section", in: files).count == 20_000)
        // "19" is row 19's number and the header of rows 19,000 to 19,999.
        #expect(try Self.rows(of: "19", in: files) == [18] + Array(19_000..<20_000))
        #expect(try Self.rows(of: "zeta", in: files) == [])
    }

    @Test func aWordInEveryRowIsOneRunAndLongListsAreCutIntoChunks() throws {
        let rows = Self.generated(100_000)
        let (files, _) = try Self.build(rows)
        let largest = files.max { $0.value.count < $1.value.count }!
        #expect(largest.value.count < 24 * 1024, "\(largest.key) is \(largest.value.count) bytes")
        #expect(files.keys.filter { $0.hasPrefix("p-item-") }.isEmpty, "a word in every row is a run, inline")
        #expect(
            files.keys.filter { $0.hasPrefix("p-alpha-") }.count == 2,
            "33,334 rows three apart: a bitmap, a fifth of a byte a row, in chunks of 12 KB (as gaps, a byte a row)")
        #expect((try Self.data(files["p-alpha-0"]) as? String)?.hasPrefix("!") == true)
        #expect(
            try Self.rows(of: "alpha", in: files)
                == rows.indices.filter { index in SearchText.words(in: rows[index].text).contains("alpha") })
        #expect(files.keys.filter { $0.hasPrefix("r-") }.count == 782, "128 rows per row-data file")
        // A short prefix has its own list of every row under it: one list, not thousands of words.
        let root = try #require(try Self.data(files["t-"]) as? [String: Any])
        #expect(root["n"] as? Int == 100_000 && root["r"] as? Int == 128)
        let nine = try Self.rootChild("9", in: files)
        #expect(files["t-9"] == nil, "a small child of the root is in the root's file")
        let underNine = rows.filter { row in
            [row.text, row.detail ?? "", row.header ?? ""].flatMap(SearchText.words(in:)).contains { $0.hasPrefix("9") }
        }
        #expect((nine["a"] as? [Any])?.first as? Int == underNine.count)
    }

    /// A large table's words are written on two threads, cut in runs where their first character
    /// changes; the files are those of one thread, whether each run's part of the trie's root is
    /// interior or still a leaf when they meet.
    /// 680 rows: the table's last row is a long one that closes a part.
    @Test(arguments: [700, 680])
    func rowGroupsOfLargeRowsAreCutInPartsFoundByTheirRowNumbers(count: Int) throws {
        // Rows of 30 to 20,000 bytes of text, files closed past 8,000 bytes: some groups of 128 rows
        // stay one file, the others are cut (a row is never split, and a part ends with the row that
        // passed the bound).
        let rows = (0..<count).map { index in
            let filler = index % 97 == 0 && index > 256 ? 20_000 : (index / 128) % 2 * 60
            return SearchRow(
                text: "row \(index) " + String(repeating: "x", count: filler),
                layout: .default, accessory: .none, target: .link("page-1.html#r-\(index + 1)"))
        }
        var files: [String: [UInt8]] = [:]
        let builder = SearchIndexBuilder(key: "t") { name, data in files[name] = data }
        builder.rowFileBytes = 8_000
        for row in rows { try builder.add(row) }
        try builder.finish()
        var cut = 0
        for group in 0..<6 {
            let file = try Self.data(files["r-\(group)"])
            var read: [[Any]] = []
            if let whole = file as? [[Any]] {
                read = whole
            } else {
                let starts = try #require((file as? [String: Any])?["p"] as? [Int])
                cut += 1
                #expect(starts.first == 0 && starts == starts.sorted() && Set(starts).count == starts.count)
                for part in starts.indices {
                    let name = "r-\(group)-\(part)"
                    let rows = try #require(try Self.data(files[name]) as? [[Any]])
                    #expect(!rows.isEmpty && read.count == starts[part], "\(name) holds rows from \(starts[part])")
                    // Bounded: the bytes before the last row are under the bound.
                    let before = try JSONSerialization.data(withJSONObject: Array(rows.dropLast()))
                    #expect(before.count < 8_000 + 64, "\(name) is closed by the row that passes the bound")
                    read += rows
                }
            }
            let expected = rows[(group * 128)..<min(group * 128 + 128, rows.count)].map(\.text)
            #expect(read.map { $0[1] as? String } == expected, "group \(group) reads back its rows in order")
        }
        #expect(cut >= 2, "some groups were cut")
        #expect(files["r-0-0"] == nil && files["r-1-0"] != nil, "a group of short rows stays one file")
        // The same rows with the default bound: one file a group, as before.
        var plain: [String: [UInt8]] = [:]
        let whole = SearchIndexBuilder(key: "t") { name, data in plain[name] = data }
        for row in rows { try whole.add(row) }
        try whole.finish()
        #expect(plain.keys.filter { $0.hasPrefix("r-") }.sorted() == (0..<6).map { "r-\($0)" }.sorted())
    }

    @Test func wordsWrittenOnTwoThreadsMakeTheFilesOfOne() throws {
        let letters = ["\u{E9}t\u{E9}", "zebra", "\u{65E5}\u{672C}", "\u{1F600}", "ab", "ba", "9z"]
        let cases: [(String, [SearchRow])] = [
            ("generated", Self.generated(100_000)),
            (
                "unicode first letters",
                (0..<30_000).map { index in
                    SearchRow(
                        text: "\(letters[index % letters.count]) \(letters[(index / 7) % letters.count])\(index % 997)",
                        detail: "w\(index)", header: nil, layout: .value1, accessory: .none,
                        target: .link("#r-\(index)"))
                }
            ),
            (
                // Nearly every word starts with the same letter: the second run is a few small
                // words, and its part of the root is a leaf when the runs meet.
                "one letter",
                (0..<25_000).map { index in
                    SearchRow(
                        text: "a\(index) a\(index + 1) a\(index / 3)", detail: index % 5_000 == 0 ? "zz" : nil,
                        header: nil, layout: .value1, accessory: .none, target: .link("#r-\(index)"))
                }
            ),
        ]
        for (name, rows) in cases {
            let one = try Self.build(rows, parallelWords: false)
            let two = try Self.build(rows, parallelWords: true)
            #expect(!one.twoThreads && two.twoThreads, "\(name)")
            // Many first characters make many runs (up to wordParts); nearly one letter, two.
            #expect(
                name == "one letter"
                    ? two.wordRuns == 2 : two.wordRuns > 2 && two.wordRuns <= SearchIndexBuilder.wordParts,
                "\(name): \(two.wordRuns) runs")
            #expect(one.files.count == two.files.count, "\(name)")
            #expect(one.files == two.files, "\(name)")
            // Merged from spilled runs, cut where the words' first byte changes.
            let spilled = try Self.build(rows, pairsPerRun: 20_000, parallelWords: true)
            #expect(spilled.runs > 2 && spilled.twoThreads, "\(name)")
            #expect(spilled.wordRuns <= SearchIndexBuilder.wordParts, "\(name)")
            #expect(spilled.files == one.files, "\(name)")
        }
        // A small table is written on one thread.
        #expect(try !Self.build(Self.generated(500), parallelWords: true).twoThreads)
    }

    /// The root's small children are in the root's file up to its bound, the rest files of their
    /// own; every word is found either way, and two threads write the same files as one.
    @Test func smallChildrenOfTheRootAreInItsFileUpToItsBound() throws {
        var random = SearchRowSetTests.Seeded(state: 7)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        // 300 first letters (CJK ideographs), three words each: children of a few hundred bytes.
        // The words `z<n>` and `y<n>` make the root interior and the table large enough for two
        // threads.
        let suffixes = (0..<3).map { _ in String((0..<3).map { _ in letters.randomElement(using: &random)! }) }
        var expected: [String: Set<Int>] = [:]
        let rows = (0..<30_000).map { index in
            let word = String(Character(Unicode.Scalar(0x4E00 + index % 300)!)) + suffixes[(index / 300) % 3]
            expected[word, default: []].insert(index)
            return SearchRow(
                text: word + " z\(index)", detail: "y\(index % 1_000)", layout: .default, accessory: .none,
                target: .link("#r-\(index)"))
        }
        expected["z29999"] = [29_999]
        expected["y7"] = Set(stride(from: 7, to: 30_000, by: 1_000))
        let one = try Self.build(rows, parallelWords: false)
        let two = try Self.build(rows, parallelWords: true)
        #expect(two.twoThreads && one.files == two.files)
        let root = try #require(try Self.data(one.files["t-"]) as? [String: Any])
        let children = try #require(root["k"] as? [String])
        let embedded = try #require(root["e"] as? [Any])
        #expect(children.count == 302 && embedded.count == 302)
        let inRoot = embedded.indices.filter { embedded[$0] is [String: Any] }
        let embeddedBytes = try inRoot.reduce(0) {
            $0 + (try JSONSerialization.data(withJSONObject: embedded[$1])).count
        }
        #expect(inRoot.count > 5 && inRoot.count < 300, "\(inRoot.count) children in the root's file")
        #expect(embeddedBytes <= SearchTrieWriter.embedTotalBytes)
        for (index, letter) in children.enumerated() {
            let file = one.files["t-" + SearchScript.fileName(letter.unicodeScalars)]
            #expect((file == nil) == inRoot.contains(index), "\(letter): a file or in the root, not both")
        }
        for (word, rows) in expected {
            #expect(try Self.rows(of: word, in: one.files) == rows.sorted(), "\(word)")
        }
    }

    /// Small leaves of an interior node's consecutive children share pack files, which the
    /// interior node names (`f`); every word is found through them, and two threads write the
    /// same packs as one.
    @Test func smallSiblingLeavesArePackedAndEveryWordIsFoundThroughThePacks() throws {
        var random = SearchRowSetTests.Seeded(state: 36)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        var expected: [String: Set<Int>] = [:]
        let rows = (0..<1_500).map { index in
            // Most words start with "k" (an interior node of 26 children of about 2 KB), the rest anywhere.
            let words = (0..<3).map { _ in
                let first = Int.random(in: 0..<4, using: &random) == 0 ? letters.randomElement(using: &random)! : "k"
                let rest = (0..<Int.random(in: 3...7, using: &random)).map { _ in letters.randomElement(using: &random)!
                }
                return String([first] + rest)
            }
            for word in words { expected[word, default: []].insert(index) }
            return SearchRow(
                text: words.joined(separator: " "), layout: .default, accessory: .none, target: .link("#r-\(index)"))
        }
        let one = try Self.build(rows, parallelWords: false)
        let two = try Self.build(rows, parallelWords: true)
        #expect(one.files == two.files)
        let interior = try Self.rootChild("k", in: one.files)
        let children = try #require(interior["k"] as? [String])
        let packs = try #require(interior["f"] as? [Int], "t-k names its packs")
        #expect(packs.count == children.count)
        let packed = Set(packs.filter { $0 > 0 })
        #expect(packed.count > 1 && packed.count < children.count, "\(packs)")
        for (index, pack) in packs.enumerated() where pack > 0 {
            #expect(pack - 1 <= index, "a pack is named after its first child")
            #expect(
                one.files["t-k" + children[index]] == nil || pack - 1 == index, "a packed leaf has no file of its own")
            let file = try #require(one.files["t-k" + children[pack - 1]])
            #expect(file.count <= SearchTrieWriter.packBytes + 1_024)
        }
        for (word, rows) in expected {
            #expect(try Self.rows(of: word, in: one.files) == rows.sorted(), "\(word)")
        }
        #expect(try Self.rows(of: "kzzzzzzzzz", in: one.files) == [])
    }

    @Test func spilledRunsMergeToTheSameFilesAsMemory() throws {
        let rows = Self.generated(5_000)
        let inMemory = try Self.build(rows)
        let spilled = try Self.build(rows, pairsPerRun: 997)
        #expect(inMemory.runs == 0 && spilled.runs > 20)
        #expect(inMemory.files == spilled.files)
    }

    /// A table that spills keeps runs of half the first run's pairs from then on (less memory
    /// held at the end of a long read), and its words still come out whole and in order.
    @Test func runsAfterTheFirstHoldHalfAsManyPairs() throws {
        let runs = SearchPostingRuns(pairsPerRun: 100)
        for row in 0..<UInt32(1000) {
            runs.beginRow(row)
            for word in ["every", "row-\(row % 7)"] {
                var word = word
                try word.withUTF8 { try runs.addDistinct($0) }
            }
        }
        // 2,000 pairs: 100 in the first run, then 50 a run.
        #expect(runs.runCount == 1 + 1_900 / 50)
        var words: [String: [UInt32]] = [:]
        try runs.forEachWord { word, rows in words[String(decoding: word, as: UTF8.self)] = Array(rows.all) }
        #expect(words["every"] == Array(0..<1000))
        #expect(words["row-3"] == Array(stride(from: 3, to: 1000, by: 7)))
        #expect(words.count == 8)
    }

    @Test func reExportingAfterEditingOneRowKeepsTheOtherIndexFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        let exporter = SiteExporter(ExportOptions(pageSize: 100))
        let first = try exporter.export(SiteExporterTests.numbered(6000), to: site)
        // Rows this small (about 20 bytes) are 800 or more to a row-data file: eight of them, and
        // the word files.
        #expect(first.searchFiles >= 12, "\(first)")
        var table = SiteExporterTests.numbered(6000)
        table.sections[1].rows[7] = AnyRow(Value1Row("Row 1-7", detail: "edited"))
        let second = try exporter.export(table, to: site)
        // The row's list page and row-data file change, and the few word files that hold "edited"
        // or "7"'s rows; everything else keeps its bytes and inode.
        #expect(second.filesWritten <= 8, "\(second)")
        #expect(second.filesUnchanged >= first.filesWritten - 8)
    }

    @Test func withoutSearchThereIsNoIndexNoFieldAndNoScript() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        let summary = try SiteExporter(ExampleTables.options(title: "Examples", search: false)).export(
            ExampleTables.all, to: site)
        #expect(summary.searchFiles == 0 && summary.searchBytes == 0)
        let files = TemporaryFolder.files(in: site)
        #expect(!files.contains { $0.contains("search") })
        for file in files where file.hasSuffix(".html") {
            let html = try String(contentsOf: site.appendingPathComponent(file), encoding: .utf8)
            #expect(!html.contains("<script") && !html.contains("role=\"search\""), "\(file)")
        }
    }

    @Test func longIndexStringsReadBackAsTheSameText() throws {
        // Longer than the escaping's scratch buffer, with escapes and plain runs of every length
        // around where it fills.
        var state: UInt64 = 0x10C0
        for length in [1000, 1023, 1024, 1025, 3000] {
            var text = ""
            while text.utf8.count < length {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                switch state >> 61 {
                case 0: text += "<"
                case 1: text += "\u{2028}"
                case 2: text += String(repeating: "x", count: Int(state >> 33) % 1500)
                case 3: text += "é\n\""
                default: text += String(repeating: "a", count: Int(state >> 33) % 9)
                }
            }
            var output: [UInt8] = []
            SearchScript.string(text, into: &output)
            let decoded = try JSONSerialization.jsonObject(with: Data(output), options: .fragmentsAllowed) as? String
            #expect(decoded == text, "length \(length)")
            #expect(!String(decoding: output, as: UTF8.self).contains("<"))
        }
    }

    @Test func indexStringsAreEscapedForScripts() {
        var output: [UInt8] = []
        SearchScript.string("</script><b>\"x\"\\ & \u{2028}\u{1}é", into: &output)
        #expect(
            String(decoding: output, as: UTF8.self)
                == "\"\\u003c/script>\\u003cb>\\\"x\\\"\\\\ & \\u2028\\u0001é\"")
    }

    @Test func indexStringsReadBackAsTheSameTextAndNeverOpenMarkupOrEndLines() throws {
        // Seeded random strings over the characters the escaping treats specially and their
        // neighbours (E2 80 xx, other multi-byte characters), read back as JSON.
        let alphabet: [Character] = [
            "a", "é", "<", ">", "&", "\"", "\\", "\n", "\u{1}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "\u{2027}",
            "\u{202A}", "\u{20AC}", "€", "🙂", " ", "/",
        ]
        var state: UInt64 = 0x5EED
        for _ in 0..<500 {
            var text = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<Int(state >> 59) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.append(alphabet[Int(state >> 33) % alphabet.count])
            }
            var output: [UInt8] = []
            SearchScript.string(text, into: &output)
            let decoded = try JSONSerialization.jsonObject(with: Data(output), options: .fragmentsAllowed) as? String
            #expect(decoded == text)
            let raw = String(decoding: output, as: UTF8.self)
            // No `<`, so no tag or comment even in a file read as HTML; `>` and `&` open neither.
            #expect(!raw.contains("<"))
            #expect(!raw.contains("\u{2028}") && !raw.contains("\u{2029}") && !raw.contains("\n"))
        }
    }
}
