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
            var ranges: [Range<Int>] = []
            var spilled = 0
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
                for row in page.rows {
                    renderer.appendSearch(row, table: page.table, to: &search)
                    if search.bytes.count >= 1 << 20 { try search.spill(to: scratch) }
                }
            } else {
                // Rows of large bodies go to the scratch file a MiB at a time (`spilled` bytes in
                // `ranges`); part lengths count from the page's first row.
                var partStart = 0
                try page.rows.withUnsafeBufferPointer { rows in
                    for index in rows.indices {
                        if index > 0, page.partStarts.contains(index) {
                            lengths.append(spilled + body.count - partStart)
                            partStart = spilled + body.count
                        }
                        if let entry = try renderer.renderRow(
                            rows[index], page: page.unit.page, table: page.table, detail: page.details[index],
                            writer: writer, into: &body, search: &search)
                        {
                            details.append(entry)
                        }
                        if search.bytes.count >= 1 << 20 { try search.spill(to: scratch) }
                        if body.count >= 1 << 20 {
                            ranges.append(try scratch.append(body))
                            spilled += body.count
                            body.removeAll(keepingCapacity: true)
                        }
                    }
                }
                if !page.rows.isEmpty { lengths.append(spilled + body.count - partStart) }
            }
            let rowBytes = body.count
            for length in lengths { ScratchVarint.append(length, into: &body) }
            let range = try scratch.append(body)
            if rowBytes > 0 || ranges.isEmpty { ranges.append(range.lowerBound..<(range.lowerBound + rowBytes)) }
            let rendered = RenderedBody(ranges: ranges, lengths: (range.lowerBound + rowBytes)..<range.upperBound)
            return .page(page.unit, rendered, key: pageKey, details: details, search: search)
        case .assemble(let assembly):
            let entry = try assemble(assembly, renderer: &renderer, writer: writer, scratch: scratch)
            return .assembled(assembly.unit, entry)
        }
    }

    /// Rows of a list page up to this many bytes are read into memory to put the page together;
    /// past it, the page is written from the scratch file (its rows where they were rendered).
    static let inMemoryRowBytes = 1 << 22

    /// Puts a list page together from its rendered rows and writes it; returns its entry.
    private static func assemble(
        _ assembly: AssemblyJob, renderer: inout PageRenderer, writer: SiteWriter, scratch: ScratchFile
    ) throws -> ManifestEntry {
        let body = assembly.body
        var encoded: [UInt8] = []
        try scratch.read(body.lengths, appendingTo: &encoded)
        var lengths: [Int] = []
        var offset = 0
        while offset < encoded.count { lengths.append(ScratchVarint.read(encoded, &offset)) }
        let inMemory = body.count <= inMemoryRowBytes
        var rows: [UInt8] = []
        if inMemory { for range in body.ranges { try scratch.read(range, appendingTo: &rows) } }
        var parts: [PageRenderer.Part] = []
        var next = lengths.makeIterator()
        offset = 0
        for part in assembly.parts {
            var slice = rows[0..<0]
            var length = 0
            if part.rows > 0, let partLength = next.next() {
                length = partLength
                if inMemory { slice = rows[offset..<(offset + length)] }
                offset += length
            }
            parts.append(
                PageRenderer.Part(
                    anchor: part.anchor, header: part.header, footer: part.footer, rows: slice, rowBytes: length))
        }
        let path = assembly.table.folder + TableFacts.pageFile(assembly.unit.page)
        let (html, places) = try renderer.listPage(assembly.unit.page, parts: parts, table: assembly.table)
        var entry: ManifestEntry
        if inMemory {
            entry = try writer.write(path, html, previous: assembly.previous)
            entry.parts = places
        } else {
            // The page without its rows goes to the scratch file, and the file is written from
            // there: its pieces, each part's rows where they were rendered between them.
            let shell = try scratch.append(html)
            var pieces: [Range<Int>] = []
            var rowRanges: [Range<Int>] = []
            var shellOffset = 0
            var rowOffset = 0
            for (place, length) in zip(places, parts.map(\.rowBytes).filter { $0 > 0 }) {
                pieces.append((shell.lowerBound + shellOffset)..<(shell.lowerBound + place.lowerBound))
                pieces += body.ranges(of: rowOffset..<(rowOffset + length))
                rowRanges.append((place.lowerBound + rowOffset)..<(place.lowerBound + rowOffset + length))
                shellOffset = place.lowerBound
                rowOffset += length
            }
            pieces.append((shell.lowerBound + shellOffset)..<shell.upperBound)
            entry = try writer.write(path, from: scratch, pieces.filter { !$0.isEmpty }, previous: assembly.previous)
            entry.parts = rowRanges
        }
        entry.unit = assembly.unit
        entry.key = assembly.key
        return entry
    }

    /// The previous site's list page for reuse: its content, if it is there as recorded.
    private static func reusedRows(_ entry: ManifestEntry, table: TableFacts, writer: SiteWriter) -> [UInt8]? {
        guard let bytes = writer.previousContents(entry.path, entry),
            entry.parts.allSatisfy({ $0.upperBound <= bytes.count })
        else { return nil }
        return bytes
    }
}
