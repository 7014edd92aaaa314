import Foundation
import RowKitListing

/// Runs render jobs, on the calling thread (one job) or on a pool of threads (several).
///
/// Jobs wait in a bounded queue, so the reader waits while the renderers are behind and memory
/// holds a few pages at most. Outcomes are collected by unit; the first error stops the pool.
final class RenderWorkers: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [RenderJob] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private var submitted = 0
    private var finished = 0
    private var outcomes: [RenderOutcome] = []
    private var failure: (any Error)?
    private let group = DispatchGroup()
    private let threadCount: Int
    /// The renderer of the calling thread, when there are no threads.
    private var inline: PageRenderer?
    private let options: ExportOptions
    private let templates: TemplateSet
    private let writer: SiteWriter
    private let scratch: ScratchFile

    /// Workers for `jobs` jobs at a time (1: on the calling thread).
    init(jobs: Int, options: ExportOptions, templates: TemplateSet, writer: SiteWriter, scratch: ScratchFile) {
        threadCount = jobs > 1 ? jobs : 0
        capacity = max(2, jobs * 2)
        self.options = options
        self.templates = templates
        self.writer = writer
        self.scratch = scratch
        if threadCount == 0 {
            inline = PageRenderer(options: options, templates: templates)
            return
        }
        for number in 0..<threadCount {
            group.enter()
            WorkerThread.start(named: "rowkit-render-\(number)") { [self] in
                work()
                group.leave()
            }
        }
    }

    /// Queues `job` (or runs it, without threads); throws the first error of any job.
    func submit(_ job: RenderJob) throws {
        if var renderer = inline {
            defer { inline = renderer }
            let outcome = try Self.perform(job, renderer: &renderer, writer: writer, scratch: scratch)
            condition.withLock { outcomes.append(outcome) }
            return
        }
        condition.lock()
        defer { condition.unlock() }
        while queue.count - head >= capacity && failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(job)
        submitted += 1
        condition.broadcast()
    }

    /// Waits until every queued job is done; returns their outcomes (since the last call).
    func drain() throws -> [RenderOutcome] {
        condition.lock()
        defer { condition.unlock() }
        while finished < submitted && failure == nil { condition.wait() }
        if let failure { throw failure }
        let done = outcomes
        outcomes = []
        return done
    }

    /// The outcomes so far (since the last call), without waiting.
    func collect() throws -> [RenderOutcome] {
        condition.lock()
        defer { condition.unlock() }
        if let failure { throw failure }
        let done = outcomes
        outcomes = []
        return done
    }

    /// Stops the threads after the queued jobs (or at once after a failure) and waits for them.
    func stop() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
        group.wait()
    }

    private func work() {
        var renderer = PageRenderer(options: options, templates: templates)
        while true {
            condition.lock()
            while head == queue.count && !closed { condition.wait() }
            if head == queue.count || failure != nil {
                condition.unlock()
                return
            }
            let job = queue[head]
            head += 1
            if head > 64 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            condition.broadcast()
            condition.unlock()
            do {
                let outcome = try Self.perform(job, renderer: &renderer, writer: writer, scratch: scratch)
                condition.withLock {
                    outcomes.append(outcome)
                    finished += 1
                    condition.broadcast()
                }
            } catch {
                condition.withLock {
                    if failure == nil { failure = error }
                    finished += 1
                    condition.broadcast()
                }
            }
        }
    }

    /// Does one job with `renderer`.
    static func perform(
        _ job: RenderJob, renderer: inout PageRenderer, writer: SiteWriter, scratch: ScratchFile
    ) throws -> RenderOutcome {
        switch job {
        case .page(var page):
            var body: [UInt8] = []
            var lengths: [Int] = []
            var details: [ManifestEntry] = []
            var search = SearchDisplayRecords()
            // Rows are read through a buffer pointer, whose subscript lends the row: a loop over
            // the array copies each (a retain and a release per string).
            let rowKeys = page.rows.withUnsafeBufferPointer { rows in rows.indices.map { rows[$0].key } }
            let pageKey = page.key(rowKeys: rowKeys)
            for (index, rowKey) in rowKeys.enumerated() where page.details[index] != nil {
                var key = StableHash()
                key.update(value: page.table.key)
                key.update(value: rowKey)
                key.update(value: page.unit.page)
                let previousKey = page.details[index]?.previous?.key
                page.details[index]?.key = key.value
                page.details[index]?.keep = previousKey == key.value
            }
            let reuse = page.previous.flatMap { $0.key == pageKey ? $0 : nil }
            if let reuse, let reused = reusedRows(reuse, table: page.table, writer: writer) {
                for range in reuse.parts {
                    lengths.append(range.count)
                    body.append(contentsOf: reused[range])
                }
                // The rows are the same, so every detail page is too: kept, or rendered again
                // where the previous one is missing.
                var scrap: [UInt8] = []
                var scrapSearch = SearchDisplayRecords()
                for (row, detail) in zip(page.rows, page.details) where detail != nil {
                    scrap.removeAll(keepingCapacity: true)
                    if let entry = try renderer.renderRow(
                        row, page: page.unit.page, table: page.table, detail: detail, writer: writer, into: &scrap,
                        search: &scrapSearch)
                    {
                        details.append(entry)
                    }
                }
                for row in page.rows { renderer.appendSearch(row, table: page.table, to: &search) }
            } else {
                var partStart = 0
                try page.rows.withUnsafeBufferPointer { rows in
                    for index in rows.indices {
                        if index > 0, page.partStarts.contains(index) {
                            lengths.append(body.count - partStart)
                            partStart = body.count
                        }
                        if let entry = try renderer.renderRow(
                            rows[index], page: page.unit.page, table: page.table, detail: page.details[index],
                            writer: writer, into: &body, search: &search)
                        {
                            details.append(entry)
                        }
                    }
                }
                if !page.rows.isEmpty { lengths.append(body.count - partStart) }
            }
            let rowBytes = body.count
            for length in lengths { ScratchVarint.append(length, into: &body) }
            let range = try scratch.append(body)
            let rendered = RenderedBody(
                range: range.lowerBound..<(range.lowerBound + rowBytes), lengthBytes: body.count - rowBytes)
            return .page(page.unit, rendered, key: pageKey, details: details, search: search)
        case .assemble(let assembly):
            var rows: [UInt8] = []
            let body = assembly.body
            try scratch.read(body.range.lowerBound..<(body.range.upperBound + body.lengthBytes), appendingTo: &rows)
            var parts: [PageRenderer.Part] = []
            var offset = 0
            var lengthOffset = body.range.count
            for part in assembly.parts {
                var slice = rows[0..<0]
                if part.rows > 0, lengthOffset < rows.count {
                    let length = ScratchVarint.read(rows, &lengthOffset)
                    slice = rows[offset..<(offset + length)]
                    offset += length
                }
                parts.append(
                    PageRenderer.Part(anchor: part.anchor, header: part.header, footer: part.footer, rows: slice))
            }
            let (html, ranges) = try renderer.listPage(assembly.unit.page, parts: parts, table: assembly.table)
            var entry = try writer.write(
                assembly.table.folder + TableFacts.pageFile(assembly.unit.page), html, previous: assembly.previous)
            entry.unit = assembly.unit
            entry.key = assembly.key
            entry.parts = ranges
            return .assembled(assembly.unit, entry)
        }
    }

    /// The previous site's list page for reuse: its content, if it is there as recorded.
    private static func reusedRows(_ entry: ManifestEntry, table: TableFacts, writer: SiteWriter) -> [UInt8]? {
        guard let bytes = writer.previousContents(entry.path, entry),
            entry.parts.allSatisfy({ $0.upperBound <= bytes.count })
        else { return nil }
        return bytes
    }
}
