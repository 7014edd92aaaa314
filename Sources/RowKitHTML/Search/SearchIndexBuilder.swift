import Foundation
import RowKit
import RowKitListing

/// Builds the search index of one table while its rows stream through the exporter.
///
/// Feed it every row with ``add(_:)``, in the order the listing reader gives them (the index
/// numbers rows by arrival, so that order alone decides the bytes), then call ``finish()``.
/// Everything goes through one `write` function (the site writer, under the table's
/// `search/` folder), so unchanged files keep their bytes and inodes on a re-export like pages.
///
/// The files (see `docs/search.md` for the format and the query):
/// - `r-<n>.js`: the display data of rows `n*g ..< (n+1)*g`, g = ``rowsPerShard`` (128 unless
///   ``setRowsPerShard(_:)`` makes it up to 1,024 for small rows, see
///   ``SearchRowGroupSize``), in listing order: what a result draws (layout, accessory, text,
///   detail, image) and where it leads. Written as soon as g rows have arrived. A group of rows
///   whose data passes ``rowFileBytes`` (rows with large inline bodies) is cut in parts, each
///   closed by the row that brings it to that many bytes: `r-<n>-<k>.js` hold the rows, and
///   `r-<n>.js` only the index in the group of each part's first row (`{"p":[0,…]}`), so that a
///   row's file is still found from its number alone.
/// - `t-.js`, `t-<prefix>.js`, `p-<word>-<n>.js`, `a-<prefix>-<n>.js`: the words, written by
///   ``SearchTrieWriter`` from the word–row pairs, which ``SearchPostingRuns`` keeps in bounded
///   memory (sorted runs spilled to a temporary folder and merged).
///
/// With ``finish(sections:pageSize:)`` it also writes what the one-page list needs
/// (``OnePageIndex``: `s-.js` and `i-<n>.js`).
///
/// Memory: the last row file's rows (a MiB of them at most with ``largeFiles``), a buffer of at most
/// 2^20 word–row pairs, and the open path of the word trie.
final class SearchIndexBuilder {
    /// Rows per row-data file: 128 rows (about 6 KB of a CSV listing's rows, 54 KB with Markdown
    /// bodies) a file keeps a 100,000-row table at 782 row-data files; small rows take more
    /// (``setRowsPerShard(_:)``). Every file of a site costs its creation, which dominates on some
    /// file systems.
    private(set) var rowsPerShard = SearchRowGroupSize.smallest

    /// Makes each row-data file hold `rows` rows (from 128 to 1,024, see ``SearchRowGroupSize``):
    /// before the 128th row's display data comes, so before any row-data file is written.
    func setRowsPerShard(_ rows: Int) {
        precondition(
            rows >= SearchRowGroupSize.smallest && rows <= SearchRowGroupSize.largest, "from 128 to 1,024 rows")
        precondition(
            displayCount < SearchRowGroupSize.smallest && groupParts.isEmpty, "no row-data file is written yet")
        rowsPerShard = rows
    }

    /// The bytes past which a row-data file is closed before its 128 rows (a row is never split):
    /// a group of rows with large inline bodies becomes parts of about this size, not one file of
    /// hundreds of MB that a search result or the one-page list would load whole.
    var rowFileBytes = 1 << 20

    /// The table's key in the browser: the folder's slug, or "" for a single-table site.
    let key: String
    private let write: (_ name: String, _ data: [UInt8]) throws -> Void
    private let pairs: SearchPostingRuns
    private var shard: [UInt8] = []
    /// The ranges of the row-data file being filled that went to ``largeFiles``'s scratch file
    /// (a MiB at a time: rows with large inline bodies).
    private var shardSpilled: [Range<Int>] = []
    /// The row-data file being filled: its header's length, its rows, and its bytes so far.
    private var shardHeader = 0
    private var shardRows = 0
    private var shardBytes = 0
    /// The index in their group of the first rows of the parts written of the group being filled
    /// (empty while it is one file).
    private var groupParts: [Int] = []
    private var onePage = OnePageIndex()
    private(set) var rowCount = 0
    /// Rows whose display data has been added.
    private var displayCount = 0
    /// Bytes of every index file written so far.
    private(set) var bytes = 0
    /// Index files written so far.
    private(set) var files = 0

    /// Creates a builder whose files go through `write` (a name such as `t-it`, without `.js`),
    /// which ``finishWords()`` may call from two threads at once.
    /// `pairsPerRun` bounds the word–row pairs held in memory (tests make it small to exercise
    /// the spilled runs).
    init(key: String, pairsPerRun: Int = 1 << 20, write: @escaping (_ name: String, _ data: [UInt8]) throws -> Void) {
        self.key = key
        pairs = SearchPostingRuns(pairsPerRun: pairsPerRun)
        self.write = write
    }

    /// Adds the next row in listing order: its words and its display data.
    func add(_ row: SearchRow) throws {
        try addWords(row)
        var record = SearchDisplayRecords()
        record.append(row)
        try addDisplay(record)
    }

    /// Adds the next row's words (of its text, detail, header and body), and what the one-page
    /// list counts of it, in listing order;
    /// its display data comes separately, through ``addDisplay(_:)``, in the same order.
    func addWords(_ row: SearchRow) throws {
        let number = UInt32(rowCount)
        pairs.beginRow(number)
        try SearchText.forEachWord(in: row.text) { word in try pairs.addDistinct(word) }
        if let detail = row.detail { try SearchText.forEachWord(in: detail) { word in try pairs.addDistinct(word) } }
        if let header = row.header { try SearchText.forEachWord(in: header) { word in try pairs.addDistinct(word) } }
        if let body = row.body {
            try SearchBodyText.forEachWord(inMarkdown: body) { word in try pairs.addDistinct(word, inBody: true) }
        }
        onePage.add(row, number: rowCount)
        rowCount += 1
    }

    /// Adds the display data of the next rows (see ``SearchDisplayRecords``), in listing order,
    /// writing every row-data file that fills.
    func addDisplay(_ records: SearchDisplayRecords) throws {
        try records.visitRows(in: largeFiles?.scratch) { row in
            if shard.isEmpty && shardSpilled.isEmpty { openShard() } else { shard.append(UInt8(ascii: ",")) }
            shard.append(contentsOf: row)
            shardBytes += row.count + 1
            shardRows += 1
            if let largeFiles, shard.count >= 1 << 20 {
                shardSpilled.append(try largeFiles.scratch.append(shard))
                shard.removeAll(keepingCapacity: true)
            }
            displayCount += 1
            if displayCount % rowsPerShard == 0 {
                try writeShard()
            } else if shardBytes >= rowFileBytes {
                try writePart()
            }
        }
    }

    /// Makes the rows `rows` (numbered by arrival from 0, all added already) found by the words
    /// of `header`, their section's header, as if each row had it as its ``SearchRow/header``.
    func addHeader(_ header: String, rows: Range<UInt32>) throws {
        precondition(rows.upperBound <= UInt32(rowCount), "the rows were added")
        for word in SearchText.distinctWords(in: [header]) {
            try pairs.add(word, rows: rows)
        }
    }

    /// Runs spilled to the temporary folder so far.
    var spilledRuns: Int { pairs.runCount }

    /// Writes the last row shard and the word files, and, given the table's `sections`, the
    /// one-page list's files.
    func finish(sections: OnePageIndex.Sections? = nil, pageSize: Int = 500) throws {
        try finishRows(sections: sections, pageSize: pageSize)
        try finishWords()
    }

    /// Writes the last row shard and, given the table's `sections`, the one-page list's files:
    /// once every row's words and display data are in. `pageFirstRows`: each list page's first
    /// row, when the pages are not all `pageSize` rows long.
    func finishRows(sections: OnePageIndex.Sections? = nil, pageSize: Int = 500, pageFirstRows: [Int]? = nil) throws {
        if let sections {
            try onePage.write(
                sections: sections, rowCount: rowCount, rowsPerShard: rowsPerShard, pageSize: pageSize,
                pageFirstRows: pageFirstRows
            ) { name, build in
                try emit(name, build: build)
            } stream: { name, build in
                try emit(name, streaming: build)
            }
        }
        precondition(displayCount == rowCount, "every row's display data was added")
        if rowCount % rowsPerShard != 0 || rowCount == 0 { try writeShard() }
    }

    /// Writes the word files: once every row's words are in (display data may still come).
    ///
    /// Two threads write a large table's words: the words are cut in up to ``wordParts`` parts
    /// of about equal work where their first character changes (the sorted pairs in memory, or
    /// the spilled runs where their words' first byte changes), each part's subtrees of the trie
    /// are written by a writer of its own, the two threads (this one and one started for it)
    /// taking the parts in order, each the next one left, and the root is written from all of
    /// them. Many small parts rather than two halves: the other threads' last pages share the
    /// cores with the words, so a fixed half could leave one thread the last 40 ms alone. The
    /// files are the same as one writer's.
    func finishWords() throws {
        if parallelWords {
            if let cuts = pairs.splitPoints(parts: Self.wordParts), !cuts.isEmpty {
                let bounds = [0] + cuts + [pairs.pairCount]
                defer { pairs.release() }
                try finishWords(parts: bounds.count - 1) { part, body in
                    try self.pairs.forEachWord(inSortedPairs: bounds[part]..<bounds[part + 1], body)
                }
                return
            }
            if let parts = try pairs.mergeParts(Self.wordParts), parts > 1 {
                defer { pairs.removeRuns() }
                try finishWords(parts: parts) { part, body in try self.pairs.forEachWord(inPart: part, body) }
                return
            }
        }
        var trie = makeTrieWriter()
        try pairs.forEachWord { word, rows in try trie.add(word: word, rows: rows) }
        _ = try trie.finish()
    }

    /// Whether ``finishWords()`` may use a second thread (tests compare the files with and without).
    var parallelWords = true
    /// The parts ``finishWords()`` cut the words into (1 when one thread wrote them).
    private(set) var wordRunCount = 1
    /// Whether ``finishWords()`` wrote the words on two threads.
    var wroteWordsOnTwoThreads: Bool { wordRunCount > 1 }

    private func makeTrieWriter() -> SearchTrieWriter {
        SearchTrieWriter(rowCount: rowCount, rowsPerShard: rowsPerShard) { name, data in
            try self.emit(name, data)
        }
    }

    /// Parts of words ``finishWords()`` cuts the words into, at most.
    static let wordParts = 16

    /// Walks one part of the words: calls its second argument with each word of part `k` and its
    /// rows, in order.
    typealias WordPart = (_ part: Int, _ body: (_ word: [UInt8], _ rows: SearchPostingRuns.WordRows) throws -> Void)
        throws -> Void

    /// The parts of ``finishWords(parts:walk:)`` and their writers, shared by its two threads.
    private final class WordParts: @unchecked Sendable {
        let count: Int
        private let walk: WordPart
        private let makeWriter: () -> SearchTrieWriter
        /// Guards everything below.
        private let lock = NSLock()
        private var next = 0
        private(set) var writers: [SearchTrieWriter?]
        private(set) var error: (any Error)?

        init(count: Int, walk: @escaping WordPart, makeWriter: @escaping () -> SearchTrieWriter) {
            self.count = count
            self.walk = walk
            self.makeWriter = makeWriter
            writers = Array(repeating: nil, count: count)
        }

        /// Writes parts, each the next one no thread has taken, until none is left or one failed.
        func work() {
            while let index = take() {
                var writer = makeWriter()
                do {
                    try walk(index) { word, rows in try writer.add(word: word, rows: rows) }
                    try writer.closeSubtrees()
                    lock.withLock { writers[index] = writer }
                } catch {
                    lock.withLock {
                        if self.error == nil { self.error = error }
                    }
                }
            }
        }

        private func take() -> Int? {
            lock.withLock {
                guard next < count, error == nil else { return nil }
                next += 1
                return next - 1
            }
        }
    }

    /// Writes the words of `count` parts, walked by `walk`, on two threads, and the root.
    private func finishWords(parts count: Int, walk: @escaping WordPart) throws {
        wordRunCount = count
        let parts = WordParts(count: count, walk: walk) { self.makeTrieWriter() }
        let done = DispatchSemaphore(value: 0)
        WorkerThread.start(named: "rowkit-search-words") {
            parts.work()
            done.signal()
        }
        parts.work()
        done.wait()
        if let error = parts.error { throw error }
        _ = try SearchTrieWriter.writeRoot(of: parts.writers.map { $0! })
    }

    /// Writes one file of the index (from either thread of ``finishWords()``).
    private func emit(_ name: String, _ data: [UInt8]) throws {
        try emit(name, reserving: data.count) { $0.append(contentsOf: data) }
    }

    /// Writes one file of the index, its data appended by `build` straight into the file's bytes.
    private func emit(_ name: String, reserving capacity: Int = 0, build: (inout [UInt8]) throws -> Void) throws {
        var file: [UInt8] = []
        file.reserveCapacity(capacity + key.utf8.count + name.utf8.count + 32)
        SearchScript.open(key: key, name: name, into: &file)
        try build(&file)
        SearchScript.close(&file)
        try written(name, file)
    }

    /// Where a file that may be too large to hold in memory (the one-page outline) is put
    /// together, a MiB at a time, and how it is written from there (its name and the ranges of
    /// its bytes); without it, such a file is made in memory like the others.
    var largeFiles: (scratch: ScratchFile, write: (_ name: String, _ ranges: [Range<Int>]) throws -> Void)?

    /// Writes one file of the index, its data appended by `build`, which hands the bytes on to
    /// ``largeFiles`` as they pass a MiB.
    private func emit(_ name: String, streaming build: (inout [UInt8], OnePageIndex.Flush) throws -> Void) throws {
        guard let largeFiles else {
            try emit(name) { file in try build(&file) { _ in } }
            return
        }
        var ranges: [Range<Int>] = []
        var file: [UInt8] = []
        SearchScript.open(key: key, name: name, into: &file)
        try build(&file) { bytes in
            guard bytes.count >= 1 << 20 else { return }
            ranges.append(try largeFiles.scratch.append(bytes))
            bytes.removeAll(keepingCapacity: true)
        }
        SearchScript.close(&file)
        ranges.append(try largeFiles.scratch.append(file))
        try largeFiles.write(name, ranges)
        counters.withLock {
            bytes += ranges.reduce(0) { $0 + $1.count }
            files += 1
        }
    }

    /// Writes `file`, a whole index file, and counts it.
    private func written(_ name: String, _ file: [UInt8]) throws {
        try write(name, file)
        counters.withLock {
            bytes += file.count
            files += 1
        }
    }

    /// Guards ``bytes`` and ``files``.
    private let counters = NSLock()

    /// Writes the row-data file being filled: ``shard`` holds the whole file but its end, or
    /// with rows of large inline bodies, what is not in ``shardSpilled`` yet.
    private func writeShard() throws {
        let group = max(displayCount - 1, 0) / rowsPerShard
        if !groupParts.isEmpty {
            // The group's last part (unless the table's last row closed one), then the group's
            // file: where each part begins.
            if shardRows > 0 { try writePart() }
            var file: [UInt8] = []
            SearchScript.open(key: key, name: "r-\(group)", into: &file)
            file.append(contentsOf: "{\"p\":[\(groupParts.map(String.init).joined(separator: ","))]}".utf8)
            SearchScript.close(&file)
            try written("r-\(group)", file)
            groupParts.removeAll()
            return
        }
        try writeRowFile(named: "r-\(group)")
    }

    /// Writes the rows filled so far as the next part of their group (see ``rowFileBytes``).
    private func writePart() throws {
        let group = (displayCount - 1) / rowsPerShard
        let name = "r-\(group)-\(groupParts.count)"
        groupParts.append(displayCount - shardRows - group * rowsPerShard)
        // The file was begun under its group's name, `r-<n>`: its header now names the part.
        var header: [UInt8] = []
        SearchScript.open(key: key, name: name, into: &header)
        header.append(UInt8(ascii: "["))
        if let largeFiles, let first = shardSpilled.first {
            shardSpilled[0] = first.lowerBound + shardHeader..<first.upperBound
            shardSpilled.insert(try largeFiles.scratch.append(header), at: 0)
        } else {
            shard.replaceSubrange(0..<shardHeader, with: header)
        }
        try writeRowFile(named: name)
    }

    /// Writes the row-data file being filled, under `name`.
    private func writeRowFile(named name: String) throws {
        if shard.isEmpty && shardSpilled.isEmpty { openShard() }
        shard.append(UInt8(ascii: "]"))
        SearchScript.close(&shard)
        shardRows = 0
        shardBytes = 0
        if let largeFiles, !shardSpilled.isEmpty {
            shardSpilled.append(try largeFiles.scratch.append(shard))
            try largeFiles.write(name, shardSpilled)
            counters.withLock {
                bytes += shardSpilled.reduce(0) { $0 + $1.count }
                files += 1
            }
            shardSpilled.removeAll()
        } else {
            try written(name, shard)
        }
        shard.removeAll(keepingCapacity: true)
    }

    /// Begins the row-data file of the next row in ``shard``.
    private func openShard() {
        SearchScript.open(key: key, name: "r-\(displayCount / rowsPerShard)", into: &shard)
        shard.append(UInt8(ascii: "["))
        shardHeader = shard.count
    }
}
