import Foundation
import RowKit
import RowKitHTML
import RowKitListing

/// CSV changes that cross sections' runs: the whole runs that hold the changed records are read
/// again, after the header, and put in the place of the old ones.
extension ListingLayout {
    /// The splice of the whole sections of a CSV listing whose records hold the changed bytes
    /// (`prefix` and `suffix`: the lengths of the bytes that stay the same at each end), or `nil`
    /// when a full read is needed to be exact (see ``spliceCSV(_:prefix:suffix:into:digests:reader:)``).
    ///
    /// The window runs from the first record of the section that holds the first changed byte to
    /// the first record of the first section after the last changed byte (or the end of the
    /// file): whole runs, so the records around it keep their sections. Its sections must be
    /// runs in file order with names no section outside it has (with `--sort`, names that keep
    /// every section in name order): then the file's sections are those before the window, the
    /// window's, and those after it, as a full read finds them.
    ///
    /// A full read is needed, and the splice declines, when the listing takes sections' footers
    /// or index titles from columns (`--footer`, `--index`), the changed bytes reach into the
    /// header, a section of the window has a name a section outside it has (rows moved into
    /// another section's run: the runs would interleave) or, with `--sort`, one out of name
    /// order, the window's records interleave, every section is deleted, or the window does not
    /// end in LF, holds a lone CR, or reads with any problem or warning; and as for the rows'
    /// splice, when a row read again or replaced has an image or no `id`, takes an `id` a row
    /// outside the window has, or has a detail page whose slug could differ from a full read's.
    ///
    /// - Complexity: O(*n*) to copy the outline and layout (and O(*s*) per section name that is
    ///   new to the window), plus the read of the window's sections.
    func spliceCSVSections(
        _ bytes: Data, prefix: Int, suffix: Int, into old: TableOutline, digests: [String: UInt64],
        reader: ListingReader
    ) -> ListingSplice? {
        let count = old.sectionIDs.count
        guard isCSV, reader.csv.footer == nil, reader.csv.index == nil, !rowStarts.isEmpty,
            old.rowCount == rowStarts.count, old.sectionStarts.count == count + 1, sectionHeaders.count == count
        else { return nil }
        let firstRow = Self.lastIndex(in: rowStarts, atMost: prefix)
        guard firstRow >= 0 else { return nil }
        let endRow = max(firstRow, Self.firstIndex(in: rowStarts, atLeast: self.bytes.count - suffix))
        let first = Self.lastIndex(in: old.sectionStarts, atMost: firstRow)
        let end = max(first, Self.firstIndex(in: old.sectionStarts, atLeast: endRow))
        guard first >= 0, first < count, end <= count else { return nil }
        let windowStart = rowStarts[old.sectionStarts[first]]
        let oldWindowEnd = end < count ? rowStarts[old.sectionStarts[end]] : self.bytes.count
        let newWindowEnd = bytes.count - (self.bytes.count - oldWindowEnd)
        guard windowStart <= newWindowEnd, newWindowEnd > 0, bytes[bytes.startIndex + newWindowEnd - 1] == 0x0A,
            !Self.hasLoneCR(bytes, in: windowStart..<newWindowEnd)
        else { return nil }
        for row in old.sectionStarts[first]..<old.sectionStarts[end] where old.imageDigests[row] != 0 { return nil }

        let headerEnd = rowStarts[0]
        var read = SectionsRead(base: headerEnd)
        let window = bytes[bytes.startIndex + windowStart..<bytes.startIndex + newWindowEnd]
        if window.contains(where: { $0 != 0x0A && $0 != 0x0D }) {
            var mini = Data(bytes[bytes.startIndex..<bytes.startIndex + headerEnd])
            mini.append(window)
            guard let (_, visitor) = readAlone(mini, with: reader), !visitor.hasDerivedIDs,
                visitor.readRows.count == visitor.rowPlaces.count, !visitor.headers.isEmpty,
                visitor.outline.sections.count == visitor.headers.count,
                visitor.outline.sectionStarts.count == visitor.headers.count + 1
            else { return nil }
            var last = 1
            for place in visitor.rowPlaces {
                guard place.column == 1, place.line > last else { return nil }
                last = place.line
            }
            guard let offsets = Self.lineOffsets(mini, visitor.rowPlaces.map(\.line)),
                sectionNamesFit(visitor.headers, replacing: first..<end, sorted: reader.csv.sort)
            else { return nil }
            read.sections = visitor.outline.sections
            read.headers = visitor.headers
            read.sectionStarts = visitor.outline.sectionStarts
            read.rows = visitor.readRows
            read.rowOffsets = offsets
        } else if end - first >= count {
            return nil  // every section's rows are gone
        }
        return replacing(
            sections: first..<end, with: read, windowStart: windowStart, bytes: bytes, old: old, digests: digests)
    }

    /// Whether sections named by `headers` (in file order), in the place of the old sections
    /// `range`, leave every section a run of its own name, in name order when `sorted`.
    func sectionNamesFit(_ headers: [String?], replacing range: Range<Int>, sorted: Bool) -> Bool {
        let names = headers.map { $0 ?? "" }
        let old = sectionHeaders.map { $0 ?? "" }
        if sorted {
            for index in names.indices.dropFirst() where !(names[index - 1] < names[index]) { return false }
            if range.lowerBound > 0, !(old[range.lowerBound - 1] < names[0]) { return false }
            if range.upperBound < old.count, !(names[names.count - 1] < old[range.upperBound]) { return false }
            return true
        }
        // The old names are all different: one of the window's old names is no other section's.
        let window = Set(old[range])
        for name in names where !window.contains(name) {
            for index in old.indices where !range.contains(index) && old[index] == name { return false }
        }
        return true
    }
}
