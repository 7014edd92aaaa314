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
}
