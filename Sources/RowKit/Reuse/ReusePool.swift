/// A reuse identifier interned to a small integer; the same identifier always gives the same kind
/// within one pool.
package struct ReuseKind: Hashable, Sendable {
    /// The interned number (0, 1, 2, ... in order of first use).
    package let rawValue: Int

    /// Wraps an interned number.
    package init(rawValue: Int) {
        self.rawValue = rawValue
    }
}

/// Lifetime counters of a ``ReusePool``.
package struct ReuseCounters: Hashable, Sendable {
    /// Takes that returned a handle.
    package var hits: UInt64
    /// Takes that found the kind empty.
    package var misses: UInt64
    /// Handles handed back because their kind was full (or trimmed to a lower capacity).
    package var evictions: UInt64

    /// Creates counters.
    package init(hits: UInt64 = 0, misses: UInt64 = 0, evictions: UInt64 = 0) {
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
    }
}

/// A pool of opaque handles (small integers standing for reusable views) queued per reuse kind.
///
/// Each kind is a LIFO of at most ``capacity(of:)`` handles: ``take(kind:)`` returns the newest;
/// ``put(_:kind:)`` into a full kind evicts the OLDEST handle and returns it so the caller can release
/// what it stands for. A table view keeps its cells by handle on top of it. Two implementations:
/// ``CReusePool`` (the C core) and ``SwiftReusePool``.
package protocol ReusePool: AnyObject {
    /// Creates an empty pool whose kinds start with capacity `defaultCapacity`.
    /// - Complexity: O(1).
    init(defaultCapacity: Int)

    /// The kind of `identifier`, interning it on first use.
    /// - Complexity: O(length of identifier) expected.
    func intern(_ identifier: String) -> ReuseKind

    /// Puts `handle` on top of `kind`'s queue and returns the handle the caller must now release:
    /// the evicted oldest one when the kind was full, `handle` itself with capacity 0, else `nil`.
    /// - Precondition: `kind` was interned by this pool.
    /// - Complexity: O(1) amortized.
    func put(_ handle: UInt, kind: ReuseKind) -> UInt?

    /// Takes the newest handle of `kind` (counting a hit), or returns `nil` (counting a miss).
    /// - Precondition: `kind` was interned by this pool.
    /// - Complexity: O(1).
    func take(kind: ReuseKind) -> UInt?

    /// The number of handles `kind` holds.
    /// - Complexity: O(1).
    func count(of kind: ReuseKind) -> Int

    /// The most handles `kind` keeps.
    /// - Complexity: O(1).
    func capacity(of kind: ReuseKind) -> Int

    /// Sets `kind`'s capacity and returns the handles evicted to fit it, oldest first.
    /// - Complexity: O(evicted).
    func setCapacity(_ capacity: Int, of kind: ReuseKind) -> [UInt]

    /// Lifetime hit, miss and eviction counts.
    /// - Complexity: O(1).
    var counters: ReuseCounters { get }

    /// Removes and returns every handle, oldest first within each kind, for teardown.
    /// - Complexity: O(handles + kinds).
    func drain() -> [(kind: ReuseKind, handle: UInt)]

    /// Checks the pool's invariants (``CReusePool`` only with `RK_INTERNAL_CHECKS`).
    /// - Throws: a description of the broken invariant.
    /// - Complexity: O(kinds).
    func checkInvariants() throws(ReusePoolError)
}

/// A broken reuse-pool invariant.
package struct ReusePoolError: Error, Hashable, Sendable {
    /// What was found broken.
    package var message: String

    /// Creates an error.
    package init(_ message: String) {
        self.message = message
    }
}

extension ReusePool {
    /// The default capacity of a new kind: 32.
    package static var standardCapacity: Int { 32 }
}
