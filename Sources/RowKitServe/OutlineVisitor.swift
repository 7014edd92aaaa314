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
    /// Where each row and section starts (line, column) and whether each row has a detail page,
    /// and the header as the document says it: what a ``ListingLayout`` is made of.
    var rowPlaces: [(line: Int, column: Int)] = []
    var sectionPlaces: [(line: Int, column: Int)] = []
    var detailRows: [Bool] = []
    var header: ListingHeader?
    /// Whether a row's identity was derived from its text (no `id`).
    var hasDerivedIDs = false
    /// Whether the rows are kept (``readRows``).
    var keepsRows = false
    var readRows: [ListingRow] = []
    /// Each section's header as the document says it (`nil`: none).
    private(set) var headers: [String?] = []
    /// The hashes of the detail pages' slugs (`ContentHash` of each, as ``SlugAllocator`` keeps
    /// them), or `nil` once a row's slug is not the base slug of its identity (two rows' bases
    /// met): while every slug is its base, rows with detail pages may come and go without
    /// another row's slug changing
    /// (``ListingLayout/replaceSlugs(_:removing:of:detailRows:adding:)``).
    var baseSlugHashes: Set<UInt64>? = []
    private var slugs = SlugAllocator()
    private static let separator: [UInt8] = [0]

    mutating func begin(_ header: ListingHeader) throws {
        // A pass starts: what an earlier one handed out is void (the reader reads a document
        // twice when, say, its title comes after its rows).
        outline = TableOutline()
        images = []
        changedRows = [:]
        rowPlaces = []
        sectionPlaces = []
        detailRows = []
        hasDerivedIDs = false
        readRows = []
        headers = []
        baseSlugHashes = []
        slugs = SlugAllocator()
        outline.title = header.title
        outline.style = header.style.rawValue
        self.header = header
    }

    mutating func row(_ row: ListingRow, section: Int) throws {
        let digest = Self.digest(of: row)
        var imageHash = ContentHash()
        if let image = row.image {
            images.insert(image)
            imageHash.update(image.utf8)
        }
        let hasDetailPage = Self.hasDetailPage(row)
        let slug = hasDetailPage ? slugs.allocate(for: row.id) : nil
        if let slug, baseSlugHashes != nil {
            if slug == SlugAllocator.baseSlug(for: row.id) {
                baseSlugHashes?.insert(ContentHash(slug).value)
            } else {
                baseSlugHashes = nil
            }
        }
        if let previousDigests, previousDigests[row.id] != digest { changedRows[row.id] = (row, slug) }
        outline.rowIDs.append(row.id)
        outline.rowDigests.append(digest)
        outline.imageDigests.append(row.image == nil ? 0 : imageHash.value)
        rowPlaces.append((row.location.line, row.location.column))
        detailRows.append(hasDetailPage)
        if !row.hasExplicitID { hasDerivedIDs = true }
        if keepsRows { readRows.append(row) }
    }

    /// A row's content digest: its identity and every field a page shows.
    static func digest(of row: ListingRow) -> UInt64 {
        var hash = ContentHash()
        for field in [
            row.id, row.style.rawValue, row.text, row.detail ?? "", row.image ?? "", row.body ?? "", row.link ?? "",
        ] {
            hash.update(field.utf8)
            hash.update(separator)
        }
        hash.update(row.accessory.rawValue.utf8)
        return hash.value
    }

    /// Whether the export gives `row` a detail page (and so a slug).
    static func hasDetailPage(_ row: ListingRow) -> Bool {
        !(row.body ?? "").isEmpty && row.accessory.discloses
    }

    mutating func endSection(_ section: ListingSection, index: Int) throws {
        sectionPlaces.append((section.location.line, section.location.column))
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
        outline.sectionIDs = Self.sectionIDs(headers)
    }

    /// The identities of sections with `headers`: a header that no other section has, else the
    /// section's place.
    static func sectionIDs(_ headers: [String?]) -> [String] {
        var counts: [String: Int] = [:]
        for header in headers { if let header { counts[header, default: 0] += 1 } }
        return headers.enumerated().map { index, header in
            if let header, counts[header] == 1 { return "h:" + header }
            return "#\(index)"
        }
    }
}
