import Foundation
import RowKit

/// Exports tables to a static HTML site that looks like an iOS table.
///
/// One table: its pages at the top of the site (`index.html`, `page-2.html`, ..., detail pages in
/// `rows/`). Several tables: an `index.html` linking them and each table in a folder named by the
/// slug of its name. Shared files live in `assets/` (`rowkit.css`, `images/`).
///
/// Memory is bounded by the page size, not the row count: rows are read one section at a time
/// (see ``ExportableTable``), each page is written as soon as it is full, and detail pages as soon
/// as their row is rendered. What grows with the listing is the manifest (one entry per file) and
/// eight bytes per detail page for slug uniqueness.
///
/// The output is deterministic: the same input gives byte-identical files.
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
    ///   - progress: Called after each list page with rows done and rows in total.
    /// - Complexity: O(*n*) in the rows and the Markdown they hold.
    @discardableResult
    public func export(
        _ table: some ExportableTable, to output: URL, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> ExportSummary {
        try run(to: output, progress: progress, totalRows: table.sectionOutlines.reduce(0) { $0 + $1.rowCount }) { session in
            try session.exportTable(table, title: options.title, folder: "", siteIndex: nil, imageFolder: options.baseDirectory)
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
        try export(tables.map { (name: $0.name, table: $0.table, imageFolder: options.baseDirectory) }, to: output, progress: progress)
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
        for entry in tables where !names.insert(entry.name).inserted { throw ExportError.duplicateTableName(entry.name) }
        let total = tables.reduce(0) { $0 + $1.table.sectionOutlines.reduce(0) { $0 + $1.rowCount } }
        return try run(to: output, progress: progress, totalRows: total) { session in
            var folders = SlugAllocator(reserved: ["assets", "rows", "index"])
            var listed: [[String: Any]] = []
            for entry in tables {
                let folder = folders.allocate(for: entry.name)
                let rows = try session.exportTable(
                    entry.table, title: entry.name, folder: folder + "/",
                    siteIndex: (href: "../index.html", label: HTMLEscaping.escape(options.title)), imageFolder: entry.imageFolder)
                var table: [String: Any] = [
                    "name": HTMLEscaping.escape(entry.name), "href": HTMLEscaping.escape(folder + "/index.html"),
                    "summary": rows == 1 ? "1 row" : "\(rows) rows",
                ]
                if options.search { table["searchKey"] = HTMLEscaping.escape(folder) }
                listed.append(table)
            }
            var context: [String: Any] = [
                "language": HTMLEscaping.escape(options.language), "title": HTMLEscaping.escape(options.title),
                "root": "", "tables": listed,
            ]
            if options.search { context["search"] = ["key": ""] }
            let page = session.templates.render("site-index", context)
            try session.writer.write("index.html", Array(page.utf8))
            session.pages += 1
        }
    }

    private func run(
        to output: URL, progress: ((Int, Int) -> Void)?, totalRows: Int, body: (inout ExportSession) throws -> Void
    ) throws -> ExportSummary {
        guard ExportOptions.pageSizes.contains(options.pageSize) else { throw ExportError.invalidPageSize(options.pageSize) }
        let start = Date()
        let templates = try TemplateSet(customDirectory: options.templatesDirectory)
        let writer = try SiteWriter(
            output: output, durable: options.durable, waitForOtherExport: options.waitForOtherExport, shouldStop: options.shouldStop)
        var session = ExportSession(options: options, templates: templates, writer: writer, progress: progress, totalRows: totalRows)
        do {
            try writer.write("assets/rowkit.css", Array(templates.render("style.css", [:]).utf8))
            if options.search { try writer.write("assets/search.js", Array(templates.render("search.js", [:]).utf8)) }
            try body(&session)
            try writer.commit()
        } catch {
            writer.abandon()
            throw error
        }
        return ExportSummary(
            pages: session.pages, rows: session.rowsDone, bytes: writer.bytes, filesWritten: writer.filesWritten,
            filesUnchanged: writer.filesUnchanged, removedFiles: writer.removedFiles,
            seconds: Date().timeIntervalSince(start), searchFiles: session.searchFiles, searchBytes: session.searchBytes)
    }
}
