/// How a row, header or footer gets its height.
///
/// Every policy is cacheable by the item's identity: a view caches computed and measured heights
/// per identity and width, and reuses them after reloads.
public enum HeightPolicy: Sendable {
    /// Always this many points.
    case fixed(Double)
    /// Computed from the model for the available width (the closure captures the model).
    case computed(@Sendable (_ width: Double) -> Double)
    /// Measured by the cell when the row first becomes visible; `estimate` stands until then.
    case automatic(estimate: Double)

    /// The height to lay out with before any measurement: the fixed height, the computed height for
    /// `width`, or the estimate. Non-finite or negative answers are replaced by 0.
    public func initialHeight(width: Double) -> Double {
        let value: Double
        switch self {
        case .fixed(let height): value = height
        case .computed(let compute): value = compute(width)
        case .automatic(let estimate): value = estimate
        }
        return value.isFinite && value >= 0 ? value : 0
    }

    /// Whether the cell must measure the row once it is visible.
    public var needsMeasurement: Bool {
        if case .automatic = self { return true }
        return false
    }
}
