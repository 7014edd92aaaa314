/// A type-erased, sendable identity of a row or a section.
///
/// Rows declare identities of any `Hashable & Sendable` type; the model stores them erased so
/// rows of different types can share a section. Two identities are equal when their underlying
/// values are equal as `AnyHashable` values (so values of the same type compare with the type's
/// `==`).
///
/// An identity is a reference to an immutable box made when it is created, which holds the value,
/// plus the value's hash: copying an identity is a retain, hashing it hashes one `Int`, two
/// identities with different hashes are unequal without a look inside, and two of the same type
/// compare their values directly, without re-wrapping them. The model's identity index, the diff
/// and the view's measurement cache all lean on that.
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    private let box: ItemIDBox
    /// The value's hash, kept beside the reference so that hashing and most unequal comparisons
    /// (a hash table's probes) never touch the box.
    private let cachedHash: Int

    /// Wraps `base`; wrapping an `ItemID` again returns it unchanged.
    public init(_ base: some Hashable & Sendable) {
        if let already = base as? ItemID {
            self = already
        } else {
            box = TypedItemIDBox(base)
            cachedHash = box.hash
        }
    }

    /// The identity as the row or section declared it.
    public var base: any Hashable & Sendable { box.value }

    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.cachedHash == rhs.cachedHash && (lhs.box === rhs.box || lhs.box.isEqual(to: rhs.box))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cachedHash)
    }

    /// The hash of the identity's value (seeded per process, like every Swift hash), for hash
    /// tables that mix it themselves.
    var hashCode: Int { cachedHash }

    /// The identity's own description (a string identity prints without quotes).
    public var description: String { String(describing: box.value) }
}

/// The box behind an `ItemID`: immutable after `init`, hence `@unchecked Sendable` (its only
/// subclass stores one `Hashable & Sendable` value in a `let`).
class ItemIDBox: @unchecked Sendable {
    /// The value's `AnyHashable` hash, computed once.
    let hash: Int

    init(hash: Int) {
        self.hash = hash
    }

    /// The boxed value.
    var value: any Hashable & Sendable { preconditionFailure("ItemIDBox is abstract") }

    /// Whether the two boxed values are equal as `AnyHashable` values.
    func isEqual(to other: ItemIDBox) -> Bool { preconditionFailure("ItemIDBox is abstract") }
}

/// An `ItemIDBox` holding a `Value`.
final class TypedItemIDBox<Value: Hashable & Sendable>: ItemIDBox, @unchecked Sendable {
    let stored: Value

    init(_ value: Value) {
        stored = value
        super.init(hash: AnyHashable(value).hashValue)
    }

    override var value: any Hashable & Sendable { stored }

    override func isEqual(to other: ItemIDBox) -> Bool {
        // Same dynamic class: same `Value`, compared directly. Otherwise AnyHashable decides
        // (it calls some values of different types equal, such as `1 as Int` and `1 as Int64`).
        if ObjectIdentifier(type(of: other)) == ObjectIdentifier(Self.self) {
            return stored == unsafeDowncast(other, to: Self.self).stored
        }
        return AnyHashable(stored) == AnyHashable(other.value)
    }
}

extension ItemID: ExpressibleByStringLiteral {
    /// Creates a string identity.
    public init(stringLiteral value: String) { self.init(value) }
}

extension ItemID: ExpressibleByIntegerLiteral {
    /// Creates an integer identity.
    public init(integerLiteral value: Int) { self.init(value) }
}
