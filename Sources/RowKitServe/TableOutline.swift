import RowKit

/// What the live page needs to know of a table, version by version: its rows' identities in
/// listing order, where each section starts, and each section's header, footer and index title.
struct TableOutline: Sendable, Equatable {
    /// One section's display text.
    struct SectionInfo: Sendable, Equatable {
        var header: String = ""
        var footer: String = ""
        var indexTitle: String = ""
    }

    /// Each section's identity.
    var sectionIDs: [String] = []
    /// Each section's display text.
    var sections: [SectionInfo] = []
    /// Each section's first row (flat index) and, last, the row count.
    var sectionStarts: [Int] = [0]
    /// Each row's identity, in listing order.
    var rowIDs: [String] = []
    /// Each row's content digest (what a reload compares).
    var rowDigests: [UInt64] = []
    /// Each row's image path digest (0: no image), when read from a listing; empty otherwise.
    var imageDigests: [UInt64] = []
    /// The table's title and style: a change of either reloads open pages.
    var title: String = ""
    var style: String = ""

    var rowCount: Int { rowIDs.count }

    /// Each row's digest by its identity.
    var digestsByID: [String: UInt64] {
        Dictionary(zip(rowIDs, rowDigests), uniquingKeysWith: { first, _ in first })
    }

    mutating func appendSection(id: String, _ info: SectionInfo) {
        sectionIDs.append(id)
        sections.append(info)
        sectionStarts.append(sectionStarts[sectionStarts.count - 1])
    }

    mutating func appendRow(id: String, digest: UInt64) {
        rowIDs.append(id)
        rowDigests.append(digest)
        sectionStarts[sectionStarts.count - 1] += 1
    }

    /// The section row counts and identities as a snapshot the diff takes.
    func snapshot() -> TableSnapshot<String, RowDigest> {
        var snapshot = TableSnapshot<String, RowDigest>()
        snapshot.reserveCapacity(sections: sectionIDs.count, rows: rowIDs.count)
        for section in sectionIDs.indices {
            snapshot.appendSection(sectionIDs[section])
            for row in sectionStarts[section]..<sectionStarts[section + 1] {
                snapshot.appendRow(rowIDs[row], content: RowDigest(value: rowDigests[row]))
            }
        }
        return snapshot
    }
}

/// A row's content as a digest: two rows with the same identity and digest show the same thing.
struct RowDigest: SnapshotContent, Equatable {
    var value: UInt64
}

extension TableOutline {
    /// The outline of a program's table (``LiveSite/publish(_:changes:)``).
    init(_ table: Table, title: String) {
        self.title = title
        style = table.style.rawValue
        for section in table.sections {
            appendSection(
                id: section.id.description,
                SectionInfo(
                    header: section.header?.title ?? "", footer: section.footer?.title ?? "",
                    indexTitle: section.indexTitle ?? ""))
            for row in section.rows { appendRow(id: ItemID(row.id).description, digest: 0) }
        }
    }
}
