import Foundation
import RowKit
import RowKitListing

/// One export: the site being written, the renderers, the assets, the manifest.
///
/// Tables are exported one after the other; each is planned row by row on the calling thread
/// (``TablePlanner``: pages, slugs, images, source keys) and rendered page by page on the workers.
/// A table's list pages need facts known only once all its rows are read (the page count, where
/// each index-bar section starts), so its rendered rows wait in a scratch file and the list pages
/// are put together when the table ends. Detail pages are written as their rows are rendered.
final class ExportPipeline {
    /// Changes whenever the exporter's output changes for the same input, so a re-export does not
    /// keep pages made by an earlier exporter.
    static let outputRevision = "rowkit-html-3"

    let options: ExportOptions
    let templates: TemplateSet
    let writer: SiteWriter
    let manifest: ManifestBuilder
    let scratch: ScratchFile
    let workers: RenderWorkers
    /// Where the tables' search indexes are built (see ``SearchLane``).
    let searchLane: SearchLane
    /// The key of the options, templates and tool.
    let settingsKey: UInt64
    private var assets: AssetStore
    /// What the search indexes wrote.
    private(set) var searchFiles = 0
    private(set) var searchBytes = 0
    /// Whether the one-page list's scripts are in the site (see `ExportPipeline+OnePage.swift`).
    var wroteOnePageAssets = false
    /// Called with the rows planned so far (over all tables) after each page is sent to render.
    let progress: ((Int) -> Void)?
    /// Rows planned so far, over all tables.
    var rowsPlanned = 0
    private(set) var pages = 0
    private(set) var rows = 0
    private let start = Date()

    /// Starts an export to the folder `output`. `settings` are the export's other settings that
    /// change its output (a listing's CSV columns, a style override, ...).
    init(options: ExportOptions, output: URL, settings: [String], progress: ((Int) -> Void)?) throws {
        guard ExportOptions.pageSizes.contains(options.pageSize) else {
            throw ExportError.invalidPageSize(options.pageSize)
        }
        self.options = options
        self.progress = progress
        templates = try TemplateSet(customDirectory: options.templatesDirectory)
        var key = StableHash()
        key.update(Self.outputRevision)
        key.update(Markdown.cmarkVersion)
        key.update(value: templates.contentHash)
        key.update(value: Self.bundledAssetsHash)
        key.update(value: options.pageSize)
        key.update(value: options.markdown.unsafeHTML)
        key.update(value: options.markdown.smartPunctuation)
        key.update(value: options.markdown.maximumSize)
        key.update(value: options.search)
        key.update(options.language)
        key.update(options.title)
        for setting in settings { key.update(setting) }
        settingsKey = key.value
        writer = try SiteWriter(
            output: output, durable: options.durable, waitForOtherExport: options.waitForOtherExport,
            trashRemovedLater: options.trashRemovedLater, shouldStop: options.shouldStop)
        do {
            scratch = try ScratchFile(in: writer.temporary)
        } catch {
            writer.abandon()
            throw error
        }
        manifest = ManifestBuilder(scratch: scratch)
        manifest.settings = settingsKey
        workers = RenderWorkers(
            jobs: options.jobs, options: options, templates: templates, writer: writer, scratch: scratch)
        searchLane = SearchLane(threaded: options.search && options.jobs > 1)
        assets = AssetStore(baseDirectory: options.baseDirectory)
    }

    /// Stops the workers and removes the unfinished site (after an error).
    func abandon() {
        searchLane.stop()
        workers.stop()
        writer.abandon()
    }

    /// Writes a site-wide file (not of a table's pages), kept unread when unchanged.
    func writeSiteFile(_ path: String, _ contents: [UInt8]) throws {
        let entry = try writer.write(path, contents, previous: writer.previous?.siteFiles[path])
        manifest.addSiteFile(entry)
    }

    /// Forgets the site-wide files under `folder` (relative, ending in "/") of a table read again,
    /// and removes them from the new site.
    func removeSiteFiles(under folder: String) throws {
        manifest.removeSiteFiles(under: folder)
        try writer.removeFolder(String(folder.dropLast()))
    }

    /// The site path (or remote URL) of an image of table `table`, relative to `folder` (the
    /// table's document's folder), copying the file on first use.
    func resolveImage(_ source: String, row: String, table: Int, folder: URL?) throws -> String? {
        assets.baseDirectory = folder
        assets.table = table
        return try assets.resolve(source, row: row) { name, bytes in try self.writeSiteFile(name, bytes) }
    }

    /// Counts the files and bytes of a finished table's search index.
    func searchWritten(files: Int, bytes: Int) {
        searchFiles += files
        searchBytes += bytes
    }

    /// Counts the pages and rows of a finished table.
    func tableFinished(pages: Int, rows: Int) {
        self.pages += pages
        self.rows += rows
    }

    /// Counts a page written outside tables (the site's index page).
    func sitePageWritten() {
        pages += 1
    }

    /// Finishes the site: manifest, swap. `inputs` are the files it was made from.
    func commit(inputs: [ManifestSource]) throws -> ExportSummary {
        searchLane.stop()
        workers.stop()
        manifest.inputs = inputs
        manifest.images = assets.sources
        manifest.pages = pages
        manifest.rows = rows
        manifest.bytes = writer.bytes
        manifest.files = writer.filesWritten + writer.filesUnchanged
        try writer.commit(manifest: manifest)
        return ExportSummary(
            pages: pages, rows: rows, bytes: writer.bytes, filesWritten: writer.filesWritten,
            filesUnchanged: writer.filesUnchanged, removedFiles: writer.removedFiles,
            seconds: Date().timeIntervalSince(start),
            searchFiles: searchFiles, searchBytes: searchBytes)
    }

    /// Keeps the previous site, which the inputs, images and settings say is the new one.
    func keepPreviousSite(_ previous: ManifestReader) -> ExportSummary {
        searchLane.stop()
        workers.stop()
        writer.keepPreviousSite()
        return ExportSummary(
            pages: previous.pages, rows: previous.rows, bytes: previous.bytes, filesWritten: 0,
            filesUnchanged: previous.files, seconds: Date().timeIntervalSince(start))
    }

    /// The images the previous site was made from (`<table>/<path>`, the path relative to the
    /// table's folder in `folders`), unchanged: read as the export reads them (inside the folder,
    /// never through a symbolic link that leads out of it, images by their first bytes), so an
    /// image the export would now refuse is never taken for unchanged; of the same size and content.
    func imagesUnchanged(_ images: [ManifestSource], folders: [URL]) -> Bool {
        var opened: [Int: ImageFile.Folder] = [:]
        return images.allSatisfy { image in
            guard let slash = image.path.firstIndex(of: "/"), let table = Int(image.path[..<slash]),
                folders.indices.contains(table),
                let folder = opened[table] ?? (try? ImageFile.Folder(path: folders[table].path))
            else { return false }
            opened[table] = folder
            guard let file = try? ImageFile.read(String(image.path[image.path.index(after: slash)...]), in: folder),
                file.bytes.count == image.size
            else { return false }
            return file.bytes.withUnsafeBytes { StableHash($0).value } == image.hash
        }
    }
}
