import Foundation
import RowKitListing

/// Runs the search index's work one item at a time, in the order it was submitted, on a thread of
/// its own, so that the thread reading the listing only plans pages.
///
/// Building a table's index (the words of every row, the display data of the one page, an inline
/// body's Markdown rendered for it, the index files written) costs about as much as reading the
/// listing; on its own thread it overlaps the reading and the page renderers. Items wait in a
/// bounded queue, so the reader waits when the index is behind and memory holds at most
/// ``capacity`` rows' items, and about ``byteCapacity`` of the text they carry (a row's Markdown
/// body, whose words the index takes: bodies of a megabyte each would otherwise queue a gigabyte). The first error is kept and thrown by the next ``submit(_:)`` or
/// ``wait()``. With one job (`--jobs 1`) there is no thread: ``submit(_:)`` runs the item at once.
///
/// The order of items alone decides the index's bytes, so the output does not depend on the lane.
final class SearchLane: @unchecked Sendable {
    /// Items queued at most.
    static let capacity = 1024
    /// Items queued before a waiting lane is woken (``wait()`` and ``stop()`` wake it for fewer).
    static let wakeBatch = 128
    /// Bytes the queued items say they carry, at most (one item may carry more, alone).
    static let byteCapacity = 16 << 20

    private let condition = NSCondition()
    private var queue: [() throws -> Void] = []
    /// The bytes the queued items carry (see ``submit(carrying:_:)``).
    private var queuedBytes = 0
    /// Whether the lane's thread is running a batch taken from the queue.
    private var running = false
    /// Whether the lane's thread waits for items, and the calling thread for room.
    private var laneWaits = false
    private var callerWaits = false
    private var closed = false
    private var failure: (any Error)?
    private let group = DispatchGroup()
    private let threaded: Bool

    /// The bytes the queued items carry now (for tests).
    var bytesQueued: Int { condition.withLock { queuedBytes } }

    /// A lane on a thread of its own when `threaded`, else on the calling thread.
    init(threaded: Bool) {
        self.threaded = threaded
        guard threaded else { return }
        group.enter()
        WorkerThread.start(named: "rowkit-search") { [self] in
            work()
            group.leave()
        }
    }

    /// Queues `item` after the ones before it (or runs it, without a thread); throws the first
    /// error of an earlier item. `bytes` is what the item holds of the listing's text, counted
    /// against ``byteCapacity``.
    func submit(carrying bytes: Int = 0, _ item: @escaping () throws -> Void) throws {
        guard threaded else { return try item() }
        condition.lock()
        defer { condition.unlock() }
        while (queue.count >= Self.capacity || (!queue.isEmpty && queuedBytes + bytes > Self.byteCapacity))
            && failure == nil
        {
            callerWaits = true
            // A lane waiting for a batch of items is woken for fewer when they carry this much.
            if laneWaits { condition.broadcast() }
            condition.wait()
        }
        if let failure { throw failure }
        queue.append(item)
        queuedBytes += bytes
        // Waking the lane for every item would cost a context switch (two futex calls) per row:
        // a waiting lane is woken once a batch is queued, and takes every item queued by then.
        if laneWaits && queue.count >= Self.wakeBatch { condition.broadcast() }
    }

    /// Waits until every queued item has run; throws the first error of any.
    func wait() throws {
        guard threaded else { return }
        condition.lock()
        defer { condition.unlock() }
        if laneWaits && !queue.isEmpty { condition.broadcast() }
        while (!queue.isEmpty || running) && failure == nil {
            callerWaits = true
            condition.wait()
        }
        if let failure { throw failure }
    }

    /// Drops the queued items, waits for the one running and forgets any error: the table they
    /// were for is thrown away.
    func cancel() {
        guard threaded else { return }
        condition.lock()
        defer { condition.unlock() }
        queue.removeAll()
        queuedBytes = 0
        while running {
            callerWaits = true
            condition.wait()
        }
        failure = nil
    }

    /// Drops the queued items and ends the thread (after the item running).
    func stop() {
        guard threaded else { return }
        condition.withLock {
            queue.removeAll()
            queuedBytes = 0
            closed = true
            condition.broadcast()
        }
        group.wait()
    }

    private func work() {
        while true {
            condition.lock()
            while queue.isEmpty && !closed {
                laneWaits = true
                condition.wait()
            }
            laneWaits = false
            if queue.isEmpty {
                condition.unlock()
                return
            }
            let batch = queue
            queue.removeAll(keepingCapacity: true)
            queuedBytes = 0
            let skip = failure != nil
            running = true
            if callerWaits {
                callerWaits = false
                condition.broadcast()
            }
            condition.unlock()
            var error: (any Error)?
            if !skip {
                for item in batch {
                    do { try item() } catch let thrown {
                        error = thrown
                        break
                    }
                }
            }
            condition.withLock {
                running = false
                if failure == nil, let error { failure = error }
                if callerWaits || failure != nil {
                    callerWaits = false
                    condition.broadcast()
                }
            }
        }
    }
}
