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
    /// The rows of each of the index's row-data files, decided from the first rows' display data
    /// as they go to the index (see ``SearchRowGroupSize``); the list pages name it.
    private var rowGroupSize = SearchRowGroupSize()

    /// The sections that ended, in order (see ``SectionList``).
    private let sections: SectionList
    /// The section being read (the last one), and ended ones not yet in ``sections``.
    private var current: SectionList.Record?
    private var ended: [SectionList.Record] = []
    /// The sections begun so far.
    private var sectionCount = 0
    /// The sections with an index title.
    private var indexTitleCount = 0
    /// The hashes of the headers of sections without an identity, and of those seen twice or
    /// more (see ``SectionAnchors``).
    private var headers = HashSet64()
    private var repeatedHeaders = HashSet64()
    /// The parts of the pages before the current one (see ``PagePartList``), and the current
    /// page's parts.
    private let parts: PagePartList
    private var pageParts: [PagePartList.Part] = []
    private var slugs = SlugAllocator()
    private(set) var rowCount = 0
    private var page = 1
    private var rowsOnPage = 0
    /// The bytes of the current page's rows as they will show on it (their text, detail and
    /// inline body; see ``TableFacts/pageByteLimit``).
    private var pageBytes = 0
    /// The first row (from 0) of each list page so far.
    private var pageFirstRows = [0]
    private var pageRows: [RenderRow] = []
    private var pageDetails: [DetailPlan?] = []
    private var partStarts: [Int] = []
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
        sections = SectionList(scratch: pipeline.scratch)
        parts = PagePartList(scratch: pipeline.scratch)
        if pipeline.options.search {
            let writer = pipeline.writer
            let entries = searchEntries
            let builder = SearchIndexBuilder(key: String(folder.dropLast())) { name, data in
                let path = folder + "search/" + name + ".js"
                entries.append(try writer.write(path, data, previous: writer.previous?.siteFiles[path]))
            }
            let scratch = pipeline.scratch
            builder.largeFiles = (
                scratch,
                { name, ranges in
                    let path = folder + "search/" + name + ".js"
                    entries.append(
                        try writer.write(path, from: scratch, ranges, previous: writer.previous?.siteFiles[path]))
                }
            )
            search = builder
            // The previous export's rows a row file, kept while they still fit (SearchRowGroupSize).
            let root = folder + "search/t-.js"
            if let entry = writer.previous?.siteFiles[root], let bytes = writer.previousContents(root, entry) {
                rowGroupSize = SearchRowGroupSize(
                    previous: SearchRowGroupSize.rowsPerFile(inRootFile: String(decoding: bytes, as: UTF8.self)))
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
        if let current { ended.append(current) }
        current = SectionList.Record(id: id, header: header, footer: footer, indexTitle: indexTitle, rowStart: rowCount)
        sectionCount += 1
        isOpenOnPage = false
        isFirstPart = true
    }

    /// The section that started last ends (with its header, footer and index title when they
    /// were not known at its start). Its rows are found in the search by its header's words too.
    func endSection(header: String?? = nil, footer: String?? = nil, indexTitle: String?? = nil) throws {
        guard var section = current else { preconditionFailure("a section began") }
        if let header { section.header = header }
        if let footer { section.footer = footer }
        if let indexTitle { section.indexTitle = indexTitle }
        current = section
        try fileEndedSections()
        if let search, let header = section.header, section.rowCount > 0 {
            let start = UInt32(section.rowStart)
            let rows = start..<(start + UInt32(section.rowCount))
            try pipeline.searchLane.submit { try search.addHeader(header, rows: rows) }
        }
        if !isOpenOnPage {
            pageParts.append(PagePartList.Part(section: sectionCount - 1, isFirst: true))
        }
        pageParts[pageParts.count - 1].hasFooter = true
    }

    /// Moves the sections that ended into ``sections``, noting their headers and index titles.
    private func fileEndedSections() throws {
        for section in ended {
            if section.id == nil, let header = section.header {
                let hash = StableHash.of(header)
                if !headers.insert(hash) { repeatedHeaders.insert(hash) }
            }
            if section.indexTitle != nil { indexTitleCount += 1 }
            try sections.append(section)
        }
        ended.removeAll(keepingCapacity: true)
    }

    /// The list page a section starts on: its first row's, or for an empty section the page of
    /// the row before it (it is drawn after that row).
    private func startPage(_ section: SectionList.Record) -> Int {
        TableFacts.page(
            ofRow: section.rowCount > 0 ? section.rowStart : max(0, section.rowStart - 1), in: pageFirstRows)
    }

    /// Whether the current page has all the rows it takes: ``pageSize`` of them, or rows that
    /// show ``TableFacts/pageByteLimit`` bytes or more.
    private var pageIsFull: Bool { rowsOnPage == pageSize || pageBytes >= TableFacts.pageByteLimit }

    // MARK: - Rows

    /// A listing row.
    func add(_ row: ListingRow) throws {
        try add(content: row.cellContent(), layout: row.style, switchIsOn: row.switchIsOn, identity: row.id)
    }

    /// A row of an exportable table.
    func add(_ row: any Row, kinds: inout RowKindCache) throws {
        var identity: String { ItemID(row.id).description }
        switch kinds.kind(of: row) {
        case .standard(let standard):
            let (content, layout, switchIsOn) = standard(row)
            try add(content: content, layout: layout, switchIsOn: switchIsOn, identity: identity)
        case .custom(let representation):
            switch representation(row) {
            case .content(let content, let layout):
                try add(content: content, layout: layout, identity: identity)
            case .trustedHTML(let fragment):
                var row = RenderRow(
                    number: rowCount + 1, layout: .default, accessory: .none, text: "", fragment: fragment)
                if let search {
                    let searchRow = SearchRow(
                        text: "", layout: .default, accessory: .none, target: .link(""), html: fragment, isCustom: true)
                    try pipeline.searchLane.submit { try search.addWords(searchRow) }
                    row.searchTarget = .link("")
                }
                try add(row)
            }
        case .unknown:
            try add(content: CellContent(text: identity), layout: .default, identity: identity)
        }
    }

    /// A row of standard content; a row with a switch (`switchIsOn`) shows no accessory, since the
    /// switch stands where it would be.
    private func add(content: CellContent, layout: CellLayout, switchIsOn: Bool? = nil, identity: String) throws {
        let accessory = switchIsOn == nil ? content.accessory : .none
        var row = RenderRow(number: rowCount + 1, layout: layout, accessory: accessory, text: content.text)
        row.switchIsOn = switchIsOn
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
        if row.body != nil, accessory.discloses {
            row.slug = slugs.allocate(for: identity)
        }
        if let search {
            // A result leads where the row does: its detail page, its link, or its place on its
            // list page (the page's number, in the display data).
            let target =
                (row.detailPath ?? row.link.flatMap(SafeURL.sanitize)).map(SearchTarget.link)
                ?? .listPage(pageIsFull ? page + 1 : page)
            let searchRow = SearchRow(
                text: row.text, detail: layout == .default ? nil : row.detail, layout: layout,
                accessory: row.accessory, image: row.imageSource, imageLabel: row.imageAlt, target: target,
                body: row.body, hasInlineBody: row.slug == nil && row.body != nil, slug: row.slug)
            // The row's display data is made by the renderer of its page, which renders an inline
            // body once for the page and the index (see `takeOutcomes`).
            row.searchTarget = target
            try pipeline.searchLane.submit(carrying: row.body?.utf8.count ?? 0) { try search.addWords(searchRow) }
        }
        try add(row)
    }

    private func add(_ row: RenderRow) throws {
        try fileEndedSections()
        if pageIsFull {
            page += 1
            rowsOnPage = 0
            pageBytes = 0
            pageFirstRows.append(rowCount)
            isOpenOnPage = false
            try parts.append(pageParts)
            pageParts.removeAll(keepingCapacity: true)
            dispatched = false
        }
        if rowsOnPage == 0 { try loadPrevious() }
        if !isOpenOnPage {
            pageParts.append(PagePartList.Part(section: sectionCount - 1, isFirst: isFirstPart))
            partStarts.append(pageRows.count)
            isOpenOnPage = true
            isFirstPart = false
        }
        pageParts[pageParts.count - 1].rows += 1
        var detail: DetailPlan?
        if let path = row.detailPath {
            let fullPath = facts.folder + path
            // The key, and whether the previous page is kept, are settled by the renderer.
            detail = DetailPlan(unit: unit, key: 0, previous: previousDetails[fullPath], keep: false)
        }
        pageRows.append(row)
        pageDetails.append(detail)
        rowsOnPage += 1
        pageBytes += row.text.utf8.count + (row.detail?.utf8.count ?? 0) + (row.fragment?.utf8.count ?? 0)
        if row.slug == nil, let body = row.body { pageBytes += body.utf8.count }
        rowCount += 1
        pipeline.rowsPlanned += 1
        current?.rowCount += 1
        if pageIsFull { try dispatch() }
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
                if let rows = rowGroupSize.add(records) {
                    // Before these rows' data, which holds the 128th row or rules out more.
                    try pipeline.searchLane.submit { search.setRowsPerShard(rows) }
                }
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
        if let current { ended.append(current) }
        current = nil
        try fileEndedSections()
        try parts.append(pageParts)
        pageParts = []
        facts.pageCount = pageCount
        facts.pageFirstRows = pageFirstRows
        // Only the repeated headers are needed from here on.
        headers = HashSet64()
        let (resolved, indexEntries) = try resolveSections()
        facts.indexEntries = indexEntries
        if search != nil && rowGroupSize.decided == nil && rowCount >= SearchRowGroupSize.smallest {
            // The trie's root names the rows per row-data file: a table of a few pages waits for
            // its first rows' display data here (a large one has it long before).
            try takeOutcomes(pipeline.workers.drain())
        }
        facts.rowsPerFile = rowGroupSize.rowsPerFile
        // Every row's words are in: the index's word files are written on the lane while the
        // renderers finish the last pages.
        if let search { try pipeline.searchLane.submit { try search.finishWords() } }
        // Every page rendered: the rows' display data is queued for the index in page order.
        try takeOutcomes(pipeline.workers.drain())
        if let search {
            var onePage: OnePageIndex.Sections?
            if pageCount > 1 {
                try pipeline.writeOnePageAssets()
                onePage = { visit in
                    let reader = resolved.makeReader()
                    while let section = try reader.next() {
                        try visit(
                            OnePageIndex.Section(
                                firstRow: section.rowStart, rowCount: section.rowCount, anchor: section.id ?? "",
                                header: section.header, footer: section.footer, indexTitle: section.indexTitle))
                    }
                }
            }
            // The last row-data file and the one page's files, on the lane while the list pages
            // are put together.
            // The pages' first rows only when pages are not all ``pageSize`` rows long.
            let regular = pageFirstRows.indices.allSatisfy { pageFirstRows[$0] == $0 * pageSize }
            try pipeline.searchLane.submit { [onePage, pageSize, pageFirstRows] in
                try search.finishRows(
                    sections: onePage, pageSize: pageSize, pageFirstRows: regular ? nil : pageFirstRows)
            }
        }
        try assembleListPages(pageCount, sections: resolved)
        if let search {
            try pipeline.searchLane.wait()
            for entry in searchEntries.list { pipeline.manifest.addSiteFile(entry) }
            pipeline.searchWritten(files: search.files, bytes: search.bytes)
        }
        pipeline.tableFinished(pages: pageCount + rowsWithDetailPages, rows: rowCount)
    }

    /// The table's sections, each with its anchor as its identity (see ``SectionAnchors``), and
    /// the index bar's entries: every index title, or at most ``TableFacts/maximumIndexEntries``
    /// of them spread evenly from the first to the last (see ``TableFacts/indexBarPicks(of:)``).
    /// The sets the anchors are made unique with are let go once they are made.
    private func resolveSections() throws -> (SectionList, [TableFacts.IndexEntry]) {
        let resolved = SectionList(scratch: pipeline.scratch)
        let picks = TableFacts.indexBarPicks(of: indexTitleCount)
        var entries: [TableFacts.IndexEntry] = []
        var titles = 0
        let anchors = SectionAnchors(sections, repeatedHeaders: repeatedHeaders)
        while let (_, read, anchor) = try anchors.next() {
            var section = read
            if let title = section.indexTitle {
                if entries.count < picks.count && picks[entries.count] == titles {
                    entries.append(TableFacts.IndexEntry(anchor: anchor, startPage: startPage(section), title: title))
                }
                titles += 1
            }
            section.id = anchor
            try resolved.append(section)
        }
        repeatedHeaders = HashSet64()
        return (resolved, entries)
    }

    /// Puts the list pages together from the rendered rows, page by page, reading the sections
    /// and the pages' parts back in order.
    private func assembleListPages(_ pageCount: Int, sections: SectionList) throws {
        let pages = parts.makeReader()
        let reader = sections.makeReader()
        var last: SectionList.Record?
        for number in 1...pageCount {
            guard let body = bodies.removeValue(forKey: number), let key = bodyKeys.removeValue(forKey: number),
                let partsOfPage = try pages.next()
            else {
                preconditionFailure("every page of the table was rendered")
            }
            var pageParts: [(anchor: String?, header: String?, footer: String?, rows: Int)] = []
            for part in partsOfPage {
                while reader.position <= part.section {
                    guard let next = try reader.next() else { preconditionFailure("every part's section was filed") }
                    last = next
                }
                guard let section = last else { continue }
                pageParts.append(
                    (
                        anchor: part.isFirst ? section.id : nil, header: section.header.map(HTMLEscaping.escape),
                        footer: part.hasFooter ? section.footer.map(HTMLEscaping.escape) : nil, rows: part.rows
                    ))
            }
            try pipeline.workers.submit(
                .assemble(
                    AssemblyJob(
                        unit: ManifestUnit(table: index, page: number), table: facts, parts: pageParts, body: body,
                        previous: previousLists[number], key: key)))
            try takeOutcomes(pipeline.workers.collect())
        }
        try takeOutcomes(pipeline.workers.drain())
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
