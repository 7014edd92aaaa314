import RowKit
import RowKitListing

/// A row as the exporter renders it: its content with everything that depends on rows before it
/// settled (its detail page's slug, its image's site path), so any thread can render it.
struct RenderRow: Sendable {
    /// The row's number in its table, from 1: a row without a detail page has the anchor
    /// `r-<number>`, where search results lead.
    var number: Int
    var layout: CellLayout
    var accessory: Accessory
    var text: String
    /// The secondary text; `nil` when absent or empty.
    var detail: String?
    /// The image: a path inside the site (relative to the site's root) or a remote URL.
    var imageSource: String?
    var imageIsRemote = false
    /// The image's accessible name; `nil` when absent or empty.
    var imageAlt: String?
    /// The link, as given (made safe when rendered).
    var link: String?
    /// The Markdown body; `nil` when absent or empty.
    var body: String?
    /// The state of the row's switch, shown where the accessory would be; `nil` when it has none.
    var switchIsOn: Bool?
    /// Where the body's local images were copied in the site; `nil` when it has none.
    var bodyImages: BodyImages?
    /// The slug of the row's detail page, when it has one (a body and a disclosing accessory).
    var slug: String?
    /// A trusted HTML fragment of a custom row, shown as it is; the other fields are unused.
    var fragment: String?
    /// Where the row's search result leads (see ``SearchRow/target``; an empty link for a custom
    /// row), when the export has a search index: the renderer then makes the row's display data
    /// for it too. Not part of ``key``: the display data is made on every export.
    var searchTarget: SearchTarget?

    /// A hash of everything the row's markup and detail page are made from.
    var key: UInt64 {
        var hash = StableHash()
        hash.update(value: number)
        hash.update(layout.rawValue)
        hash.update(accessory.rawValue)
        hash.update(text)
        // One field after the other, not an array of them: this runs for every row of a page.
        func update(_ field: String?) {
            if let field {
                hash.update(value: UInt8(1))
                hash.update(field)
            } else {
                hash.update(value: UInt8(0))
            }
        }
        update(detail)
        update(imageSource)
        update(imageAlt)
        update(link)
        update(body)
        update(slug)
        update(fragment)
        hash.update(value: imageIsRemote)
        hash.update(value: switchIsOn.map { $0 ? UInt8(2) : UInt8(1) } ?? 0)
        if let bodyImages { bodyImages.update(&hash) }
        return hash.value
    }

    /// The path of the row's detail page in its table's folder.
    var detailPath: String? { slug.map { "rows/\($0).html" } }
}
