import CFileSwap
import Foundation
import RowKitListing

/// Word–row pairs in bounded memory: kept in a buffer, sorted and spilled as a run to a file in a
/// temporary folder when the buffer is full (every run to the same file, ``SearchRunFile``), and
/// read back as one stream sorted by word (UTF-8 bytes) and then row, merging the runs.
///
/// The merge takes the least word from all runs with its rows from each (``SearchRunReader``), so
/// every word's rows come out ascending whatever order the pairs were added in (a section's header
/// words are added for its rows once the section ends); a pair added twice comes out once.
///
/// A row comes out as a *posting*: the row number times two, plus one when the word is in the
/// row's body only (``posting(_:inBody:)``), so that search ranks rows that show the word in their
/// cell first. A row that has the word in its body and elsewhere comes out once, as not in the body.
final class SearchPostingRuns {
    /// Pairs held before the first run is spilled (2^20 by default): a table with fewer is
    /// sorted and written from memory, its words on two threads (``splitPoints(parts:minimumPairs:)``).
    let pairsPerRun: Int
    /// Pairs held before each later run is spilled: half of ``pairsPerRun``. Past the first run
    /// the table is a large one whose words are merged from runs anyway, and the buffer, its
    /// sorted copy and its words' table are what the index holds at the end of a long read
    /// (beside the listing's identities): halving them took 11 MB off the peak of a
    /// 10,000,000-row export, for twice as many runs to merge.
    private var pairsPerLaterRun: Int { max(1, pairsPerRun / 2) }
    /// Pairs held before the next run is spilled.
    private var spillAt: Int

    init(pairsPerRun: Int = 1 << 20) {
        self.pairsPerRun = pairsPerRun
        spillAt = pairsPerRun
    }

    /// The pairs held in memory and their words (one stored value: see ``HeldPairs``).
    private var held = HeldPairs()
    private var runs: [Run] = []
    /// The temporary folder of ``runFile``, once a run is spilled.
    private(set) var folder: URL?
    /// The file the runs are spilled to, one after the other, and its length.
    private var runFile: SearchRunFile?
    private var runFileLength: UInt64 = 0

    /// A spilled run: where in ``runFile`` the words of each first byte begin (`leads[b]`: the
    /// offset of the run's first entry whose word's first byte is `b` or more; `leads[256]`: the
    /// run's end), so that a merge can be cut where the first byte changes.
    private struct Run {
        var leads: [UInt64]
    }

    /// The first bytes at which ``mergeParts(_:)`` cut the words: part `k` holds the words whose
    /// first byte is in `partLeads[k]..<partLeads[k + 1]`.
    private var partLeads: [Int] = [0, 256]

    fileprivate struct Pair {
        /// The word's index in ``SearchPostingRuns/words``.
        var word: UInt32
        var row: UInt32
    }

    deinit {
        runFile = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs spilled so far (for tests and figures).
    private(set) var runCount = 0

    /// The posting of `row`: the row number times two, plus one for a word in its body only.
    static func posting(_ row: UInt32, inBody: Bool) -> UInt32 { row << 1 | (inBody ? 1 : 0) }

    /// The row of a posting.
    static func row(_ posting: UInt32) -> UInt32 { posting >> 1 }

    /// Starts the words of `row`, for ``addDistinct(_:inBody:)``.
    func beginRow(_ row: UInt32) {
        held.currentRow = row
    }

    /// Adds `word` (UTF-8 bytes) of the row of the last ``beginRow(_:)`` (of its body when
    /// `inBody`), unless it was added for that row already (a repeat would come out once anyway:
    /// this only saves the buffer). A row's words other than its body's come first.
    func addDistinct(_ word: UnsafeBufferPointer<UInt8>, inBody: Bool = false) throws {
        if held.addDistinct(word, inBody: inBody) >= spillAt { try spill() }
    }

    /// Adds one word of each of `rows`.
    func add(_ word: String, rows: Range<UInt32>) throws {
        var word = word
        var index = word.withUTF8 { held.intern($0) }
        for row in rows {
            held.pairs.append(Pair(word: index, row: Self.posting(row, inBody: false)))
            if held.pairs.count >= spillAt {
                try spill()
                index = word.withUTF8 { held.intern($0) }
            }
        }
    }

    /// Work of a word in the trie writer, in pairs (a measured guess: a word's entry costs about
    /// as much as this many rows of postings).
    private static let wordCost = 32

    /// When every pair is in memory (no run was spilled) and there are at least `minimumPairs`:
    /// sorts them and returns where to cut them into at most `parts` runs of about equal work (see
    /// ``forEachWord(inSortedPairs:_:)``), each cut where the words' first character changes, so
    /// that each run holds whole subtrees of the word trie's root: the indices that start the second
    /// run, the third and so on, ascending (empty when no character boundary helps); `nil`
    /// otherwise.
    func splitPoints(parts: Int, minimumPairs: Int = 1 << 16) -> [Int]? {
        guard runs.isEmpty, held.pairs.count >= minimumPairs, parts > 1 else { return nil }
        sortPairs()
        // The words interned since the last spill (none was): the words of the pairs.
        let total = held.pairs.count + Self.wordCost * held.words.count
        // For each cut k (1..<parts), the boundary nearest to k / parts of the work.
        var best = [(index: Int, distance: Int)?](repeating: nil, count: parts)
        var cost = 0
        let pairs = held.pairs
        let words = held.words
        held.bytes.withUnsafeBufferPointer { base in
            for index in pairs.indices {
                let isNewWord = index == 0 || pairs[index].word != pairs[index - 1].word
                if isNewWord && index > 0
                    && !Self.sameFirstScalar(words[Int(pairs[index - 1].word)], words[Int(pairs[index].word)], base)
                {
                    // One look per first character of the words, so every cut is looked at.
                    for cut in 1..<parts {
                        let distance = abs(total * cut - parts * cost)
                        if best[cut] == nil || distance < best[cut]!.distance { best[cut] = (index, distance) }
                    }
                }
                cost += 1 + (isNewWord ? Self.wordCost : 0)
            }
        }
        return Array(Set(best.compactMap { $0?.index })).sorted()
    }

    /// Whether words `first` and `second` (places in `base`) start with the same character.
    private static func sameFirstScalar(
        _ first: (offset: UInt32, length: UInt32), _ second: (offset: UInt32, length: UInt32),
        _ base: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard first.length > 0, second.length > 0 else { return first.length == second.length }
        let lead = base[Int(first.offset)]
        guard lead == base[Int(second.offset)] else { return false }
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard first.length >= length, second.length >= length else { return false }
        for offset in 1..<length where base[Int(first.offset) + offset] != base[Int(second.offset) + offset] {
            return false
        }
        return true
    }

    /// The number of pairs held (sorted, after ``splitPoints(parts:minimumPairs:)``).
    var pairCount: Int { held.pairs.count }

    /// Calls `body` for every word of the sorted pairs in `range` (cut where a word starts), with
    /// its rows (``WordRows``). Two ranges may be walked at once, each on a thread of its own:
    /// this only reads.
    func forEachWord(inSortedPairs range: Range<Int>, _ body: (_ word: [UInt8], _ rows: WordRows) throws -> Void)
        throws
    {
        // A local reference to the pairs: reading the property for each pair is a dynamic
        // exclusivity check each time.
        let pairs = held.pairs
        var start = range.lowerBound
        while start < range.upperBound {
            let first = pairs[start]
            var rows = WordRows()
            rows.add(first.row)
            var end = start + 1
            while end < range.upperBound, pairs[end].word == first.word {
                rows.add(pairs[end].row)
                end += 1
            }
            try body(Array(word(first.word)), rows)
            start = end
        }
    }

    /// The rows of one word, from its postings in ascending order: every row, and when some rows
    /// have the word in their body only, the rows that have it elsewhere (``cell``). Each a
    /// ``SearchRowSet``, so that a word in every row of a large table takes a bitmap, not a list.
    struct WordRows {
        private(set) var all = SearchRowSet()
        /// The rows that have the word outside their body, when they are not ``all``.
        private(set) var cell: SearchRowSet? = nil

        /// Adds the next posting (see ``SearchPostingRuns/posting(_:inBody:)``); a row's second
        /// posting (in its body, after one outside it) is left out.
        mutating func add(_ posting: UInt32) {
            let row = SearchPostingRuns.row(posting)
            if all.last == row { return }
            if posting & 1 == 1 && cell == nil { cell = all }
            all.append(row)
            if posting & 1 == 0 { cell?.append(row) }
        }
    }

    /// Frees the buffer once its words have been walked.
    func release() {
        held.pairs = []
        held.bytes = []
        held.words = []
        held.stamps = []
    }

    /// The bytes of word `index`.
    private func word(_ index: UInt32) -> ArraySlice<UInt8> {
        let word = held.words[Int(index)]
        return held.bytes[Int(word.offset)..<Int(word.offset + word.length)]
    }

    /// Sorts the pairs by word (UTF-8 bytes), then row: the distinct words are sorted, and the
    /// pairs are placed by their word's rank (a counting sort), which keeps each word's rows in
    /// the order they were added, ascending but for a section header's (sorted then).
    private func sortPairs() {
        // Local references to the held arrays (as in ``forEachWord(inSortedPairs:_:)``); the
        // pairs are replaced at the end, when these are the only other references.
        let words = held.words
        let pairs = held.pairs
        let order = sortedWords()
        var rank = [Int](repeating: 0, count: words.count)
        for (position, index) in order.enumerated() { rank[Int(index)] = position }
        var starts = [Int](repeating: 0, count: words.count + 1)
        for pair in pairs { starts[rank[Int(pair.word)] + 1] += 1 }
        for position in 0..<words.count { starts[position + 1] += starts[position] }
        var next = starts
        var sorted = [Pair](repeating: Pair(word: 0, row: 0), count: pairs.count)
        for pair in pairs {
            let position = rank[Int(pair.word)]
            sorted[next[position]] = pair
            next[position] += 1
        }
        for position in 0..<words.count {
            let range = starts[position]..<starts[position + 1]
            var ascending = true
            var previous: UInt32? = nil
            for pair in sorted[range] {
                if let previous, pair.row < previous {
                    ascending = false
                    break
                }
                previous = pair.row
            }
            if !ascending { sorted[range].sort { $0.row < $1.row } }
        }
        held.pairs = sorted
    }

    /// The indices of the held words, in UTF-8 byte order of the words.
    private func sortedWords() -> [UInt32] {
        let words = held.words
        var order = Array(0..<UInt32(words.count))
        held.bytes.withUnsafeBufferPointer { base in
            order.sort { a, b in
                let first = words[Int(a)]
                let second = words[Int(b)]
                let shorter = Int(min(first.length, second.length))
                let compared =
                    shorter == 0
                    ? 0 : memcmp(base.baseAddress! + Int(first.offset), base.baseAddress! + Int(second.offset), shorter)
                if compared != 0 { return compared < 0 }
                return first.length < second.length
            }
        }
        return order
    }

    /// The held pairs in the order ``sortPairs()`` gives them, for a spilled run, in less memory:
    /// the words in UTF-8 byte order (`order`, indices into ``HeldPairs/words``) and the postings
    /// alone, grouped by word in that order, each word's ascending (word `order[k]`'s are
    /// `postings[starts[k]..<starts[k + 1]]`). A copy of 4 bytes a pair instead of 8, and the
    /// counting sort's one cursor a word in 32 bits, in the words' ``HeldPairs/stamps`` (which a
    /// spill empties anyway): at 2^20 pairs a run, these copies were a third of what the index
    /// held at its peak.
    private func sortedPostings() -> (order: [UInt32], starts: [UInt32], postings: [UInt32]) {
        let order = sortedWords()
        let pairs = held.pairs
        // The rank of each word, in its stamp's place.
        var rank = held.stamps
        held.stamps = []
        for (position, index) in order.enumerated() { rank[Int(index)] = UInt32(position) }
        // Each word's end, then (placing its pairs from the last, each one place back) its start.
        var starts = [UInt32](repeating: 0, count: order.count + 1)
        for pair in pairs { starts[Int(rank[Int(pair.word)]) + 1] += 1 }
        for position in 0..<order.count { starts[position + 1] += starts[position] }
        var postings = [UInt32](repeating: 0, count: pairs.count)
        postings.withUnsafeMutableBufferPointer { postings in
            for pair in pairs.reversed() {
                let position = Int(rank[Int(pair.word)]) + 1
                starts[position] -= 1
                postings[Int(starts[position])] = pair.row
            }
            // `starts[k + 1]` is word k's start now: shift them down to their places.
            for position in 0..<order.count { starts[position] = starts[position + 1] }
            starts[order.count] = UInt32(pairs.count)
            for position in 0..<order.count {
                let range = Int(starts[position])..<Int(starts[position + 1])
                var ascending = true
                var previous: UInt32? = nil
                for row in postings[range] {
                    if let previous, row < previous {
                        ascending = false
                        break
                    }
                    previous = row
                }
                if !ascending { postings[range].sort() }
            }
        }
        rank.removeAll(keepingCapacity: true)
        held.stamps = rank
        return (order, starts, postings)
    }

    private func spill() throws {
        let (order, starts, postings) = sortedPostings()
        if folder == nil {
            let made = FileManager.default.temporaryDirectory
                .appendingPathComponent(
                    "rowkit-search-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            do {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            } catch {
                throw ExportError.fileSystem(operation: "create folder", path: made.path, message: "\(error)")
            }
            folder = made
        }
        let file: SearchRunFile
        if let runFile {
            file = runFile
        } else {
            file = try SearchRunFile(creating: folder!.appendingPathComponent("runs").path)
            runFile = file
        }
        // Written a chunk at a time, so that the encoded run is never whole in memory beside the
        // pairs it comes from.
        var chunk: [UInt8] = []
        chunk.reserveCapacity(Self.chunkBytes)
        var flushed = runFileLength
        var leads = [UInt64](repeating: 0, count: 257)
        var nextLead = 0
        func flush() throws {
            try file.write(chunk, at: flushed)
            flushed += UInt64(chunk.count)
            chunk.removeAll(keepingCapacity: true)
        }
        // One entry a word (see ``SearchRunReader``): its postings ascending, the first and the
        // last in its head.
        for position in order.indices {
            let range = Int(starts[position])..<Int(starts[position + 1])
            guard let firstIndex = range.first else { continue }
            let word = word(order[position])
            let lead = word.first.map(Int.init) ?? 0
            while nextLead <= lead {
                leads[nextLead] = flushed + UInt64(chunk.count)
                nextLead += 1
            }
            Self.appendVarint(UInt32(word.count), to: &chunk)
            chunk.append(contentsOf: word)
            Self.appendVarint(UInt32(range.count), to: &chunk)
            var previous = postings[firstIndex]
            Self.appendVarint(previous, to: &chunk)
            Self.appendVarint(postings[range.upperBound - 1] - previous, to: &chunk)
            for index in range.dropFirst() {
                Self.appendVarint(postings[index] - previous, to: &chunk)
                previous = postings[index]
                if chunk.count >= Self.chunkBytes { try flush() }
            }
            if chunk.count >= Self.chunkBytes { try flush() }
        }
        try flush()
        while nextLead <= 256 {
            leads[nextLead] = flushed
            nextLead += 1
        }
        runFileLength = flushed
        runs.append(Run(leads: leads))
        runCount += 1
        if spillAt > pairsPerLaterRun {
            // After the first run: buffers of the later runs' size from now on.
            spillAt = pairsPerLaterRun
            held.pairs = []
            held.pairs.reserveCapacity(spillAt)
            held.bytes = []
            held.words = []
            held.stamps = []
            held.table = [Int32](repeating: -1, count: max(1 << 12, held.table.count / 2))
        } else {
            held.pairs.removeAll(keepingCapacity: true)
            held.bytes.removeAll(keepingCapacity: true)
            held.words.removeAll(keepingCapacity: true)
            held.stamps.removeAll(keepingCapacity: true)
            // The table keeps its size (the next run has about as many words): growing it again
            // from a small one would leave each smaller table freed behind it.
            held.clearTable()
        }
        // The sort's copies are freed now: their pages go back to the system rather than stay in
        // this thread's `malloc` arena until the next spill.
        _ = rk_heap_trim()
    }

    /// The bytes a spilled run is written in at a time.
    private static let chunkBytes = 1 << 18

    private static func appendVarint(_ value: UInt32, to output: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            output.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        output.append(UInt8(value))
    }

    /// Calls `body` with every distinct word (as Unicode scalars) and its rows (``WordRows``),
    /// words in UTF-8 byte order; then frees everything.
    func forEachWord(_ body: (_ word: [UInt8], _ rows: WordRows) throws -> Void) throws {
        if runs.isEmpty {
            // Everything fits in memory: group the sorted pairs without a merge.
            sortPairs()
            try forEachWord(inSortedPairs: 0..<held.pairs.count, body)
            release()
            return
        }
        defer { removeRuns() }
        _ = try mergeParts(1)
        try forEachWord(inPart: 0, body)
    }

    /// When runs were spilled: makes the pairs still held the last run (so that every input of
    /// the merge is read the same way) and cuts the words into at most `parts` parts of about
    /// equal bytes, where their first byte changes, so that each part holds whole subtrees of the
    /// word trie's root. Returns the number of parts (see ``forEachWord(inPart:_:)``), or `nil`
    /// when nothing was spilled (see ``splitPoints(parts:minimumPairs:)``).
    func mergeParts(_ parts: Int) throws -> Int? {
        guard !runs.isEmpty else { return nil }
        if !held.pairs.isEmpty { try spill() }
        release()
        // The bytes of each first byte's words, over every run.
        var bytes = [UInt64](repeating: 0, count: 256)
        for run in runs {
            for lead in 0..<256 { bytes[lead] += run.leads[lead + 1] - run.leads[lead] }
        }
        let total = bytes.reduce(0, +)
        var bounds = [0]
        var sum: UInt64 = 0
        var sumAtCut: UInt64 = 0
        for lead in 0..<256 {
            sum += bytes[lead]
            // A cut after this first byte when it passes the next share of the bytes (and the
            // part it closes and the rest are not empty).
            let share = total * UInt64(bounds.count) / UInt64(max(parts, 1))
            if bounds.count < parts, sum >= share, sum > sumAtCut, sum < total {
                bounds.append(lead + 1)
                sumAtCut = sum
            }
        }
        bounds.append(256)
        partLeads = bounds
        return bounds.count - 1
    }

    /// Calls `body` for every word of part `part` of ``mergeParts(_:)``, with its rows, merged
    /// from every run, words in UTF-8 byte order. Two parts may be walked at once, each on a
    /// thread of its own: this only reads the runs.
    func forEachWord(inPart part: Int, _ body: (_ word: [UInt8], _ rows: WordRows) throws -> Void) throws {
        let leads = partLeads[part]..<partLeads[part + 1]
        guard let file = runFile else { return }
        var readers: [SearchRunReader] = []
        for (order, run) in runs.enumerated() {
            let range = run.leads[leads.lowerBound]..<run.leads[leads.upperBound]
            if !range.isEmpty { readers.append(SearchRunReader(file: file, order: order, range: range)) }
        }
        try Self.merge(runs: readers, body)
    }

    /// Removes the spilled runs, once their words have been walked.
    func removeRuns() {
        runFile = nil
        runFileLength = 0
        if let folder { try? FileManager.default.removeItem(at: folder) }
        folder = nil
        runs = []
        partLeads = [0, 256]
    }

    /// Merges `readers` (the runs in the order they were spilled) into one stream of words, each
    /// with the rows of all its entries, in UTF-8 byte order of the words.
    ///
    /// A binary heap holds the readers that have an entry, least word on top (then the earlier
    /// run), so a merge of many runs (50 for 10,000,000 rows) compares about log2 of them per
    /// entry. A word's entries are taken off together: when each run's postings begin at or
    /// after the last of the run before, as they do unless a section header's words came for
    /// rows of an earlier run, they are read run after run; otherwise they are merged a posting
    /// at a time.
    private static func merge(
        runs readers: [SearchRunReader], _ body: (_ word: [UInt8], _ rows: WordRows) throws -> Void
    ) throws {
        for reader in readers { try reader.nextEntry() }
        var heap = MergeHeap(readers.filter(\.hasEntry)) { a, b in
            let order = Self.compare(a.word, b.word)
            return order < 0 || (order == 0 && a.order < b.order)
        }
        var group: [SearchRunReader] = []
        while let least = heap.first {
            // The entries of the least word, in the order of their runs (the heap's tie-break).
            group.removeAll(keepingCapacity: true)
            repeat {
                group.append(heap.popFirst()!)
            } while heap.first.map { $0.word == least.word } ?? false
            var rows = WordRows()
            if zip(group, group.dropFirst()).allSatisfy({ $0.last <= $1.first }) {
                for reader in group { try reader.forEachPosting { rows.add($0) } }
            } else {
                try mergePostings(of: group, into: &rows)
            }
            try body(least.word, rows)
            for reader in group {
                try reader.nextEntry()
                if reader.hasEntry { heap.push(reader) }
            }
        }
    }

    /// Adds the postings of the current entries of `readers` to `rows` in ascending order, a
    /// posting at a time, through a binary heap of the entries' next postings.
    private static func mergePostings(of readers: [SearchRunReader], into rows: inout WordRows) throws {
        // (posting, reader) pairs, least posting on top.
        var heap = MergeHeap(readers.indices.map { (posting: readers[$0].first, reader: $0) }) {
            $0.posting < $1.posting
        }
        while let least = heap.first {
            rows.add(least.posting)
            let reader = readers[least.reader]
            if reader.postingsLeft {
                heap.replaceFirst(with: (try reader.nextPosting(), least.reader))
            } else {
                _ = heap.popFirst()
            }
        }
    }

    /// The order of two words' UTF-8 bytes: negative, zero or positive.
    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int32 {
        let shorter = Swift.min(a.count, b.count)
        let compared =
            shorter == 0
            ? 0
            : a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in memcmp(a.baseAddress!, b.baseAddress!, shorter) }
            }
        if compared != 0 { return compared }
        return a.count < b.count ? -1 : a.count > b.count ? 1 : 0
    }
}

/// The word–row pairs ``SearchPostingRuns`` holds in memory, and their distinct words, one after
/// the other in ``bytes``, with an open-addressing table for interning them. One stored value of
/// the class, so that adding a word is one access to the object's state, not one per property
/// read and per probe (each a dynamic exclusivity check).
private struct HeldPairs {
    var pairs: [SearchPostingRuns.Pair] = []
    /// The row ``addDistinct(_:)`` adds words of.
    var currentRow: UInt32 = 0
    /// For each word of ``words``, the row ``addDistinct(_:)`` last added it for, plus one (0:
    /// none): a row's repeats are found in constant time, however many words its body has.
    var stamps: [UInt32] = []
    /// The words' UTF-8 bytes, one after the other.
    var bytes: [UInt8] = []
    /// Where each word is in ``bytes``.
    var words: [(offset: UInt32, length: UInt32)] = []
    /// Indices into ``words`` (-1: empty).
    var table = [Int32](repeating: -1, count: 1 << 12)

    /// A hash of `word` for the table: eight bytes at a time, each mixed by a multiply and a shift
    /// (words are short: most take one or two steps).
    @inline(__always)
    private static func hash(_ word: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = 0x9E37_79B9_7F4A_7C15 ^ UInt64(word.count)
        guard let base = word.baseAddress else { return hash }
        @inline(__always) func mix(_ value: UInt64) {
            hash = (hash ^ value) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
        }
        var index = 0
        while word.count - index >= 8 {
            mix(UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)))
            index += 8
        }
        if index < word.count {
            var last: UInt64 = 0
            for offset in index..<word.count { last |= UInt64(base[offset]) << UInt64(8 * (offset - index)) }
            mix(last)
        }
        return hash ^ (hash >> 29)
    }

    /// The index of `word` in ``words``, added if new.
    mutating func intern(_ word: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let mask = table.count - 1
        var slot = Int(truncatingIfNeeded: Self.hash(word)) & mask
        let found: UInt32? = bytes.withUnsafeBufferPointer { base in
            while true {
                let entry = table[slot]
                if entry < 0 { return nil }
                let known = words[Int(entry)]
                if Int(known.length) == word.count
                    && (word.isEmpty
                        || memcmp(base.baseAddress! + Int(known.offset), word.baseAddress!, word.count) == 0)
                {
                    return UInt32(entry)
                }
                slot = (slot + 1) & mask
            }
        }
        if let found { return found }
        let index = words.count
        words.append((UInt32(bytes.count), UInt32(word.count)))
        stamps.append(0)
        bytes.append(contentsOf: word)
        table[slot] = Int32(index)
        if words.count * 2 > table.count { rehash(capacity: table.count * 2) }
        return UInt32(index)
    }

    /// Adds `word` of the current row unless the row has it already; returns the pair count.
    mutating func addDistinct(_ word: UnsafeBufferPointer<UInt8>, inBody: Bool) -> Int {
        let index = intern(word)
        guard stamps[Int(index)] != currentRow &+ 1 else { return pairs.count }
        stamps[Int(index)] = currentRow &+ 1
        pairs.append(SearchPostingRuns.Pair(word: index, row: SearchPostingRuns.posting(currentRow, inBody: inBody)))
        return pairs.count
    }

    /// Empties the interning table, keeping its size (after ``words`` are emptied).
    mutating func clearTable() {
        table.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
    }

    /// Rebuilds the interning table with `capacity` slots (a power of two).
    private mutating func rehash(capacity: Int) {
        table = [Int32](repeating: -1, count: capacity)
        let mask = capacity - 1
        bytes.withUnsafeBufferPointer { base in
            for (index, word) in words.enumerated() {
                let bytes = UnsafeBufferPointer(rebasing: base[Int(word.offset)..<Int(word.offset + word.length)])
                var slot = Int(truncatingIfNeeded: Self.hash(bytes)) & mask
                while table[slot] >= 0 { slot = (slot + 1) & mask }
                table[slot] = Int32(index)
            }
        }
    }
}
