import Foundation
import RowKitListing

/// One run spilled by ``SearchPostingRuns``, read back an entry at a time in word order.
///
/// A run is a sequence of entries, one for each of its words in UTF-8 byte order:
/// `varint(word length)`, the word's bytes, `varint(count)`, `varint(first)`,
/// `varint(last - first)`, then `count - 1` varints, each posting less the one before (the
/// postings of a word in one run are ascending). With its first and last posting in the entry's
/// head, a merge can tell before reading them whether a word's postings in the runs follow one
/// another (they do unless a section header's words came for rows of an earlier run), and then
/// read each run's postings in one loop, not a posting at a time through a heap.
///
/// The run is read 64 KiB at a time with `pread(2)` from its place in the file of runs
/// (``SearchRunFile``), which the readers of all runs share.
final class SearchRunReader {
    /// The run's place among the runs, in the order they were spilled (their rows' order).
    let order: Int
    private let file: SearchRunFile
    /// Where in the file the bytes not read into ``buffer`` yet begin.
    private var offset: UInt64
    private var buffer: [UInt8]
    /// The next byte to read, and the end of the bytes read into ``buffer``.
    private var position = 0
    private var end = 0
    private var atEndOfFile = false
    /// The bytes of the run's range not read into ``buffer`` yet.
    private var unread: UInt64

    /// The current entry's word, and whether there is a current entry (false once the run is
    /// used up).
    private(set) var word: [UInt8] = []
    private(set) var hasEntry = false
    /// The current entry's first and last posting.
    private(set) var first: UInt32 = 0
    private(set) var last: UInt32 = 0
    /// The current entry's postings not read yet, and the last one read.
    private var remaining = 0
    private var previous: UInt32 = 0

    /// The bytes read from the file at a time.
    private static let blockBytes = 1 << 16

    /// The entries of `file` in `range` (bytes of the file, from an entry's start to another's or
    /// the end of a run), none read yet (call ``nextEntry()``).
    init(file: SearchRunFile, order: Int, range: Range<UInt64>) {
        self.file = file
        self.order = order
        offset = range.lowerBound
        unread = range.upperBound - range.lowerBound
        buffer = [UInt8](repeating: 0, count: Int(min(UInt64(Self.blockBytes), max(unread, 16))))
    }

    /// Moves to the next entry, skipping what is left of the current one's postings.
    func nextEntry() throws {
        while remaining > 0 { _ = try nextPosting() }
        guard try fill(atLeast: 1) else {
            hasEntry = false
            return
        }
        let length = Int(try varint())
        word.removeAll(keepingCapacity: true)
        for _ in 0..<length { word.append(try readByte()) }
        let count = Int(try varint())
        guard count > 0 else { throw truncated() }
        first = try varint()
        last = first &+ (try varint())
        remaining = count - 1
        previous = first
        hasEntry = true
    }

    /// Calls `body` with each posting of the current entry, ascending: the first, then those not
    /// read yet.
    func forEachPosting(_ body: (UInt32) -> Void) throws {
        body(first)
        while remaining > 0 {
            // Decoded from the buffer in one loop while every varint is whole in it (at most 5 bytes).
            if end - position < 5 { _ = try fill(atLeast: 5) }
            var position = self.position
            var value = previous
            var remaining = self.remaining
            let end = self.end
            let whole = buffer.withUnsafeBufferPointer { bytes in
                while remaining > 0 && end - position >= 5 {
                    var delta: UInt32 = 0
                    var shift: UInt32 = 0
                    while true {
                        let byte = bytes[position]
                        position += 1
                        delta |= UInt32(byte & 0x7F) << shift
                        if byte < 0x80 { break }
                        shift += 7
                        // A sixth byte: not a posting of this index (the varint stays in the 5).
                        if shift > 28 { return false }
                    }
                    value &+= delta
                    remaining -= 1
                    body(value)
                }
                return true
            }
            guard whole else { throw truncated() }
            self.position = position
            self.previous = value
            self.remaining = remaining
            // The file's last few bytes: a posting at a time.
            if remaining > 0 && end - position < 5 && atEndOfFile { body(try nextPosting()) }
        }
    }

    /// The current entry's next posting after the first (there must be one left: see
    /// ``postingsLeft``).
    func nextPosting() throws -> UInt32 {
        precondition(remaining > 0, "a posting is left")
        previous &+= try varint()
        remaining -= 1
        return previous
    }

    /// Whether the current entry has postings after the first that were not read.
    var postingsLeft: Bool { remaining > 0 }

    /// Makes at least `count` bytes readable unless the file ends first; false when none is left.
    private func fill(atLeast count: Int) throws -> Bool {
        if end - position >= count { return true }
        if !atEndOfFile {
            let kept = end - position
            if kept > 0 && position > 0 {
                buffer.withUnsafeMutableBytes { bytes in
                    _ = memmove(bytes.baseAddress!, bytes.baseAddress! + position, kept)
                }
            }
            position = 0
            end = kept
            let wanted = Int(min(UInt64(buffer.count - end), unread))
            let start = end
            let got = buffer.withUnsafeMutableBytes { bytes in
                DescriptorIO.read(
                    file.descriptor, into: UnsafeMutableRawBufferPointer(rebasing: bytes[start..<(start + wanted)]),
                    at: Int(offset))
            }
            guard let got else { throw ExportError.posix("read", file.path) }
            offset += UInt64(got)
            // Fewer bytes than asked: the file ended; as many as were left: the range did.
            if got < wanted || UInt64(got) == unread { atEndOfFile = true }
            end += got
            unread -= UInt64(got)
        }
        return end > position
    }

    private func readByte() throws -> UInt8 {
        guard try fill(atLeast: 1) else { throw truncated() }
        position += 1
        return buffer[position - 1]
    }

    private func varint() throws -> UInt32 {
        var value: UInt32 = 0
        var shift: UInt32 = 0
        while true {
            let byte = try readByte()
            guard shift < 32 else { throw truncated() }
            value |= UInt32(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    private func truncated() -> ExportError {
        ExportError.fileSystem(operation: "read", path: file.path, message: "the search run is cut short or damaged")
    }
}
