import RowKit
import RowKitHTML
import RowKitListing

/// Reads a listing into its ``TableOutline`` (identities, digests, sections) and the image paths
/// its rows name, as a stream: what a live site compares from one save to the next.
struct OutlineVisitor: ListingVisitor {
    var outline = TableOutline()
    /// The image paths the rows name, as written (relative to the listing's folder, or URLs).
    var images: Set<String> = []
    /// The digest of each row's identity in the outline read before, if any: the rows that are
    /// new or changed since then are kept whole (``changedRows``), for their records.
    var previousDigests: [String: UInt64]?
    /// The rows that are new or changed since the previous outline, by identity, each with the
    /// slug of its detail page (as the exporter allocates them, in listing order).
    var changedRows: [String: (row: ListingRow, slug: String?)] = [:]
    private var headers: [String?] = []
    private var slugs = SlugAllocator()

    mutating func begin(_ header: ListingHeader) throws {
        outline.title = header.title
        outline.style = header.style.rawValue
    }

    mutating func row(_ row: ListingRow, section: Int) throws {
        var hash = ContentHash()
        for field in [
            row.id, row.style.rawValue, row.text, row.detail ?? "", row.image ?? "", row.body ?? "", row.link ?? "",
        ] {
            hash.update(Array(field.utf8))
            hash.update([0])
        }
        hash.update(Array("\(row.accessory)".utf8))
        var imageHash = ContentHash()
        if let image = row.image {
            images.insert(image)
            imageHash.update(Array(image.utf8))
        }
        let hasDetailPage = !(row.body ?? "").isEmpty && row.accessory.discloses
        let slug = hasDetailPage ? slugs.allocate(for: row.id) : nil
        if let previousDigests, previousDigests[row.id] != hash.value { changedRows[row.id] = (row, slug) }
        outline.rowIDs.append(row.id)
        outline.rowDigests.append(hash.value)
        outline.imageDigests.append(row.image == nil ? 0 : imageHash.value)
    }

    mutating func endSection(_ section: ListingSection, index: Int) throws {
        headers.append(section.header)
        outline.sections.append(
            TableOutline.SectionInfo(
                header: section.header ?? "", footer: section.footer ?? "", indexTitle: section.indexTitle ?? ""))
        outline.sectionStarts.append(outline.rowIDs.count)
    }

    mutating func progress(_ progress: ListingProgress) {}

    mutating func abandon() {}

    /// Section identities as a listing's table has them: a header that no other section has, else
    /// the section's place.
    mutating func finish() {
        var counts: [String: Int] = [:]
        for header in headers { if let header { counts[header, default: 0] += 1 } }
        outline.sectionIDs = headers.enumerated().map { index, header in
            if let header, counts[header] == 1 { return "h:" + header }
            return "#\(index)"
        }
    }
}
