import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Synchronization

/// Listing files served live: what `rowkit serve` runs.
///
/// It exports the listings to the site's folder as `rowkit export` does (``SiteExporter``, same
/// options, same bytes), then watches every listing, the images its rows name and the templates
/// folder. On each change it reads the listings again, diffs each table's old outline against
/// the new one with RowKit's `TableDiff` (identity from `id`, changed content as reloads, moves
/// found), exports again (only changed pages are rendered) and sends the changeset to the open
/// pages of that table. A listing with problems changes nothing: the last good site stays served
/// and its pages show the problems until the file is fixed.
public final class LiveListings: Sendable {
    /// What happened after a change, for the terminal.
    public enum Report: Sendable {
        /// The site was exported: the tables that changed (their titles) and the seconds it took
        /// from the change being noticed.
        case exported(rows: Int, changedTables: [String], seconds: Double, warnings: [ListingDiagnostic])
        /// The listings have problems; the site is as it was. `text` is what `rowkit validate` prints.
        case problems(text: String)
        /// The export failed (the output folder); the site is as it was.
        case failed(message: String)
    }

    /// The site served.
    public let site: LiveSite
    /// The listings, as `rowkit export` takes them.
    public let listings: [ListingExport]
    /// How they are exported.
    public let options: ExportOptions
    private let state = Mutex(State())

    private struct State {
        var outlines: [TableOutline]?
        var folders: [String] = []
        var images: [String] = []
    }

    /// Listings exported to `site`'s folder with `options`.
    public init(site: LiveSite, listings: [ListingExport], options: ExportOptions) {
        self.site = site
        self.listings = listings
        self.options = options
    }

    /// Exports the listings, then follows their changes until the task is cancelled.
    ///
    /// - Parameter report: told about every export and every problem, in order.
    public func run(report: @escaping @Sendable (Report) -> Void) async {
        await rebuild(report: report, cause: [])
        let watcher = FileWatcher()
        defer { watcher.stop() }
        watcher.watch(watchedPaths())
        for await changed in watcher.changes {
            if Task.isCancelled { break }
            await rebuild(report: report, cause: changed)
            watcher.watch(watchedPaths())
        }
    }

    /// Every file whose change means a new export: the listings, their images, the templates.
    func watchedPaths() -> [String] {
        var paths = listings.map { $0.reader.path }
        paths += state.withLock { $0.images }
        if let templates = options.templatesDirectory { paths.append(templates.path + "/") }
        return paths
    }

    /// Reads, exports and sends the changes; `cause` are the paths that changed (empty at start).
    func rebuild(report: @escaping @Sendable (Report) -> Void, cause: Set<String>) async {
        let started = ContinuousClock.now
        let listings = self.listings
        let options = self.options
        // 1. Read every listing's outline; any problem stops here.
        let read = await Task.detached { Self.readOutlines(listings) }.value
        if !read.problems.isEmpty {
            let text = read.problems.map(\.description).joined(separator: "\n")
            let problems = read.problems.map {
                (
                    file: $0.location.file, line: $0.location.line, column: $0.location.column, message: $0.message,
                    text: $0.description
                )
            }
            for key in await site.tableKeys { await site.report(problems: problems, table: key) }
            report(.problems(text: text))
            return
        }
        // 2. Export, as `rowkit export` does.
        let summary: ExportSummary
        do {
            summary = try await LiveSite.offActor {
                try SiteExporter(options).export(listings: listings, to: self.site.folder)
            }
        } catch let error as ListingExportError {
            let problems = Self.problems(of: error)
            for key in await site.tableKeys { await site.report(problems: problems, table: key) }
            report(.problems(text: error.description))
            return
        } catch {
            report(.failed(message: "\(error)"))
            return
        }
        // 3. The changes, table by table.
        let folders = Self.folders(listings, outlines: read.outlines)
        let previous = state.withLock { state -> (outlines: [TableOutline]?, folders: [String]) in
            let old = (state.outlines, state.folders)
            state.outlines = read.outlines
            state.folders = folders
            state.images = read.images
            return old
        }
        for key in await site.tableKeys { await site.report(problems: [], table: key) }
        var changed: [String] = []
        let templatesChanged = cause.contains { path in
            options.templatesDirectory.map { path.hasPrefix($0.path) } ?? false
        }
        let imagesChanged = !cause.isDisjoint(with: Set(read.images))
        for (index, outline) in read.outlines.enumerated() {
            let key = String(folders[index].dropSuffix("/"))
            let tableFolder = site.folder.appendingPathComponent(folders[index], isDirectory: true)
            guard let old = previous.outlines, old.count == read.outlines.count, previous.folders == folders else {
                let reason = previous.outlines == nil ? nil : "title"
                await site.siteExported(table: key, events: Self.reload(key, reason))
                if reason != nil { changed.append(outline.title) }
                continue
            }
            if templatesChanged || imagesChanged {
                await site.siteExported(table: key, events: Self.reload(key, templatesChanged ? "templates" : "images"))
                changed.append(outline.title)
                continue
            }
            let events: [PendingEvent]
            do {
                let changeset = try TableDiff.changeset(from: old[index].snapshot(), to: outline.snapshot())
                events = await site.changeEvent(
                    table: key, changeset, from: old[index], to: outline,
                    pages: LiveSite.listPages(rows: outline.rowCount, pageSize: options.pageSize),
                    tableFolder: tableFolder, search: options.search, removedFiles: summary.removedFiles)
            } catch {
                events = Self.reload(key, "diff")
            }
            if !events.isEmpty { changed.append(outline.title) }
            await site.siteExported(table: key, events: events)
        }
        if listings.count > 1 { await site.siteExported(table: "", events: []) }
        let elapsed = ContinuousClock.now - started
        report(
            .exported(
                rows: summary.rows, changedTables: changed,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                warnings: summary.warnings))
    }

    private static func reload(_ key: String, _ reason: String?) -> [PendingEvent] {
        guard let reason else { return [] }
        return [
            PendingEvent(
                "reload", { "{\"table\":\(JSONText.string(key)),\"revision\":\($0),\"reason\":\"\(reason)\"}" })
        ]
    }

    /// The problems of a failed export, as the pages show them.
    private static func problems(of error: ListingExportError) -> [(
        file: String, line: Int, column: Int, message: String, text: String
    )] {
        switch error {
        case .invalidListings(let diagnostics):
            return diagnostics.map {
                ($0.location.file, $0.location.line, $0.location.column, $0.message, $0.description)
            }
        case .image(let location, let exportError):
            return [(location.file, location.line, location.column, "\(exportError)", error.description)]
        }
    }

    /// Every listing's outline and the image files its rows name (paths as the watcher takes
    /// them), or the problems of all of them.
    static func readOutlines(_ listings: [ListingExport]) -> (
        outlines: [TableOutline], images: [String], problems: [ListingDiagnostic]
    ) {
        var outlines: [TableOutline] = []
        var images: [String] = []
        var problems: [ListingDiagnostic] = []
        for listing in listings {
            var visitor = OutlineVisitor()
            do {
                let summary = try listing.reader.read(into: &visitor)
                problems += summary.diagnostics
            } catch let error as ListingError {
                problems += error.diagnostics
            } catch {
                problems.append(
                    ListingDiagnostic(
                        location: SourceLocation(file: listing.reader.path, line: 1, column: 1),
                        message: "cannot read: \(error)"))
            }
            visitor.finish()
            if let title = listing.title { visitor.outline.title = title }
            if let style = listing.style { visitor.outline.style = style.rawValue }
            let folder = (listing.reader.path as NSString).deletingLastPathComponent
            for image in visitor.images where !image.contains(":") {
                images.append(folder.isEmpty ? image : folder + "/" + image)
            }
            outlines.append(visitor.outline)
        }
        return (outlines, images, problems)
    }

    /// Each table's folder in the site (`/`-terminated; empty for a one-table site), as the
    /// exporter names them.
    static func folders(_ listings: [ListingExport], outlines: [TableOutline]) -> [String] {
        guard listings.count > 1 else { return [""] }
        let names = SiteExporter.uniqueNames(outlines.map(\.title))
        var slugs = SlugAllocator(reserved: ["assets", "rows", "index"])
        return names.map { slugs.allocate(for: $0) + "/" }
    }
}

extension String {
    fileprivate func dropSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self[...]
    }
}
