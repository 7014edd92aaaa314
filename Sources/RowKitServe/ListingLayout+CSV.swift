import Foundation
import RowKit
import RowKitHTML
import RowKitListing

/// CSV listings: a record is a row, and a row spans from the start of its record's line to the
/// start of the next record's (or the end of the file).
///
/// A CSV listing has a layout when its rows come in file order (each section one run of records,
/// as a file grouped by its section column is; with `sort`, also in name order): a file whose
/// sections' runs interleave is read in a second pass, out of file order, and read whole on every
/// save. Its rows' identities must all be written (an `id` cell: a derived one depends on the rows
/// before it), and its line breaks must be LF or CRLF (rows are found by their lines, counted by
/// LF; the reader also takes a lone CR as a line break). Line breaks inside quoted fields are
/// fine: they are counted as lines by the reader and by the layout alike.
extension ListingLayout {
    /// The layout of a CSV listing's `bytes` as `visitor` read them, or `nil` (see above).
    init?(csv bytes: Data, visitor: OutlineVisitor) {
        guard let header = visitor.header, !visitor.hasDerivedIDs, !visitor.rowPlaces.isEmpty,
            visitor.rowPlaces.count == visitor.outline.rowCount, !Self.hasLoneCR(bytes, in: 0..<bytes.count)
        else { return nil }
        var lines: [Int] = []
        lines.reserveCapacity(visitor.rowPlaces.count)
        var last = 1  // the header's line, at least
        for place in visitor.rowPlaces {
            guard place.column == 1, place.line > last else { return nil }
            lines.append(place.line)
            last = place.line
        }
        guard let offsets = Self.lineOffsets(bytes, lines) else { return nil }
        self.bytes = bytes
        rowStarts = offsets
        sectionStarts = []
        sectionColumns = []
        detailRows = visitor.detailRows
        sectionHeaders = visitor.headers
        slugHashes = visitor.baseSlugHashes
        title = header.title
        style = header.style.rawValue
        isCSV = true
    }

    /// The splice of the CSV records that hold the changed bytes (`prefix` and `suffix`: the
    /// lengths of the bytes that stay the same at each end), within one section, or `nil`; the
    /// splice of ``splice(_:into:digests:reader:)`` then tries the whole sections that hold them
    /// (``spliceCSVSections(_:prefix:suffix:into:digests:reader:)``).
    ///
    /// The records between the longest common prefix and suffix are read again, after the
    /// header's bytes, and must all belong to the section that holds the first of them. Outside
    /// that window the bytes are the old ones, and the window starts and ends at a record's start
    /// (its bytes end in LF, and a read of the header and the window alone must end without a
    /// problem, so no quote is left open into the rest), so the rest of the file reads as before.
    ///
    /// This splice declines when:
    /// - the listing takes sections' footers or index titles from columns (`--footer`, `--index`):
    ///   a section takes the first non-empty cell among all its rows, not only the window's;
    /// - the changed bytes reach into the header (a column's place may change every row);
    /// - a record read again belongs to another section than the window's first row (a row moved
    ///   across a section boundary, a section renamed, a new section: the sections' order is
    ///   first-seen or by name over the whole file), or the window's rows were a whole section and
    ///   are gone;
    /// - a row read again or replaced has an image, no `id` (a derived identity depends on the
    ///   rows before it), takes an identity another row has, or has a detail page whose slug
    ///   could differ from a full read's (``slugHashes``);
    /// - the window holds a lone CR, does not end in LF (a last record without a line break), or
    ///   reading it finds any problem or warning (the full read then reports it).
    ///
    /// - Complexity: O(*n*) to copy the outline, plus the read of the changed rows.
    func spliceCSV(
        _ bytes: Data, prefix: Int, suffix: Int, into old: TableOutline, digests: [String: UInt64],
        reader: ListingReader
    ) -> ListingSplice? {
        guard reader.csv.footer == nil, reader.csv.index == nil, !rowStarts.isEmpty,
            old.rowCount == rowStarts.count, old.sectionStarts.count == old.sectionIDs.count + 1
        else { return nil }
        // The old rows [first, end) hold the changed bytes; from the row `end` (or the end of the
        // file) on, the bytes are the same suffix.
        let first = Self.lastIndex(in: rowStarts, atMost: prefix)
        guard first >= 0 else { return nil }
        let oldEnd = self.bytes.count - suffix
        let end = max(first, Self.firstIndex(in: rowStarts, atLeast: oldEnd))
        let oldWindowEnd = end < rowStarts.count ? rowStarts[end] : self.bytes.count
        let section = Self.lastIndex(in: old.sectionStarts, atMost: first)
        guard section >= 0, section < old.sectionIDs.count, end <= old.sectionStarts[section + 1],
            oldWindowEnd >= oldEnd
        else { return nil }
        let windowStart = rowStarts[first]
        let newWindowEnd = bytes.count - (self.bytes.count - oldWindowEnd)
        guard windowStart <= newWindowEnd, newWindowEnd > 0, bytes[bytes.startIndex + newWindowEnd - 1] == 0x0A,
            !Self.hasLoneCR(bytes, in: windowStart..<newWindowEnd)
        else { return nil }
        for row in first..<end where old.imageDigests[row] != 0 { return nil }

        // The header's bytes (and blank lines after it), then the window's.
        let headerEnd = rowStarts[0]
        var mini = Data(bytes[bytes.startIndex..<bytes.startIndex + headerEnd])
        let window = bytes[bytes.startIndex + windowStart..<bytes.startIndex + newWindowEnd]
        var rows: [ListingRow] = []
        var rowOffsets: [Int] = []
        if window.contains(where: { $0 != 0x0A && $0 != 0x0D }) {
            mini.append(window)
            guard let (summary, read) = readAlone(mini, with: reader), summary.sectionCount == 1,
                read.readRows.count == read.rowPlaces.count
            else { return nil }
            var visitor = read
            visitor.finish()
            guard visitor.outline.sections == [old.sections[section]] else { return nil }
            var last = 1
            for place in visitor.rowPlaces {
                guard place.column == 1, place.line > last else { return nil }
                last = place.line
            }
            guard let offsets = Self.lineOffsets(mini, visitor.rowPlaces.map(\.line)) else { return nil }
            rows = visitor.readRows
            rowOffsets = offsets
        } else if end - first >= old.sectionStarts[section + 1] - old.sectionStarts[section] {
            return nil  // the section's rows are all gone: so is the section
        }
        return replacing(
            first..<end, of: section, with: rows, at: rowOffsets, from: headerEnd, windowStart: windowStart,
            bytes: bytes, old: old, digests: digests)
    }

    /// Whether `bytes` hold, in `range` (offsets from their start), a CR that no LF follows.
    static func hasLoneCR(_ bytes: Data, in range: Range<Int>) -> Bool {
        bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            var offset = range.lowerBound
            while offset < range.upperBound,
                let found = memchr(base + offset, 0x0D, range.upperBound - offset)
            {
                let at = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                if at + 1 >= raw.count || base[at + 1] != 0x0A { return true }
                offset = at + 1
            }
            return false
        }
    }
}
