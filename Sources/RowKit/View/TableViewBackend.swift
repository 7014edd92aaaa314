/// Which implementation of the row-offset tree and the reuse pool a `TableView` runs on.
///
/// Both behave the same; the C core is the default and the fast one, the pure-Swift baseline exists
/// to compare against (benchmarks, differential tests).
public enum TableViewBackend: String, Sendable, Hashable, CaseIterable {
    /// The C core: `COffsetTree` and `CReusePool`.
    case c
    /// The pure-Swift baseline: `SwiftOffsetTree` and `SwiftReusePool`.
    case swift
}
