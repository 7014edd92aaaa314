/// A type-erased, sendable identity of a row or a section.
///
/// Rows declare identities of any `Hashable & Sendable` type; the model stores them erased so
/// rows of different types can share a section. Two identities are equal when their underlying
/// values are equal as `AnyHashable` values (so values of the same type compare with the type's
/// `==`).
///
/// An identity is one reference to an immutable box made when it is created, which holds the
/// value and its hash: copying an identity is a retain, hashing it hashes one `Int`, and comparing
/// two identities of the same type compares the values directly, without re-wrapping them. The
/// model's identity index, the diff and the view's measurement cache all lean on that.
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    private let box: ItemIDBox

    /// Wraps `base`; wrapping an `ItemID` again returns it unchanged.
    public init(_ base: some Hashable & Sendable) {
        if let already = base as? ItemID {
            self = already
        } else {
            box = TypedItemIDBox(base)
        }
    }

    /// The identity as the row or section declared it.
    public var base: any Hashable & Sendable { box.value }

    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.box === rhs.box || (lhs.box.hash == rhs.box.hash && lhs.box.isEqual(to: rhs.box))
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(box.hash)
    }

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
