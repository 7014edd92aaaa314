import CCore

/// A ``ReusePool`` backed by the C core's `rk_reuse_pool`.
///
/// The only Swift file that calls the C pool API: it owns the handle and destroys it in `deinit`
/// (handles still pooled are dropped then: their owner releases what they stand for first). Not
/// `Sendable`.
package final class CReusePool: ReusePool {
    private let handle: OpaquePointer

    /// Creates an empty pool whose kinds start with capacity `defaultCapacity`.
    /// - Complexity: O(1).
    package init(defaultCapacity: Int = CReusePool.standardCapacity) {
        precondition(defaultCapacity >= 0, "capacity cannot be negative")
        var out: OpaquePointer?
        guard rk_reuse_pool_create(defaultCapacity, &out) == RK_OK, let out else {
            fatalError("out of memory creating a reuse pool")
        }
        handle = out
    }

    deinit {
        rk_reuse_pool_destroy(handle)
    }

    /// The kind of `identifier`, interning it on first use.
    /// - Complexity: O(length) expected.
    package func intern(_ identifier: String) -> ReuseKind {
        var kind: rk_reuse_kind = 0
        let status = rk_reuse_pool_intern(handle, identifier, &kind)
        precondition(status == RK_OK, "cannot intern '\(identifier)': \(String(cString: rk_status_name(status)))")
        return ReuseKind(rawValue: Int(kind))
    }

    private func cKind(_ kind: ReuseKind) -> rk_reuse_kind {
        precondition(
            kind.rawValue >= 0 && kind.rawValue < rk_reuse_pool_kind_count(handle),
            "reuse kind \(kind.rawValue) was not interned by this pool")
        return rk_reuse_kind(kind.rawValue)
    }

    /// Puts `handle` and returns the handle the caller must release, if any. When the C queue
    /// cannot grow (out of memory), the handle is not pooled and is returned to the caller.
    /// - Complexity: O(1) amortized.
    package func put(_ handle: UInt, kind: ReuseKind) -> UInt? {
        var evicted: Int32 = 0
        var evictedHandle: UInt = 0
        let status = rk_reuse_pool_put(self.handle, cKind(kind), handle, &evicted, &evictedHandle)
        if status != RK_OK { return handle }
        return evicted != 0 ? evictedHandle : nil
    }

    /// Takes the newest handle of `kind`, or `nil`.
    /// - Complexity: O(1).
    package func take(kind: ReuseKind) -> UInt? {
        var out: UInt = 0
        return rk_reuse_pool_take(handle, cKind(kind), &out) == RK_OK ? out : nil
    }

    /// The number of handles `kind` holds.
    /// - Complexity: O(1).
    package func count(of kind: ReuseKind) -> Int { rk_reuse_pool_count(handle, cKind(kind)) }

    /// The most handles `kind` keeps.
    /// - Complexity: O(1).
    package func capacity(of kind: ReuseKind) -> Int { rk_reuse_pool_capacity(handle, cKind(kind)) }

    /// Sets `kind`'s capacity and returns the evicted handles, oldest first.
    /// - Complexity: O(evicted).
    package func setCapacity(_ capacity: Int, of kind: ReuseKind) -> [UInt] {
        precondition(capacity >= 0, "capacity cannot be negative")
        let k = cKind(kind)
        rk_reuse_pool_set_capacity(handle, k, capacity)
        var evicted: [UInt] = []
        var out: UInt = 0
        while rk_reuse_pool_trim(handle, k, &out) == RK_OK { evicted.append(out) }
        return evicted
    }

    /// Lifetime counters.
    /// - Complexity: O(1).
    package var counters: ReuseCounters {
        let c = rk_reuse_pool_counters(handle)
        return ReuseCounters(hits: c.hits, misses: c.misses, evictions: c.evictions)
    }

    /// Removes and returns every handle.
    /// - Complexity: O(handles × kinds) worst case.
    package func drain() -> [(kind: ReuseKind, handle: UInt)] {
        var out: [(kind: ReuseKind, handle: UInt)] = []
        var kind: rk_reuse_kind = 0
        var value: UInt = 0
        while rk_reuse_pool_drain(handle, &kind, &value) == RK_OK {
            out.append((ReuseKind(rawValue: Int(kind)), value))
        }
        return out
    }

    /// Runs `rk_reuse_pool_check` (a no-op without `RK_INTERNAL_CHECKS`).
    /// - Complexity: O(kinds).
    package func checkInvariants() throws(ReusePoolError) {
        var message: UnsafePointer<CChar>?
        if rk_reuse_pool_check(handle, &message) != RK_OK {
            throw ReusePoolError(message.map { String(cString: $0) } ?? "unknown invariant")
        }
    }
}
