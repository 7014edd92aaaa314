/// A ``ReusePool`` in pure Swift, with the C pool's algorithm: interned kinds in a dictionary, one
/// ring buffer per kind (newest on top, oldest evicted), the same counters. Not `Sendable`.
package final class SwiftReusePool: ReusePool {
    private struct Queue {
        var ring: ContiguousArray<UInt> = []
        var head = 0
        var count = 0
        var capacity: Int

        mutating func popOldest() -> UInt {
            let handle = ring[head]
            head = (head + 1) % ring.count
            count -= 1
            return handle
        }

        mutating func pushNewest(_ handle: UInt) {
            if count == ring.count {  // grow by doubling up to the capacity
                let size = min(max(ring.count * 2, 4), max(capacity, count + 1))
                var grown = ContiguousArray<UInt>(repeating: 0, count: size)
                for i in 0..<count { grown[i] = ring[(head + i) % ring.count] }
                ring = grown
                head = 0
            }
            ring[(head + count) % ring.count] = handle
            count += 1
        }

        mutating func popNewest() -> UInt {
            count -= 1
            return ring[(head + count) % ring.count]
        }
    }

    private var kinds: [String: Int] = [:]
    private var queues: [Queue] = []
    private let defaultCapacity: Int

    /// Lifetime counters.
    /// - Complexity: O(1).
    package private(set) var counters = ReuseCounters()

    /// Creates an empty pool whose kinds start with capacity `defaultCapacity`.
    /// - Complexity: O(1).
    package init(defaultCapacity: Int = SwiftReusePool.standardCapacity) {
        precondition(defaultCapacity >= 0, "capacity cannot be negative")
        self.defaultCapacity = defaultCapacity
    }

    /// The kind of `identifier`, interning it on first use.
    /// - Complexity: O(length) expected.
    package func intern(_ identifier: String) -> ReuseKind {
        if let kind = kinds[identifier] { return ReuseKind(rawValue: kind) }
        kinds[identifier] = queues.count
        queues.append(Queue(capacity: defaultCapacity))
        return ReuseKind(rawValue: queues.count - 1)
    }

    private func index(_ kind: ReuseKind) -> Int {
        precondition(
            queues.indices.contains(kind.rawValue), "reuse kind \(kind.rawValue) was not interned by this pool")
        return kind.rawValue
    }

    /// Puts `handle` and returns the handle the caller must release, if any.
    /// - Complexity: O(1) amortized.
    package func put(_ handle: UInt, kind: ReuseKind) -> UInt? {
        let k = index(kind)
        if queues[k].capacity == 0 {
            counters.evictions += 1
            return handle
        }
        if queues[k].count >= queues[k].capacity {
            let oldest = queues[k].popOldest()
            queues[k].pushNewest(handle)
            counters.evictions += 1
            return oldest
        }
        queues[k].pushNewest(handle)
        return nil
    }

    /// Takes the newest handle of `kind`, or `nil`.
    /// - Complexity: O(1).
    package func take(kind: ReuseKind) -> UInt? {
        let k = index(kind)
        guard queues[k].count > 0 else {
            counters.misses += 1
            return nil
        }
        counters.hits += 1
        return queues[k].popNewest()
    }

    /// The number of handles `kind` holds.
    /// - Complexity: O(1).
    package func count(of kind: ReuseKind) -> Int { queues[index(kind)].count }

    /// The most handles `kind` keeps.
    /// - Complexity: O(1).
    package func capacity(of kind: ReuseKind) -> Int { queues[index(kind)].capacity }

    /// Sets `kind`'s capacity and returns the evicted handles, oldest first.
    /// - Complexity: O(evicted).
    package func setCapacity(_ capacity: Int, of kind: ReuseKind) -> [UInt] {
        precondition(capacity >= 0, "capacity cannot be negative")
        let k = index(kind)
        queues[k].capacity = capacity
        var evicted: [UInt] = []
        while queues[k].count > capacity {
            evicted.append(queues[k].popOldest())
            counters.evictions += 1
        }
        return evicted
    }

    /// Removes and returns every handle.
    /// - Complexity: O(handles + kinds).
    package func drain() -> [(kind: ReuseKind, handle: UInt)] {
        var out: [(kind: ReuseKind, handle: UInt)] = []
        for k in queues.indices {
            while queues[k].count > 0 { out.append((ReuseKind(rawValue: k), queues[k].popOldest())) }
        }
        return out
    }

    /// Checks ring bounds and the interning table.
    /// - Complexity: O(kinds).
    package func checkInvariants() throws(ReusePoolError) {
        if kinds.count != queues.count { throw ReusePoolError("interning table and queues differ") }
        if Set(kinds.values) != Set(queues.indices) { throw ReusePoolError("kinds not dense") }
        for q in queues where q.count > q.ring.count || (q.ring.count > 0 && q.head >= q.ring.count) {
            throw ReusePoolError("ring bounds broken")
        }
    }
}
