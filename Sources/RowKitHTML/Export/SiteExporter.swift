import Foundation
import RowKit
import RowKitListing

/// Exports tables to a static HTML site that looks like an iOS table.
///
/// One table: its pages at the top of the site (`index.html`, `page-2.html`, ..., detail pages in
/// `rows/`). Several tables: an `index.html` linking them and each table in a folder named by the
/// slug of its name. Shared files live in `assets/` (`rowkit.css`, `images/`).
///
/// Rows are read one at a time (see ``ExportableTable``; a listing file streams its rows) and
/// rendered on ``ExportOptions/jobs`` threads; memory depends on the page size, not on the row
/// count, but for about 8 bytes per row (identities) and per detail page (slugs). A re-export
/// renders only the pages whose rows, options or templates changed, keeps the others, and keeps
/// the whole previous site when its inputs are unchanged.
///
/// The output is deterministic: the same input gives byte-identical files, with any number of jobs.
public struct SiteExporter: Sendable {
    /// The options.
    public var options: ExportOptions

    /// Creates an exporter.
    public init(_ options: ExportOptions = ExportOptions()) {
        self.options = options
    }

    /// Exports one table to the folder `output`, replacing the site there atomically and keeping
    /// every file in it that RowKit did not write (see ``ExportSummary/removedFiles``).
    ///
    /// - Parameters:
    ///   - table: The table to export.
    ///   - output: The site's folder; created if missing, replaced whole if it holds an export.
    ///   - progress: Called on the calling thread with rows done and rows in total, after each
    ///     list page's rows are read.
    /// - Complexity: O(*n*) in the rows and the Markdown they hold.
    @discardableResult
    public func export(
        _ table: some ExportableTable, to output: URL, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ExportSummary {
        let total = table.sectionOutlines.reduce(0) { $0 + $1.rowCount }
        let pipeline = try ExportPipeline(
            options: options, output: output, settings: [], progress: progress.map { report in { report($0, total) } })
        do {
            try writeStyleSheet(pipeline)
            _ = try Self.export(
                table, index: 0, title: options.title, folder: "", siteIndex: nil, imageFolder: options.baseDirectory,
                pipeline: pipeline)
            return try pipeline.commit(inputs: [])
        } catch {
            pipeline.abandon()
            throw error
        }
    }

    /// Exports several tables to the folder `output`: each in its own folder, named by the slug of
    /// its name, and an `index.html` linking them. Image paths are relative to the options'
    /// `baseDirectory`.
    @discardableResult
    public func export(
        _ tables: [(name: String, table: any ExportableTable)], to output: URL,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ExportSummary {
        try export(
            tables.map { (name: $0.name, table: $0.table, imageFolder: options.baseDirectory) }, to: output,
            progress: progress)
    }

    /// Exports several tables as the `export` above does, each with the folder its image paths
    /// are relative to (its document's folder), so an image of one table can never be read from
    /// another table's folder.
    @discardableResult
    public func export(
        _ tables: [(name: String, table: any ExportableTable, imageFolder: URL?)], to output: URL,
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ExportSummary {
        var names: Set<String> = []
        for entry in tables where !names.insert(entry.name).inserted {
            throw ExportError.duplicateTableName(entry.name)
        }
        let total = tables.reduce(0) { $0 + $1.table.sectionOutlines.reduce(0) { $0 + $1.rowCount } }
        let pipeline = try ExportPipeline(
            options: options, output: output, settings: [],
            progress: progress.map { report in
                { report($0, total) }
            })
        do {
            try writeStyleSheet(pipeline)
            var folders = SlugAllocator(reserved: ["assets", "rows", "index"])
            var listed: [(name: String, folder: String, rows: Int)] = []
            for (index, entry) in tables.enumerated() {
                let folder = folders.allocate(for: entry.name)
                let rows = try Self.export(
                    entry.table, index: index, title: entry.name, folder: folder + "/",
                    siteIndex: (href: "../index.html", label: HTMLEscaping.escape(options.title)),
                    imageFolder: entry.imageFolder,
                    pipeline: pipeline)
                listed.append((entry.name, folder, rows))
            }
            try writeSiteIndex(listed, pipeline)
            return try pipeline.commit(inputs: [])
        } catch {
            pipeline.abandon()
            throw error
        }
    }

    /// Writes the site's shared assets: the style sheet, and the search script with search on.
    func writeStyleSheet(_ pipeline: ExportPipeline) throws {
        try pipeline.writeSiteFile("assets/rowkit.css", Array(pipeline.templates.render("style.css", [:]).utf8))
        if options.search {
            try pipeline.writeBundledAsset("search.js")
        }
    }

    /// Writes the index page of a site of several tables.
    func writeSiteIndex(_ tables: [(name: String, folder: String, rows: Int)], _ pipeline: ExportPipeline) throws {
        let listed: [[String: Any]] = tables.map { table in
            var entry: [String: Any] = [
                "name": HTMLEscaping.escape(table.name), "href": HTMLEscaping.escape(table.folder + "/index.html"),
                "summary": table.rows == 1 ? "1 row" : "\(table.rows) rows",
            ]
            if options.search { entry["searchKey"] = HTMLEscaping.escape(table.folder) }
            return entry
        }
        var context: [String: Any] = [
            "language": HTMLEscaping.escape(options.language), "title": HTMLEscaping.escape(options.title),
            "root": "", "tables": listed,
        ]
        if options.search { context["search"] = ["key": ""] }
        let page = pipeline.templates.render("site-index", context)
        try pipeline.writeSiteFile("index.html", Array(page.utf8))
        pipeline.sitePageWritten()
    }

    /// Exports `table` as table `index` of the site; returns its row count.
    private static func export(
        _ table: some ExportableTable, index: Int, title: String, folder: String,
        siteIndex: (href: String, label: String)?,
        imageFolder: URL?, pipeline: ExportPipeline
    ) throws -> Int {
        let planner = TablePlanner(
            pipeline: pipeline, index: index, title: title, folder: folder, style: table.style, siteIndex: siteIndex,
            imageFolder: imageFolder)
        var kinds = RowKindCache()
        for (section, outline) in table.sectionOutlines.enumerated() {
            planner.beginSection(
                id: outline.id.description, header: outline.header?.title, footer: outline.footer?.title,
                indexTitle: outline.indexTitle)
            for row in table.rows(inSection: section) { try planner.add(row, kinds: &kinds) }
            try planner.endSection()
        }
        try planner.finish()
        return planner.rowCount
    }
}
