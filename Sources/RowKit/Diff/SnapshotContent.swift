/// Row content a snapshot can compare: whether a row keeps showing the same thing.
///
/// The diff only compares the contents of two rows with the same identity; when they differ it
/// reloads the row. `AnyRow` conforms through `Row.isContentEqual(to:)`; `Int` and `String` conform
/// so tests and benchmarks can use version numbers or text as content. `Equatable` types get `==`.
public protocol SnapshotContent: Sendable {
    /// Whether `other`, the content of a row with the same identity, shows the same thing.
    func isContentEqual(to other: Self) -> Bool
}

extension SnapshotContent where Self: Equatable {
    /// Whether the two contents are equal (`==`).
    public func isContentEqual(to other: Self) -> Bool { self == other }
}

extension AnyRow: SnapshotContent {}
extension Int: SnapshotContent {}
extension String: SnapshotContent {}
