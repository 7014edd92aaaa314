import Foundation
import RowKit

/// The state of one export: templates, writer, assets and counters, shared by its tables.
struct ExportSession {
    let options: ExportOptions
    let templates: TemplateSet
    let writer: SiteWriter
    let progress: ((Int, Int) -> Void)?
    let totalRows: Int
    var pages = 0
    var rowsDone = 0
    private var rowTemplate: RowTemplate
    private var assets: AssetStore
    private var values = RowTemplate.Values()

    init(options: ExportOptions, templates: TemplateSet, writer: SiteWriter, progress: ((Int, Int) -> Void)?, totalRows: Int) {
        self.options = options
        self.templates = templates
        self.writer = writer
        self.progress = progress
        self.totalRows = totalRows
        rowTemplate = RowTemplate(templates: templates)
        assets = AssetStore(baseDirectory: options.baseDirectory)
    }

    /// The part of a section on one page.
    private struct Part {
        var anchor: String?
        var header: String?
        var footer: String?
        var rows: [UInt8] = []
    }

    /// What one table's pages share.
    private struct TableContext {
        var title: String
        var escapedTitle: String
        var folder: String
        var root: String
        var style: TableStyle
        var pageCount: Int
        var anchors: [String]
        var startPages: [Int]
        var indexTitles: [(section: Int, title: String)]
        var siteIndex: (href: String, label: String)?

        static func pageFile(_ number: Int) -> String { number == 1 ? "index.html" : "page-\(number).html" }
    }

    /// Writes the list pages and detail pages of `table` under `folder` ("" or "name/"); returns
    /// the number of rows.
    @discardableResult
    mutating func exportTable(
        _ table: any ExportableTable, title: String, folder: String, siteIndex: (href: String, label: String)?
    ) throws -> Int {
        let outlines = table.sectionOutlines
        let pageSize = options.pageSize
        let total = outlines.reduce(0) { $0 + $1.rowCount }
        var sectionSlugs = SlugAllocator()
        var anchors: [String] = []
        var startPages: [Int] = []
        var indexTitles: [(Int, String)] = []
        var rowStart = 0
        for (index, outline) in outlines.enumerated() {
            anchors.append("section-" + sectionSlugs.allocate(for: outline.id.description))
            startPages.append(outline.rowCount > 0 ? rowStart / pageSize + 1 : max(1, (rowStart + pageSize - 1) / pageSize))
            if let indexTitle = outline.indexTitle { indexTitles.append((index, indexTitle)) }
            rowStart += outline.rowCount
        }
        let context = TableContext(
            title: title, escapedTitle: HTMLEscaping.escape(title), folder: folder, root: folder.isEmpty ? "" : "../",
            style: table.style, pageCount: max(1, (total + pageSize - 1) / pageSize), anchors: anchors,
            startPages: startPages, indexTitles: indexTitles, siteIndex: siteIndex)

        var rowSlugs = SlugAllocator()
        var pageNumber = 1
        var parts: [Part] = []
        var rowsOnPage = 0
        var rowCount = 0
        for (sectionIndex, outline) in outlines.enumerated() {
            let header = outline.header?.title.map(HTMLEscaping.escape)
            var isOpenOnPage = false
            var isFirstPart = true
            for row in table.rows(inSection: sectionIndex) {
                if rowsOnPage == pageSize {
                    try writeListPage(pageNumber, parts, context)
                    pageNumber += 1
                    parts = []
                    rowsOnPage = 0
                    isOpenOnPage = false
                }
                if !isOpenOnPage {
                    parts.append(Part(anchor: isFirstPart ? anchors[sectionIndex] : nil, header: header))
                    isOpenOnPage = true
                    isFirstPart = false
                }
                try renderRow(row, page: pageNumber, table: context, slugs: &rowSlugs, into: &parts[parts.count - 1].rows)
                rowsOnPage += 1
                rowCount += 1
            }
            if !isOpenOnPage { parts.append(Part(anchor: anchors[sectionIndex], header: header)) }
            parts[parts.count - 1].footer = outline.footer?.title.map(HTMLEscaping.escape)
        }
        try writeListPage(pageNumber, parts, context)
        return rowCount
    }

    private mutating func writeListPage(_ number: Int, _ parts: [Part], _ table: TableContext) throws {
        var documentTitle = table.escapedTitle
        if table.pageCount > 1 { documentTitle += " – Page \(number) of \(table.pageCount)" }
        let indexEntries: [[String: Any]] = table.indexTitles.map { entry in
            let start = table.startPages[entry.section]
            let page = start == number ? "" : TableContext.pageFile(start)
            return ["href": HTMLEscaping.escape(page + "#" + table.anchors[entry.section]), "title": HTMLEscaping.escape(entry.title)]
        }
        var context: [String: Any] = [
            "language": HTMLEscaping.escape(options.language), "documentTitle": documentTitle,
            "title": table.escapedTitle, "style": table.style.rawValue, "root": table.root,
            "hasIndex": !indexEntries.isEmpty, "indexEntries": indexEntries,
            "sections": parts.map { part -> [String: Any] in
                var section: [String: Any] = ["rows": String(decoding: part.rows, as: UTF8.self)]
                if let anchor = part.anchor { section["anchor"] = anchor }
                if let header = part.header { section["header"] = header }
                if let footer = part.footer { section["footer"] = footer }
                return section
            },
        ]
        if let siteIndex = table.siteIndex { context["back"] = ["href": siteIndex.href, "label": siteIndex.label] }
        if table.pageCount > 1 { context["pagination"] = Self.pagination(number, of: table.pageCount) }
        let html = templates.render("page", context)
        try writer.write(table.folder + TableContext.pageFile(number), Array(html.utf8))
        pages += 1
        progress?(rowsDone, totalRows)
    }

    /// Previous and next links and a window of page numbers: the first, the last and two either
    /// side of the current one, with gaps between.
    private static func pagination(_ current: Int, of count: Int) -> [String: Any] {
        var pagination: [String: Any] = [:]
        if current > 1 { pagination["previous"] = ["href": TableContext.pageFile(current - 1)] }
        if current < count { pagination["next"] = ["href": TableContext.pageFile(current + 1)] }
        var numbers: [[String: Any]] = []
        var last = 0
        for number in 1...count where number == 1 || number == count || abs(number - current) <= 2 {
            if number > last + 1 { numbers.append(["gap": true, "current": false]) }
            numbers.append([
                "gap": false, "current": number == current, "number": "\(number)", "href": TableContext.pageFile(number),
            ])
            last = number
        }
        pagination["pages"] = numbers
        return pagination
    }

    private mutating func renderRow(
        _ row: AnyRow, page: Int, table: TableContext, slugs: inout SlugAllocator, into output: inout [UInt8]
    ) throws {
        rowsDone += 1
        let content: CellContent
        let layout: CellLayout
        if let custom = row.base as? any HTMLRenderableRow {
            switch custom.htmlRepresentation {
            case .content(let given, let givenLayout):
                content = given
                layout = givenLayout
            case .trustedHTML(let fragment):
                values.removeAll()
                values.fragment.append(contentsOf: fragment.utf8)
                var shape = RowTemplate.Shape(layout: .default, accessory: .none)
                shape.isCustom = true
                try rowTemplate.render(shape, values, appendingTo: &output)
                return
            }
        } else if let standard = row.base as? any StandardRowContent {
            content = standard.content
            layout = CellLayout(rawValue: standard.layoutName) ?? .default
        } else {
            content = CellContent(text: row.id.description)
            layout = .default
        }
        values.removeAll()
        var shape = RowTemplate.Shape(layout: layout, accessory: content.accessory)
        HTMLEscaping.escape(content.text, appendingTo: &values.text)
        if let detail = content.detail, !detail.isEmpty {
            shape.hasDetail = true
            HTMLEscaping.escape(detail, appendingTo: &values.detail)
        }
        if let image = content.image,
           let path = try assets.resolve(image.source, row: row.id.description, writer: writer) {
            shape.hasImage = true
            let isRemote = path.lowercased().hasPrefix("http")
            HTMLEscaping.escape(isRemote ? path : table.root + path, appendingTo: &values.imageSource)
            if let label = image.accessibilityLabel, !label.isEmpty {
                shape.hasAlt = true
                HTMLEscaping.escape(label, appendingTo: &values.imageAlt)
            }
        }
        let body = content.body.flatMap { $0.isEmpty ? nil : $0 }
        if let body, content.accessory.discloses {
            let slug = slugs.allocate(for: row.id.description)
            shape.hasHref = true
            shape.hasAnchor = true
            values.href.append(contentsOf: "rows/\(slug).html".utf8)
            values.anchor.append(contentsOf: "row-\(slug)".utf8)
            try writeDetailPage(slug: slug, content: content, body: body, page: page, table: table)
        } else {
            if let link = content.link, let safe = SafeURL.sanitize(link) {
                shape.hasHref = true
                HTMLEscaping.escape(safe, appendingTo: &values.href)
            }
            if let body {
                shape.hasBody = true
                Markdown.render(body, options: options.markdown, appendingTo: &values.body)
            }
        }
        try rowTemplate.render(shape, values, appendingTo: &output)
    }

    private mutating func writeDetailPage(slug: String, content: CellContent, body: String, page: Int, table: TableContext) throws {
        var context: [String: Any] = [
            "language": HTMLEscaping.escape(options.language), "root": table.root + "../",
            "documentTitle": HTMLEscaping.escape(content.text) + " – " + table.escapedTitle,
            "title": HTMLEscaping.escape(content.text), "style": table.style.rawValue,
            "backHref": "../" + TableContext.pageFile(page) + "#row-" + slug, "backLabel": table.escapedTitle,
            "body": Markdown.render(body, options: options.markdown),
        ]
        if let detail = content.detail, !detail.isEmpty { context["detail"] = HTMLEscaping.escape(detail) }
        if let link = content.link, let safe = SafeURL.sanitize(link) { context["link"] = HTMLEscaping.escape(safe) }
        let html = templates.render("detail", context)
        try writer.write(table.folder + "rows/\(slug).html", Array(html.utf8))
        pages += 1
    }
}
