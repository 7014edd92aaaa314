import Synchronization

/// The fully qualified names of the classes identified so far: a name is made once per class
/// (`String(reflecting:)` walks the type's metadata, about a microsecond), not once per row.
/// Classes are never unloaded, so the keys stay valid. Only `withReflectedNames` touches it.
nonisolated(unsafe) private var reflectedNames: [ObjectIdentifier: String] = [:]

/// Guards `reflectedNames`: a spin lock on an atomic flag, held for one dictionary lookup or
/// insertion. Its acquiring and releasing orderings are what ThreadSanitizer sees (it does not
/// see the futex inside `Mutex`, and reported its guarded accesses as races).
private let reflectedNamesLock = Atomic<Bool>(false)

private func withReflectedNames<T>(_ body: (inout [ObjectIdentifier: String]) -> T) -> T {
    while !reflectedNamesLock.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {}
    defer { reflectedNamesLock.store(false, ordering: .releasing) }
    return body(&reflectedNames)
}

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
        let key = ObjectIdentifier(type)
        if let known = withReflectedNames({ $0[key] }) {
            name = known
            return
        }
        let made = String(reflecting: type)
        withReflectedNames { $0[key] = made }
        name = made
    }

    public var description: String { name }
}
