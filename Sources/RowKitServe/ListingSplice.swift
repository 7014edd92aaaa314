import RowKitListing

/// What reading only the changed rows of a listing gives: the listing's new outline, layout and
/// rows changed, as a full read of its new bytes gives them.
struct ListingSplice: Sendable {
    var outline: TableOutline
    var layout: ListingLayout
    /// The rows new or changed since the read before, by identity, each with its detail page's
    /// slug (its identity's base slug: ``ListingLayout/slugHashes``).
    var changedRows: [String: (row: ListingRow, slug: String?)]
    /// How the digests by identity change: the identities that go, then the ones that come.
    var removedIDs: [String] = []
    var addedDigests: [(id: String, digest: UInt64)] = []

    init(
        outline: TableOutline, layout: ListingLayout, changedRows: [String: (row: ListingRow, slug: String?)],
        removedIDs: [String] = [], addedDigests: [(id: String, digest: UInt64)] = []
    ) {
        self.outline = outline
        self.layout = layout
        self.changedRows = changedRows
        self.removedIDs = removedIDs
        self.addedDigests = addedDigests
    }

    /// The splice that puts `rows` (their digests `digests`) in the place of old rows whose
    /// identities and digests were `removed`: a row is changed when its digest under its identity
    /// is not the one that went.
    init(
        outline: TableOutline, layout: ListingLayout, rows: [ListingRow], digests: [UInt64],
        replacing removed: [String: UInt64]
    ) {
        var changed: [String: (row: ListingRow, slug: String?)] = [:]
        for (index, row) in rows.enumerated() where removed[row.id] != digests[index] {
            changed[row.id] = (row, ListingLayout.slug(of: row))
        }
        self.init(
            outline: outline, layout: layout, changedRows: changed, removedIDs: Array(removed.keys),
            addedDigests: rows.indices.map { (rows[$0].id, digests[$0]) })
    }
}
