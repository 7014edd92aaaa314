import Foundation
import RowKit
import RowKitHTML
import RowKitListing

/// The records of a change's new and changed rows made from the listing itself, so that the
/// change reaches the pages before its export is on disk: as the exporter makes them (the same
/// encoding, `DisplayRecord`), from the row's fields, its detail page's slug, its place, and,
/// for an image or a row that only moved, the record the site on disk has for it.
///
/// A row whose record would need the export's own work (a new or changed image, a body with
/// images, which the export copies) has none here: the change then waits for the export.
struct EarlyRecords {
    let pageSize: Int
    let markdown: Markdown.Options
    /// The rows that are new or changed, with their slugs (``OutlineVisitor/changedRows``).
    let changedRows: [String: (row: ListingRow, slug: String?)]
    let old: TableOutline
    let new: TableOutline
    /// The records of the site on disk (the previous export), when it may be read.
    var oldRecords: RowRecords?
    private var oldIndexByID: [String: Int]?

    init(
        pageSize: Int, markdown: Markdown.Options, changedRows: [String: (row: ListingRow, slug: String?)],
        old: TableOutline, new: TableOutline, oldSite: URL?
    ) {
        self.pageSize = pageSize
        self.markdown = markdown
        self.changedRows = changedRows
        self.old = old
        self.new = new
        oldRecords = oldSite.map { RowRecords(folder: $0) }
    }

    /// The records of every row `payload` inserts or reloads, or `nil` when one of them needs the
    /// export.
    mutating func records(for payload: ChangePayload) -> [Int: String]? {
        var records: [Int: String] = [:]
        for index in payload.insertedRows + payload.reloadedRows {
            guard let record = record(at: index) else { return nil }
            records[index] = record
        }
        return records
    }

    /// The record of the new row `index`.
    mutating func record(at index: Int) -> String? {
        let id = new.rowIDs[index]
        guard let (row, slug) = changedRows[id] else { return movedRecord(at: index, id: id) }
        var image = ""
        var imageLabel = ""
        if row.image != nil {
            // The image's site path is the export's (a content hash): the same image as before.
            guard let was = oldIndex(of: id), old.imageDigests.indices.contains(was),
                index < new.imageDigests.count, old.imageDigests[was] == new.imageDigests[index],
                let fields = oldRecords?.record(was).flatMap(Self.fields), fields.count > 4
            else { return nil }
            image = fields[4] as? String ?? ""
            imageLabel = fields.count > 5 ? fields[5] as? String ?? "" : ""
        }
        var html = ""
        if slug == nil, let body = row.body, !body.isEmpty {
            guard !body.contains("![") else { return nil }
            html = Markdown.render(body, options: markdown)
        }
        let target =
            (slug.map { "rows/\($0).html" } ?? row.link.flatMap(SafeURL.sanitize)).map(SearchTarget.link)
            ?? .listPage(listPage(index))
        let bodyText = slug == nil ? "" : row.body.map(DisplayRecord.bodyText(ofDetailPageBody:)) ?? ""
        return DisplayRecord.json(
            layout: row.style, accessory: row.switchIsOn == nil ? row.accessory : .none, text: row.text,
            detail: row.detail ?? "", target: target, image: image,
            imageLabel: imageLabel, html: html, bodyText: bodyText, switchIsOn: row.switchIsOn)
    }

    /// The record of a row that only moved: the site's, with its place link moved along.
    private mutating func movedRecord(at index: Int, id: String) -> String? {
        guard let was = oldIndex(of: id), let text = oldRecords?.record(was), let fields = Self.fields(text),
            let code = fields.first as? Int, code >= 0, code & 32 == 0
        else { return nil }
        func field(_ number: Int) -> String { fields.count > number ? fields[number] as? String ?? "" : "" }
        // A row that leads to its place on its list page has the page's number there.
        let target: SearchTarget =
            fields.count > 3 && fields[3] as? Int != nil ? .listPage(listPage(index)) : .link(field(3))
        let layouts = CellLayout.allCases
        let accessories = Accessory.allCases
        // The code's bits: layout 0-1, accessory 2-4, switch 64, on 128 (SearchDisplayRecords.code).
        let layoutCode = code & 3
        let accessoryCode = (code >> 2) & 7
        guard layoutCode < layouts.count, accessoryCode < accessories.count, code < 256 else { return nil }
        return DisplayRecord.json(
            layout: layouts[layouts.index(layouts.startIndex, offsetBy: layoutCode)],
            accessory: accessories[accessories.index(accessories.startIndex, offsetBy: accessoryCode)], text: field(1),
            detail: field(2), target: target, image: field(4), imageLabel: field(5), html: field(6),
            bodyText: field(7), switchIsOn: code & 64 == 0 ? nil : code & 128 != 0)
    }

    /// The list page (from 1) of new row `index`, where a row without a link or detail page
    /// leads (`index.html#r-1`, `page-3.html#r-1203`).
    private func listPage(_ index: Int) -> Int { index / pageSize + 1 }

    private mutating func oldIndex(of id: String) -> Int? {
        if oldIndexByID == nil {
            oldIndexByID = Dictionary(old.rowIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return oldIndexByID?[id]
    }

    private static func fields(_ record: Substring) -> [Any]? {
        try? JSONSerialization.jsonObject(with: Data(record.utf8)) as? [Any]
    }
}
