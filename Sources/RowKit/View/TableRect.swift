/// A rectangle in a table's content coordinates: `y` grows downward from the top of the content.
public struct TableRect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The bottom edge, `y + height`.
    public var maxY: Double { y + height }

    /// Whether the rectangle has a positive height and overlaps the half-open band `band`.
    public func intersects(_ band: Range<Double>) -> Bool {
        height > 0 && y < band.upperBound && maxY > band.lowerBound
    }

    /// `(x, y, width×height)` with at most two decimals, for dumps.
    public var description: String {
        "(\(Self.format(x)), \(Self.format(y)), \(Self.format(width))x\(Self.format(height)))"
    }

    /// A number with at most two decimals and no trailing zeros (`44`, `20.5`, `0.33`).
    static func format(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        if rounded == rounded.rounded() && abs(rounded) < 1e15 { return String(Int(rounded)) }
        return String(rounded)
    }
}
