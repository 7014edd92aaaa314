import Foundation
import RowKitListing

/// Where a YAML or CSV listing's rows lie in its bytes, as its last read found them: what reading
/// again only the rows a save changed needs (``ListingLayout/splice(_:into:digests:reader:)``).
///
/// A CSV listing's layout is its records' starts (`ListingLayout+CSV.swift` says which have one).
/// Of YAML, only a listing written in block style, each row and each section a `- ` item that starts its
/// own line, has one: a row then spans from the start of its line to the start of the next
/// row's (or section's) line, and every row of a section starts at the same column. Its rows'
/// identities must all be written (`id`): a derived one depends on the others.
struct ListingLayout: Sendable {
    /// The listing's bytes.
    var bytes: Data
    /// The byte offset of each row's first line.
    var rowStarts: [Int]
    /// The byte offset of each section's first line.
    var sectionStarts: [Int]
    /// The column each section's rows start at (their mapping, after the `- `), 0 when it has no
    /// rows.
    var sectionColumns: [Int]
    /// Whether each row has a detail page.
    var detailRows: [Bool]
    /// Each section's header as the document says it (`nil`: none): what sections' identities
    /// are made of.
    var sectionHeaders: [String?]
    /// The column of the sections' `- ` items' mappings (0 for CSV).
    var sectionColumn = 0
    /// The hashes of the detail pages' slugs, each its identity's base slug, or `nil` when a
    /// slug is not (``OutlineVisitor/baseSlugHashes``).
    var slugHashes: Set<UInt64>?
    /// The title and style as the document says them (before a command's overrides).
    var title: String
    var style: String
    /// Whether the listing is CSV (its rows are records; no sections' places or columns).
    var isCSV = false

    /// The layout of `bytes` as `visitor` read them, or `nil` when the listing is not YAML in
    /// block style with one item a line, nor CSV in file order.
    init?(bytes: Data, format: ListingFormat?, path: String, visitor: OutlineVisitor) {
        let format = format ?? ListingFormat(pathExtension: (path as NSString).pathExtension)
        if format == .csv {
            guard let layout = ListingLayout(csv: bytes, visitor: visitor) else { return nil }
            self = layout
            return
        }
        guard format == .yaml,
            let header = visitor.header, !visitor.hasDerivedIDs,
            visitor.sectionPlaces.count == visitor.outline.sectionIDs.count,
            visitor.rowPlaces.count == visitor.outline.rowCount
        else { return nil }
        let rows = visitor.rowPlaces
        let sections = visitor.sectionPlaces
        let starts = visitor.outline.sectionStarts
        guard let sectionColumn = sections.first?.column, sections.allSatisfy({ $0.column == sectionColumn })
        else { return nil }
        var columns: [Int] = []
        for section in sections.indices {
            let first = starts[section]
            let end = starts[section + 1]
            columns.append(first < end ? rows[first].column : 0)
            for row in first..<end where rows[row].column != columns[section] { return nil }
        }
        // Sections and rows come in document order: one pass finds every line's offset.
        var places: [(line: Int, column: Int)] = []
        places.reserveCapacity(rows.count + sections.count)
        var kinds: [Bool] = []  // true: a row
        for section in sections.indices {
            places.append(sections[section])
            kinds.append(false)
            for row in starts[section]..<starts[section + 1] {
                places.append(rows[row])
                kinds.append(true)
            }
        }
        guard let offsets = Self.itemOffsets(bytes, places) else { return nil }
        rowStarts = []
        rowStarts.reserveCapacity(rows.count)
        sectionStarts = []
        for (index, offset) in offsets.enumerated() {
            if kinds[index] { rowStarts.append(offset) } else { sectionStarts.append(offset) }
        }
        self.bytes = bytes
        sectionColumns = columns
        self.sectionColumn = sectionColumn
        detailRows = visitor.detailRows
        sectionHeaders = visitor.headers
        slugHashes = visitor.baseSlugHashes
        title = header.title
        style = header.style.rawValue
    }

    /// The byte offset of the line of each of `places` (1-based lines and columns, ascending
    /// lines), each of which must be a `- ` item that starts its line: spaces, `-`, spaces, then
    /// the item at its column. `nil` when one is not.
    static func itemOffsets(_ bytes: Data, _ places: [(line: Int, column: Int)]) -> [Int]? {
        guard let offsets = lineOffsets(bytes, places.map(\.line)) else { return nil }
        let allItems = bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return offsets.isEmpty }
            return zip(offsets, places).allSatisfy {
                isItem(base, count: raw.count, lineStart: $0.0, column: $0.1.column)
            }
        }
        return allItems ? offsets : nil
    }

    /// The byte offset of the start of each of `lines` (1-based, ascending), counting LF; `nil`
    /// when the bytes have fewer lines.
    static func lineOffsets(_ bytes: Data, _ lines: [Int]) -> [Int]? {
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Int]? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
                return lines.isEmpty ? [] : nil
            }
            let count = raw.count
            var offsets: [Int] = []
            offsets.reserveCapacity(lines.count)
            var line = 1
            var offset = 0
            for target in lines {
                guard target >= line else { return nil }
                while line < target {
                    guard offset < count, let newline = memchr(base + offset, 0x0A, count - offset) else { return nil }
                    offset = UnsafePointer<UInt8>(newline.assumingMemoryBound(to: UInt8.self)) - base + 1
                    line += 1
                }
                guard offset < count else { return nil }
                offsets.append(offset)
            }
            return offsets
        }
    }

    /// Whether the line at `lineStart` is spaces, `-`, at least one space, and then what starts at
    /// `column` (1-based, in bytes: the bytes before it are ASCII).
    static func isItem(_ base: UnsafePointer<UInt8>, count: Int, lineStart: Int, column: Int) -> Bool {
        let end = lineStart + column - 1
        guard column >= 3, end <= count else { return false }
        var index = lineStart
        while index < end, base[index] == 0x20 { index += 1 }
        guard index < end - 1, base[index] == UInt8(ascii: "-") else { return false }
        index += 1
        while index < end, base[index] == 0x20 { index += 1 }
        return index == end
    }
}
