import Foundation
import RowKit
import RowKitHTML

/// A site folder served live: its open pages follow every change of its tables in place.
///
/// A `LiveSite` keeps, for each table of the site, a revision and the events that led to it, and
/// sends each new event to the pages of that table that are open (Server-Sent Events, through
/// ``LiveSiteMiddleware``). Two things feed it:
/// - a program that owns a `TableModel`: ``publish(_:changes:)`` exports the model's table and
///   pushes the changeset it came with;
/// - `rowkit serve`, through ``LiveListings``: listing files, watched and diffed on every save.
///
/// The folder is an export like any other (`SiteExporter` writes it, with its manifest and lock),
/// so it stays a static site: opened from `file://` or put on any host, it is what
/// `rowkit export` writes. Only pages served by the middleware load the live script.
///
/// ```swift
/// let site = LiveSite(folder: URL(fileURLWithPath: "site"), options: ExportOptions(title: "Processes"))
/// var model = try TableModel(processTable())
/// try await site.publish(model)                        // the first export
/// let router = Router()
/// router.add(middleware: LiveSiteMiddleware(site))
/// // every second: a new table, RowKit's diff, and the changeset goes to the open pages
/// let changes = try model.update(to: processTable())
/// try await site.publish(model, changes: changes)
/// ```
public actor LiveSite {
    /// The site's folder.
    public nonisolated let folder: URL
    /// How tables published with ``publish(_:changes:)`` are exported.
    public nonisolated let options: ExportOptions
    /// The most event streams open at once; one more is answered 503.
    public nonisolated let maximumStreams: Int

    /// The state of one table of the site, by its key (its folder, "" for a one-table site).
    struct TableState {
        var revision = 0
        /// The revision whose export is on disk (a changeset may go out before its export).
        var diskRevision = 0
        /// The last events that changed the table, oldest first, for pages that reconnect.
        var history: [LiveEvent] = []
        /// The problems event in force, if the last edit is broken.
        var problems: LiveEvent?
    }

    private struct Subscriber {
        var table: String
        var continuation: AsyncStream<String>.Continuation
    }

    private var tables: [String: TableState] = [:]
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriber = 0
    private var heartbeat: Task<Void, Never>?
    private var isStopped = false
    /// The program's table (``publish(_:changes:)``): its last table and outline.
    private var published: (table: Table, outline: TableOutline)?

    /// Events kept per table for pages that reconnect.
    static let historyLimit = 64

    /// A live site in `folder`; tables published with ``publish(_:changes:)`` are exported with
    /// `options`.
    public init(folder: URL, options: ExportOptions = ExportOptions(), maximumStreams: Int = 512) {
        self.folder = folder.standardizedFileURL
        self.options = options
        self.maximumStreams = maximumStreams
    }

    // MARK: - Programs

    /// Exports `model`'s table to the site and pushes `changes` to its open pages.
    ///
    /// Pass the changeset that the model's last `performBatch`, `update(to:)` or `apply(_:)`
    /// returned; the pages apply it in place. Without one (the first call, or after several
    /// changes), the site compares the table with the one it published last, with RowKit's
    /// diff. A change of style or title reloads the open pages once.
    ///
    /// - Throws: `ExportError` when the site cannot be written (the previous site stays served),
    ///   `SnapshotError` when the table repeats an identity.
    public func publish(_ model: TableModel, changes: Changeset? = nil) async throws {
        let table = model.table
        let outline = TableOutline(table, title: options.title)
        let options = self.options
        let folder = self.folder
        let summary = try await Self.offActor { try SiteExporter(options).export(table, to: folder) }
        _ = summary
        guard let previous = published else {
            published = (table, outline)
            siteExported(table: "", events: [])
            return
        }
        published = (table, outline)
        let changeset: Changeset
        if let changes {
            changeset = changes
        } else {
            changeset = try TableDiff.changeset(from: TableSnapshot(previous.table), to: TableSnapshot(table))
        }
        let pages = Self.listPages(rows: outline.rowCount, pageSize: options.pageSize)
        let event = changeEvent(
            table: "", changeset, from: previous.outline, to: outline, pages: pages,
            tableFolder: folder, search: options.search, removedFiles: summary.removedFiles)
        siteExported(table: "", events: event)
    }

    // MARK: - Events

    /// The events that follow one export of a table: its changeset (or a reload when the page
    /// cannot apply it in place) and `exported`, as docs/live.md describes. The records of the
    /// rows the changeset inserts or reloads are read from the new export's row files.
    func changeEvent(
        table: String, _ changeset: Changeset, from old: TableOutline, to new: TableOutline, pages: Int,
        tableFolder: URL, search: Bool, removedFiles: [String]
    ) -> [PendingEvent] {
        if old.title != new.title || old.style != new.style { return [Self.reload(table, "title")] }
        guard let payload = ChangePayload(changeset, from: old, to: new) else { return [Self.reload(table, "diff")] }
        if payload.isEmpty { return [] }
        guard search, !changeset.reloadsEverything, !payload.needsTooManyRecords else {
            return [Self.reload(table, "options")]
        }
        var records = RowRecords(folder: tableFolder)
        var texts: [Int: String] = [:]
        for row in payload.insertedRows + payload.reloadedRows {
            if let record = records.record(row) { texts[row] = String(record) }
        }
        let change = TableChange(table: table, payload: payload, outline: new, pages: pages, records: texts)
        return [
            change.changesetEvent(anchors: SectionAnchors.read(folder: tableFolder)),
            change.exportedEvent(removedFiles: removedFiles),
        ]
    }

    /// A `reload` event of `table` for `reason`.
    static func reload(_ table: String, _ reason: String) -> PendingEvent {
        PendingEvent("reload") { "{\"table\":\(JSONText.string(table)),\"revision\":\($0),\"reason\":\"\(reason)\"}" }
    }

    /// Records that `table` changed and sends `events` under its next revision (none: the
    /// revision stays when nothing changed, except for a table seen the first time). With
    /// `onDisk`, the export of that revision is on disk (pages served from now on are of it).
    @discardableResult
    func siteExported(table: String, events: [PendingEvent], onDisk: Bool = true) -> Int {
        var state = tables[table] ?? TableState()
        if state.revision == 0 { state.revision = 1 }
        if !events.isEmpty {
            state.revision += 1
            for pending in events { send(pending, revision: state.revision, table: table, state: &state) }
        }
        if onDisk { state.diskRevision = state.revision }
        tables[table] = state
        return state.revision
    }

    /// Sends `event` under revision `revision` of `table`, whose export is on disk now (the
    /// `exported` that follows a changeset sent before its export).
    func exportFinished(table: String, revision: Int, event: PendingEvent) {
        var state = tables[table] ?? TableState()
        send(event, revision: revision, table: table, state: &state)
        state.diskRevision = revision
        tables[table] = state
    }

    private func send(_ pending: PendingEvent, revision: Int, table: String, state: inout TableState) {
        let text = pending.data(revision)
        // A changeset whose records could not be read comes as a reload.
        let name = pending.name == "changeset" && text.contains("\"reason\":\"records\"") ? "reload" : pending.name
        let event = LiveEvent(name: name, revision: revision, data: text)
        state.history.append(event)
        if state.history.count > Self.historyLimit { state.history.removeFirst() }
        broadcast(event.wire, table: table)
    }

    /// Sends `problems` (as `rowkit validate` prints them, one a line) to the open pages of
    /// `table`; an empty list clears their overlay.
    func report(problems: [(file: String, line: Int, column: Int, message: String, text: String)], table: String) {
        var state = tables[table] ?? TableState()
        let items = problems.map {
            "{\"file\":\(JSONText.string($0.file)),\"line\":\($0.line),\"column\":\($0.column),"
                + "\"message\":\(JSONText.string($0.message))}"
        }
        let text = problems.map(\.text).joined(separator: "\n")
        let data =
            "{\"table\":\(JSONText.string(table)),\"revision\":\(state.revision),\"text\":\(JSONText.string(text)),"
            + "\"problems\":[\(items.joined(separator: ","))]}"
        let event = LiveEvent(name: "problems", revision: state.revision, data: data)
        if problems.isEmpty {
            guard state.problems != nil else { return }
            state.problems = nil
        } else {
            state.problems = event
        }
        tables[table] = state
        broadcast(event.wire, table: table)
    }

    /// The revision of `table` whose export is on disk, or `nil` for a table the site does not
    /// have.
    func revision(of table: String) -> Int? {
        tables[table].map { max($0.diskRevision, 1) }
    }

    /// The keys of the site's tables.
    var tableKeys: [String] { Array(tables.keys) }

    // MARK: - Streams

    /// A stream of the wire text of `table`'s events, starting with `hello`, the changes after
    /// revision `since` (or a reload when they are no longer kept) and the problems in force;
    /// `nil` when ``maximumStreams`` are open or the site has stopped.
    func subscribe(table: String, since: Int?) -> AsyncStream<String>? {
        guard !isStopped, subscribers.count < maximumStreams else { return nil }
        let state = tables[table] ?? TableState()
        let revision = max(state.revision, 1)
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let key = JSONText.string(table)
        continuation.yield(
            LiveEvent(name: "hello", revision: revision, data: "{\"table\":\(key),\"revision\":\(revision)}").wire)
        if let since, since < revision {
            let missed = state.history.filter { $0.revision > since }
            if let first = missed.first, first.revision == since + 1 {
                for event in missed { continuation.yield(event.wire) }
            } else {
                continuation.yield(
                    LiveEvent(
                        name: "reload", revision: revision,
                        data: "{\"table\":\(key),\"revision\":\(revision),\"reason\":\"behind\"}"
                    ).wire)
            }
        }
        if let problems = state.problems { continuation.yield(problems.wire) }
        let id = nextSubscriber
        nextSubscriber += 1
        subscribers[id] = Subscriber(table: table, continuation: continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        startHeartbeat()
        return stream
    }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }

    private func broadcast(_ wire: String, table: String) {
        for subscriber in subscribers.values where subscriber.table == table {
            subscriber.continuation.yield(wire)
        }
    }

    /// Every 15 seconds a comment goes to every stream, so a page that went away is noticed (its
    /// write fails) and proxies keep the connection open.
    private func startHeartbeat() {
        guard heartbeat == nil else { return }
        heartbeat = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(15))
                await self?.beat()
            }
        }
    }

    private func beat() {
        for subscriber in subscribers.values { subscriber.continuation.yield(LiveEvent.heartbeat) }
    }

    /// Ends every open event stream and refuses new ones: call it before the server shuts down
    /// gracefully, which waits for open responses to end.
    public func stop() {
        isStopped = true
        heartbeat?.cancel()
        heartbeat = nil
        for subscriber in subscribers.values { subscriber.continuation.finish() }
        subscribers = [:]
    }

    // MARK: - Helpers

    /// The list pages of a table of `rows` rows.
    static func listPages(rows: Int, pageSize: Int) -> Int {
        max(1, (rows + pageSize - 1) / max(pageSize, 1))
    }

    /// Runs `work` (an export: blocking, and on threads of its own) away from the actor.
    static func offActor<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try work() })
            }
        }
    }
}
