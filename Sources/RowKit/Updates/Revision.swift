import Synchronization

/// A model revision: unique across all models in the process, so a changeset or diff computed for
/// one state is never mistaken for another's.
public struct Revision: Hashable, Sendable, CustomStringConvertible {
    /// The revision's number; unique per process.
    public let value: UInt64

    /// The revision of changesets not tied to a model.
    public static let initial = Revision(value: 0)

    /// A revision no model has had before.
    public static func next() -> Revision {
        Revision(value: counter.add(1, ordering: .relaxed).newValue)
    }

    private static let counter = Atomic<UInt64>(0)

    public var description: String { "r\(value)" }
}
