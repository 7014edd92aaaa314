/// An immutable description of how a table changed, in the coordinates a view needs to follow
/// the model without ever disagreeing with it (UIKit's batch-update contract).
///
/// - Deletes and reloads are in **old** coordinates (before the change).
/// - Inserts are in **new** coordinates (after the change).
/// - Moves go from an old position to a new one.
/// - A reload means the item keeps its identity and its content changed. It is listed at the
///   item's old position, and the item may also be moved: a row that moved and changed is one
///   move plus one reload at the move's `from`. An item deleted and inserted again is a delete
///   and an insert.
/// - Row changes inside inserted, deleted or reloaded sections are not listed: the section change
///   covers them.
///
/// The whole contract, what every producer guarantees and every consumer accepts, is the
/// article <doc:Changesets>; `validate()` checks it. Batches (`TableModel.performBatch`) and
/// snapshot diffs (`TableDiff`) produce changesets; `replay` and the headless `TableView` take them
/// whole, and `stages()` splits them for hosts such as UIKit that cannot move and reload one
/// item in one batch.
public struct Changeset: Sendable, Hashable {
    /// One inserted, deleted or reloaded item and its animation.
    public struct Edit<Index: Hashable & Sendable & Comparable>: Hashable, Sendable {
        /// The item's index (old coordinates for deletes and reloads, new for inserts).
        public var index: Index
        /// How a host UI should animate it.
        public var animation: RowAnimation

        /// Creates an edit.
        public init(_ index: Index, animation: RowAnimation = .automatic) {
            self.index = index
            self.animation = animation
        }
    }

    /// One moved item: from its old index to its new index.
    public struct Move<Index: Hashable & Sendable & Comparable>: Hashable, Sendable {
        /// The old index.
        public var from: Index
        /// The new index.
        public var to: Index
        /// How a host UI should animate it.
        public var animation: RowAnimation

        /// Creates a move.
        public init(from: Index, to: Index, animation: RowAnimation = .automatic) {
            self.from = from
            self.to = to
            self.animation = animation
        }
    }

    /// Deleted sections, old indices, ascending.
    public var deletedSections: [Edit<Int>] = []
    /// Inserted sections, new indices, ascending.
    public var insertedSections: [Edit<Int>] = []
    /// Reloaded sections, old indices, ascending.
    public var reloadedSections: [Edit<Int>] = []
    /// Moved sections, ascending by `from`.
    public var movedSections: [Move<Int>] = []
    /// Deleted rows, old paths, ascending.
    public var deletedRows: [Edit<RowPath>] = []
    /// Inserted rows, new paths, ascending.
    public var insertedRows: [Edit<RowPath>] = []
    /// Reloaded rows, old paths, ascending.
    public var reloadedRows: [Edit<RowPath>] = []
    /// Moved rows, ascending by `from`.
    public var movedRows: [Move<RowPath>] = []
    /// The number of rows in each section before the change.
    public var oldRowCounts: [Int] = []
    /// The number of rows in each section after the change.
    public var newRowCounts: [Int] = []
    /// Whether a view should discard its state and reload everything instead of animating the
    /// individual changes (set by a diff when the change exceeds its threshold). The lists above
    /// stay complete either way.
    public var reloadsEverything = false
    /// The model revision the change starts from.
    public var fromRevision: Revision = .initial
    /// The model revision the change produces.
    public var toRevision: Revision = .initial

    /// Creates an empty changeset.
    public init() {}

    /// Whether the changeset lists nothing but moves that end where they start (or nothing at all):
    /// with no insert, delete or reload beside them, every section and row is where it was.
    var changesNothing: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty
            && deletedRows.isEmpty && insertedRows.isEmpty && reloadedRows.isEmpty
            && movedSections.allSatisfy { $0.from == $0.to } && movedRows.allSatisfy { $0.from == $0.to }
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty
            && movedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
            && reloadedRows.isEmpty && movedRows.isEmpty
    }
}
