import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Synchronization

/// Listing files served live: what `rowkit serve` runs.
///
/// It exports the listings to the site's folder as `rowkit export` does (`SiteExporter`, same
/// options, same bytes), then watches every listing, the images its rows name and the templates
/// folder. On each change it reads the listings again (block-style YAML and ordered CSV only where
/// their bytes changed: `ListingLayout`), diffs each table's old outline against the new one with
/// RowKit's `TableDiff` (identity from `id`, changed content as reloads, moves found), sends the
/// changeset to the open pages of that table (before the export when the listing gives every
/// record it needs) and exports the bytes it read (only changed pages are rendered). A listing
/// with problems changes nothing: the last good site stays served and its pages show the problems
/// until the file is fixed.
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
        /// The outlines of the last good read, their snapshots, and what it leaves for the next.
        var outlines: [TableOutline]?
        var snapshots: [TableSnapshot<String, RowDigest>] = []
        var reads: [LastRead]?
        var folders: [String] = []
        var images: [String] = []
        /// The number of good reads that changed something; the one whose export is on disk.
        var version = 0
        var diskVersion = 0
        /// Whether an export is under way (it replaces the site's files).
        var exporting = false
        /// The newest read whose export has not started.
        var job: Job?
        /// Tables whose pages wait for an export to learn of a change: the outline they have and
        /// the version of the read it is from.
        var behind: [Int: (outline: TableOutline, version: Int)] = [:]
        /// Tables that reload once the export of `version` (or a later one) is on disk, and why
        /// (all of them: key -1).
        var reloads: [Int: (reason: String, version: Int)] = [:]
        /// Changes sent before their export, by table: the read's version and the revision.
        var early: [Int: [(version: Int, change: TableChange, revision: Int)]] = [:]
    }

    /// A read to export: the listings' bytes, and what they read as.
    private struct Job: Sendable {
        var inputs: [ListingExport]
        var version: Int
        var outlines: [TableOutline]
        var folders: [String]
        var started: ContinuousClock.Instant
    }

    /// What the loop of ``run(report:)`` hears of: a change of the watched files, or an export's
    /// end.
    private enum Message: Sendable {
        case changed(Set<String>)
        case exported(Job, Result<ExportSummary, any Error>)
    }

    /// Listings exported to `site`'s folder with `options`.
    public init(site: LiveSite, listings: [ListingExport], options: ExportOptions) {
        self.site = site
        self.listings = listings
        self.options = options
    }

    /// Exports the listings, then follows their changes until the task is cancelled.
    ///
    /// A change goes to the open pages as soon as it is read and diffed when the listing alone
    /// can draw it (`EarlyRecords`), also while the export of an earlier change is under way;
    /// exports follow one at a time, each of the newest read, and each is announced (`exported`)
    /// once on disk. A change that needs its export goes out with it.
    ///
    /// - Parameter report: told about every export and every problem, in order.
    public func run(report: @escaping @Sendable (Report) -> Void) async {
        await change(report: report, cause: [])
        if let job = takeJob() {
            await finish(job, await Self.export(job, options: options, site: site), report: report)
        }
        let watcher = FileWatcher()
        defer { watcher.stop() }
        watcher.watch(watchedPaths())
        let (messages, continuation) = AsyncStream<Message>.makeStream()
        let forwarding = Task {
            for await changed in watcher.changes { continuation.yield(.changed(changed)) }
            continuation.finish()
        }
        var exporting: Task<Void, Never>?
        for await message in messages {
            if Task.isCancelled { break }
            switch message {
            case .changed(let changed):
                await change(report: report, cause: changed)
                watcher.watch(watchedPaths())
            case .exported(let job, let result):
                await finish(job, result, report: report)
                exporting = nil
            }
            if exporting == nil, let job = takeJob() {
                let options = self.options
                let site = self.site
                exporting = Task.detached {
                    continuation.yield(.exported(job, await Self.export(job, options: options, site: site)))
                }
            }
        }
        forwarding.cancel()
        await exporting?.value
    }

    /// Every file whose change means a new export: the listings, their images, the templates.
    func watchedPaths() -> [String] {
        var paths = listings.map { $0.reader.path }
        paths += state.withLock { $0.images }
        if let templates = options.templatesDirectory { paths.append(templates.path + "/") }
        return paths
    }

    /// The newest read to export, if any; an export is under way from now on.
    private func takeJob() -> Job? {
        state.withLock { state in
            guard let job = state.job else { return nil }
            state.job = nil
            state.exporting = true
            return job
        }
    }

    /// Exports `job`'s bytes, as `rowkit export` does.
    private static func export(_ job: Job, options: ExportOptions, site: LiveSite) async -> Result<
        ExportSummary, any Error
    > {
        do {
            let inputs = job.inputs
            return .success(
                try await LiveSite.offActor { try SiteExporter(options).export(listings: inputs, to: site.folder) })
        } catch {
            return .failure(error)
        }
    }

    /// Reads the listings after a change (`cause`: the paths that changed; empty at start) and
    /// sends each table's change that can go before its export; the read waits for its export.
    func change(report: @escaping @Sendable (Report) -> Void, cause: Set<String>) async {
        let started = ContinuousClock.now
        let listings = self.listings
        let options = self.options
        let (previous, previousFolders, previousSnapshots, last) = state.withLock {
            ($0.outlines, $0.folders, $0.snapshots, $0.reads)
        }
        // 1. Read every listing's outline; any problem stops here.
        let before = listings.map { FileWatcher.signature($0.reader.path) }
        let read = await Task.detached { Self.readOutlines(listings, last: last) }.value
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
        let snapshots = read.outlines.map { $0.snapshot() }
        let (waiting, siteUsable) = state.withLock { state in
            (
                Set(state.behind.keys).union(state.reloads.keys),
                !state.exporting && state.diskVersion == state.version
            )
        }
        // 2. The changes that can go out now; the others wait for the export (and so do the
        // table's changes after them).
        var early: [Int: (change: TableChange, revision: Int)] = [:]
        var later: [Int: TableOutline] = [:]
        var reloads: [Int: String] = [:]
        if let old = previous {
            if old.count != read.outlines.count || previousFolders != folders {
                reloads[-1] = "title"
            } else if templatesChanged || imagesChanged {
                reloads[-1] = templatesChanged ? "templates" : "images"
            } else if !waiting.contains(-1) {
                for (index, outline) in read.outlines.enumerated() where !waiting.contains(index) {
                    switch earlyChange(
                        old[index], outline, previousSnapshots[index], snapshots[index], read.changedRows[index],
                        folder: folders[index], siteUsable: siteUsable)
                    {
                    case .none:
                        continue
                    case .later:
                        later[index] = old[index]
                    case .early(let change):
                        let revision = await site.siteExported(
                            table: change.table, events: [change.changesetEvent(anchors: [])], onDisk: false)
                        early[index] = (change, revision)
                    }
                }
            }
        }
        state.withLock { state in
            let version = state.version
            state.version += 1
            for (index, sent) in early {
                state.early[index, default: []].append((state.version, sent.change, sent.revision))
            }
            for (index, outline) in later where state.behind[index] == nil {
                state.behind[index] = (outline, version)
            }
            for (index, reason) in reloads where state.reloads[index] == nil {
                state.reloads[index] = (reason, state.version)
            }
            state.outlines = read.outlines
            state.snapshots = snapshots
            for taken in read.reads { taken.commit() }
            state.reads = read.reads
            state.folders = folders
            state.images = read.images
            state.job = Job(
                inputs: read.inputs, version: state.version, outlines: read.outlines, folders: folders,
                started: state.job?.started ?? started)
        }
    }

    /// The export of `job` ended with `result`: its changes go to the pages (`exported` after the
    /// changes sent early, the changes that waited for it, reloads), or, when it failed, the pages
    /// that took a change early reload (once now, and once the next export is on disk).
    ///
    /// It runs between reads (the loop of ``run(report:)``), so the revisions it sends follow the
    /// ones sent early in order.
    private func finish(
        _ job: Job, _ result: Result<ExportSummary, any Error>, report: @escaping @Sendable (Report) -> Void
    ) async {
        let version = job.version
        let (early, behind, reloads, newer) = state.withLock { state in
            state.exporting = false
            return (state.early, state.behind, state.reloads, state.version > version)
        }
        let summary: ExportSummary
        switch result {
        case .success(let done):
            summary = done
        case .failure(let error):
            // Pages that took a change early go back to the site as it is, and again to the next
            // export.
            let failed = early.filter { $0.value.contains { $0.version <= version } }.keys
            state.withLock { state in
                for index in failed {
                    state.early[index] = nil
                    state.reloads[index] = ("export", state.version)
                }
            }
            for index in failed where index < job.folders.count {
                let key = Self.key(job.folders[index])
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
        state.withLock { $0.diskVersion = version }
        let reloadAll = reloads[-1].flatMap { $0.version <= version ? $0.reason : nil }
        var changed: [String] = []
        for (index, outline) in job.outlines.enumerated() {
            let key = Self.key(job.folders[index])
            let sent = (early[index] ?? []).filter { $0.version <= version }
            let pending = (early[index] ?? []).count > sent.count
            // Whether the pages now learn of this version: they then have `outline`.
            var caughtUp = false
            if let reason = reloadAll ?? reloads[index].flatMap({ $0.version <= version ? $0.reason : nil }) {
                await site.siteExported(table: key, events: [LiveSite.reload(key, reason)])
                changed.append(outline.title)
                caughtUp = true
            } else if let from = behind[index], from.version < version {
                // The pages have `from`: the change to the site's version, with its records.
                let events: [PendingEvent]
                if let changeset = try? TableDiff.changeset(
                    from: from.outline.snapshot(), to: outline.snapshot(), options: Self.diffOptions)
                {
                    events = await site.changeEvent(
                        table: key, changeset, from: from.outline, to: outline,
                        pages: LiveSite.listPages(rows: outline.rowCount, pageSize: options.pageSize),
                        tableFolder: site.folder.appendingPathComponent(job.folders[index], isDirectory: true),
                        search: options.search, removedFiles: summary.removedFiles)
                } else {
                    events = [LiveSite.reload(key, "diff")]
                }
                if !events.isEmpty { changed.append(outline.title) }
                await site.siteExported(table: key, events: events)
                caughtUp = true
            } else if let last = sent.last {
                // The pages have had this version since its changes went out: it is on disk now.
                var exported = last.change
                let records = sent.flatMap { entry in
                    entry.change.payload.reloadedRows.compactMap { entry.change.records[$0] }
                }
                exported.payload.reloadedRows = Array(records.indices)
                exported.records = Dictionary(uniqueKeysWithValues: records.enumerated().map { ($0, $1) })
                await site.exportFinished(
                    table: key, revision: last.revision,
                    event: exported.exportedEvent(removedFiles: summary.removedFiles))
                changed.append(outline.title)
            } else if !pending && behind[index] == nil {
                await site.siteExported(table: key, events: [])
            }
            state.withLock { state in
                state.early[index] = state.early[index]?.filter { $0.version > version }
                if caughtUp {
                    state.reloads[index] = nil
                    state.behind[index] = newer ? (outline, version) : nil
                }
            }
        }
        if reloadAll != nil { state.withLock { $0.reloads[-1] = nil } }
        if listings.count > 1 { await site.siteExported(table: "", events: []) }
        let elapsed = ContinuousClock.now - job.started
        report(
            .exported(
                rows: summary.rows, changedTables: changed,
                seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                warnings: summary.warnings))
    }

    /// What a table's change needs: nothing (no page shows it), its export, or nothing more.
    private enum EarlyChange {
        case none
        case later
        case early(TableChange)
    }

    /// The change from `old` to `new` with every record it needs made from the listing (and, when
    /// `siteUsable`, from the site on disk, the export of `old`), or what else it needs.
    private func earlyChange(
        _ old: TableOutline, _ new: TableOutline, _ oldSnapshot: TableSnapshot<String, RowDigest>,
        _ newSnapshot: TableSnapshot<String, RowDigest>, _ changedRows: [String: (row: ListingRow, slug: String?)],
        folder: String, siteUsable: Bool
    ) -> EarlyChange {
        if old == new { return .none }
        guard old.title == new.title, old.style == new.style, options.search,
            let changeset = try? TableDiff.changeset(from: oldSnapshot, to: newSnapshot, options: Self.diffOptions),
            !changeset.reloadsEverything, let payload = ChangePayload(changeset, from: old, to: new)
        else { return .later }
        if payload.isEmpty { return .none }
        if payload.needsTooManyRecords { return .later }
        var records = EarlyRecords(
            pageSize: options.pageSize, markdown: options.markdown, changedRows: changedRows, old: old, new: new,
            oldSite: siteUsable ? site.folder.appendingPathComponent(folder, isDirectory: true) : nil)
        guard let texts = records.records(for: payload) else { return .later }
        return .early(
            TableChange(
                table: Self.key(folder), payload: payload, outline: new,
                pages: LiveSite.listPages(rows: new.rowCount, pageSize: options.pageSize), records: texts))
    }

    /// How a save's diff is made: a page applies even large deletes and moves in place (the
    /// row-offset tree takes them in O(log n) each), so only more than 100,000 changed rows make
    /// it reload; what limits a change sent in place is the records it carries
    /// (``ChangePayload/recordLimit``).
    static let diffOptions = DiffOptions(reloadThreshold: .changedRows(100_000))

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

    /// What a read of one listing leaves for the next one.
    struct LastRead: Sendable {
        var outline: TableOutline
        /// Where its rows lie in its bytes (YAML in block style, CSV in file order).
        var layout: ListingLayout?
        var digests: RowDigestIndex
        /// The image paths its rows name, as the watcher takes them.
        var images: [String]
        /// How `digests` changes once this read is taken (a splice's).
        var pending: ListingSplice?

        /// Brings `digests` to this read's outline.
        func commit() {
            if let pending { digests.update(removing: pending.removedIDs, adding: pending.addedDigests) }
        }
    }

    /// Every listing's outline and the image files its rows name (paths as the watcher takes
    /// them), or the problems of all of them.
    ///
    /// The listings come back as `inputs`, each with the bytes read (``ListingReader/data``), for
    /// the export of the same version. With `last` (what the read before left, one per listing),
    /// a listing whose save changed only some rows is read only there
    /// (``ListingLayout/splice(_:into:digests:reader:)``; `spliced` says which were), and the
    /// rows new or changed since then are `changedRows`; `previous` gives those digests without.
    static func readOutlines(
        _ listings: [ListingExport], previous: [[String: UInt64]]? = nil, last: [LastRead]? = nil
    ) -> (
        outlines: [TableOutline], images: [String], problems: [ListingDiagnostic],
        changedRows: [[String: (row: ListingRow, slug: String?)]], inputs: [ListingExport], reads: [LastRead],
        spliced: [Bool]
    ) {
        var inputs: [ListingExport] = []
        var outlines: [TableOutline] = []
        var changedRows: [[String: (row: ListingRow, slug: String?)]] = []
        var images: [String] = []
        var problems: [ListingDiagnostic] = []
        var reads: [LastRead] = []
        var spliced: [Bool] = []
        let last = last?.count == listings.count ? last : nil
        for (index, given) in listings.enumerated() {
            var listing = given
            // A file that cannot be read is left to the reader, which says why.
            if listing.reader.data == nil, let data = FileManager.default.contents(atPath: listing.reader.path) {
                listing.reader.data = data
            }
            inputs.append(listing)
            if let before = last?[index], let layout = before.layout, let bytes = listing.reader.data {
                let reader = listing.reader
                if let splice = before.digests.read({ digests in
                    layout.splice(bytes, into: before.outline, digests: digests, reader: reader)
                }) {
                    outlines.append(splice.outline)
                    changedRows.append(splice.changedRows)
                    images += before.images
                    reads.append(
                        LastRead(
                            outline: splice.outline, layout: splice.layout, digests: before.digests,
                            images: before.images, pending: splice))
                    spliced.append(true)
                    continue
                }
            }
            var visitor = OutlineVisitor()
            if let last {
                visitor.previousDigests = last[index].digests.current
            } else if let previous, previous.count == listings.count {
                visitor.previousDigests = previous[index]
            }
            var valid = false
            do {
                let summary = try listing.reader.read(into: &visitor)
                problems += summary.diagnostics
                valid = summary.isValid && summary.diagnostics.isEmpty
            } catch let error as ListingError {
                problems += error.diagnostics
            } catch {
                problems.append(
                    ListingDiagnostic(
                        location: SourceLocation(file: listing.reader.path, line: 1, column: 1),
                        message: "cannot read: \(error)"))
            }
            visitor.finish()
            let layout =
                valid
                ? listing.reader.data.flatMap {
                    ListingLayout(bytes: $0, format: listing.reader.format, path: listing.reader.path, visitor: visitor)
                } : nil
            if let title = listing.title { visitor.outline.title = title }
            if let style = listing.style { visitor.outline.style = style.rawValue }
            let folder = (listing.reader.path as NSString).deletingLastPathComponent
            var named: [String] = []
            for image in visitor.images where !image.contains(":") {
                named.append(folder.isEmpty ? image : folder + "/" + image)
            }
            images += named
            outlines.append(visitor.outline)
            changedRows.append(visitor.changedRows)
            reads.append(
                LastRead(
                    outline: visitor.outline, layout: layout, digests: RowDigestIndex(visitor.outline), images: named))
            spliced.append(false)
        }
        return (outlines, images, problems, changedRows, inputs, reads, spliced)
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
