/// How to produce a row's detail page: its unit and source key for the manifest, and the previous
/// site's page at the same path, which is kept unread when `keep` (its key matches).
struct DetailPlan: Sendable {
    var unit: ManifestUnit
    var key: UInt64
    var previous: ManifestEntry?
    var keep: Bool
}
