/// Which implementation of the row-offset tree and the reuse pool a `TableView` runs on.
///
/// Both behave the same; the C core is the default and the fast one, the pure-Swift baseline exists
/// to compare against (benchmarks, differential tests). The choice stays public, though the trees
/// and pools behind it are `package` (what the package's tests and `rowkit-bench` use): a host can
/// run on the pure-Swift baseline where the C core does not build or to cross-check its own tests,
/// and `TableView(table:viewport:backend:)` takes it.
public enum TableViewBackend: String, Sendable, Hashable, CaseIterable {
    /// The C core (`CCore`'s row-offset tree and reuse pool).
    case c
    /// The pure-Swift baseline (the same structures written in Swift).
    case swift
}
