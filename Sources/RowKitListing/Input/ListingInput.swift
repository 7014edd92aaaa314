import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of one listing, read a buffer at a time from a file or from memory, so a file of any
/// size is read in bounded memory.
///
/// Every byte handed to a parser is valid UTF-8: bytes are validated as they are read, and the
/// input ends just before the first ill-formed sequence (``invalidUTF8Offset`` says where). A
/// leading byte order mark is skipped. While the first pass reads the input from the start to its
/// end, it also computes the input's ``contentHash`` (of the bytes as stored, the mark included).
///
/// Parsers read the window `bytes[position..<limit]` directly and call ``refill()`` when they
/// reach its end; a refill keeps nothing of what came before, so a parser copies out any part of
/// a token it still needs first.
final class ListingInput {
    /// The path as given, for diagnostics.
    let path: String
    /// The file, or `-1` for an input held in memory.
    private let descriptor: Int32
    /// The bytes of an input held in memory.
    private let memory: Data?
    /// Where the next read from the file or memory starts.
    private var sourceOffset = 0
    /// The buffer.
    private(set) var bytes: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The next byte to read.
    var position = 0
    /// The end of the validated bytes in the buffer.
    private(set) var limit = 0
    /// The end of the bytes in the buffer (after `limit`: the start of a sequence cut off by the
    /// buffer's end, waiting for the next read).
    private var end = 0
    /// The source offset of `bytes[0]`.
    private var bufferOffset = 0
    /// Whether the source has no more bytes.
    private var exhausted = false
    /// The length of the byte order mark skipped at the start (0 or 3).
    private(set) var markLength = 0
    /// The offset in the source of the first ill-formed UTF-8 sequence, once found.
    private(set) var invalidUTF8Offset: Int?
    /// Why reading failed, if it did.
    private(set) var readError: String?
    /// Whether a byte other than a space, tab or line break has been read.
    private(set) var sawContent = false
    /// The hash of the source bytes, once a pass has read them all from the start.
    private(set) var contentHash: UInt64?
    /// The size of the source in bytes, once known.
    private(set) var size: Int?
    private var hasher: StableHash?

    /// Bytes of the source read so far in this pass.
    var bytesRead: Int { bufferOffset + end }
    /// Bytes read from the source in all passes (bytes read again counted again).
    private(set) var totalRead = 0

    /// Opens the file at `path`; a problem comes back as the message of a diagnostic at 1:1.
    static func open(path: String, capacity: Int = 1 << 20) -> Result<ListingInput, ListingSyntaxError> {
        func failure(_ message: String) -> Result<ListingInput, ListingSyntaxError> {
            .failure(ListingSyntaxError(SourceLocation(file: path, line: 1, column: 1), message))
        }
        // Checked before opening: opening a FIFO or device could block or never end.
        var status = stat()
        if stat(path, &status) == 0, (status.st_mode & S_IFMT) != S_IFREG {
            return failure("not a regular file")
        }
        let descriptor = systemOpen(path)
        guard descriptor >= 0 else { return failure("cannot open the file") }
        var opened = stat()
        if fstat(descriptor, &opened) == 0, (opened.st_mode & S_IFMT) != S_IFREG {
            close(descriptor)
            return failure("not a regular file")
        }
        let input = ListingInput(path: path, descriptor: descriptor, memory: nil, capacity: capacity)
        input.size = Int(opened.st_size)
        return .success(input)
    }

    /// An input held in memory, named `path` in diagnostics.
    init(data: Data, path: String, capacity: Int = 1 << 20) {
        self.path = path
        descriptor = -1
        memory = data
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
        size = data.count
        start()
    }

    private init(path: String, descriptor: Int32, memory: Data?, capacity: Int) {
        self.path = path
        self.descriptor = descriptor
        self.memory = memory
        self.capacity = capacity
        bytes = .allocate(capacity: capacity)
        start()
    }

    deinit {
        bytes.deallocate()
        if descriptor >= 0 { close(descriptor) }
    }

    /// Starts reading from the beginning (again), skipping the byte order mark.
    func start() {
        discardBuffer(continuingAt: 0)
        // Found again, at the same place, if the bytes are read again that far.
        invalidUTF8Offset = nil
        readError = nil
        hasher = contentHash == nil ? StableHash() : nil
        scanningForContent = false
        while limit < 3, refill() {}
        if limit >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { markLength = 3 }
        position = markLength
        scanningForContent = true
        noteContent(from: position, to: limit)
    }

    /// Whether refills look at new bytes for content (not during the first one, which may hold
    /// the byte order mark).
    private var scanningForContent = false

    /// Notes whether `bytes[from..<to]` holds anything but spaces, tabs and line breaks.
    private func noteContent(from: Int, to: Int) {
        guard !sawContent else { return }
        for index in from..<max(from, to) {
            let byte = bytes[index]
            if byte != 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                sawContent = true
                return
            }
        }
    }

    /// Continues reading at `offset` of the source (a record start found by an earlier pass), where
    /// about `expected` bytes will be read.
    ///
    /// When the buffer holds validated bytes at `offset`, reading just moves there. Otherwise the
    /// buffer is dropped and the next read takes at most `expected` bytes, not a whole buffer
    /// (reads after it take whole buffers again). So a pass that visits many short runs of
    /// records, such as the sections of a CSV whose rows are not grouped, reads about what the
    /// runs hold instead of a buffer's worth of bytes per run.
    func reposition(to offset: Int, expecting expected: Int = .max) {
        hasher = nil
        if offset >= bufferOffset, offset < bufferOffset + limit {
            position = offset - bufferOffset
            return
        }
        discardBuffer(continuingAt: offset)
        if expected < capacity { nextReadLimit = max(expected, 1) }
    }

    /// The most bytes the next read takes (after a reposition), or `nil` for a whole buffer.
    private var nextReadLimit: Int?

    /// Drops the buffer and continues reading at `offset` of the source.
    private func discardBuffer(continuingAt offset: Int) {
        sourceOffset = offset
        bufferOffset = offset
        position = 0
        limit = 0
        end = 0
        exhausted = false
        hasher = nil
        nextReadLimit = nil
        if descriptor >= 0 { _ = lseek(descriptor, off_t(offset), SEEK_SET) }
    }

    /// The source offset of `bytes[index]`.
    func offset(of index: Int) -> Int { bufferOffset + index }

    /// Scans the window from ``position`` to the first byte `stops` accepts, or to ``limit``: the
    /// one byte-scanning loop of the CSV and JSON readers (a field or string up to its delimiter).
    /// Moves nothing; the caller copies `bytes[position..<end]` out and moves on.
    /// - Returns: Where it stopped (``limit`` when no byte stops it) and how many Unicode scalars
    ///   start before that, the columns the bytes take.
    @inline(__always)
    func scan(until stops: (UInt8) -> Bool) -> (end: Int, scalars: Int) {
        let (base, limit) = (bytes, limit)
        var index = position
        var scalars = 0
        while index < limit {
            let byte = base[index]
            if stops(byte) { break }
            if byte & 0xC0 != 0x80 { scalars += 1 }
            index += 1
        }
        return (index, scalars)
    }

    /// Drops the bytes before `position` and reads more. Returns `false` when no byte was added:
    /// the input has ended (or stopped at an ill-formed byte or a read error).
    func refill() -> Bool {
        // Keep the unread bytes, including a sequence cut off by the buffer's end.
        let kept = end - position
        if position > 0 {
            if kept > 0 { bytes.update(from: bytes + position, count: kept) }
            bufferOffset += position
            limit -= position
            end = kept
            position = 0
        }
        let before = limit
        while limit == before && !exhausted && invalidUTF8Offset == nil && readError == nil {
            if end == capacity {
                // Full of unread bytes (a caller wanting more than it holds, or a character cut by
                // a tiny buffer's end): a larger buffer.
                let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                larger.update(from: bytes, count: end)
                bytes.deallocate()
                bytes = larger
                capacity *= 2
            }
            let count = read(into: bytes + end, count: min(capacity - end, nextReadLimit ?? .max))
            nextReadLimit = nil
            if count < 0 { break }
            if count == 0 { exhausted = true }
            hasher?.update(UnsafeRawBufferPointer(start: bytes + end, count: count))
            end += count
            let (valid, invalid) = ListingText.validateUTF8(bytes + limit, count: end - limit, atEnd: exhausted)
            if scanningForContent { noteContent(from: limit, to: limit + valid) }
            if let invalid { invalidUTF8Offset = bufferOffset + limit + invalid }
            limit += valid
            if exhausted, let hasher, readError == nil {
                contentHash = hasher.value
                size = bufferOffset + end
                self.hasher = nil
            }
        }
        return limit > before
    }

    /// Reads up to `count` source bytes; `-1` after a read error (recorded).
    private func read(into target: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard count > 0 else { return 0 }
        if let memory {
            let take = min(count, memory.count - sourceOffset)
            guard take > 0 else { return 0 }
            memory.withUnsafeBytes { source in
                UnsafeMutableRawPointer(target).copyMemory(from: source.baseAddress! + sourceOffset, byteCount: take)
            }
            sourceOffset += take
            totalRead += take
            return take
        }
        while true {
            let result = systemRead(descriptor, target, count)
            if result >= 0 {
                sourceOffset += result
                totalRead += result
                return result
            }
            if errno == EINTR { continue }
            readError = "cannot read the file: \(String(cString: strerror(errno)))"
            return -1
        }
    }

    /// The line and column of source offset `offset` (after skipping `skip` bytes from the start,
    /// as a parser that never saw them counts), by reading the source again from the start.
    func position(ofSourceOffset offset: Int, skipping skip: Int = 0) -> (line: Int, column: Int) {
        var counter = ListingText.PositionCounter()
        var next: UInt8?
        let chunk = 1 << 16
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        var at = skip
        while at < offset {
            let want = min(chunk, offset + 1 - at)
            let got = readAt(at, into: buffer, count: want)
            guard got > 0 else { break }
            let counted = min(got, offset - at)
            counter.count(buffer, counted)
            if got > counted { next = buffer[counted] }
            at += got
        }
        return counter.position(next: next)
    }

    /// The first byte of the character at the 1-based `line` and `column` (counted as
    /// ``position(ofSourceOffset:skipping:)`` counts them), by reading the source again from the
    /// start; `nil` past the end of the line or of the source. For a message about the character.
    func byte(atLine line: Int, column: Int, skipping skip: Int = 0) -> UInt8? {
        var counter = ListingText.PositionCounter()
        let chunk = 1 << 16
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        var at = skip
        while true {
            let got = readAt(at, into: buffer, count: chunk)
            guard got > 0 else { return nil }
            for index in 0..<got {
                let byte = buffer[index]
                let here = counter.position(next: byte)
                if here.line > line { return nil }
                if here == (line, column), byte & 0xC0 != 0x80 { return byte }
                counter.count(buffer + index, 1)
            }
            at += got
        }
    }

    /// `pread`: up to `count` source bytes at `offset`, without moving the reading position.
    private func readAt(_ offset: Int, into target: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        if let memory {
            let take = max(0, min(count, memory.count - offset))
            guard take > 0 else { return 0 }
            memory.withUnsafeBytes { source in
                UnsafeMutableRawPointer(target).copyMemory(from: source.baseAddress! + offset, byteCount: take)
            }
            return take
        }
        while true {
            let result = pread(descriptor, target, count, off_t(offset))
            if result >= 0 || errno != EINTR { return max(result, 0) }
        }
    }

    /// The source byte at `offset`, if there is one.
    func byte(at offset: Int) -> UInt8? {
        var byte: UInt8 = 0
        return readAt(offset, into: &byte, count: 1) == 1 ? byte : nil
    }

    /// Up to `count` bytes from the end of the source (for a quick look at trailing keys).
    func tail(_ count: Int) -> [UInt8] {
        guard let size, size > 0 else { return [] }
        let start = max(0, size - count)
        var result = [UInt8](repeating: 0, count: size - start)
        let got = result.withUnsafeMutableBufferPointer { readAt(start, into: $0.baseAddress!, count: $0.count) }
        result.removeLast(result.count - got)
        return result
    }
}

/// `open(2)` for reading; inside ``ListingInput`` the name `open` is its own.
private func systemOpen(_ path: String) -> Int32 {
    #if canImport(Glibc)
    return Glibc.open(path, O_RDONLY | O_CLOEXEC)
    #else
    return Darwin.open(path, O_RDONLY | O_CLOEXEC)
    #endif
}

/// `read(2)`; the name `read` is taken by a method of ``ListingInput``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.read(descriptor, buffer, count)
    #else
    return Darwin.read(descriptor, buffer, count)
    #endif
}
