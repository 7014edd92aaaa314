/// A table's page and its row pages: the unit the exporter renders, and skips, as a whole.
struct ManifestUnit: Hashable, Comparable, Sendable {
    var table: Int
    var page: Int

    static func < (lhs: ManifestUnit, rhs: ManifestUnit) -> Bool {
        (lhs.table, lhs.page) < (rhs.table, rhs.page)
    }
}
