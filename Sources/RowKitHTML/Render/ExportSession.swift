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
    private var sectionTemplates: [Int: [RowTemplate.Segment]] = [:]
    private var pageShells: [[Int]: [RowTemplate.Segment]] = [:]
    private let markdown = Markdown.Renderer()
    private var rowKinds = RowKindCache()
    /// The number of the row being rendered within its table, from 1; rows without a detail page
    /// get the anchor `r-<number>`.
    private var tableRow = 0
    /// The search index of the table being exported (nil with `options.search` off), and the
    /// header of the section its rows are in.
    private var search: SearchIndexBuilder?
    private var searchHeader: String?
    /// What the search indexes of the export wrote.
    private(set) var searchFiles = 0
    private(set) var searchBytes = 0
    /// Whether the one-page list's scripts are in the site (see `ExportSession+OnePage.swift`).
    var wroteOnePageAssets = false

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

    /// Writes the list pages and detail pages of `table` under `folder` ("" or "name/"), with
    /// image paths relative to `imageFolder`; returns the number of rows.
    @discardableResult
    mutating func exportTable(
        _ table: any ExportableTable, title: String, folder: String, siteIndex: (href: String, label: String)?,
        imageFolder: URL?
    ) throws -> Int {
        assets.baseDirectory = imageFolder
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
        tableRow = 0
        search = options.search ? SearchIndexBuilder(key: String(folder.dropLast())) { [writer] name, data in
            try writer.write(folder + "search/" + name + ".js", data)
        } : nil
        var pageNumber = 1
        var parts: [Part] = []
        var rowsOnPage = 0
        var rowCount = 0
        for (sectionIndex, outline) in outlines.enumerated() {
            let header = outline.header?.title.map(HTMLEscaping.escape)
            searchHeader = outline.header?.title
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
        if let search {
            try search.finish(sections: context.pageCount > 1 ? Self.onePageSections(outlines, anchors: anchors) : nil, pageSize: pageSize)
            searchFiles += search.files
            searchBytes += search.bytes
        }
        return rowCount
    }

    private mutating func writeListPage(_ number: Int, _ parts: [Part], _ table: TableContext) throws {
        // The page template is rendered once per structure (back link or not, number of index
        // entries, which pagination links and gaps) with a placeholder for every value, and cut
        // into a shell; each page fills its shell with its values. Slot 0 holds the sections.
        var page = PageValues()
        var documentTitle = table.escapedTitle
        if table.pageCount > 1 { documentTitle += " – Page \(number) of \(table.pageCount)" }
        let indexEntries: [[String: Any]] = table.indexTitles.map { entry in
            let start = table.startPages[entry.section]
            let file = start == number ? "" : TableContext.pageFile(start)
            return ["href": page.slot(HTMLEscaping.escape(file + "#" + table.anchors[entry.section])),
                    "title": page.slot(HTMLEscaping.escape(entry.title))]
        }
        page.key.append(indexEntries.count)
        var context: [String: Any] = [
            "language": page.slot(HTMLEscaping.escape(options.language)), "documentTitle": page.slot(documentTitle),
            "title": page.slot(table.escapedTitle), "style": page.slot(table.style.rawValue), "root": page.slot(table.root),
            "hasIndex": !indexEntries.isEmpty, "indexEntries": indexEntries, "sections": RowTemplate.placeholder(0),
        ]
        if options.search { context["search"] = ["key": page.slot(HTMLEscaping.escape(String(table.folder.dropLast())))] }
        if let siteIndex = table.siteIndex {
            context["back"] = ["href": page.slot(siteIndex.href), "label": page.slot(siteIndex.label)]
            page.key.append(1)
        }
        if table.pageCount > 1 { context["pagination"] = Self.pagination(number, of: table.pageCount, &page) }
        if options.search && table.pageCount > 1 {
            try writeOnePageAssets()
            context["onePage"] = ["page": page.slot("\(number)"), "pageSize": page.slot("\(options.pageSize)")]
        }
        let shell: [RowTemplate.Segment]
        if let known = pageShells[page.key] {
            shell = known
        } else {
            shell = try RowTemplate.split(Array(templates.render("page", context).utf8), template: "page", slots: page.values.count)
            pageShells[page.key] = shell
        }
        // The sections are written straight into the page (slot 0), without an interim copy.
        var html: [UInt8] = []
        html.reserveCapacity(parts.reduce(0) { $0 + $1.rows.count } + 512 * parts.count + page.values.reduce(0) { $0 + $1.count } + 8192)
        for segment in shell {
            switch segment {
            case .literal(let bytes): html.append(contentsOf: bytes)
            case .slot(0): for part in parts { try renderSection(part, appendingTo: &html) }
            case .slot(let index): html.append(contentsOf: page.values[index])
            }
        }
        try writer.write(table.folder + TableContext.pageFile(number), html)
        pages += 1
        progress?(rowsDone, totalRows)
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
    /// combination of anchor, header and footer.
    private mutating func renderSection(_ part: Part, appendingTo output: inout [UInt8]) throws {
        let key = (part.anchor == nil ? 0 : 1) | (part.header == nil ? 0 : 2) | (part.footer == nil ? 0 : 4)
        let segments: [RowTemplate.Segment]
        if let known = sectionTemplates[key] {
            segments = known
        } else {
            var context: [String: Any] = ["rows": RowTemplate.placeholder(3)]
            if part.anchor != nil { context["anchor"] = RowTemplate.placeholder(0) }
            if part.header != nil { context["header"] = RowTemplate.placeholder(1) }
            if part.footer != nil { context["footer"] = RowTemplate.placeholder(2) }
            segments = try RowTemplate.split(Array(templates.render("section", context).utf8), template: "section", slots: 4)
            sectionTemplates[key] = segments
        }
        RowTemplate.write(segments, [Array((part.anchor ?? "").utf8), Array((part.header ?? "").utf8),
                                     Array((part.footer ?? "").utf8), part.rows], appendingTo: &output)
    }

    /// Previous and next links and a window of page numbers: the first, the last and two either
    /// side of the current one, with gaps between.
    private static func pagination(_ current: Int, of count: Int, _ page: inout PageValues) -> [String: Any] {
        var pagination: [String: Any] = [:]
        if current > 1 { pagination["previous"] = ["href": page.slot(TableContext.pageFile(current - 1))] }
        if current < count { pagination["next"] = ["href": page.slot(TableContext.pageFile(current + 1))] }
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
                "href": page.slot(TableContext.pageFile(number)),
            ])
            page.key.append(number == current ? 16 : 32)
            last = number
        }
        pagination["pages"] = numbers
        return pagination
    }

    private mutating func renderRow(
        _ row: any Row, page: Int, table: TableContext, slugs: inout SlugAllocator, into output: inout [UInt8]
    ) throws {
        rowsDone += 1
        tableRow += 1
        let content: CellContent
        let layout: CellLayout
        // The identity's text is only needed for slugs, image errors and unknown rows.
        var identity: String { ItemID(row.id).description }
        switch rowKinds.kind(of: row) {
        case .standard(let standard):
            (content, layout) = standard(row)
        case .custom(let representation):
            switch representation(row) {
            case .content(let given, let givenLayout):
                content = given
                layout = givenLayout
            case .trustedHTML(let fragment):
                values.removeAll()
                values.fragment.append(contentsOf: fragment.utf8)
                values.anchor.append(contentsOf: "r-\(tableRow)".utf8)
                var shape = RowTemplate.Shape(layout: .default, accessory: .none)
                shape.isCustom = true
                shape.hasAnchor = true
                try search?.add(SearchRow(text: "", layout: .default, accessory: .none, href: "", html: fragment, isCustom: true))
                try rowTemplate.render(shape, values, appendingTo: &output)
                return
            }
        case .unknown:
            content = CellContent(text: identity)
            layout = .default
        }
        values.removeAll()
        var shape = RowTemplate.Shape(layout: layout, accessory: content.accessory)
        var searchImage: String?
        var searchHref: String
        var searchSlug: String?
        HTMLEscaping.escape(content.text, appendingTo: &values.text)
        if let detail = content.detail, !detail.isEmpty {
            shape.hasDetail = true
            HTMLEscaping.escape(detail, appendingTo: &values.detail)
        }
        if let image = content.image,
           let path = try assets.resolve(image.source, row: identity, writer: writer) {
            shape.hasImage = true
            searchImage = path
            let isRemote = path.lowercased().hasPrefix("http")
            HTMLEscaping.escape(isRemote ? path : table.root + path, appendingTo: &values.imageSource)
            if let label = image.accessibilityLabel, !label.isEmpty {
                shape.hasAlt = true
                HTMLEscaping.escape(label, appendingTo: &values.imageAlt)
            }
        }
        let body = content.body.flatMap { $0.isEmpty ? nil : $0 }
        if let body, content.accessory.discloses {
            let slug = slugs.allocate(for: identity)
            shape.hasHref = true
            shape.hasAnchor = true
            values.href.append(contentsOf: "rows/\(slug).html".utf8)
            values.anchor.append(contentsOf: "row-\(slug)".utf8)
            searchHref = "rows/\(slug).html"
            searchSlug = slug
            try writeDetailPage(slug: slug, content: content, body: body, page: page, table: table)
        } else {
            searchHref = TableContext.pageFile(page) + "#r-\(tableRow)"
            if let link = content.link, let safe = SafeURL.sanitize(link) {
                shape.hasHref = true
                HTMLEscaping.escape(safe, appendingTo: &values.href)
                searchHref = safe
            }
            if let body {
                shape.hasBody = true
                markdown.render(body, options: options.markdown, appendingTo: &values.body)
            }
            shape.hasAnchor = true
            values.anchor.append(contentsOf: "r-\(tableRow)".utf8)
        }
        try search?.add(SearchRow(
            text: content.text, detail: shape.hasDetail && layout != .default ? content.detail : nil, header: searchHeader, layout: layout,
            accessory: content.accessory, image: searchImage, imageLabel: shape.hasAlt ? content.image?.accessibilityLabel : nil,
            href: searchHref, html: shape.hasBody ? String(decoding: values.body, as: UTF8.self) : nil, slug: searchSlug))
        try rowTemplate.render(shape, values, appendingTo: &output)
    }

    private func renderedMarkdown(_ body: String) -> String {
        var html: [UInt8] = []
        markdown.render(body, options: options.markdown, appendingTo: &html)
        return String(decoding: html, as: UTF8.self)
    }

    private mutating func writeDetailPage(slug: String, content: CellContent, body: String, page: Int, table: TableContext) throws {
        var context: [String: Any] = [
            "language": HTMLEscaping.escape(options.language), "root": table.root + "../",
            "documentTitle": HTMLEscaping.escape(content.text) + " – " + table.escapedTitle,
            "title": HTMLEscaping.escape(content.text), "style": table.style.rawValue,
            "backHref": "../" + TableContext.pageFile(page) + "#row-" + slug, "backLabel": table.escapedTitle,
            "body": renderedMarkdown(body),
        ]
        if let detail = content.detail, !detail.isEmpty { context["detail"] = HTMLEscaping.escape(detail) }
        if let link = content.link, let safe = SafeURL.sanitize(link) { context["link"] = HTMLEscaping.escape(safe) }
        let html = templates.render("detail", context)
        try writer.write(table.folder + "rows/\(slug).html", Array(html.utf8))
        pages += 1
    }
}
