/// The reuse identifier of a cell or header/footer view class, derived from the class itself.
///
/// Equal for the same class and distinct for different classes, including classes of the same
/// name in different modules. `name` is the fully qualified class name, for pools that intern
/// strings and for dumps; nothing is ever looked up by it.
public struct ReuseIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The fully qualified name of the class (`Module.Type`).
    public let name: String

    /// The identifier of `type`.
    public init(_ type: AnyClass) {
        self.name = String(reflecting: type)
    }

    public var description: String { name }
}
