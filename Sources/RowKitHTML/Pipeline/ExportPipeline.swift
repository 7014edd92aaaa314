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
    let options: ExportOptions
    let templates: TemplateSet
    let writer: SiteWriter
    let manifest: ManifestBuilder
    let scratch: ScratchFile
    let workers: RenderWorkers
    /// The key of the options, templates and tool.
    let settingsKey: UInt64
    private var assets: AssetStore
    /// The paths of the new site, when there is a previous site to count removed files against.
    private var newPaths: HashSet64?
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
        guard options.pageSize >= 1 else { throw ExportError.invalidPageSize(options.pageSize) }
        self.options = options
        self.progress = progress
        templates = try TemplateSet(customDirectory: options.templatesDirectory)
        var key = StableHash()
        key.update(SiteExporter.outputRevision)
        key.update(Markdown.cmarkVersion)
        key.update(value: templates.contentHash)
        key.update(value: options.pageSize)
        key.update(value: options.markdown.unsafeHTML)
        key.update(value: options.markdown.smartPunctuation)
        key.update(options.language)
        key.update(options.title)
        for setting in settings { key.update(setting) }
        settingsKey = key.value
        writer = try SiteWriter(output: output, durable: options.durable)
        do {
            scratch = try ScratchFile(in: writer.temporary)
        } catch {
            writer.abandon()
            throw error
        }
        manifest = ManifestBuilder(scratch: scratch)
        manifest.settings = settingsKey
        workers = RenderWorkers(jobs: options.jobs, options: options, templates: templates, writer: writer, scratch: scratch)
        assets = AssetStore(baseDirectory: options.baseDirectory)
        if writer.previous != nil { newPaths = HashSet64() }
    }

    /// Stops the workers and removes the unfinished site (after an error).
    func abandon() {
        workers.stop()
        writer.abandon()
    }

    /// Notes a file of the new site (for counting the previous site's files it no longer has).
    func noteNewPath(_ path: String) {
        newPaths?.insert(StableHash.of(path))
    }

    /// Writes a site-wide file (not of a table's pages), kept unread when unchanged.
    func writeSiteFile(_ path: String, _ contents: [UInt8]) throws {
        let entry = try writer.write(path, contents, previous: writer.previous?.siteFiles[path])
        manifest.addSiteFile(entry)
        noteNewPath(path)
    }

    /// The site path (or remote URL) of an image, copying the file on first use.
    func resolveImage(_ source: String, row: String) throws -> String? {
        try assets.resolve(source, row: row) { name, bytes in try self.writeSiteFile(name, bytes) }
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
        workers.stop()
        manifest.inputs = inputs
        manifest.images = assets.sources
        manifest.pages = pages
        manifest.rows = rows
        manifest.bytes = writer.bytes
        manifest.files = writer.filesWritten + writer.filesUnchanged
        var removed = 0
        if let newPaths {
            ManifestReader.forEachPath(site: writer.output) { path in
                if !newPaths.contains(StableHash.of(path)) { removed += 1 }
            }
        }
        try writer.commit(manifest: manifest)
        return ExportSummary(
            pages: pages, rows: rows, bytes: writer.bytes, filesWritten: writer.filesWritten,
            filesUnchanged: writer.filesUnchanged, filesRemoved: removed, seconds: Date().timeIntervalSince(start))
    }

    /// Keeps the previous site, which the inputs, images and settings say is the new one.
    func keepPreviousSite(_ previous: ManifestReader) -> ExportSummary {
        workers.stop()
        writer.keepPreviousSite()
        return ExportSummary(
            pages: previous.pages, rows: previous.rows, bytes: previous.bytes, filesWritten: 0,
            filesUnchanged: previous.files, filesRemoved: 0, seconds: Date().timeIntervalSince(start))
    }

    /// The images the previous site was made from (paths relative to the base folder), unchanged:
    /// the same size and content.
    func imagesUnchanged(_ images: [ManifestSource]) -> Bool {
        guard let base = options.baseDirectory.flatMap({ AssetStore.realPath($0.path) }) else { return images.isEmpty }
        return images.allSatisfy { image in
            let path = base + (base.hasSuffix("/") ? "" : "/") + image.path
            guard let data = FileManager.default.contents(atPath: path), data.count == image.size else { return false }
            return data.withUnsafeBytes { StableHash($0).value } == image.hash
        }
    }
}
