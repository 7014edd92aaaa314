/// The open base class of every cell: a reusable view that shows one row at a time.
///
/// Lifecycle, in the order a view drives it: `init()` once; then for every row shown,
/// `configure(with:)` (through `CellConfiguring`) and, for automatic heights, `measureHeight(width:)`;
/// `prepareForReuse()` when the cell goes back to the reuse pool. Subclass it for custom cells and
/// conform the subclass to `CellConfiguring` with its own row type.
@MainActor
open class TableCell {
    /// The identifier cells of this class are pooled under. Default: derived from the class.
    nonisolated open class var reuseIdentifier: ReuseIdentifier { ReuseIdentifier(self) }

    /// Whether the cell is drawn highlighted (touch down).
    public internal(set) var isHighlighted = false
    /// Whether the cell is drawn selected.
    public internal(set) var isSelected = false
    /// Whether the cell shows its editing control.
    public internal(set) var isEditing = false
    /// The identity of the row the cell shows, or `nil` while it sits in the reuse pool.
    public internal(set) var boundRowID: ItemID?

    /// Creates an empty cell; views create cells with this initializer only.
    public required init() {}

    /// Resets per-row state before the cell is reused for another row. Call `super`.
    open func prepareForReuse() {
        isHighlighted = false
        isSelected = false
        isEditing = false
    }

    /// The height the cell needs for `width`, with its current content. Used for rows whose height
    /// policy is automatic. Default: 44 points, UIKit's default row height.
    open func measureHeight(width: Double) -> Double { 44 }
}

/// A cell that configures itself from one row type.
///
/// `Row.Cell` must conform with `Model == Self`, which is how the compiler checks that a row is
/// shown by a cell that can configure it.
@MainActor
public protocol CellConfiguring: TableCell {
    /// The row type this cell shows.
    associatedtype Model
    /// Shows `row`. Called every time the cell is bound to a row, after `prepareForReuse()` for a
    /// reused cell.
    func configure(with row: Model)
}
