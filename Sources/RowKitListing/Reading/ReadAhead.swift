import Foundation
import Synchronization

/// How many read-ahead threads have been started in this process (tests check that one ran).
package enum ReadAheadThreads {
    package static let started = Atomic<Int>(0)
}

/// Runs a ``ListingEventSource`` on a thread of its own, ahead of the thread that checks and hands
/// out the rows, so that parsing (libyaml's, for YAML) and the rest of reading use two cores.
///
/// The caller sees exactly the events, in the order, that the source would give it, with
/// ``hasProblems`` and ``bytesRead`` as they were when each event was made. The thread hands the
/// events over in batches (one lock and at most one wake-up per batch, not per event) and runs at
/// most ``maxBatches`` batches and about ``budget`` bytes of input ahead of the caller: memory holds
/// the caller's batch, the queued ones and the one being made, each at most ``batchEvents`` events
/// and a budget of input plus one value.
///
/// ``finish()`` must end every use, also when the caller stops early (it then stops the thread);
/// only after it may the caller look at the source and the input again.
final class ReadAhead<Source: ListingEventSource>: @unchecked Sendable {
    /// Events per batch at most.
    static var batchEvents: Int { 512 }
    /// Input bytes per batch at most, and queued input bytes past which the thread waits.
    static var budget: Int { 1 << 20 }
    /// Batches queued at most (the input's position moves a buffer at a time, so the count also
    /// bounds a run of many small events read from one buffer).
    static var maxBatches: Int { 8 }

    private struct Item {
        var event: ListingEvent
        var hasProblems: Bool
        var bytesRead: Int
    }

    private struct Batch {
        var items: [Item] = []
        /// Input bytes read while the batch was made.
        var bytes = 0
    }

    /// The source: the thread's until it ends, then the caller's (see ``finish()``).
    private var source: Source
    private let input: ListingInput

    // Shared, under `condition`.
    private let condition = NSCondition()
    private var queue: [Batch] = []
    private var queuedBytes = 0
    /// Whether the thread has queued its last batch.
    private var ended = false
    /// Whether the caller stopped early.
    private var cancelled = false
    private var callerWaits = false
    private var threadWaits = false
    private let done = DispatchSemaphore(value: 0)

    /// The caller's: the batch being handed out. One stored value, so that handing out an event
    /// is one access to the object's state, not one per property (each a dynamic exclusivity
    /// check).
    private struct Cursor {
        var current: [Item] = []
        var position = 0
        var finished = false
        var hasProblems = false
        var bytesRead = 0

        /// The next event of the batch, or `nil` when it is handed out.
        mutating func take() -> ListingEvent? {
            guard position < current.count else { return nil }
            let item = current[position]
            position += 1
            hasProblems = item.hasProblems
            bytesRead = item.bytesRead
            return item.event
        }
    }

    private var cursor = Cursor()

    /// The thread's reference to the read-ahead, which it drops before it signals `done`. Written
    /// before the thread starts, then only by the thread.
    private final class Handoff: @unchecked Sendable {
        var owner: ReadAhead?
    }

    /// Whether a problem had been found when the last event ``next()`` returned was made.
    var hasProblems: Bool { cursor.hasProblems }
    /// The input's ``ListingInput/bytesRead`` when the last event ``next()`` returned was made.
    var bytesRead: Int { cursor.bytesRead }

    /// Starts reading `source`, which reads `input`, on a new thread.
    init(_ source: Source, input: ListingInput) {
        self.source = source
        self.input = input
        cursor.bytesRead = input.bytesRead
        // The thread lets go of this object (so of the source and the input) before it signals:
        // when `finish()` returns, no other thread holds them, and the caller's last release
        // frees them on the caller's thread, not later on the thread as it exits.
        let handoff = Handoff()
        handoff.owner = self
        let done = self.done
        WorkerThread.start(named: "rowkit-parse") {
            handoff.owner?.run()
            handoff.owner = nil
            done.signal()
        }
        ReadAheadThreads.started.add(1, ordering: .relaxed)
    }

    /// The next event, or `nil` at the end of the stream.
    func next() -> ListingEvent? {
        while true {
            if let event = cursor.take() { return event }
            guard !cursor.finished else { return nil }
            condition.lock()
            while queue.isEmpty && !ended {
                callerWaits = true
                condition.wait()
                callerWaits = false
            }
            if queue.isEmpty {
                condition.unlock()
                cursor.finished = true
                return nil
            }
            let batch = queue.removeFirst()
            queuedBytes -= batch.bytes
            if threadWaits { condition.signal() }
            condition.unlock()
            cursor.current = batch.items
            cursor.position = 0
        }
    }

    /// Waits for the thread to end (stopping it first if the stream has not been read to its end)
    /// and returns the source as the thread left it.
    func finish() -> Source {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        done.wait()
        done.signal()  // a second finish() returns at once
        cursor.current = []
        cursor.position = 0
        cursor.finished = true
        return source
    }

    /// The thread: makes batches until the source ends or the caller stops.
    private func run() {
        // One access to `source` for the whole run, not one per event.
        readEvents(&source)
    }

    private func readEvents(_ source: inout Source) {
        var batch = Batch()
        var start = input.bytesRead
        var atEnd = false
        while !atEnd {
            if let event = source.next() {
                let read = input.bytesRead
                batch.items.append(Item(event: event, hasProblems: source.hasProblems, bytesRead: read))
                // The YAML reader may start the input again (see ``YAMLReader``).
                if read < start { start = read }
                batch.bytes = read - start
                if batch.items.count < Self.batchEvents && batch.bytes < Self.budget { continue }
            } else {
                atEnd = true
            }
            condition.lock()
            while (queuedBytes >= Self.budget || queue.count >= Self.maxBatches) && !cancelled {
                threadWaits = true
                condition.wait()
                threadWaits = false
            }
            if cancelled {
                condition.unlock()
                return
            }
            queuedBytes += batch.bytes
            queue.append(batch)
            ended = atEnd
            if callerWaits { condition.signal() }
            condition.unlock()
            batch = Batch()
            batch.items.reserveCapacity(Self.batchEvents)
            start = input.bytesRead
        }
    }
}
