/// The open base class of header and footer views.
@MainActor
open class HeaderFooterView {
    /// The identifier views of this class are pooled under.
    nonisolated open class var reuseIdentifier: ReuseIdentifier { ReuseIdentifier(self) }
    /// Creates an empty view.
    public required init() {}
    /// Resets per-section state before reuse.
    open func prepareForReuse() {}
    /// The height the view needs for `width`. Default: 38 points.
    open func measureHeight(width: Double) -> Double { 38 }
}

/// A header/footer view that configures itself from one model type.
@MainActor
public protocol HeaderFooterConfiguring: HeaderFooterView {
    /// The model type.
    associatedtype Model
    /// Shows `model`.
    func configure(with model: Model)
}

/// The view of title headers and footers.
@MainActor
public final class TitleHeaderFooterView: HeaderFooterView {
    /// The title shown, or `nil` while pooled.
    public private(set) var title: String?
    /// Shows `title`.
    public func configure(with title: String) { self.title = title }
    public override func prepareForReuse() { title = nil }
    public override func measureHeight(width: Double) -> Double {
        let lines = StandardCell.lineCount(of: title ?? "", width: max(width - 32, 16), fontSize: 13)
        return 22 + Double(lines) * 16
    }
}
