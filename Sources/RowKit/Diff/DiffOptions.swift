/// How `TableDiff` turns two snapshots into a changeset.
public struct DiffOptions: Sendable, Hashable {
    /// What the diff emits for a row that both moved and changed content.
    public enum MovedChangePolicy: String, Sendable, Hashable {
        /// A move, plus a reload at the row's old path, as a batch emits it. The changeset is exact
        /// and keeps the move animation; `validate()`, `replay` and `TableView.apply(_:to:)` take
        /// it whole. UIKit refuses a move and a reload of one row in one batch (it treats a reload
        /// as a delete and an insert), so a UIKit host applies `Changeset.stages()`, whose first
        /// stage reloads in old coordinates before anything moves.
        case moveAndReload
        /// A delete at the old path and an insert at the new path: one batch UIKit accepts, at the
        /// price of a fade instead of a move animation for those rows; a view shows them in new
        /// cells.
        case deleteAndInsert
    }

    /// When the diff gives up animating and marks the changeset `reloadsEverything`.
    public enum ReloadThreshold: Sendable, Hashable {
        /// Always animate the individual changes.
        case never
        /// Reload everything when more than this many rows change.
        case changedRows(Int)
        /// Reload everything when the changed rows are more than this fraction (0...1) of the
        /// larger of the old and new row counts.
        case changedFraction(Double)

        /// Whether `changes` changed rows out of `rows` exceed the threshold.
        @usableFromInline
        func isExceeded(changes: Int, rows: Int) -> Bool {
            switch self {
            case .never: return false
            case .changedRows(let limit): return changes > limit
            case .changedFraction(let fraction): return Double(changes) > fraction * Double(max(rows, 1))
            }
        }
    }

    /// What to emit for rows that both moved and changed. Default: `.moveAndReload`.
    public var movedChanges: MovedChangePolicy
    /// When to mark the changeset `reloadsEverything`. Default: more than 10,000 changed rows,
    /// where a host spends longer building per-row animations than a reload takes.
    ///
    /// Changed rows are inserted, deleted, moved and reloaded rows, including the rows of inserted
    /// and deleted sections, plus one per moved section. The changeset's lists stay complete
    /// either way.
    public var reloadThreshold: ReloadThreshold
    /// The animation of inserted rows and sections.
    public var insertAnimation: RowAnimation
    /// The animation of deleted rows and sections.
    public var deleteAnimation: RowAnimation
    /// The animation of reloaded rows.
    public var reloadAnimation: RowAnimation
    /// The animation of moved rows and sections.
    public var moveAnimation: RowAnimation

    /// Creates options; every parameter defaults to the documented default.
    public init(
        movedChanges: MovedChangePolicy = .moveAndReload,
        reloadThreshold: ReloadThreshold = .changedRows(10_000),
        insertAnimation: RowAnimation = .automatic,
        deleteAnimation: RowAnimation = .automatic,
        reloadAnimation: RowAnimation = .automatic,
        moveAnimation: RowAnimation = .automatic
    ) {
        self.movedChanges = movedChanges
        self.reloadThreshold = reloadThreshold
        self.insertAnimation = insertAnimation
        self.deleteAnimation = deleteAnimation
        self.reloadAnimation = reloadAnimation
        self.moveAnimation = moveAnimation
    }

    /// The default options.
    public static let `default` = DiffOptions()
}
