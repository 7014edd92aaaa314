/// Writes the word files of a search index from words arriving in sorted order: a trie of word
/// prefixes, cut into files so that one query loads a few small ones.
///
/// - A *leaf* file `t-<prefix>.js` holds every word that starts with its prefix: the rest of the
///   word, the number of rows it is in, and the rows. A node becomes a leaf when all of its words
///   fit in ``leafBytes``.
/// - A larger node is an *interior* file `t-<prefix>.js`: its children's first letters, the rows
///   of the word equal to the prefix (if any) and the rows of every word under it (the
///   *aggregate*), so a short prefix such as `i` is one list, not thousands of words.
/// - Below the root, the leaves of consecutive children of an interior node that fit in
///   ``packBytes`` together share one file, a *pack* named after the first of them, whose words
///   are spelled after the interior node's prefix; the interior node says which children are in
///   which pack (`f`). A listing of varied words has many small leaves (half of 764 under 4 KB):
///   packed, they are about 290 files fewer, and a query loads at most ``packBytes`` for one.
/// - The root's children whose node is at most ``embedBytes`` are in the root's file (its `e`), up
///   to ``embedTotalBytes`` of them, not files of their own: they are mostly interior nodes of a
///   few letters whose lists are chunk files (24 of the varied listing's, 30 of a CSV listing's,
///   each under 1 KB), and every query loads the root anyway.
/// - Rows are inline when a list's postings take at most ``inlineBytes``; longer lists are cut into
///   chunk files of about ``chunkBytes`` (`p-<word>-<n>.js` for a word, `q-<word>-<n>.js` for its
///   second list, `a-<prefix>-<n>.js` for an aggregate), and the entry lists each chunk's first
///   row, so a query loads only the chunks it needs. A word in every other row of a million is
///   41 chunks, of which a query for a late row loads one; a word in every row is one run, a few
///   characters inline (see ``SearchScript/postings(_:as:into:limit:)``).
///
/// The root file `t-.js` also carries the row count and the rows per row-data shard. Words arrive
/// in UTF-8 byte order (the order of their scalars), so each node's words are contiguous: a node
/// is finished as soon as the stream leaves its prefix, and memory holds the open path (at most
/// ``leafBytes`` of pending entries per level and the aggregate rows of the open nodes, each a
/// ``SearchRowSet``: at most a bit per row of the table).
///
/// The entries the open nodes hold are one array in word order, each node's a contiguous run to
/// the end of it (its own word's first, then its children's leaves), so a child's leaf passes to
/// its parent as a start index and is copied only into the file that finally holds it.
struct SearchTrieWriter {
    static let leafBytes = 24576
    /// Bytes of the leaves one pack file holds at most: a query for a word in a pack loads the
    /// whole pack, so packs are half a leaf's size.
    static let packBytes = 12288
    /// Bytes of postings a list may take inline, in its entry: a list of a few hundred rows in a
    /// file of its own made most of the index's files for a listing of varied words. A query for
    /// such a word loads the list either way, so a leaf (at most ``leafBytes``) holds lists of up
    /// to a third of it: 140 files fewer for the varied listing than at 2 KB, its queries loading
    /// 3% more of the trie on average (12 KB: 3 more files than 8).
    static let inlineBytes = 8192
    /// Bytes of postings per chunk file: a word in every other row is a chunk per 12,288 rows
    /// (one character a row), and a query loads one chunk of each word it seeks in.
    static let chunkBytes = 12288
    /// Bytes of a root's child's node at most for it to be in the root's file, and bytes of such
    /// nodes a root's file holds at most (see ``SearchTrieWriter``).
    static let embedBytes = 1024
    static let embedTotalBytes = 4096

    /// Writes one file of the index: its name without `.js`, and the data literal.
    typealias Emit = (_ name: String, _ data: [UInt8]) throws -> Void

    private let emit: Emit
    private let rowCount: Int
    private let rowsPerShard: Int
    private var path: [Unicode.Scalar] = []
    private var frames: [Frame] = [Frame(start: 0)]
    /// The entries the open nodes hold, in word order (see the type's discussion).
    private var pending: [Entry] = []
    /// The scalars of the word being added (reused from word to word).
    private var scalars: [Unicode.Scalar] = []
    private(set) var files = 0
    /// The root's children closed so far whose node is at most ``embedBytes``: their letters and
    /// data, for ``writeRoot(of:)`` to put in the root's file or write.
    private var smallRootChildren: [(letter: Unicode.Scalar, data: [UInt8])] = []

    /// A word's entry in a leaf: the word's UTF-8 bytes, its length in scalars, and the literal
    /// `,<rows>,<postings>]` after its suffix.
    private struct Entry {
        var word: [UInt8]
        var scalarCount: Int
        var rest: [UInt8]
        var size: Int { rest.count + scalarCount + 4 }
    }

    /// An open node of the trie (the prefix `path[0..<depth]`).
    private struct Frame {
        var exact: (count: Int, field: [UInt8])? = nil
        /// Where the node's entries begin in ``SearchTrieWriter/pending``: its own word's entry
        /// (while the node is a leaf), then its children's leaves, each from its group's start to
        /// the next group's (the last to the end of `pending`).
        var start: Int
        var groups: [(letter: Unicode.Scalar, start: Int)] = []
        var size = 0
        var isInterior = false
        var children: [Unicode.Scalar] = []
        /// The rows of the node's own word and of every word under the children closed so far,
        /// ascending and distinct: each child's are merged in as it closes, so an open node holds
        /// one list, not one per child.
        var rows = SearchRowSet()
        /// For each of ``children``, 0 when it has a file of its own, else 1 + the index of the
        /// child whose name the pack holding its leaf has (see ``SearchTrieWriter``).
        var files: [Int] = []
        /// The pack being filled (an interior node below the root): each member's child index and
        /// where its entries begin in ``SearchTrieWriter/pending`` (they run to the next member's,
        /// the last to the end of `pending`), and their size.
        var pack: [(child: Int, start: Int)] = []
        var packSize = 0
    }

    init(rowCount: Int, rowsPerShard: Int, emit: @escaping Emit) {
        self.rowCount = rowCount
        self.rowsPerShard = rowsPerShard
        self.emit = emit
    }

    /// Adds the next word (greater than the last) and its rows: its list holds every row; when some
    /// have the word in their body only, a second list follows, of the rows that have it elsewhere
    /// (``SearchPostingRuns/WordRows/cell``: the rows a query ranks as having the word itself).
    mutating func add(word bytes: [UInt8], rows: SearchPostingRuns.WordRows) throws {
        Self.decode(bytes, into: &scalars)
        let count = scalars.count
        var common = 0
        while common < min(count, path.count) && scalars[common] == path[common] { common += 1 }
        while path.count > common { try close() }
        while path.count < count {
            path.append(scalars[path.count])
            frames.append(Frame(start: pending.count))
        }
        let word = path
        var field = try rowsField(rows.all) { "p-" + SearchScript.fileName(word) }
        if let cell = rows.cell {
            field.append(contentsOf: ",\(cell.count),".utf8)
            field.append(contentsOf: try rowsField(cell) { "q-" + SearchScript.fileName(word) })
        }
        var rest: [UInt8] = [UInt8(ascii: ",")]
        rest.append(contentsOf: String(rows.all.count).utf8)
        rest.append(UInt8(ascii: ","))
        rest.append(contentsOf: field)
        rest.append(UInt8(ascii: "]"))
        let entry = Entry(word: bytes, scalarCount: count, rest: rest)
        frames[frames.count - 1].exact = (rows.all.count, field)
        // Words come sorted, so a node's own word comes before every word under it (the set is
        // still empty: the union is the word's rows, not a copy).
        frames[frames.count - 1].rows.formUnion(rows.all)
        // The node was opened for this word (words are distinct and sorted), so its entries start here.
        pending.append(entry)
        try grow(frames.count - 1, by: entry.size)
    }

    /// Closes every open node and writes the root; returns the number of files written.
    mutating func finish() throws -> Int {
        try closeSubtrees()
        return files + (try Self.writeRoot(of: [self]))
    }

    /// Closes every open node but the root: every file is written then, but for the root's and,
    /// while the root is not interior, its children's leaves.
    mutating func closeSubtrees() throws {
        while !path.isEmpty { try close() }
    }

    /// Writes the root of the trie whose words `parts` were given, in order (each part a writer
    /// given a run of the words that holds whole subtrees of the root, every run after the one
    /// before, and closed with ``closeSubtrees()``), with the root's children's leaves still held:
    /// the files one writer given every word would have written besides. Returns how many.
    static func writeRoot(of parts: [SearchTrieWriter]) throws -> Int {
        guard let first = parts.first else { return 0 }
        var files = 0
        func write(_ name: String, _ data: [UInt8]) throws {
            try first.emit(name, data)
            files += 1
        }
        var root = Frame(start: 0)
        var entries: [Entry] = []
        root.exact = first.frames[0].exact
        root.isInterior =
            parts.contains { $0.frames[0].isInterior } || parts.reduce(0) { $0 + $1.frames[0].size } > leafBytes
        var small: [Unicode.Scalar: [UInt8]] = [:]
        for part in parts {
            let node = part.frames[0]
            root.children.append(contentsOf: node.children)
            for child in part.smallRootChildren { small[child.letter] = child.data }
            for group in part.groupEntries(0) {
                if root.isInterior {
                    // As one writer makes a node interior: its leaves held so far become files.
                    let file = leafFile(prefix: [group.letter], entries: group.entries)
                    if file.data.count <= embedBytes {
                        small[group.letter] = file.data
                    } else {
                        try write(file.name, file.data)
                    }
                } else {
                    entries.append(contentsOf: group.entries)
                }
            }
        }
        var data: [UInt8] = Array("{\"n\":\(first.rowCount),\"r\":\(first.rowsPerShard),".utf8)
        if root.isInterior {
            data.append(contentsOf: interiorData(root, aggregate: nil))
            // The small children in the file, in order while they fit; the rest files of their own.
            var embedded: [[UInt8]?] = []
            var total = 0
            for letter in root.children {
                guard let child = small[letter] else {
                    embedded.append(nil)
                    continue
                }
                if total + child.count <= embedTotalBytes {
                    embedded.append(child)
                    total += child.count
                } else {
                    embedded.append(nil)
                    try write("t-" + SearchScript.fileName([letter]), child)
                }
            }
            if total > 0 {
                data.append(contentsOf: ",\"e\":[".utf8)
                for (index, child) in embedded.enumerated() {
                    if index > 0 { data.append(UInt8(ascii: ",")) }
                    data.append(contentsOf: child ?? [UInt8(ascii: "0")])
                }
                data.append(UInt8(ascii: "]"))
            }
        } else {
            data.append(contentsOf: leafData(entries[...], prefixLength: 0))
        }
        data.append(UInt8(ascii: "}"))
        try write("t-", data)
        return files
    }

    private mutating func write(_ name: String, _ data: [UInt8]) throws {
        try emit(name, data)
        files += 1
    }

    /// Writes the node of the root's child `letter`, or holds it for ``writeRoot(of:)`` when it
    /// is small enough to go in the root's file.
    private mutating func writeRootChild(_ letter: Unicode.Scalar, _ data: [UInt8]) throws {
        if data.count <= Self.embedBytes {
            smallRootChildren.append((letter, data))
        } else {
            try write("t-" + SearchScript.fileName([letter]), data)
        }
    }

    /// Adds `bytes` to the size of node `level` and its ancestors, making each that grows past
    /// the leaf size interior.
    private mutating func grow(_ level: Int, by bytes: Int) throws {
        frames[level].size += bytes
        if !frames[level].isInterior && frames[level].size > Self.leafBytes { try makeInterior(level) }
    }

    /// The held leaves of node `level`: each child's letter and entries.
    private func groupEntries(_ level: Int) -> [(letter: Unicode.Scalar, entries: ArraySlice<Entry>)] {
        let groups = frames[level].groups
        return groups.indices.map { index in
            let end = index + 1 < groups.count ? groups[index + 1].start : pending.count
            return (groups[index].letter, pending[groups[index].start..<end])
        }
    }

    /// Turns node `level` (the deepest open node, so its held leaves end ``pending``) into an
    /// interior node: its held leaves become leaf files.
    private mutating func makeInterior(_ level: Int) throws {
        frames[level].isInterior = true
        let prefix = path[0..<level]
        if level > 0 {
            // The held leaves go to packs, from the first: each pack's entries are written and
            // removed from `pending`, so the next group's start moves down by what went before it.
            let groups = frames[level].groups
            let ends = groups.indices.map { $0 + 1 < groups.count ? groups[$0 + 1].start : pending.count }
            frames[level].groups = []
            var removed = 0
            for (group, end) in zip(groups, ends) {
                let child = frames[level].children.lastIndex(of: group.letter)!
                let start = group.start - removed
                let before = pending.count
                try pack(level, child: child, start: start, size: size(of: pending[start..<(end - removed)]))
                removed += before - pending.count
            }
            return
        }
        for group in groupEntries(level) {
            let file = Self.leafFile(prefix: Array(prefix) + [group.letter], entries: group.entries)
            try writeRootChild(group.letter, file.data)
        }
        if let first = frames[level].groups.first { pending.removeSubrange(first.start...) }
        frames[level].groups = []
    }

    private func size(of entries: ArraySlice<Entry>) -> Int { entries.reduce(0) { $0 + $1.size } }

    /// Adds the leaf of child `child` of the interior node `level` (below the root), whose entries
    /// are ``pending`` from `start` to the end, to the node's pack, writing the pack first when
    /// the leaf would take it past ``packBytes``.
    private mutating func pack(_ level: Int, child: Int, start: Int, size: Int) throws {
        var start = start
        if !frames[level].pack.isEmpty && frames[level].packSize + size > Self.packBytes {
            let before = pending.count
            try writePack(level, end: start)
            start -= before - pending.count
        }
        frames[level].pack.append((child, start))
        frames[level].packSize += size
    }

    /// Writes the pack of interior node `level`, its members' entries ``pending`` from the first
    /// member's start to `end` (the end of `pending` when `nil`), and removes them: a pack of one
    /// leaf is that leaf's own file.
    private mutating func writePack(_ level: Int, end: Int? = nil) throws {
        let members = frames[level].pack
        guard let first = members.first else { return }
        let end = end ?? pending.count
        let prefix = Array(path[0..<level])
        let children = frames[level].children
        if members.count == 1 {
            try writeLeaf(prefix: prefix + [children[first.child]], entries: pending[first.start..<end])
        } else {
            var data: [UInt8] = [UInt8(ascii: "{")]
            data.append(contentsOf: Self.leafData(pending[first.start..<end], prefixLength: level))
            data.append(UInt8(ascii: "}"))
            try write("t-" + SearchScript.fileName(prefix + [children[first.child]]), data)
            for member in members { frames[level].files[member.child] = first.child + 1 }
        }
        pending.removeSubrange(first.start..<end)
        frames[level].pack = []
        frames[level].packSize = 0
    }

    private mutating func writeLeaf(prefix: [Unicode.Scalar], entries: ArraySlice<Entry>) throws {
        let file = Self.leafFile(prefix: prefix, entries: entries)
        try write(file.name, file.data)
    }

    /// The name and data of the leaf file of the node `prefix` holding `entries`.
    private static func leafFile(prefix: [Unicode.Scalar], entries: ArraySlice<Entry>) -> (name: String, data: [UInt8])
    {
        var data: [UInt8] = [UInt8(ascii: "{")]
        data.append(contentsOf: leafData(entries, prefixLength: prefix.count))
        data.append(UInt8(ascii: "}"))
        return ("t-" + SearchScript.fileName(prefix), data)
    }

    private static func leafData(_ entries: ArraySlice<Entry>, prefixLength: Int) -> [UInt8] {
        var data: [UInt8] = Array("\"t\":[".utf8)
        for (index, entry) in zip(entries.indices, entries) {
            if index > entries.startIndex { data.append(UInt8(ascii: ",")) }
            data.append(UInt8(ascii: "["))
            entry.word.withUnsafeBufferPointer { word in
                // The suffix after `prefixLength` scalars: skip as many UTF-8 lead bytes.
                var start = 0
                var skipped = 0
                while skipped < prefixLength {
                    start += 1
                    while start < word.count && word[start] & 0xC0 == 0x80 { start += 1 }
                    skipped += 1
                }
                SearchScript.string(utf8: UnsafeBufferPointer(rebasing: word[start...]), into: &data)
            }
            data.append(contentsOf: entry.rest)
        }
        data.append(UInt8(ascii: "]"))
        return data
    }

    /// Replaces `scalars` with the scalars of the UTF-8 `bytes` (a word of the index, cut from a
    /// String), without a String in between; invalid bytes would become U+FFFD, as in a String.
    private static func decode(_ bytes: [UInt8], into scalars: inout [Unicode.Scalar]) {
        scalars.removeAll(keepingCapacity: true)
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .error: scalars.append("\u{FFFD}")
            case .emptyInput: return
            }
        }
    }

    private static func interiorData(_ frame: Frame, aggregate: (count: Int, field: [UInt8])?) -> [UInt8] {
        var data: [UInt8] = Array("\"k\":[".utf8)
        for (index, letter) in frame.children.enumerated() {
            if index > 0 { data.append(UInt8(ascii: ",")) }
            SearchScript.string(String(letter), into: &data)
        }
        data.append(UInt8(ascii: "]"))
        if frame.files.contains(where: { $0 != 0 }) {
            data.append(contentsOf: ",\"f\":[".utf8)
            data.append(contentsOf: frame.files.map(String.init).joined(separator: ",").utf8)
            data.append(UInt8(ascii: "]"))
        }
        data.append(contentsOf: ",\"w\":".utf8)
        if let exact = frame.exact {
            data.append(contentsOf: "[\(exact.count),".utf8)
            data.append(contentsOf: exact.field)
            data.append(UInt8(ascii: "]"))
        } else {
            data.append(UInt8(ascii: "0"))
        }
        if let aggregate {
            data.append(contentsOf: ",\"a\":[\(aggregate.count),".utf8)
            data.append(contentsOf: aggregate.field)
            data.append(UInt8(ascii: "]"))
        }
        return data
    }

    /// The rows of a list (ascending, distinct) as an entry field: inline postings, or the first
    /// row of each chunk file, each chunk ``chunkBytes`` of postings or a little more. The
    /// postings are a bitmap (``SearchScript/bitmapMark``) when that is shorter.
    private mutating func rowsField(_ rows: SearchRowSet, stem makeStem: () -> String) throws -> [UInt8] {
        var field: [UInt8] = []
        var iterator = rows.makeIterator()
        let bitmap = iterator.next().map { SearchScript.bitmapBytes(first: $0, last: rows.last!) } ?? .max
        if SearchScript.postings(rows, into: &field, limit: Self.inlineBytes + 2) {
            if bitmap < field.count {
                field.removeAll()
                SearchScript.postings(rows, as: SearchScript.BitmapWriter.self, into: &field)
            }
            return field
        }
        if bitmap <= Self.inlineBytes + 2 {
            SearchScript.postings(rows, as: SearchScript.BitmapWriter.self, into: &field)
            return field
        }
        // Too long to be inline either way: chunks, of the bitmap when it is shorter.
        let stem = makeStem()
        if bitmap < SearchScript.postingsBytes(rows, limit: bitmap) {
            try writeChunks(of: rows, as: SearchScript.BitmapWriter.self, stem: stem, field: &field)
        } else {
            try writeChunks(of: rows, as: SearchScript.PostingsWriter.self, stem: stem, field: &field)
        }
        return field
    }

    /// Writes `rows` as chunk files `<stem>-<n>` of about ``chunkBytes`` each, and appends to
    /// `field` the list of each chunk's first row.
    private mutating func writeChunks<Writer: SearchScript.RowListWriter>(
        of rows: SearchRowSet, as _: Writer.Type, stem: String, field: inout [UInt8]
    ) throws {
        field.append(UInt8(ascii: "["))
        var chunk: [UInt8] = []
        var writer = Writer()
        var number = 0
        func writeChunk() throws {
            writer.finish(into: &chunk)
            chunk.append(UInt8(ascii: "\""))
            try write("\(stem)-\(number)", chunk)
            number += 1
            chunk.removeAll(keepingCapacity: true)
        }
        for row in rows {
            if chunk.isEmpty {
                // A chunk starts from its first row, which the entry lists.
                if number > 0 { field.append(UInt8(ascii: ",")) }
                field.append(contentsOf: String(row).utf8)
                chunk.append(UInt8(ascii: "\""))
                writer = Writer()
            }
            writer.add(row, into: &chunk)
            if chunk.count >= Self.chunkBytes { try writeChunk() }
        }
        if !chunk.isEmpty { try writeChunk() }
        field.append(UInt8(ascii: "]"))
    }

    /// Closes the deepest open node and hands it to its parent.
    private mutating func close() throws {
        if frames[frames.count - 1].isInterior { try writePack(frames.count - 1) }
        let frame = frames.removeLast()
        let letter = path.removeLast()
        let level = frames.count - 1
        let parentPath = path
        var prefix: [Unicode.Scalar] { parentPath + [letter] }
        // The rows of every word under the node: its own word's and its children's.
        let rows = frame.rows
        frames[level].children.append(letter)
        frames[level].files.append(0)
        if level > 0 { frames[level].rows.formUnion(rows) }
        if frame.isInterior {
            let aggregate = try rowsField(rows) { "a-" + SearchScript.fileName(prefix) }
            var data: [UInt8] = [UInt8(ascii: "{")]
            data.append(contentsOf: Self.interiorData(frame, aggregate: (rows.count, aggregate)))
            data.append(UInt8(ascii: "}"))
            if level == 0 {
                try writeRootChild(letter, data)
            } else {
                try write("t-" + SearchScript.fileName(prefix), data)
            }
            // Its held leaves were written when it became interior; only its own word's entry is left.
            pending.removeSubrange(frame.start...)
            if !frames[level].isInterior { try makeInterior(level) }
        } else {
            if frames[level].isInterior && level > 0 {
                try pack(level, child: frames[level].children.count - 1, start: frame.start, size: frame.size)
            } else if frames[level].isInterior {
                try writeRootChild(letter, Self.leafFile(prefix: prefix, entries: pending[frame.start...]).data)
                pending.removeSubrange(frame.start...)
            } else {
                frames[level].groups.append((letter, frame.start))
            }
            try grow(level, by: frame.size)
        }
    }
}
