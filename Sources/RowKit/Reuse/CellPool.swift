/// Keeps reusable class instances (cells, views) by reuse identifier on top of a ``ReusePool``.
///
/// The pool stores small integer handles; this layer maps each handle to its object. When the pool
/// evicts a handle (its kind is full, or a capacity was lowered), the object is released here, so
/// an evicted cell is deallocated. `deinit` drains the pool and releases everything. Not `Sendable`.
package final class CellPool<Pool: ReusePool, Object: AnyObject> {
    private let pool: Pool
    private var objects: [UInt: Object] = [:]
    private var freeHandles: [UInt] = []
    private var nextHandle: UInt = 1

    /// Creates an empty cell pool whose kinds keep up to `capacity` objects.
    package init(capacity: Int = Pool.standardCapacity) {
        pool = Pool(defaultCapacity: capacity)
    }

    deinit {
        for (_, handle) in pool.drain() { objects[handle] = nil }
    }

    /// Lifetime hit, miss and eviction counts.
    package var counters: ReuseCounters { pool.counters }

    /// Number of objects held.
    package var count: Int { objects.count }

    /// Offers `object` for reuse under `identifier`; the oldest object of that identifier is
    /// released if it was full.
    /// - Complexity: O(1) amortized.
    package func enqueue(_ object: Object, reuseIdentifier identifier: String) {
        let handle =
            freeHandles.popLast()
            ?? {
                defer { nextHandle += 1 }
                return nextHandle
            }()
        objects[handle] = object
        if let evicted = pool.put(handle, kind: pool.intern(identifier)) { release(evicted) }
    }

    /// The most recently enqueued object for `identifier`, removed from the pool, or `nil`.
    /// - Complexity: O(1).
    package func dequeue(reuseIdentifier identifier: String) -> Object? {
        guard let handle = pool.take(kind: pool.intern(identifier)) else { return nil }
        defer { freeHandles.append(handle) }
        return objects.removeValue(forKey: handle)
    }

    /// Sets how many objects `identifier` keeps, releasing the oldest beyond it.
    package func setCapacity(_ capacity: Int, reuseIdentifier identifier: String) {
        for handle in pool.setCapacity(capacity, of: pool.intern(identifier)) { release(handle) }
    }

    private func release(_ handle: UInt) {
        objects[handle] = nil
        freeHandles.append(handle)
    }
}
