import Foundation
import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The record of a site's files, kept in the site as `.rowkit-manifest.json` so the next export
/// can tell what changed, read and written as a stream so a site of millions of files needs no
/// more memory than one page's worth of entries.
///
/// A JSON document with one entry per line (deterministic: the same export gives the same bytes):
///
/// ```
/// {"version":2,
/// "settings":"<16 hex>","pages":24,"rows":1200,"bytes":98213,"files":26,
/// "inputs":[
/// ["listing.yaml",29456775,"<16 hex>"]],
/// "images":[
/// ["/real/path/icons/wifi.png",1826,"<16 hex>"]],
/// "files":[
/// ["assets/rowkit.css","<16 hex>",8123],
/// ["index.html","<16 hex>",40213,"0/1","<16 hex>",[[1200,38002]]],
/// ["rows/wifi.html","<16 hex>",1830,"0/1","<16 hex>"]]}
/// ```
///
/// A file entry is its path, the hash of its content (``StableHash``) and its size. The pages of
/// a table carry their *unit*, `table/page` (the list page and the detail pages of its rows), and
/// the *source key* they were made from: a hash of their rows, the options, templates and tool. A
/// list page also records where its sections' rows lie in the file, so they can be reused when
/// only the page's surroundings change (its page count, the index bar). Site-wide files come
/// first, then the units in order. `settings` is the key of the options, templates and tool;
/// `inputs` and `images` are the files the site was made from, so an export whose inputs, images
/// and settings are all unchanged can keep the previous site as it is.
enum Manifest {
    static let fileName = ".rowkit-manifest.json"
    static let version = 2
}

/// A table's page and its row pages: the unit the exporter renders, and skips, as a whole.
struct ManifestUnit: Hashable, Comparable, Sendable {
    var table: Int
    var page: Int

    static func < (lhs: ManifestUnit, rhs: ManifestUnit) -> Bool {
        (lhs.table, lhs.page) < (rhs.table, rhs.page)
    }
}

/// One file of a site.
struct ManifestEntry: Sendable, Equatable {
    var path: String
    /// The hash of the content (``StableHash``).
    var hash: UInt64
    var size: Int
    /// The unit of a page.
    var unit: ManifestUnit?
    /// The key of the sources a page was made from.
    var key: UInt64?
    /// For a list page: the byte ranges of its sections' rows in the file.
    var parts: [Range<Int>] = []

    /// The entry as one line of the manifest (without the separating comma).
    var line: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the entry's line (without the separating comma) to `out`.
    func append(to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        Self.appendJSONString(path, to: &out)
        out.append(contentsOf: ",\"".utf8)
        Self.appendHex(hash, to: &out)
        out.append(contentsOf: "\",".utf8)
        out.append(contentsOf: String(size).utf8)
        if let unit, let key {
            out.append(contentsOf: ",\"\(unit.table)/\(unit.page)\",\"".utf8)
            Self.appendHex(key, to: &out)
            out.append(UInt8(ascii: "\""))
            if !parts.isEmpty {
                out.append(contentsOf: ",[".utf8)
                for (index, part) in parts.enumerated() {
                    if index > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(contentsOf: "[\(part.lowerBound),\(part.count)]".utf8)
                }
                out.append(UInt8(ascii: "]"))
            }
        }
        out.append(UInt8(ascii: "]"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// 16 lower-case hex digits.
    static func appendHex(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 60, through: 0, by: -4) { out.append(hexDigits[Int((value >> UInt64(shift)) & 0xF)]) }
    }

    static func appendJSONString(_ string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func jsonString(_ string: String) -> String {
        var out: [UInt8] = []
        appendJSONString(string, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

/// A file a site was made from (an input listing or an image), with its size and content hash.
struct ManifestSource: Sendable, Equatable {
    var path: String
    var size: Int
    var hash: UInt64

    var line: String { "[" + ManifestEntry.jsonString(path) + "," + String(size) + ",\"" + StableHash.hex(hash) + "\"]" }
}

/// Reads a site's manifest as a stream: the header and the site-wide files at once, then the
/// units in order as the export reaches them.
///
/// Anything unexpected (a missing or older manifest, a line that does not parse) ends the reading:
/// the export then rewrites what it would have kept, which is always correct.
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

    /// The manifest of the site at `folder`, or `nil` when it has none that this version reads.
    init?(site folder: URL) {
        guard let lines = LineReader(path: folder.appendingPathComponent(Manifest.fileName).path) else { return nil }
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
        guard parser.expect("["), let path = parser.string(), parser.expect(","), let hash = parser.hexString(),
            parser.expect(","), let size = parser.integer()
        else {
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
                    guard parser.expect("["), let offset = parser.integer(), parser.expect(","), let length = parser.integer(),
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
        if parser.expect("]}") || parser.expect(",") {
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

    /// Calls `body` with the path of every file the manifest lists (reading it again from the start).
    static func forEachPath(site folder: URL, _ body: (String) -> Void) {
        guard let reader = ManifestReader(site: folder) else { return }
        for path in reader.siteFiles.keys { body(path) }
        while let entry = reader.nextEntry {
            body(entry.path)
            reader.nextEntry = reader.readEntry()
        }
    }
}

/// Reads a file line by line (LF-terminated), a buffer at a time.
private final class LineReader {
    private let descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var exhausted = false

    init?(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
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
        guard bytes.count - index >= expected.count, bytes[index..<(index + expected.count)].elementsEqual(expected) else { return false }
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
                guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16),
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

/// Builds the manifest of the site being exported: site-wide files in memory, each unit's entries
/// as its pages are done (in unit order), the list pages' entries when their table ends.
///
/// Unit entries of row pages are written to a scratch file as they come (they may number
/// millions); ``write(to:)`` assembles the manifest from it.
final class ManifestBuilder {
    var settings: UInt64 = 0
    var inputs: [ManifestSource] = []
    var images: [ManifestSource] = []
    var pages = 0
    var rows = 0
    var bytes = 0
    var files = 0
    private var siteFiles: [ManifestEntry] = []
    /// Per unit, in order: its list page's line, and where its row pages' lines are in the
    /// scratch file.
    private var units: [(unit: ManifestUnit, list: String?, rows: Range<Int>)] = []
    private var unitIndex: [ManifestUnit: Int] = [:]
    private let scratch: ScratchFile

    init(scratch: ScratchFile) {
        self.scratch = scratch
    }

    func addSiteFile(_ entry: ManifestEntry) {
        siteFiles.append(entry)
    }

    /// Adds the row pages of `unit` (units come in order).
    func addRowPages(_ entries: [ManifestEntry], of unit: ManifestUnit) throws {
        var text: [UInt8] = []
        text.reserveCapacity(entries.count * 96)
        for entry in entries {
            entry.append(to: &text)
            text.append(contentsOf: ",\n".utf8)
        }
        let range = try scratch.append(text)
        if let index = unitIndex[unit] {
            units[index].rows = units[index].rows.lowerBound..<range.upperBound
        } else {
            unitIndex[unit] = units.count
            units.append((unit, nil, range))
        }
    }

    /// Sets the list page of `unit`.
    func setListPage(_ entry: ManifestEntry, of unit: ManifestUnit) {
        if let index = unitIndex[unit] {
            units[index].list = entry.line
        } else {
            unitIndex[unit] = units.count
            units.append((unit, entry.line, 0..<0))
        }
    }

    /// Forgets the units of `table` and everything after them (a table read again).
    func removeUnits(ofTable table: Int) {
        units.removeAll { $0.unit.table >= table }
        unitIndex = Dictionary(uniqueKeysWithValues: units.enumerated().map { ($1.unit, $0) })
    }

    /// Writes the manifest to `descriptor`.
    func write(to descriptor: Int32) throws {
        var out = "{\"version\":\(Manifest.version),\n"
        out += "\"settings\":\"\(StableHash.hex(settings))\",\"pages\":\(pages),\"rows\":\(rows),\"bytes\":\(bytes),"
        out += "\"files\":\(files),\n"
        for (name, sources) in [("inputs", inputs), ("images", images)] {
            if sources.isEmpty {
                out += "\"\(name)\":[],\n"
            } else {
                out += "\"\(name)\":[\n" + sources.map(\.line).joined(separator: ",\n") + "],\n"
            }
        }
        out += "\"files\":[\n"
        for entry in siteFiles.sorted(by: { $0.path < $1.path }) { out += entry.line + ",\n" }
        var wroteEntry = !siteFiles.isEmpty
        var pending = Array(out.utf8)
        func flush() throws {
            try ScratchFile.writeAll(descriptor, pending)
            pending.removeAll(keepingCapacity: true)
        }
        for (_, list, rows) in units.sorted(by: { $0.unit < $1.unit }) {
            if list != nil || !rows.isEmpty { wroteEntry = true }
            if let list { pending.append(contentsOf: (list + ",\n").utf8) }
            if !rows.isEmpty {
                try flush()
                try scratch.copy(rows, to: descriptor)
            }
            if pending.count > 1 << 16 { try flush() }
        }
        // Every entry ends in ",\n": the last one's is replaced by the closing brackets.
        try flush()
        if wroteEntry {
            let end = lseek(descriptor, -2, SEEK_CUR)
            guard end >= 0, ftruncate(descriptor, end) == 0 else { throw ExportError.posix("write", "the manifest") }
        }
        try ScratchFile.writeAll(descriptor, Array("]}\n".utf8))
    }
}
