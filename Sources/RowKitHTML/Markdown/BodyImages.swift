import RowKitListing

/// Where a Markdown body's local images went in the site: each destination as written in the
/// body, mapped to the copy's path from the site's root, or to `nil` when the image was not copied
/// (outside the document's folder, missing, not an image), which is then shown as its alternative
/// text. Remote and refused destinations are not in it: the renderer keeps the first and removes
/// the second whatever the map says.
struct BodyImages: Sendable, Hashable {
    var sitePaths: [String: String?] = [:]

    var isEmpty: Bool { sitePaths.isEmpty }

    /// Feeds the map into `hash` in a fixed order (the destinations sorted).
    func update(_ hash: inout StableHash) {
        hash.update(value: sitePaths.count)
        for source in sitePaths.keys.sorted() {
            hash.update(source)
            hash.update(sitePaths[source].flatMap { $0 } ?? "\u{0}")
        }
    }
}
