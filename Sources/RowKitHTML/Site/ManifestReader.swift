import Foundation
import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a site's manifest as a stream: the header and the site-wide files at once, then the
/// units in order as the export reaches them.
///
/// Anything unexpected (a missing or older manifest, a line that does not parse) ends the reading:
/// the export then rewrites what it would have kept, which is always correct. A file entry whose
/// path is not a ``SitePath`` ends it too, and is kept as ``invalidEntry``: such an entry is
/// never handed out, and the site writer refuses the export when it sees one.
final class ManifestReader {
    private(set) var settings: UInt64?
    private(set) var inputs: [ManifestSource] = []
    private(set) var images: [ManifestSource] = []
    private(set) var pages = 0
    private(set) var rows = 0
    private(set) var bytes = 0
    /// How many files the site has.
    private(set) var files = 0
    /// The site-wide files (not of a unit), by path.
    private(set) var siteFiles: [String: ManifestEntry] = [:]

    private var lines: LineReader
    /// The next unit entry not yet handed out.
    private var nextEntry: ManifestEntry?
    private var ended = false
    /// Whether the last entry read closed the manifest.
    private var endedProperly = false
    /// The first file entry read whose path is not a ``SitePath``, with why not; the reading
    /// ended there.
    private(set) var invalidEntry: (path: String, problem: String)?

    /// The manifest of the site open as the folder descriptor `folder`, or `nil` when it has none
    /// that this version reads.
    init?(in folder: Int32) {
        guard let lines = LineReader(name: Manifest.fileName, in: folder) else { return nil }
        self.lines = lines
        guard lines.next() == "{\"version\":2," else { return nil }
        guard readHeader() else { return nil }
    }

    private func readHeader() -> Bool {
        guard let settingsLine = lines.next() else { return false }
        var parser = ManifestLineParser(settingsLine)
        guard parser.expect("\"settings\":"), let settings = parser.hexString(), parser.expect(",\"pages\":"),
            let pages = parser.integer(), parser.expect(",\"rows\":"), let rows = parser.integer(),
            parser.expect(",\"bytes\":"), let bytes = parser.integer(), parser.expect(",\"files\":"),
            let files = parser.integer(), parser.expect(","), parser.atEnd
        else { return false }
        self.files = files
        self.settings = settings
        self.pages = pages
        self.rows = rows
        self.bytes = bytes
        guard let inputs = readSources(named: "inputs"), let images = readSources(named: "images") else { return false }
        self.inputs = inputs
        self.images = images
        guard lines.next() == "\"files\":[" else { return false }
        while let entry = readEntry() {
            guard entry.unit == nil else {
                nextEntry = entry
                return true
            }
            siteFiles[entry.path] = entry
        }
        return true
    }

    private func readSources(named name: String) -> [ManifestSource]? {
        guard let opening = lines.next(), opening == "\"\(name)\":[" || opening == "\"\(name)\":[]," else { return nil }
        if opening.hasSuffix("],") { return [] }
        var sources: [ManifestSource] = []
        while let line = lines.next() {
            var parser = ManifestLineParser(line)
            guard parser.expect("["), let path = parser.string(), parser.expect(","), let size = parser.integer(),
                parser.expect(","), let hash = parser.hexString(), parser.expect("]")
            else { return nil }
            sources.append(ManifestSource(path: path, size: size, hash: hash))
            if parser.expect("],") { return sources }
            guard parser.expect(","), parser.atEnd else { return nil }
        }
        return nil
    }

    /// The next file entry, or `nil` at the end (or at anything unexpected).
    private func readEntry() -> ManifestEntry? {
        guard !ended, let line = lines.next() else {
            ended = true
            return nil
        }
        var parser = ManifestLineParser(line)
        guard parser.expect("["), let path = parser.string() else {
            ended = true
            return nil
        }
        if let problem = SitePath.problem(path) {
            invalidEntry = (path, problem)
            ended = true
            return nil
        }
        guard parser.expect(","), let hash = parser.hexString(), parser.expect(","), let size = parser.integer() else {
            ended = true
            return nil
        }
        var entry = ManifestEntry(path: path, hash: hash, size: size)
        if parser.expect(",") {
            guard let unitText = parser.string(), parser.expect(","), let key = parser.hexString() else {
                ended = true
                return nil
            }
            let numbers = unitText.split(separator: "/").compactMap { Int($0) }
            guard numbers.count == 2 else {
                ended = true
                return nil
            }
            entry.unit = ManifestUnit(table: numbers[0], page: numbers[1])
            entry.key = key
            if parser.expect(",[") {
                repeat {
                    guard parser.expect("["), let offset = parser.integer(), parser.expect(","),
                        let length = parser.integer(),
                        parser.expect("]"), offset >= 0, length >= 0
                    else {
                        ended = true
                        return nil
                    }
                    entry.parts.append(offset..<(offset + length))
                } while parser.expect(",")
                guard parser.expect("]") else {
                    ended = true
                    return nil
                }
            }
        }
        guard parser.expect("]") else {
            ended = true
            return nil
        }
        if parser.expect("]}") {
            if parser.atEnd {
                endedProperly = true
                return entry
            }
        } else if parser.expect(",") {
            if parser.atEnd { return entry }
        }
        ended = true
        return nil
    }

    /// The entries of `unit`: its list page and its row pages. Units must be asked for in order;
    /// entries of units skipped over are dropped.
    func entries(of unit: ManifestUnit) -> [ManifestEntry] {
        var found: [ManifestEntry] = []
        while let entry = nextEntry, let entryUnit = entry.unit, entryUnit <= unit {
            if entryUnit == unit { found.append(entry) }
            nextEntry = readEntry()
        }
        return found
    }

    /// Calls `body` with every file entry not yet handed out: the site-wide files, then every
    /// unit's. Read to its end, a manifest is ``isComplete``.
    func forEachEntry(_ body: (ManifestEntry) -> Void) {
        for path in siteFiles.keys.sorted() { if let entry = siteFiles[path] { body(entry) } }
        while let entry = nextEntry {
            body(entry)
            nextEntry = readEntry()
        }
    }

    /// The path of the file entry `line` (without its separating comma), if it is one.
    static func path(ofLine line: String) -> String? {
        var parser = ManifestLineParser(line)
        guard parser.expect("[") else { return nil }
        return parser.string()
    }

    /// Whether the reading reached the manifest's proper end (nothing unexpected on the way).
    var isComplete: Bool { ended && endedProperly }
}

/// Reads a file line by line (LF-terminated), a buffer at a time.
private final class LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var exhausted = false

    /// The file `name` in the folder open as `folder`, not through a symbolic link.
    init?(name: String, in folder: Int32) {
        descriptor = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
    }

    deinit { close(descriptor) }

    func next() -> String? {
        while true {
            if let newline = buffer[start...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return line
            }
            guard !exhausted else {
                guard start < buffer.count else { return nil }
                let line = String(decoding: buffer[start...], as: UTF8.self)
                start = buffer.count
                return line
            }
            buffer.removeFirst(start)
            start = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 {
                exhausted = true
            } else {
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }
}

/// Parses the pieces of one manifest line: exact text, JSON strings, integers, hex strings.
private struct ManifestLineParser {
    private let bytes: [UInt8]
    private var index = 0

    init(_ line: String) { bytes = Array(line.utf8) }

    var atEnd: Bool { index == bytes.count }

    mutating func expect(_ text: String) -> Bool {
        let expected = Array(text.utf8)
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected)
        else { return false }
        index += expected.count
        return true
    }

    mutating func integer() -> Int? {
        var value = 0
        let start = index
        while index < bytes.count, (0x30...0x39).contains(bytes[index]), index - start < 18 {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
        }
        return index > start ? value : nil
    }

    mutating func string() -> String? {
        guard expect("\"") else { return nil }
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: out, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < bytes.count else { return nil }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out.append(escaped)
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count,
                    let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16),
                    let scalar = Unicode.Scalar(value)
                else { return nil }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
                index += 4
            default: return nil
            }
        }
        return nil
    }

    mutating func hexString() -> UInt64? {
        guard let text = string(), text.utf8.count == 16 else { return nil }
        return UInt64(text, radix: 16)
    }
}
