import Foundation
import RowKit
import RowKitHTML
import RowKitListing

/// Changes that cross sections: the whole sections that hold the changed bytes are read again,
/// alone, and put in the place of the old ones (sections deleted, inserted, moved or duplicated,
/// rows moved from one section to another, a section's header or footer changed, an edit spanning
/// two sections).
extension ListingLayout {
    /// The splice of the whole sections of a YAML listing in block style that hold the changed
    /// bytes (`prefix` and `suffix`: the lengths of the bytes that stay the same at each end), or
    /// `nil` when a full read is needed to be exact.
    ///
    /// The window runs from the start of the line of the section holding the first changed byte
    /// to the start of the line of the first section after the last one (or the end of the file).
    /// Outside it the bytes are the old ones, and in the new bytes it starts and ends at a
    /// section's `- ` item at the sections' column, so what comes before and after reads as
    /// before. The document's header and the window's new bytes are read alone, by the same
    /// reader, and their sections take the old ones' place; the sections' identities are made
    /// again from every section's header.
    ///
    /// A full read is needed, and the splice declines, when:
    /// - the changed bytes reach into the document's header (before the first section), or the
    ///   header read with the window differs (a title or style after the sections, in the window
    ///   or not);
    /// - the window's new bytes do not start with a section's `- ` item at the sections' column
    ///   (rows added to the end of the section before it, say), do not end at a line's start, or
    ///   its sections' rows are not `- ` items starting their lines at one column each;
    /// - every section is deleted (when the last ones are, the section before them is read
    ///   again with what follows it: keys after the sections may have gone with them);
    /// - a row read again or replaced has an image or no `id`, takes an `id` a row outside the
    ///   window has, or has a detail page whose slug could differ from a full read's (two rows'
    ///   base slugs meet: ``slugHashes``);
    /// - reading the window finds any problem or warning (the full read then reports it).
    ///
    /// - Complexity: O(*n*) to copy the outline and layout, plus the read of the window's
    ///   sections.
    func spliceSections(
        _ bytes: Data, prefix: Int, suffix: Int, into old: TableOutline, digests: [String: UInt64],
        reader: ListingReader
    ) -> ListingSplice? {
        let count = sectionStarts.count
        guard !isCSV, count > 0, old.sectionIDs.count == count, sectionHeaders.count == count,
            old.sectionStarts.count == count + 1
        else { return nil }
        var first = Self.lastIndex(in: sectionStarts, atMost: prefix)
        guard first >= 0 else { return nil }
        let end = max(first, Self.firstIndex(in: sectionStarts, atLeast: self.bytes.count - suffix))
        let oldWindowEnd = end < count ? sectionStarts[end] : self.bytes.count
        let newWindowEnd = bytes.count - (self.bytes.count - oldWindowEnd)
        guard sectionStarts[first] <= newWindowEnd else { return nil }
        if sectionStarts[first] == newWindowEnd {
            if end < count {
                // Whole sections deleted, with the sections after them in place.
                for row in old.sectionStarts[first]..<old.sectionStarts[end] where old.imageDigests[row] != 0 {
                    return nil
                }
                return replacing(
                    sections: first..<end, with: SectionsRead(), windowStart: newWindowEnd, bytes: bytes, old: old,
                    digests: digests)
            }
            // The last sections deleted: what followed them (keys after the sections) may have
            // gone too, so the section before them is read again with what follows it.
            guard first > 0 else { return nil }
            first -= 1
        }
        let windowStart = sectionStarts[first]
        for row in old.sectionStarts[first]..<old.sectionStarts[end] where old.imageDigests[row] != 0 { return nil }
        guard bytes[bytes.startIndex + newWindowEnd - 1] == 0x0A else { return nil }

        // The document's header, then the window's sections.
        let headerEnd = sectionStarts[0]
        var mini = Data(bytes[bytes.startIndex..<bytes.startIndex + headerEnd])
        mini.append(bytes[bytes.startIndex + windowStart..<bytes.startIndex + newWindowEnd])
        guard let (_, visitor) = readAlone(mini, with: reader), !visitor.hasDerivedIDs,
            visitor.readRows.count == visitor.rowPlaces.count, !visitor.sectionPlaces.isEmpty,
            visitor.sectionPlaces.count == visitor.outline.sections.count,
            visitor.outline.sectionStarts.count == visitor.sectionPlaces.count + 1,
            visitor.sectionPlaces.allSatisfy({ $0.column == sectionColumn }),
            let sectionOffsets = Self.itemOffsets(mini, visitor.sectionPlaces), sectionOffsets[0] == headerEnd,
            let rowOffsets = Self.itemOffsets(mini, visitor.rowPlaces)
        else { return nil }
        var read = SectionsRead(
            sections: visitor.outline.sections, headers: visitor.headers, sectionOffsets: sectionOffsets,
            sectionStarts: visitor.outline.sectionStarts, rows: visitor.readRows, rowOffsets: rowOffsets,
            base: headerEnd)
        let starts = visitor.outline.sectionStarts
        for section in visitor.sectionPlaces.indices {
            let column = starts[section] < starts[section + 1] ? visitor.rowPlaces[starts[section]].column : 0
            for row in starts[section]..<starts[section + 1] where visitor.rowPlaces[row].column != column {
                return nil
            }
            read.columns.append(column)
        }
        return replacing(
            sections: first..<end, with: read, windowStart: windowStart, bytes: bytes, old: old, digests: digests)
    }

    /// Sections read again from a document of their own: their display text, headers, where each
    /// starts (in that document, whose window starts at `base`) and its first row, their rows and
    /// where each starts, and the column of each section's rows (YAML).
    struct SectionsRead {
        var sections: [TableOutline.SectionInfo] = []
        var headers: [String?] = []
        var sectionOffsets: [Int] = []
        var sectionStarts: [Int] = [0]
        var rows: [ListingRow] = []
        var rowOffsets: [Int] = []
        var base = 0
        var columns: [Int] = []
    }

    /// The splice that puts the sections `read` (the window's first byte in the new bytes at
    /// `windowStart`) in the place of the old sections `range`; `nil` when a row cannot be
    /// vouched for (see ``replacing(_:of:with:at:from:windowStart:bytes:old:digests:)``).
    func replacing(
        sections range: Range<Int>, with read: SectionsRead, windowStart: Int, bytes: Data, old: TableOutline,
        digests: [String: UInt64]
    ) -> ListingSplice? {
        let rows = read.rows
        let first = old.sectionStarts[range.lowerBound]
        let end = old.sectionStarts[range.upperBound]
        for (index, row) in rows.enumerated() {
            guard row.hasExplicitID, row.image == nil, read.rowOffsets[index] >= read.base else { return nil }
        }
        var slugs = slugHashes
        guard Self.replaceSlugs(&slugs, removing: first..<end, of: old, detailRows: detailRows, adding: rows) else {
            return nil
        }
        // Identities: the new rows' must be new to the rest of the listing.
        guard let removed = Self.replacedDigests(first..<end, of: old, digests: digests, by: rows) else { return nil }

        // The new outline.
        var outline = old
        let delta = rows.count - (end - first)
        let newDigests = rows.map(OutlineVisitor.digest(of:))
        outline.rowIDs.replaceSubrange(first..<end, with: rows.map(\.id))
        outline.rowDigests.replaceSubrange(first..<end, with: newDigests)
        outline.imageDigests.replaceSubrange(first..<end, with: repeatElement(0, count: rows.count))
        outline.sections.replaceSubrange(range, with: read.sections)
        var starts = Array(old.sectionStarts[..<range.lowerBound])
        starts.reserveCapacity(old.sectionStarts.count - range.count + read.sections.count)
        for start in read.sectionStarts.dropLast() { starts.append(first + start) }
        for start in old.sectionStarts[range.upperBound...] { starts.append(start + delta) }
        outline.sectionStarts = starts

        // The new layout.
        var layout = self
        let shift = bytes.count - self.bytes.count
        layout.bytes = bytes
        layout.rowStarts.replaceSubrange(first..<end, with: read.rowOffsets.map { $0 - read.base + windowStart })
        for index in (first + rows.count)..<layout.rowStarts.count { layout.rowStarts[index] += shift }
        layout.detailRows.replaceSubrange(first..<end, with: rows.map(OutlineVisitor.hasDetailPage))
        layout.slugHashes = slugs
        layout.sectionHeaders.replaceSubrange(range, with: read.headers)
        if !isCSV {
            layout.sectionStarts.replaceSubrange(
                range, with: read.sectionOffsets.map { $0 - read.base + windowStart })
            for index in (range.lowerBound + read.sections.count)..<layout.sectionStarts.count {
                layout.sectionStarts[index] += shift
            }
            layout.sectionColumns.replaceSubrange(range, with: read.columns)
        }
        outline.sectionIDs = OutlineVisitor.sectionIDs(layout.sectionHeaders)

        return ListingSplice(outline: outline, layout: layout, rows: rows, digests: newDigests, replacing: removed)
    }

    /// The identities and digests of the old rows `range`, which `rows` replace; `nil` when a new
    /// row's identity is another row's of the listing (one of those it replaces may come back) or
    /// comes twice.
    static func replacedDigests(
        _ range: Range<Int>, of old: TableOutline, digests: [String: UInt64], by rows: [ListingRow]
    ) -> [String: UInt64]? {
        var removed: [String: UInt64] = [:]
        for row in range { removed[old.rowIDs[row]] = digests[old.rowIDs[row]] }
        var seen = Set<String>()
        for row in rows {
            guard seen.insert(row.id).inserted, digests[row.id] == nil || removed[row.id] != nil else { return nil }
        }
        return removed
    }

    /// Reads `mini` (a document made of the listing's header and a window of its new bytes) alone
    /// with the listing's options, keeping its rows; `nil` unless it reads without a problem and
    /// with the listing's title and style.
    func readAlone(_ mini: Data, with reader: ListingReader) -> (summary: ListingSummary, visitor: OutlineVisitor)? {
        var windowReader = reader
        windowReader.data = mini
        windowReader.readAhead = false
        var visitor = OutlineVisitor()
        visitor.keepsRows = true
        guard let summary = try? windowReader.read(into: &visitor), summary.isValid, summary.diagnostics.isEmpty,
            visitor.header?.title == title, visitor.header?.style.rawValue == style
        else { return nil }
        return (summary, visitor)
    }

    /// Brings `hashes` (``slugHashes``) from the rows `range` of `old` (`detailRows`: which of the
    /// old rows have a detail page) to `rows` in their place; `false` when a detail page's slug
    /// could then differ from a full read's.
    ///
    /// Slugs are handed out in listing order, each the base slug of its row's identity unless an
    /// earlier row took it. While every slug is its base (no two rows' bases meet), a row with a
    /// detail page that goes frees its slug for no one, and one that comes, with a base no other
    /// row has, takes its base and leaves every other row's; so the rows' slugs are their bases,
    /// as a full read gives them.
    static func replaceSlugs(
        _ hashes: inout Set<UInt64>?, removing range: Range<Int>, of old: TableOutline, detailRows: [Bool],
        adding rows: [ListingRow]
    ) -> Bool {
        let added = rows.filter(OutlineVisitor.hasDetailPage)
        if added.isEmpty && !range.contains(where: { detailRows[$0] }) { return true }
        guard var set = hashes else { return false }
        for row in range where detailRows[row] {
            set.remove(ContentHash(SlugAllocator.baseSlug(for: old.rowIDs[row])).value)
        }
        for row in added {
            guard set.insert(ContentHash(SlugAllocator.baseSlug(for: row.id)).value).inserted else { return false }
        }
        hashes = set
        return true
    }

    /// The slug of `row`'s detail page while every slug is its base
    /// (``replaceSlugs(_:removing:of:detailRows:adding:)``).
    static func slug(of row: ListingRow) -> String? {
        OutlineVisitor.hasDetailPage(row) ? SlugAllocator.baseSlug(for: row.id) : nil
    }
}
