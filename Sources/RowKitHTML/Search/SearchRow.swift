import RowKit

/// What the search index keeps of one row: the words it is found by and what a result shows.
///
/// A result is drawn as the same cell the listing draws (layout, text, detail, image, accessory)
/// and links where the row leads: its detail page, its link, or its place on its list page.
struct SearchRow {
    /// The row's text.
    var text: String
    /// The row's detail, if shown.
    var detail: String?
    /// The header of the row's section, if any; the row is found by its words too.
    var header: String?
    /// The cell layout.
    var layout: CellLayout
    /// The accessory.
    var accessory: Accessory
    /// The image: a path relative to the site's root, or an `http(s)` URL; `nil` for none.
    var image: String?
    /// The image's accessible name; `nil` or empty when decorative.
    var imageLabel: String?
    /// Where the result leads.
    var target: SearchTarget
    /// Markup the list page draws for the row besides its cell: the rendered Markdown of an
    /// inline body, or a custom row's whole fragment (with ``isCustom``); `nil` for none. The
    /// exporter's own output, as the static page holds it.
    var html: String? = nil
    /// Whether the row is a custom row drawn by its fragment (``html``).
    var isCustom = false
    /// The row's Markdown body, if any: the row is found by the words of its text too (see
    /// ``SearchBodyText``).
    var body: String? = nil
    /// Whether the list page draws an inline body under the row, when ``html`` is not given (the
    /// display data made elsewhere, see ``SearchDisplayRecords``).
    var hasInlineBody = false
    /// The slug of the row's detail page (its anchor is `row-<slug>`), if it has one.
    var slug: String? = nil
}
