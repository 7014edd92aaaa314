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
