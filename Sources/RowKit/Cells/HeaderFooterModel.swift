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
