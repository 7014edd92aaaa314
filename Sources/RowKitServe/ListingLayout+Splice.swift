import Foundation
import RowKit
import RowKitHTML
import RowKitListing

extension ListingLayout {
    /// The outline of `bytes`, the listing's new bytes, read only where they differ from the
    /// layout's: the rows between the longest common prefix and suffix are read again, within
    /// the section that holds them or as the whole sections that hold them, and put in the place
    /// of the old ones; `nil` when a full read is needed to be exact.
    ///
    /// When the changed bytes lie within one section's rows, those rows are read again
    /// (``spliceRows(_:prefix:suffix:into:digests:reader:)``); else, or when that declines, the
    /// whole sections that hold them (``spliceSections(_:prefix:suffix:into:digests:reader:)``,
    /// which lists when a full read is needed). The rows' splice declines when the changed bytes
    /// reach beyond one section's rows (a header, a section's own fields, the last row of a
    /// section), when a row read again or replaced has an image or no explicit identity, takes an
    /// identity another row has, or has a detail page whose slug could differ from a full read's
    /// (``slugHashes``), when the rows read again are not `- ` items at the section's column, or
    /// when reading them finds any problem (the full read then reports it).
    ///
    /// - Parameters:
    ///   - old: The outline the layout was read with (the document's own title and style).
    ///   - digests: The digest of each row of `old` by identity (the splice says how it changes).
    ///   - reader: The listing's reader (its options; its bytes are not read).
    /// - Complexity: O(*n*) to compare the bytes (memcmp) and copy the outline, plus the read of
    ///   the changed rows.
    func splice(
        _ bytes: Data, into old: TableOutline, digests: [String: UInt64], reader: ListingReader
    ) -> ListingSplice? {
        guard !rowStarts.isEmpty, old.rowCount == rowStarts.count else { return nil }
        let (prefix, suffix) = Self.common(self.bytes, bytes)
        if prefix == bytes.count && prefix == self.bytes.count {
            return ListingSplice(outline: old, layout: self, changedRows: [:])
        }
        if isCSV {
            return spliceCSV(bytes, prefix: prefix, suffix: suffix, into: old, digests: digests, reader: reader)
                ?? spliceCSVSections(bytes, prefix: prefix, suffix: suffix, into: old, digests: digests, reader: reader)
        }
        return spliceRows(bytes, prefix: prefix, suffix: suffix, into: old, digests: digests, reader: reader)
            ?? spliceSections(bytes, prefix: prefix, suffix: suffix, into: old, digests: digests, reader: reader)
    }

    /// The splice of the rows of one section that hold the changed bytes (`prefix` and `suffix`:
    /// the lengths of the bytes that stay the same at each end), or `nil`.
    func spliceRows(
        _ bytes: Data, prefix: Int, suffix: Int, into old: TableOutline, digests: [String: UInt64],
        reader: ListingReader
    ) -> ListingSplice? {
        // The old rows [first, end) hold the changed bytes; the row `end` starts the same suffix.
        let first = Self.lastIndex(in: rowStarts, atMost: prefix)
        guard first >= 0 else { return nil }
        let oldEnd = self.bytes.count - suffix
        var end = Self.firstIndex(in: rowStarts, atLeast: oldEnd)
        if end < first { end = first }
        guard end < rowStarts.count else { return nil }
        let section = Self.lastIndex(in: old.sectionStarts, atMost: first)
        guard section >= 0, section < old.sectionIDs.count, end < old.sectionStarts[section + 1] else { return nil }
        if rowStarts[end] < oldEnd { return nil }
        let windowStart = rowStarts[first]
        let newWindowEnd = bytes.count - (self.bytes.count - rowStarts[end])
        // The row after the window starts a line in the new bytes too.
        guard windowStart <= newWindowEnd, newWindowEnd > 0, bytes[bytes.startIndex + newWindowEnd - 1] == 0x0A,
            sectionStarts.count > section, !sectionStarts.isEmpty
        else { return nil }
        for row in first..<end where old.imageDigests[row] != 0 { return nil }

        // The document's header, the section's fields before its rows, and the new rows.
        let headerEnd = sectionStarts[0]
        let prologue = sectionStarts[section]..<rowStarts[old.sectionStarts[section]]
        guard headerEnd <= windowStart, prologue.upperBound <= windowStart else { return nil }
        var mini = Data(bytes[bytes.startIndex..<bytes.startIndex + headerEnd])
        mini.append(bytes[bytes.startIndex + prologue.lowerBound..<bytes.startIndex + prologue.upperBound])
        let rowsAt = mini.count
        mini.append(bytes[bytes.startIndex + windowStart..<bytes.startIndex + newWindowEnd])
        guard let (summary, visitor) = readAlone(mini, with: reader), summary.sectionCount == 1,
            let rowOffsets = Self.itemOffsets(mini, visitor.rowPlaces)
        else { return nil }
        let rows = visitor.readRows
        let column = sectionColumns[section]
        guard rows.count == visitor.rowPlaces.count else { return nil }
        for place in visitor.rowPlaces where place.column != column { return nil }
        return replacing(
            first..<end, of: section, with: rows, at: rowOffsets, from: rowsAt, windowStart: windowStart, bytes: bytes,
            old: old, digests: digests)
    }

    /// The splice that puts `rows`, read again from a document of their own (their starts in it
    /// `offsets`, the window's first byte at `base`; in the new bytes at `windowStart`), in the place
    /// of the old rows `range` of `section`; `nil` when a row cannot be vouched for: one with an
    /// image or no explicit identity, one starting before the window, an identity that another
    /// row of the listing keeps, or a detail page whose slug a full read could give otherwise.
    func replacing(
        _ range: Range<Int>, of section: Int, with rows: [ListingRow], at offsets: [Int], from base: Int,
        windowStart: Int, bytes: Data, old: TableOutline, digests: [String: UInt64]
    ) -> ListingSplice? {
        let (first, end) = (range.lowerBound, range.upperBound)
        for (index, row) in rows.enumerated() {
            guard row.hasExplicitID, row.image == nil, offsets[index] >= base else { return nil }
        }
        var slugs = slugHashes
        guard Self.replaceSlugs(&slugs, removing: range, of: old, detailRows: detailRows, adding: rows) else {
            return nil
        }
        // Identities: the new rows' must be new to the rest of the listing.
        guard let removed = Self.replacedDigests(first..<end, of: old, digests: digests, by: rows) else { return nil }

        // The new outline and layout.
        var outline = old
        let delta = rows.count - (end - first)
        outline.rowIDs.replaceSubrange(first..<end, with: rows.map(\.id))
        let newDigests = rows.map(OutlineVisitor.digest(of:))
        outline.rowDigests.replaceSubrange(first..<end, with: newDigests)
        outline.imageDigests.replaceSubrange(first..<end, with: repeatElement(0, count: rows.count))
        for index in (section + 1)..<outline.sectionStarts.count { outline.sectionStarts[index] += delta }
        var layout = self
        let shift = bytes.count - self.bytes.count
        layout.bytes = bytes
        layout.rowStarts.replaceSubrange(first..<end, with: offsets.map { $0 - base + windowStart })
        for index in (first + rows.count)..<layout.rowStarts.count { layout.rowStarts[index] += shift }
        for index in layout.sectionStarts.indices where index > section { layout.sectionStarts[index] += shift }
        layout.detailRows.replaceSubrange(first..<end, with: rows.map(OutlineVisitor.hasDetailPage))
        layout.slugHashes = slugs

        return ListingSplice(outline: outline, layout: layout, rows: rows, digests: newDigests, replacing: removed)
    }

    /// The lengths of the longest common prefix of `a` and `b` and of their longest common suffix
    /// that does not overlap it.
    static func common(_ a: Data, _ b: Data) -> (prefix: Int, suffix: Int) {
        a.withUnsafeBytes { (x: UnsafeRawBufferPointer) in
            b.withUnsafeBytes { (y: UnsafeRawBufferPointer) in
                let limit = min(x.count, y.count)
                guard limit > 0, let p = x.baseAddress, let q = y.baseAddress else { return (0, 0) }
                // Blocks by memcmp, then the bytes of the block that differs.
                let block = 4096
                var prefix = 0
                while prefix + block <= limit, memcmp(p + prefix, q + prefix, block) == 0 { prefix += block }
                while prefix < limit, x[prefix] == y[prefix] { prefix += 1 }
                var suffix = 0
                let most = limit - prefix
                while suffix + block <= most,
                    memcmp(p + x.count - suffix - block, q + y.count - suffix - block, block) == 0
                {
                    suffix += block
                }
                while suffix < most, x[x.count - suffix - 1] == y[y.count - suffix - 1] { suffix += 1 }
                return (prefix, suffix)
            }
        }
    }

    /// The last index of ascending `values` whose value is at most `value`, or -1.
    static func lastIndex(in values: [Int], atMost value: Int) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] <= value { low = middle + 1 } else { high = middle }
        }
        return low - 1
    }

    /// The first index of ascending `values` whose value is at least `value` (`values.count` when
    /// none is).
    static func firstIndex(in values: [Int], atLeast value: Int) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
