import RowKit
import RowKitHTML
import RowKitListing

/// Reads a listing into its ``TableOutline`` (identities, digests, sections) and the image paths
/// its rows name, as a stream: what a live site compares from one save to the next.
struct OutlineVisitor: ListingVisitor {
    var outline = TableOutline()
    /// The image paths the rows name, as written (relative to the listing's folder, or URLs).
    var images: Set<String> = []
    private var headers: [String?] = []

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
        if let image = row.image { images.insert(image) }
        outline.rowIDs.append(row.id)
        outline.rowDigests.append(hash.value)
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
