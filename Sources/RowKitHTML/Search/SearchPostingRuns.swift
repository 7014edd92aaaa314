import Foundation

/// Word–row pairs in bounded memory: kept in a buffer, sorted and spilled to a run file in a
/// temporary folder when the buffer is full, and read back as one stream sorted by word (UTF-8
/// bytes) and then row, merging the runs.
///
/// The merge takes the least word, then the least row, from all runs, so every word's rows come
/// out ascending whatever order the pairs were added in (a section's header words are added for
/// its rows once the section ends); a pair added twice comes out once.
final class SearchPostingRuns {
    /// Pairs held before a run is spilled (2^20 by default).
    let pairsPerRun: Int

    init(pairsPerRun: Int = 1 << 20) {
        self.pairsPerRun = pairsPerRun
    }

    private var bytes: [UInt8] = []
    private var pairs: [Pair] = []
    private var runs: [URL] = []
    private var folder: URL?

    private struct Pair {
        var offset: UInt32
        var length: UInt32
        var row: UInt32
    }

    deinit {
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    /// Runs spilled so far (for tests and figures).
    private(set) var runCount = 0

    /// Adds one word of `row`.
    func add(_ word: String, row: UInt32) throws {
        let offset = bytes.count
        bytes.append(contentsOf: word.utf8)
        pairs.append(Pair(offset: UInt32(offset), length: UInt32(bytes.count - offset), row: row))
        if pairs.count >= pairsPerRun { try spill() }
    }

    private func sortPairs() {
        bytes.withUnsafeBufferPointer { base in
            pairs.sort { a, b in
                let shorter = Int(min(a.length, b.length))
                let order = memcmp(base.baseAddress! + Int(a.offset), base.baseAddress! + Int(b.offset), shorter)
                if order != 0 { return order < 0 }
                if a.length != b.length { return a.length < b.length }
                return a.row < b.row
            }
        }
    }

    private func spill() throws {
        sortPairs()
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
        let url = folder!.appendingPathComponent("run-\(runs.count)")
        var encoded: [UInt8] = []
        encoded.reserveCapacity(bytes.count + pairs.count * 6)
        for pair in pairs {
            Self.appendVarint(pair.length, to: &encoded)
            encoded.append(contentsOf: bytes[Int(pair.offset)..<Int(pair.offset + pair.length)])
            Self.appendVarint(pair.row, to: &encoded)
        }
        guard FileManager.default.createFile(atPath: url.path, contents: Data(encoded)) else {
            throw ExportError.posix("write", url.path)
        }
        runs.append(url)
        runCount += 1
        pairs.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }

    private static func appendVarint(_ value: UInt32, to output: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            output.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        output.append(UInt8(value))
    }

    /// Calls `body` with every distinct word (as Unicode scalars) and its rows, ascending, words in
    /// UTF-8 byte order; then frees everything.
    func forEachWord(_ body: (_ word: [UInt8], _ rows: [UInt32]) throws -> Void) throws {
        sortPairs()
        if runs.isEmpty {
            // Everything fits in memory: group the sorted pairs without a merge.
            var start = 0
            while start < pairs.count {
                let first = pairs[start]
                let word = Array(bytes[Int(first.offset)..<Int(first.offset + first.length)])
                var rows: [UInt32] = [first.row]
                var end = start + 1
                while end < pairs.count, pairs[end].length == first.length,
                    bytes[Int(pairs[end].offset)..<Int(pairs[end].offset + pairs[end].length)].elementsEqual(word)
                {
                    if rows.last != pairs[end].row { rows.append(pairs[end].row) }
                    end += 1
                }
                try body(word, rows)
                start = end
            }
            pairs = []
            bytes = []
            return
        }
        var sources: [Source] = []
        for run in runs {
            guard let handle = FileHandle(forReadingAtPath: run.path) else { throw ExportError.posix("open", run.path) }
            sources.append(Source(file: handle))
        }
        sources.append(Source(memory: self))
        for source in sources { try source.advance() }
        var word: [UInt8] = []
        var rows: [UInt32] = []
        while true {
            var best: Int? = nil
            for (index, source) in sources.enumerated() where source.hasWord {
                if let chosen = best {
                    let other = sources[chosen]
                    if source.word.lexicographicallyPrecedes(other.word)
                        || (source.row < other.row && source.word == other.word)
                    {
                        best = index
                    }
                } else {
                    best = index
                }
            }
            guard let best else { break }
            let source = sources[best]
            if source.word != word {
                if !rows.isEmpty { try body(word, rows) }
                word = source.word
                rows.removeAll(keepingCapacity: true)
            }
            if rows.last != source.row { rows.append(source.row) }
            try source.advance()
        }
        if !rows.isEmpty { try body(word, rows) }
        pairs = []
        bytes = []
        if let folder { try? FileManager.default.removeItem(at: folder) }
        folder = nil
        runs = []
    }

    /// One sorted input of the merge: a run file read in blocks, or the buffer in memory.
    private final class Source {
        private let file: FileHandle?
        private let memory: SearchPostingRuns?
        private var buffer: [UInt8] = []
        private var position = 0
        private var index = 0
        private var atEnd = false
        /// The current pair's word (its buffer reused from pair to pair) and row; `hasWord` is
        /// false once the source is used up.
        private(set) var word: [UInt8] = []
        private(set) var hasWord = false
        private(set) var row: UInt32 = 0

        init(file: FileHandle) {
            self.file = file
            memory = nil
        }

        init(memory: SearchPostingRuns) {
            file = nil
            self.memory = memory
        }

        deinit { try? file?.close() }

        func advance() throws {
            if let memory {
                hasWord = index < memory.pairs.count
                guard hasWord else { return }
                let pair = memory.pairs[index]
                word.removeAll(keepingCapacity: true)
                word.append(contentsOf: memory.bytes[Int(pair.offset)..<Int(pair.offset + pair.length)])
                row = pair.row
                index += 1
                return
            }
            guard let length = try varint() else {
                hasWord = false
                return
            }
            word.removeAll(keepingCapacity: true)
            for _ in 0..<length {
                guard let byte = try byte() else {
                    throw ExportError.fileSystem(operation: "read", path: "search run", message: "truncated")
                }
                word.append(byte)
            }
            guard let value = try varint() else {
                throw ExportError.fileSystem(operation: "read", path: "search run", message: "truncated")
            }
            hasWord = true
            row = value
        }

        private func byte() throws -> UInt8? {
            if position == buffer.count {
                guard !atEnd, let file else { return nil }
                let data = try file.read(upToCount: 1 << 16) ?? Data()
                if data.isEmpty {
                    atEnd = true
                    return nil
                }
                buffer = Array(data)
                position = 0
            }
            position += 1
            return buffer[position - 1]
        }

        private func varint() throws -> UInt32? {
            var value: UInt32 = 0
            var shift: UInt32 = 0
            while true {
                guard let byte = try byte() else { return shift == 0 ? nil : value }
                value |= UInt32(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
    }
}
