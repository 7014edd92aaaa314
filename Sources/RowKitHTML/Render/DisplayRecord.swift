import RowKit

/// One row's display record (`[code, text, detail, href, image, image label, html, body text]`;
/// the code holds the layout, accessory and switch, see `SearchDisplayRecords.code`; `href` as
/// ``SearchTarget`` says) as the
/// search row files hold it, for RowKit's live server, which sends the records of changed rows
/// to open pages before their export is on disk. The same encoding as the exporter's
/// (``SearchDisplayRecords``), so both always agree.
package enum DisplayRecord {
    /// The record's JSON text. `detail` is left out for the default layout, as the exporter
    /// does; `html` is an inline body's rendered Markdown (empty for none), `bodyText` the start of
    /// a detail page's body text (``bodyText(ofDetailPageBody:)``, empty for none).
    package static func json(
        layout: CellLayout, accessory: Accessory, text: String, detail: String, target: SearchTarget,
        image: String, imageLabel: String, html: String, bodyText: String = "", switchIsOn: Bool? = nil
    ) -> String {
        var records = SearchDisplayRecords()
        var html = html
        html.withUTF8 { html in
            records.append(
                layout: layout, accessory: accessory, isCustom: false, text: text,
                detail: layout == .default ? "" : detail, target: target, image: image,
                imageLabel: imageLabel, html: html, bodyText: bodyText, switchIsOn: switchIsOn)
        }
        return String(decoding: records.bytes, as: UTF8.self)
    }

    /// What the record of a row whose Markdown `body` is on its detail page carries of it: the
    /// start of its text, for the excerpt of a search result found by a word of it.
    package static func bodyText(ofDetailPageBody body: String) -> String {
        SearchBodyText.plainText(body, limit: SearchBodyText.excerptBytes)
    }
}
