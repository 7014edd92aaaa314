import Foundation
import RowKit

/// Renders rows, detail pages and list pages on one thread: each rendering thread has its own
/// (its compiled templates and its Markdown renderer's memory are its own).
///
/// Every template is rendered once per *shape* (which values are present, the layout and
/// accessory, the structure of a page) with placeholder values and cut into literal runs and
/// slots (``RowTemplate``); a row or page is then written by copying the runs and its values. The
/// output is what rendering each one through Mustache gives for templates that insert values
/// with triple mustaches, as the bundled ones do.
struct PageRenderer {
    let options: ExportOptions
    let templates: TemplateSet
    private var rowTemplate: RowTemplate
    private var values = RowTemplate.Values()
    private var sectionTemplates: [Int: [RowTemplate.Segment]] = [:]
    private var pageShells: [[Int]: [RowTemplate.Segment]] = [:]
    private var detailShells: [Int: [RowTemplate.Segment]] = [:]
    private let markdown = Markdown.Renderer()
    /// The detail pages' values that are the same for every row of a table, as bytes.
    private var detailConstants:
        (table: UInt64, language: [UInt8], root: [UInt8], titleSuffix: [UInt8], style: [UInt8], backLabel: [UInt8])?
    /// The slots of the detail page being written, and the page, reused from row to row.
    private var detailSlots: [[UInt8]] = Array(repeating: [], count: 10)
    private var detailHTML: [UInt8] = []

    init(options: ExportOptions, templates: TemplateSet) {
        self.options = options
        self.templates = templates
        rowTemplate = RowTemplate(templates: templates)
    }

    // MARK: - Rows

    /// Renders `row` (on list page `page` of `table`) into `output`, and writes its detail page
    /// when it has one, unless `detail` says the previous site's page is kept.
    ///
    /// This is the one place a row becomes HTML.
    /// - Returns: The detail page's manifest entry, when the row has one.
    /// With ``RenderRow/searchTarget`` set, the row's search display data is appended to `search`
    /// (an inline body's Markdown rendered once for both).
    mutating func renderRow(
        _ row: RenderRow, page: Int, table: TableFacts, detail: DetailPlan?, writer: some PageSink,
        into output: inout [UInt8], search: inout SearchDisplayRecords
    ) throws -> ManifestEntry? {
        values.removeAll()
        if let fragment = row.fragment {
            values.fragment.append(contentsOf: fragment.utf8)
            values.anchor.append(contentsOf: "r-\(row.number)".utf8)
            var shape = RowTemplate.Shape(layout: .default, accessory: .none)
            shape.isCustom = true
            shape.hasAnchor = true
            try rowTemplate.render(shape, values, appendingTo: &output)
            if row.searchTarget != nil {
                values.fragment.withUnsafeBufferPointer { Self.appendSearch(row, html: $0, to: &search) }
            }
            return nil
        }
        var shape = RowTemplate.Shape(layout: row.layout, accessory: row.accessory)
        shape.switchIsOn = row.switchIsOn
        HTMLEscaping.escape(row.text, appendingTo: &values.text)
        if let text = row.detail {
            shape.hasDetail = true
            HTMLEscaping.escape(text, appendingTo: &values.detail)
        }
        if let source = row.imageSource {
            shape.hasImage = true
            HTMLEscaping.escape(row.imageIsRemote ? source : table.root + source, appendingTo: &values.imageSource)
            if let alt = row.imageAlt {
                shape.hasAlt = true
                HTMLEscaping.escape(alt, appendingTo: &values.imageAlt)
            }
        }
        var entry: ManifestEntry?
        if let slug = row.slug, let body = row.body {
            shape.hasHref = true
            shape.hasAnchor = true
            values.href.append(contentsOf: "rows/\(slug).html".utf8)
            values.anchor.append(contentsOf: "row-\(slug)".utf8)
            entry = try writeDetailPage(
                row, slug: slug, body: body, page: page, table: table, plan: detail, writer: writer)
        } else {
            if let link = row.link, let safe = SafeURL.sanitize(link) {
                shape.hasHref = true
                HTMLEscaping.escape(safe, appendingTo: &values.href)
            }
            if let body = row.body {
                shape.hasBody = true
                markdown.render(
                    body, options: options.markdown, images: row.bodyImages, root: table.root, appendingTo: &values.body
                )
            }
            shape.hasAnchor = true
            values.anchor.append(contentsOf: "r-\(row.number)".utf8)
        }
        try rowTemplate.render(shape, values, appendingTo: &output)
        if row.searchTarget != nil {
            values.body.withUnsafeBufferPointer { Self.appendSearch(row, html: $0, to: &search) }
        }
        return entry
    }

    /// Appends the search display data of `row` (see ``renderRow(_:page:table:detail:writer:into:search:)``)
    /// without rendering its markup: for rows whose list page is kept.
    mutating func appendSearch(_ row: RenderRow, table: TableFacts, to search: inout SearchDisplayRecords) {
        guard row.searchTarget != nil else { return }
        values.removeAll()
        if let fragment = row.fragment {
            values.fragment.append(contentsOf: fragment.utf8)
            values.fragment.withUnsafeBufferPointer { Self.appendSearch(row, html: $0, to: &search) }
            return
        }
        if row.slug == nil, let body = row.body {
            markdown.render(
                body, options: options.markdown, images: row.bodyImages, root: table.root, appendingTo: &values.body)
        }
        values.body.withUnsafeBufferPointer { Self.appendSearch(row, html: $0, to: &search) }
    }

    /// Appends `row`'s search display data; `html` is its custom fragment or its inline body's
    /// rendered Markdown (empty for none).
    private static func appendSearch(
        _ row: RenderRow, html: UnsafeBufferPointer<UInt8>, to search: inout SearchDisplayRecords
    ) {
        if row.fragment != nil {
            search.append(
                layout: .default, accessory: .none, isCustom: true, text: "", detail: "", target: .link(""), image: "",
                imageLabel: "", html: html)
            return
        }
        // A body on a detail page is not in the record's markup: the start of its text is, for
        // the excerpt of a result found by a word of it.
        let bodyText =
            row.slug != nil ? row.body.map { SearchBodyText.plainText($0, limit: SearchBodyText.excerptBytes) } : nil
        search.append(
            layout: row.layout, accessory: row.accessory, isCustom: false, text: row.text,
            detail: row.layout == .default ? "" : row.detail ?? "", target: row.searchTarget ?? .link(""),
            image: row.imageSource ?? "", imageLabel: row.imageAlt ?? "", html: html, bodyText: bodyText ?? "",
            switchIsOn: row.switchIsOn)
    }

    /// Writes the detail page of `row` (or keeps the previous site's, as `plan` says).
    private mutating func writeDetailPage(
        _ row: RenderRow, slug: String, body: String, page: Int, table: TableFacts, plan: DetailPlan?,
        writer: some PageSink
    ) throws -> ManifestEntry {
        let path = table.folder + "rows/\(slug).html"
        if let plan, plan.keep, let previous = plan.previous, try writer.keep(path, previous: previous) {
            var entry = previous
            entry.path = path
            return entry
        }
        let safeLink = row.link.flatMap(SafeURL.sanitize)
        let key = (row.detail == nil ? 0 : 1) | (safeLink == nil ? 0 : 2)
        let shell: [RowTemplate.Segment]
        if let known = detailShells[key] {
            shell = known
        } else {
            var context: [String: Any] = [
                "language": RowTemplate.placeholder(0), "root": RowTemplate.placeholder(1),
                "documentTitle": RowTemplate.placeholder(2), "title": RowTemplate.placeholder(3),
                "style": RowTemplate.placeholder(4), "backHref": RowTemplate.placeholder(5),
                "backLabel": RowTemplate.placeholder(6), "body": RowTemplate.placeholder(7),
            ]
            if row.detail != nil { context["detail"] = RowTemplate.placeholder(8) }
            if safeLink != nil { context["link"] = RowTemplate.placeholder(9) }
            shell = try RowTemplate.split(
                Array(templates.render("detail", context).utf8), template: "detail", slots: 10)
            detailShells[key] = shell
        }
        if detailConstants?.table != table.key {
            detailConstants = (
                table.key, Array(HTMLEscaping.escape(options.language).utf8), Array((table.root + "../").utf8),
                Array((" – " + table.escapedTitle).utf8), Array(table.style.rawValue.utf8),
                Array(table.escapedTitle.utf8)
            )
        }
        guard let constants = detailConstants else { preconditionFailure("set above") }
        for index in detailSlots.indices { detailSlots[index].removeAll(keepingCapacity: true) }
        detailSlots[0].append(contentsOf: constants.language)
        detailSlots[1].append(contentsOf: constants.root)
        HTMLEscaping.escape(row.text, appendingTo: &detailSlots[3])
        detailSlots[2].append(contentsOf: detailSlots[3])
        detailSlots[2].append(contentsOf: constants.titleSuffix)
        detailSlots[4].append(contentsOf: constants.style)
        detailSlots[5].append(contentsOf: "../".utf8)
        detailSlots[5].append(contentsOf: TableFacts.pageFile(page).utf8)
        detailSlots[5].append(contentsOf: "#row-".utf8)
        detailSlots[5].append(contentsOf: slug.utf8)
        detailSlots[6].append(contentsOf: constants.backLabel)
        markdown.render(
            body, options: options.markdown, images: row.bodyImages, root: table.root + "../",
            appendingTo: &detailSlots[7])
        if let text = row.detail { HTMLEscaping.escape(text, appendingTo: &detailSlots[8]) }
        if let safeLink { HTMLEscaping.escape(safeLink, appendingTo: &detailSlots[9]) }
        detailHTML.removeAll(keepingCapacity: true)
        RowTemplate.write(shell, detailSlots, appendingTo: &detailHTML)
        var entry = try writer.write(path, detailHTML, previous: plan?.previous)
        entry.unit = plan?.unit
        entry.key = plan?.key
        return entry
    }

    // MARK: - List pages

    /// The part of a section on one list page: its anchor (on its first page), header, footer
    /// (on its last page), and its rows' markup.
    struct Part {
        var anchor: String?
        var header: String?
        var footer: String?
        var rows: ArraySlice<UInt8>
        /// How long the rows are: `rows.count`, or, for a page put together in the scratch file,
        /// the length of rows left out of `rows` (see ``listPage(_:parts:table:)``).
        var rowBytes: Int
    }

    /// List page `number` of `table` with `parts`, and where each part's rows lie in it (for a
    /// part whose rows were left out, the empty range where they go).
    mutating func listPage(_ number: Int, parts: [Part], table: TableFacts) throws -> (
        html: [UInt8], rows: [Range<Int>]
    ) {
        // The page template is rendered once per structure (back link or not, number of index
        // entries, which pagination links and gaps) with a placeholder for every value, and cut
        // into a shell; each page fills its shell with its values. Slot 0 holds the sections.
        var page = PageValues()
        var documentTitle = table.escapedTitle
        if table.pageCount > 1 { documentTitle += " – Page \(number) of \(table.pageCount)" }
        let indexEntries: [[String: Any]] = table.indexEntries.map { entry in
            let file = entry.startPage == number ? "" : TableFacts.pageFile(entry.startPage)
            return [
                "href": page.slot(HTMLEscaping.escape(file + "#" + entry.anchor)),
                "title": page.slot(HTMLEscaping.escape(entry.title)),
            ]
        }
        page.key.append(indexEntries.count)
        var context: [String: Any] = [
            "language": page.slot(HTMLEscaping.escape(options.language)), "documentTitle": page.slot(documentTitle),
            "title": page.slot(table.escapedTitle), "style": page.slot(table.style.rawValue),
            "root": page.slot(table.root),
            "hasIndex": !indexEntries.isEmpty, "indexEntries": indexEntries, "sections": RowTemplate.placeholder(0),
        ]
        if options.search {
            context["search"] = ["key": page.slot(HTMLEscaping.escape(String(table.folder.dropLast())))]
        }
        if let siteIndex = table.siteIndex {
            context["back"] = ["href": page.slot(siteIndex.href), "label": page.slot(siteIndex.label)]
            page.key.append(1)
        }
        if table.pageCount > 1 { context["pagination"] = Self.pagination(number, of: table.pageCount, &page) }
        if options.search && table.pageCount > 1 {
            context["onePage"] = [
                "page": page.slot("\(number)"), "pageSize": page.slot("\(options.pageSize)"),
                "firstRow": page.slot(
                    "\(table.pageFirstRows.indices.contains(number - 1) ? table.pageFirstRows[number - 1] : 0)"),
                "rowsPerFile": page.slot("\(table.rowsPerFile)"),
            ]
        }
        let shell: [RowTemplate.Segment]
        if let known = pageShells[page.key] {
            shell = known
        } else {
            shell = try RowTemplate.split(
                Array(templates.render("page", context).utf8), template: "page", slots: page.values.count)
            pageShells[page.key] = shell
        }
        // The sections are written straight into the page (slot 0), without an interim copy.
        var html: [UInt8] = []
        var ranges: [Range<Int>] = []
        html.reserveCapacity(
            parts.reduce(0) { $0 + $1.rows.count } + 512 * parts.count + page.values.reduce(0) { $0 + $1.count } + 8192)
        for segment in shell {
            switch segment {
            case .literal(let bytes): html.append(contentsOf: bytes)
            case .slot(0):
                for part in parts {
                    let start = try renderSection(part, appendingTo: &html)
                    if part.rowBytes > 0 { ranges.append(start..<(start + part.rows.count)) }
                }
            case .slot(let index): html.append(contentsOf: page.values[index])
            }
        }
        return (html, ranges)
    }

    /// The values of one list page, by slot, and the structure of its page template context.
    private struct PageValues {
        /// Slot 0, the sections, is written by the page itself and stays empty here.
        var values: [[UInt8]] = [[]]
        var key: [Int] = []

        /// Takes `value` (escaped) as the next slot and returns its placeholder.
        mutating func slot(_ value: String) -> String {
            values.append(Array(value.utf8))
            return RowTemplate.placeholder(values.count - 1)
        }
    }

    /// Appends a section (its part on this page) through the section template, compiled once per
    /// combination of anchor, header and footer; returns where its rows start in `output`.
    private mutating func renderSection(_ part: Part, appendingTo output: inout [UInt8]) throws -> Int {
        let key = (part.anchor == nil ? 0 : 1) | (part.header == nil ? 0 : 2) | (part.footer == nil ? 0 : 4)
        let segments: [RowTemplate.Segment]
        if let known = sectionTemplates[key] {
            segments = known
        } else {
            var context: [String: Any] = ["rows": RowTemplate.placeholder(3)]
            if part.anchor != nil { context["anchor"] = RowTemplate.placeholder(0) }
            if part.header != nil { context["header"] = RowTemplate.placeholder(1) }
            if part.footer != nil { context["footer"] = RowTemplate.placeholder(2) }
            segments = try RowTemplate.split(
                Array(templates.render("section", context).utf8), template: "section", slots: 4)
            sectionTemplates[key] = segments
        }
        var rowsStart = output.count
        for segment in segments {
            switch segment {
            case .literal(let bytes): output.append(contentsOf: bytes)
            case .slot(0): output.append(contentsOf: (part.anchor ?? "").utf8)
            case .slot(1): output.append(contentsOf: (part.header ?? "").utf8)
            case .slot(2): output.append(contentsOf: (part.footer ?? "").utf8)
            case .slot(_):
                rowsStart = output.count
                output.append(contentsOf: part.rows)
            }
        }
        return rowsStart
    }

    /// Previous and next links and a window of page numbers: the first, the last and two either
    /// side of the current one, with gaps between.
    private static func pagination(_ current: Int, of count: Int, _ page: inout PageValues) -> [String: Any] {
        var pagination: [String: Any] = [:]
        if current > 1 { pagination["previous"] = ["href": page.slot(TableFacts.pageFile(current - 1))] }
        if current < count { pagination["next"] = ["href": page.slot(TableFacts.pageFile(current + 1))] }
        page.key.append((current > 1 ? 2 : 0) | (current < count ? 4 : 0))
        var numbers: [[String: Any]] = []
        var last = 0
        for number in 1...count where number == 1 || number == count || abs(number - current) <= 2 {
            if number > last + 1 {
                numbers.append(["gap": true, "current": false])
                page.key.append(8)
            }
            numbers.append([
                "gap": false, "current": number == current, "number": page.slot("\(number)"),
                "href": page.slot(TableFacts.pageFile(number)),
            ])
            page.key.append(number == current ? 16 : 32)
            last = number
        }
        pagination["pages"] = numbers
        return pagination
    }
}
