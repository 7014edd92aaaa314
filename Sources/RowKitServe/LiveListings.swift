import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Synchronization

/// Listing files served live: what `rowkit serve` runs.
///
/// It exports the listings to the site's folder as `rowkit export` does (`SiteExporter`, same
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
        /// The outlines' snapshots and rows' digests by identity, made once per read.
        var snapshots: [TableSnapshot<String, RowDigest>] = []
        var digests: [[String: UInt64]]?
        /// Whether the site on disk is the export of the outlines kept (false after a save during
        /// an export): only then can a change's records come from it before the next export.
        var siteMatchesOutlines = true
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
    ///
    /// A table whose change can be drawn from the listing alone (``EarlyRecords``) gets its
    /// changeset as soon as the diff is known, and `exported` once the export is on disk; any
    /// other gets both after the export.
    func rebuild(report: @escaping @Sendable (Report) -> Void, cause: Set<String>) async {
        let started = ContinuousClock.now
        let listings = self.listings
        let options = self.options
        let previous = state.withLock { ($0.outlines, $0.folders) }
        // 1. Read every listing's outline; any problem stops here.
        let (previousSnapshots, previousDigests, siteMatches) = state.withLock {
            ($0.snapshots, $0.digests, $0.siteMatchesOutlines)
        }
        let before = listings.map { FileWatcher.signature($0.reader.path) }
        let read = await Task.detached { Self.readOutlines(listings, previous: previousDigests) }.value
        // A listing still being written (an editor saving a large file in place) reads as broken,
        // or as a shorter listing when it stops at a row's end: when one changed during the read,
        // its next change (the write's end) brings the real one.
        if listings.map({ FileWatcher.signature($0.reader.path) }) != before { return }
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
        for key in await site.tableKeys { await site.report(problems: [], table: key) }
        let folders = Self.folders(listings, outlines: read.outlines)
        let templatesChanged = cause.contains { path in
            options.templatesDirectory.map { path.hasPrefix($0.path) } ?? false
        }
        let imagesChanged = !cause.isDisjoint(with: Set(read.images))
        let comparable = previous.0.map { $0.count == read.outlines.count && previous.1 == folders } ?? false
        // 2. The changes that can go out now.
        let snapshots = read.outlines.map { $0.snapshot() }
        var early: [Int: (change: TableChange, revision: Int)] = [:]
        if comparable, siteMatches, options.search, !templatesChanged, !imagesChanged, let old = previous.0,
            previousSnapshots.count == snapshots.count
        {
            for (index, outline) in read.outlines.enumerated() {
                guard
                    let change = earlyChange(
                        old[index], outline, previousSnapshots[index], snapshots[index], read.changedRows[index],
                        folder: folders[index])
                else { continue }
                let revision = await site.siteExported(
                    table: change.table, events: [change.changesetEvent(anchors: [])], onDisk: false)
                early[index] = (change, revision)
            }
        }
        // 3. Export, as `rowkit export` does.
        let summary: ExportSummary
        do {
            summary = try await LiveSite.offActor {
                try SiteExporter(options).export(listings: listings, to: self.site.folder)
            }
        } catch {
            // Pages that took a change early go back to the site as it is.
            for index in early.keys {
                let key = Self.key(folders[index])
                await site.siteExported(table: key, events: [LiveSite.reload(key, "export")])
            }
            if let error = error as? ListingExportError {
                let problems = Self.problems(of: error)
                for key in await site.tableKeys { await site.report(problems: problems, table: key) }
                report(.problems(text: error.description))
            } else {
                report(.failed(message: "\(error)"))
            }
            return
        }
        let digests = read.outlines.map(\.digestsByID)
        // The export read the listings again, and a save during it means the site may be a
        // version newer than the changes sent. The outlines kept are the ones the pages have, so
        // the next change (the watcher has it) brings them to the newest version, and its export
        // to the site.
        let exportMatches = listings.map { FileWatcher.signature($0.reader.path) } == before
        state.withLock { state in
            state.siteMatchesOutlines = exportMatches
            state.outlines = read.outlines
            state.snapshots = snapshots
            state.digests = digests
            state.folders = folders
            state.images = read.images
        }
        // 4. The rest of the changes, and `exported`.
        var changed: [String] = []
        for (index, outline) in read.outlines.enumerated() {
            let key = Self.key(folders[index])
            if let (change, revision) = early[index] {
                await site.exportFinished(
                    table: key, revision: revision, event: change.exportedEvent(removedFiles: summary.removedFiles))
                changed.append(outline.title)
                continue
            }
            let events: [PendingEvent]
            if !comparable || previous.0 == nil {
                events = previous.0 == nil ? [] : [LiveSite.reload(key, "title")]
            } else if templatesChanged || imagesChanged {
                events = [LiveSite.reload(key, templatesChanged ? "templates" : "images")]
            } else if let old = previous.0,
                let changeset = try? TableDiff.changeset(from: old[index].snapshot(), to: snapshots[index])
            {
                events = await site.changeEvent(
                    table: key, changeset, from: old[index], to: outline,
                    pages: LiveSite.listPages(rows: outline.rowCount, pageSize: options.pageSize),
                    tableFolder: site.folder.appendingPathComponent(folders[index], isDirectory: true),
                    search: options.search, removedFiles: summary.removedFiles)
            } else {
                events = [LiveSite.reload(key, "diff")]
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

    /// The change from `old` to `new` with every record it needs made from the listing, or `nil`
    /// when it must wait for the export (or changes nothing a page shows).
    private func earlyChange(
        _ old: TableOutline, _ new: TableOutline, _ oldSnapshot: TableSnapshot<String, RowDigest>,
        _ newSnapshot: TableSnapshot<String, RowDigest>, _ changedRows: [String: (row: ListingRow, slug: String?)],
        folder: String
    ) -> TableChange? {
        guard old.title == new.title, old.style == new.style,
            let changeset = try? TableDiff.changeset(from: oldSnapshot, to: newSnapshot),
            !changeset.reloadsEverything, let payload = ChangePayload(changeset, from: old, to: new), !payload.isEmpty
        else { return nil }
        var records = EarlyRecords(
            pageSize: options.pageSize, markdown: options.markdown, changedRows: changedRows, old: old, new: new,
            oldSite: site.folder.appendingPathComponent(folder, isDirectory: true))
        guard let texts = records.records(for: payload) else { return nil }
        return TableChange(
            table: Self.key(folder), payload: payload, outline: new,
            pages: LiveSite.listPages(rows: new.rowCount, pageSize: options.pageSize), records: texts)
    }

    /// A table's key: its folder without the `/`.
    private static func key(_ folder: String) -> String { String(folder.dropSuffix("/")) }

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
    static func readOutlines(_ listings: [ListingExport], previous: [[String: UInt64]]? = nil) -> (
        outlines: [TableOutline], images: [String], problems: [ListingDiagnostic],
        changedRows: [[String: (row: ListingRow, slug: String?)]]
    ) {
        var outlines: [TableOutline] = []
        var changedRows: [[String: (row: ListingRow, slug: String?)]] = []
        var images: [String] = []
        var problems: [ListingDiagnostic] = []
        for (index, listing) in listings.enumerated() {
            var visitor = OutlineVisitor()
            if let previous, previous.count == listings.count { visitor.previousDigests = previous[index] }
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
            changedRows.append(visitor.changedRows)
        }
        return (outlines, images, problems, changedRows)
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
