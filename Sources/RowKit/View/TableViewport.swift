/// The size of the area a `TableView` shows, in points.
public struct TableViewport: Sendable, Hashable, CustomStringConvertible {
    /// The visible width; rows are laid out (and measured) for this width minus the style's insets.
    public var width: Double
    /// The visible height.
    public var height: Double

    /// Creates a viewport; non-finite or negative sizes are replaced by 0.
    public init(width: Double, height: Double) {
        self.width = width.isFinite ? max(width, 0) : 0
        self.height = height.isFinite ? max(height, 0) : 0
    }

    /// An iPhone-sized portrait viewport, 390 × 844 points.
    public static let phone = TableViewport(width: 390, height: 844)

    /// `390x844`.
    public var description: String { "\(TableRect.format(width))x\(TableRect.format(height))" }
}
