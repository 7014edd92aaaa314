/// Where a search result leads, as a row's display data holds it (field 3, see
/// ``SearchDisplayRecords``).
package enum SearchTarget: Sendable, Equatable {
    /// A detail page, relative to the table's folder (`rows/wifi.html`), or an absolute URL that
    /// passed `SafeURL`; empty for none.
    case link(String)
    /// The row's own place on its list page (from 1): the display data holds the number, and the
    /// page scripts make `page-<n>.html#r-<row>` of it (a third of a short row's bytes).
    case listPage(Int)

    /// Whether there is nowhere to lead (an empty link): the record leaves the field out when
    /// nothing follows it.
    var isEmpty: Bool {
        if case .link(let href) = self { return href.isEmpty }
        return false
    }
}
