/// A section's header or footer: a title, or a custom model shown by its own view class.
public struct HeaderFooter: Sendable {
    /// What the header or footer shows.
    public enum Content: Sendable {
        /// A plain title (UIKit's `titleForHeaderInSection`).
        case title(String)
        /// A custom model; `AnyHeaderFooterModel` makes and configures its view.
        case custom(AnyHeaderFooterModel)
    }

    /// What it shows.
    public var content: Content
    /// How it gets its height.
    public var height: HeightPolicy

    /// A title header or footer, estimated at UIKit's grouped-header height.
    public static func title(_ text: String, height: HeightPolicy = .automatic(estimate: 38)) -> HeaderFooter {
        HeaderFooter(content: .title(text), height: height)
    }

    /// A custom header or footer, with the model's height policy.
    public static func custom<M: HeaderFooterModel>(_ model: M) -> HeaderFooter {
        HeaderFooter(content: .custom(AnyHeaderFooterModel(model)), height: model.height)
    }

    /// The title, for title headers and footers.
    public var title: String? {
        if case .title(let text) = content { return text }
        return nil
    }

    /// The reuse identifier of the view that shows it.
    public var reuseIdentifier: ReuseIdentifier {
        switch content {
        case .title: return TitleHeaderFooterView.reuseIdentifier
        case .custom(let model): return model.reuseIdentifier
        }
    }

    /// A new view for it.
    @MainActor public func makeView() -> HeaderFooterView {
        switch content {
        case .title: return TitleHeaderFooterView()
        case .custom(let model): return model.makeView()
        }
    }

    /// Configures `view` to show it; `false` when the view is of the wrong class.
    @MainActor @discardableResult
    public func configure(_ view: HeaderFooterView) -> Bool {
        switch content {
        case .title(let text):
            guard let titled = view as? TitleHeaderFooterView else { return false }
            titled.configure(with: text)
            return true
        case .custom(let model):
            return model.configure(view)
        }
    }
}

/// A custom header or footer model, shown by a view class that configures itself from it.
public protocol HeaderFooterModel: Sendable {
    /// The view class that shows the model.
    associatedtype View: HeaderFooterConfiguring where View.Model == Self
    /// How the header or footer gets its height. Default: automatic, estimated at 38 points.
    var height: HeightPolicy { get }
}

extension HeaderFooterModel {
    public var height: HeightPolicy { .automatic(estimate: 38) }
}

/// A custom header/footer model with its type erased.
public struct AnyHeaderFooterModel: Sendable {
    /// The typed model.
    public let base: any HeaderFooterModel
    /// The reuse identifier of the model's view class.
    public let reuseIdentifier: ReuseIdentifier
    private let makeBody: @MainActor @Sendable () -> HeaderFooterView
    private let configureBody: @MainActor @Sendable (HeaderFooterView) -> Bool

    /// Wraps `model`.
    public init<M: HeaderFooterModel>(_ model: M) {
        base = model
        reuseIdentifier = M.View.reuseIdentifier
        makeBody = { M.View() }
        configureBody = { view in
            guard let typed = view as? M.View else { return false }
            typed.configure(with: model)
            return true
        }
    }

    /// A new view of the model's view class.
    @MainActor public func makeView() -> HeaderFooterView { makeBody() }
    /// Configures `view`; `false` when it is of the wrong class.
    @MainActor public func configure(_ view: HeaderFooterView) -> Bool { configureBody(view) }
}

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
