import Foundation
import RowKit
import RowKitListing

/// Plans one table's pages as its rows arrive, in order: which page and section part each row is
/// on, its detail page's slug, its image's site path, and the source keys that decide what the
/// previous site already has. Full pages go to the workers; the list pages are put together in
/// ``finish()``.
final class TablePlanner {
    let pipeline: ExportPipeline
    let index: Int
    private(set) var facts: TableFacts
    private let pageSize: Int
    /// The folder the table's image paths are relative to (its document's folder).
    let imageFolder: URL?
    /// The table's search index (nil with ``ExportOptions/search`` off), fed in row order through
    /// the pipeline's ``SearchLane``: everything it does runs there.
    private var search: SearchIndexBuilder?
    /// The manifest entries of the index's files, filled on the search lane and filed in
    /// ``finish()`` after the lane is done.
    private let searchEntries = SearchEntries()
    /// The rows' search display data of rendered pages, waiting for earlier pages (by page).
    private var searchWaiting: [Int: SearchDisplayRecords] = [:]
    private var nextForSearch = 1

    /// A section as far as it is known.
    private struct SectionRecord {
        /// The identity its anchor is made from; for a listing, decided when the table ends.
        var id: String?
        var header: String?
        var footer: String?
        var indexTitle: String?
        var rowStart: Int
        var rowCount = 0
    }

    /// A section's part of a page.
    private struct PartRecord {
        var section: Int
        var isFirst: Bool
        var rows = 0
        var hasFooter = false
    }

    private var sections: [SectionRecord] = []
    private var slugs = SlugAllocator()
    private(set) var rowCount = 0
    private var page = 1
    private var rowsOnPage = 0
    private var pageRows: [RenderRow] = []
    private var pageDetails: [DetailPlan?] = []
    private var partStarts: [Int] = []
    /// Every page's parts (index: page - 1).
    private var parts: [[PartRecord]] = [[]]
    private var isOpenOnPage = false
    private var isFirstPart = true
    private var dispatched = false
    /// The previous site's entries of the current page.
    private var previousList: ManifestEntry?
    private var previousDetails: [String: ManifestEntry] = [:]
    private var previousLists: [Int: ManifestEntry] = [:]
    private var bodyKeys: [Int: UInt64] = [:]
    private var bodies: [Int: RenderedBody] = [:]
    /// Rendered pages waiting for earlier ones before their entries go to the manifest.
    private var waiting: [Int: [ManifestEntry]] = [:]
    private var nextForManifest = 1

    init(
        pipeline: ExportPipeline, index: Int, title: String, folder: String, style: TableStyle,
        siteIndex: (href: String, label: String)?, imageFolder: URL?
    ) {
        self.pipeline = pipeline
        self.index = index
        self.imageFolder = imageFolder
        pageSize = pipeline.options.pageSize
        if pipeline.options.search {
            let writer = pipeline.writer
            let entries = searchEntries
            search = SearchIndexBuilder(key: String(folder.dropLast())) { name, data in
                let path = folder + "search/" + name + ".js"
                entries.append(try writer.write(path, data, previous: writer.previous?.siteFiles[path]))
            }
        }
        var key = StableHash()
        key.update(value: pipeline.settingsKey)
        key.update(title)
        key.update(folder)
        key.update(style.rawValue)
        key.update(siteIndex?.href ?? "")
        key.update(siteIndex?.label ?? "")
        facts = TableFacts(
            title: title, escapedTitle: HTMLEscaping.escape(title), folder: folder, root: folder.isEmpty ? "" : "../",
            style: style, siteIndex: siteIndex, key: key.value)
    }

    // MARK: - Sections

    /// A section starts; `id` is its identity (for a listing, `nil`: decided at the end).
    func beginSection(id: String? = nil, header: String? = nil, footer: String? = nil, indexTitle: String? = nil) {
        sections.append(
            SectionRecord(id: id, header: header, footer: footer, indexTitle: indexTitle, rowStart: rowCount))
        isOpenOnPage = false
        isFirstPart = true
    }

    /// The section that started last ends (with its header, footer and index title when they
    /// were not known at its start). Its rows are found in the search by its header's words too.
    func endSection(header: String?? = nil, footer: String?? = nil, indexTitle: String?? = nil) throws {
        let last = sections.count - 1
        if let header { sections[last].header = header }
        if let footer { sections[last].footer = footer }
        if let indexTitle { sections[last].indexTitle = indexTitle }
        if let search, let header = sections[last].header, sections[last].rowCount > 0 {
            let start = UInt32(sections[last].rowStart)
            let rows = start..<(start + UInt32(sections[last].rowCount))
            try pipeline.searchLane.submit { try search.addHeader(header, rows: rows) }
        }
        if !isOpenOnPage {
            parts[page - 1].append(PartRecord(section: last, isFirst: true))
        }
        parts[page - 1][parts[page - 1].count - 1].hasFooter = true
    }

    // MARK: - Rows

    /// A listing row.
    func add(_ row: ListingRow) throws {
        try add(content: row.cellContent(), layout: row.style, identity: row.id)
    }

    /// A row of an exportable table.
    func add(_ row: any Row, kinds: inout RowKindCache) throws {
        var identity: String { ItemID(row.id).description }
        switch kinds.kind(of: row) {
        case .standard(let standard):
            let (content, layout) = standard(row)
            try add(content: content, layout: layout, identity: identity)
        case .custom(let representation):
            switch representation(row) {
            case .content(let content, let layout):
                try add(content: content, layout: layout, identity: identity)
            case .trustedHTML(let fragment):
                var row = RenderRow(
                    number: rowCount + 1, layout: .default, accessory: .none, text: "", fragment: fragment)
                if let search {
                    let searchRow = SearchRow(
                        text: "", layout: .default, accessory: .none, href: "", html: fragment, isCustom: true)
                    try pipeline.searchLane.submit { try search.addWords(searchRow) }
                    row.searchHref = ""
                }
                try add(row)
            }
        case .unknown:
            try add(content: CellContent(text: identity), layout: .default, identity: identity)
        }
    }

    private func add(content: CellContent, layout: CellLayout, identity: String) throws {
        var row = RenderRow(number: rowCount + 1, layout: layout, accessory: content.accessory, text: content.text)
        row.detail = content.detail.flatMap { $0.isEmpty ? nil : $0 }
        if let image = content.image,
            let path = try pipeline.resolveImage(image.source, row: identity, table: index, folder: imageFolder)
        {
            row.imageSource = path
            row.imageIsRemote = path.lowercased().hasPrefix("http")
            row.imageAlt = image.accessibilityLabel.flatMap { $0.isEmpty ? nil : $0 }
        }
        row.body = content.body.flatMap { $0.isEmpty ? nil : $0 }
        if let body = row.body { row.bodyImages = try copyBodyImages(body, identity: identity) }
        row.link = content.link
        if row.body != nil, content.accessory.discloses {
            row.slug = slugs.allocate(for: identity)
        }
        if let search {
            // A result leads where the row does: its detail page, its link, or its place on its
            // list page.
            let page = rowsOnPage == pageSize ? self.page + 1 : self.page
            let href =
                row.detailPath ?? row.link.flatMap(SafeURL.sanitize) ?? TableFacts.pageFile(page) + "#r-\(row.number)"
            let searchRow = SearchRow(
                text: row.text, detail: layout == .default ? nil : row.detail, layout: layout,
                accessory: row.accessory, image: row.imageSource, imageLabel: row.imageAlt, href: href,
                hasInlineBody: row.slug == nil && row.body != nil, slug: row.slug)
            // The row's display data is made by the renderer of its page, which renders an inline
            // body once for the page and the index (see `takeOutcomes`).
            row.searchHref = href
            try pipeline.searchLane.submit { try search.addWords(searchRow) }
        }
        try add(row)
    }

    private func add(_ row: RenderRow) throws {
        if rowsOnPage == pageSize {
            page += 1
            rowsOnPage = 0
            isOpenOnPage = false
            parts.append([])
            dispatched = false
        }
        if rowsOnPage == 0 { try loadPrevious() }
        if !isOpenOnPage {
            parts[page - 1].append(PartRecord(section: sections.count - 1, isFirst: isFirstPart))
            partStarts.append(pageRows.count)
            isOpenOnPage = true
            isFirstPart = false
        }
        parts[page - 1][parts[page - 1].count - 1].rows += 1
        var detail: DetailPlan?
        if let path = row.detailPath {
            let fullPath = facts.folder + path
            // The key, and whether the previous page is kept, are settled by the renderer.
            detail = DetailPlan(unit: unit, key: 0, previous: previousDetails[fullPath], keep: false)
        }
        pageRows.append(row)
        pageDetails.append(detail)
        rowsOnPage += 1
        rowCount += 1
        pipeline.rowsPlanned += 1
        sections[sections.count - 1].rowCount += 1
        if rowsOnPage == pageSize { try dispatch() }
    }

    private var unit: ManifestUnit { ManifestUnit(table: index, page: page) }

    /// Reads the previous site's entries of the current page; throws
    /// ``ExportError/manifestInvalid(path:entry:reason:)`` when the reading meets an entry that is
    /// not a ``SitePath``.
    private func loadPrevious() throws {
        previousList = nil
        previousDetails = [:]
        guard let previous = pipeline.writer.previous else { return }
        for entry in previous.entries(of: unit) {
            if entry.path == facts.folder + TableFacts.pageFile(page) {
                previousList = entry
            } else {
                previousDetails[entry.path] = entry
            }
        }
        try pipeline.writer.checkPreviousManifest()
        if let previousList { previousLists[page] = previousList }
    }

    /// Sends the current page's rows to the workers.
    private func dispatch() throws {
        try pipeline.workers.submit(
            .page(
                PageJob(
                    unit: unit, table: facts, rows: pageRows, partStarts: partStarts, details: pageDetails,
                    previous: previousList)))
        pageRows = []
        pageDetails = []
        partStarts = []
        dispatched = true
        pipeline.progress?(pipeline.rowsPlanned)
        try takeOutcomes(pipeline.workers.collect())
    }

    /// Files the outcomes of rendered pages: their bodies, and their detail pages' entries in
    /// page order into the manifest.
    private func takeOutcomes(_ outcomes: [RenderOutcome]) throws {
        for outcome in outcomes {
            switch outcome {
            case .page(let unit, let body, let key, let details, let records):
                bodies[unit.page] = body
                bodyKeys[unit.page] = key
                waiting[unit.page] = details
                if search != nil { searchWaiting[unit.page] = records }
            case .assembled(let unit, let entry):
                pipeline.manifest.setListPage(entry, of: unit)
            }
        }
        while let details = waiting.removeValue(forKey: nextForManifest) {
            try pipeline.manifest.addRowPages(details, of: ManifestUnit(table: index, page: nextForManifest))
            nextForManifest += 1
        }
        if let search {
            while let records = searchWaiting.removeValue(forKey: nextForSearch) {
                try pipeline.searchLane.submit { try search.addDisplay(records) }
                nextForSearch += 1
            }
        }
    }

    // MARK: - End

    /// Ends the table: renders what is left and puts the list pages together.
    func finish() throws {
        if !dispatched {
            if rowsOnPage == 0 { try loadPrevious() }
            try dispatch()
        }
        let pageCount = page
        // Section identities: a listing's sections are known by their header when no other
        // section has the same one, else by their position (as RowKit's `Table` does).
        var headerCounts: [String: Int] = [:]
        for section in sections where section.id == nil {
            if let header = section.header { headerCounts[header, default: 0] += 1 }
        }
        var sectionSlugs = SlugAllocator()
        var anchors: [String] = []
        var startPages: [Int] = []
        var indexTitles: [(section: Int, title: String)] = []
        for (position, section) in sections.enumerated() {
            let id = section.id ?? section.header.flatMap { headerCounts[$0] == 1 ? $0 : nil } ?? "#\(position)"
            anchors.append("section-" + sectionSlugs.allocate(for: id))
            startPages.append(
                section.rowCount > 0
                    ? section.rowStart / pageSize + 1 : max(1, (section.rowStart + pageSize - 1) / pageSize))
            if let indexTitle = section.indexTitle { indexTitles.append((position, indexTitle)) }
        }
        // Every row's words are in: the index's word files are written on the lane while the
        // renderers finish the last pages.
        if let search { try pipeline.searchLane.submit { try search.finishWords() } }
        // Every page rendered: the rows' display data is queued for the index in page order.
        try takeOutcomes(pipeline.workers.drain())
        if let search {
            var onePage: [OnePageIndex.Section]?
            if pageCount > 1 {
                try pipeline.writeOnePageAssets()
                onePage = sections.enumerated().map { position, section in
                    OnePageIndex.Section(
                        firstRow: section.rowStart, rowCount: section.rowCount, anchor: anchors[position],
                        header: section.header, footer: section.footer, indexTitle: section.indexTitle)
                }
            }
            // The last row-data file and the one page's files, on the lane while the list pages
            // are put together.
            try pipeline.searchLane.submit { [onePage, pageSize] in
                try search.finishRows(sections: onePage, pageSize: pageSize)
            }
        }
        facts.pageCount = pageCount
        facts.anchors = anchors
        facts.startPages = startPages
        facts.indexTitles = indexTitles
        for number in 1...pageCount {
            guard let body = bodies[number], let key = bodyKeys[number] else {
                preconditionFailure("every page of the table was rendered")
            }
            let pageParts = parts[number - 1].map { part in
                let section = sections[part.section]
                return (
                    anchor: part.isFirst ? anchors[part.section] : nil, header: section.header.map(HTMLEscaping.escape),
                    footer: part.hasFooter ? section.footer.map(HTMLEscaping.escape) : nil, rows: part.rows
                )
            }
            try pipeline.workers.submit(
                .assemble(
                    AssemblyJob(
                        unit: ManifestUnit(table: index, page: number), table: facts, parts: pageParts, body: body,
                        previous: previousLists[number], key: key)))
        }
        try takeOutcomes(pipeline.workers.drain())
        if let search {
            try pipeline.searchLane.wait()
            for entry in searchEntries.list { pipeline.manifest.addSiteFile(entry) }
            pipeline.searchWritten(files: search.files, bytes: search.bytes)
        }
        pipeline.tableFinished(pages: pageCount + rowsWithDetailPages, rows: rowCount)
    }

    /// How many rows have a detail page.
    private var rowsWithDetailPages: Int { slugs.count }
}

/// The manifest entries of a table's search index files, as the search lane writes them (from
/// two threads at the end, see ``SearchIndexBuilder/finishWords()``).
private final class SearchEntries: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [ManifestEntry] = []

    func append(_ entry: ManifestEntry) { lock.withLock { entries.append(entry) } }

    var list: [ManifestEntry] { lock.withLock { entries } }
}
