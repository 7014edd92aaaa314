import RowKitListing

/// A file a site was made from (an input listing or an image), with its size and content hash.
struct ManifestSource: Sendable, Equatable {
    var path: String
    var size: Int
    var hash: UInt64

    var line: String {
        "[" + ManifestEntry.jsonString(path) + "," + String(size) + ",\"" + StableHash.hex(hash) + "\"]"
    }
}
