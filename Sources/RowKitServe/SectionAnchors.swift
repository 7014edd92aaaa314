import Foundation

/// The sections' anchors (`section-<anchor>`) of a table of several pages, read from its
/// one-page list file `search/s-.js` (docs/one-page.md); empty for a table of one page, whose
/// page has every section already.
enum SectionAnchors {
    static func read(folder: URL) -> [String] {
        guard let text = try? String(contentsOf: folder.appendingPathComponent("search/s-.js"), encoding: .utf8),
            let start = text.firstIndex(of: "{"), let end = text.lastIndex(of: "}"),
            let object = try? JSONSerialization.jsonObject(with: Data(text[start...end].utf8)) as? [String: Any],
            let sections = object["s"] as? [[Any]]
        else { return [] }
        return sections.map { $0.count > 2 ? ($0[2] as? String ?? "") : "" }
    }
}

/// The detail page a row's record leads to.
enum DetailLink {
    /// The record's link (its fourth field) when it is the row's detail page (`rows/<slug>.html`).
    static func path(inRecord record: Substring) -> String? {
        guard let data = record.data(using: .utf8),
            let fields = try? JSONSerialization.jsonObject(with: data) as? [Any], fields.count > 3,
            let href = fields[3] as? String, href.hasPrefix("rows/"), href.hasSuffix(".html")
        else { return nil }
        return href
    }
}
