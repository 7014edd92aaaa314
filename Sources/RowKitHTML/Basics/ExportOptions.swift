import Foundation
import RowKitListing

/// How a site is exported.
public struct ExportOptions: Sendable {
    /// Rows per list page; longer tables are split into `index.html`, `page-2.html`, ...
    /// Default: 500. Must be in ``pageSizes``.
    public var pageSize: Int
    /// The folder row image paths are relative to (the document's folder). Images must resolve,
    /// after symbolic links, inside it. `nil`: rows with image files are an error. A multi-table
    /// export can give each table a folder of its own.
    public var baseDirectory: URL?
    /// A folder of `.mustache` templates that replace the bundled ones of the same name; a
    /// template missing there is taken from the bundle. `nil`: the bundled templates only.
    public var templatesDirectory: URL?
    /// The page title of a single-table export, and the heading of the index page of a
    /// multi-table export. Default: "Table".
    public var title: String
    /// How Markdown bodies are rendered. Default: safe (no raw HTML).
    public var markdown: Markdown.Options
    /// The language of the pages (`<html lang>`). Default: "en".
    public var language: String
    /// Flushes every written file and folder to disk (`fsync`) before the new site is swapped in,
    /// so it survives a power loss, not only a crash of the process. Slower. Default: `false`.
    public var durable: Bool
    /// How many pages are rendered at once, each on a thread of its own (1: on the calling
    /// thread only). The output is the same for any number. Default: the number of active
    /// processors.
    public var jobs: Int
    /// Builds a search index with each table and puts a search field on its pages (and, with
    /// several tables, on the index page). Default: `true`.
    public var search: Bool
    /// What to do when another export is writing to the same output folder: wait until it has
    /// finished (`true`), or throw ``ExportError/outputInUse(path:process:)`` at once (`false`).
    /// Default: `true`.
    public var waitForOtherExport: Bool
    /// Asked before each file is written, while waiting for another export, and once more before
    /// the new site is swapped in; when it returns `true` the export stops, removes its temporary
    /// folder and throws ``ExportError/interrupted``, leaving the previous site as it was. The
    /// command-line tool answers it from SIGINT, SIGTERM and SIGHUP. Default: `nil` (never stop).
    public var shouldStop: (@Sendable () -> Bool)?
    /// Leaves what an export that was stopped wrote, and what step 2 of the site protocol finds
    /// unfinished, as trash beside the site (``SiteTrash``) for the caller to remove, instead of
    /// removing it before the export returns: the command-line tool hands it to a process of its
    /// own, so neither a stop nor the next export waits for it. Default: `false`.
    package var trashRemovedLater = false

    /// The page sizes an export accepts.
    public static let pageSizes = 1...1_000_000

    /// Creates options.
    public init(
        pageSize: Int = 500, baseDirectory: URL? = nil, templatesDirectory: URL? = nil, title: String = "Table",
        markdown: Markdown.Options = .default, language: String = "en", durable: Bool = false, search: Bool = true,
        waitForOtherExport: Bool = true, shouldStop: (@Sendable () -> Bool)? = nil,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.durable = durable
        self.search = search
        self.waitForOtherExport = waitForOtherExport
        self.shouldStop = shouldStop
        self.jobs = max(1, jobs)
        self.pageSize = pageSize
        self.baseDirectory = baseDirectory
        self.templatesDirectory = templatesDirectory
        self.title = title
        self.markdown = markdown
        self.language = language
    }
}

/// What an export did.
public struct ExportSummary: Sendable, Equatable {
    /// HTML pages in the site (list pages, detail pages and the index page).
    public var pages: Int
    /// Rows rendered.
    public var rows: Int
    /// Bytes of all files in the site (written or kept).
    public var bytes: Int
    /// Files whose content changed or is new, written out.
    public var filesWritten: Int
    /// Files whose content is unchanged, kept from the previous export (same inode and mtime).
    public var filesUnchanged: Int
    /// Files of the previous export that the new one no longer has.
    public var filesRemoved: Int { removedFiles.count }
    /// The files removed, relative to the site, sorted: files RowKit wrote in the previous export
    /// that this one no longer writes, each found in the site as a regular file and removed. Files
    /// RowKit did not write are never removed; a path the previous manifest lists that is missing,
    /// a folder or a symbolic link is not removed, and not listed.
    public var removedFiles: [String]
    /// Wall-clock time of the export, in seconds.
    public var seconds: Double
    /// Files of the search indexes (part of `filesWritten` or `filesUnchanged`).
    public var searchFiles: Int
    /// Bytes of the search indexes (part of `bytes`).
    public var searchBytes: Int
    /// Data of the listings that the site does not show although it is valid (a detail its row's
    /// style does not show, a link with a scheme the export does not link to), in file order: the
    /// first 100 of each listing read (an unchanged site that is kept reads none).
    public var warnings: [ListingDiagnostic] = []
    /// How many warnings there are in all.
    public var warningCount = 0

    /// Creates a summary.
    public init(
        pages: Int = 0, rows: Int = 0, bytes: Int = 0, filesWritten: Int = 0, filesUnchanged: Int = 0,
        removedFiles: [String] = [], seconds: Double = 0, searchFiles: Int = 0, searchBytes: Int = 0
    ) {
        self.searchFiles = searchFiles
        self.searchBytes = searchBytes
        self.pages = pages
        self.rows = rows
        self.bytes = bytes
        self.filesWritten = filesWritten
        self.filesUnchanged = filesUnchanged
        self.removedFiles = removedFiles
        self.seconds = seconds
    }
}
