import Synchronization

/// Each row's content digest by its identity, for one listing, kept from one read to the next
/// and changed in place: at a million rows, a dictionary too large to copy on every save.
final class RowDigestIndex: Sendable {
    private let digests: Mutex<[String: UInt64]>

    /// The digests of `outline`'s rows.
    init(_ outline: TableOutline) {
        digests = Mutex(outline.digestsByID)
    }

    /// The digests as they are now (a copy: changing the index later leaves it as it is).
    var current: [String: UInt64] { digests.withLock { $0 } }

    /// Calls `body` with the digests (not copied).
    func read<T: Sendable>(_ body: ([String: UInt64]) -> T) -> T {
        digests.withLock { body($0) }
    }

    /// Removes the digests of `removed`, then adds `added`, in place.
    func update(removing removed: [String], adding added: [(id: String, digest: UInt64)]) {
        digests.withLock { digests in
            for id in removed { digests[id] = nil }
            for (id, digest) in added { digests[id] = digest }
        }
    }
}
