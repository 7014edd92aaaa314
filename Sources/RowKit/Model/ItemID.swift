/// A type-erased, sendable identity of a row or a section.
///
/// Rows declare identities of any `Hashable & Sendable` type; the model stores them erased so
/// rows of different types can share a section. Two identities are equal when their underlying
/// values are of the same type and equal (as with `AnyHashable`).
///
/// The identity is boxed in an `AnyHashable` once, when it is created, and its hash value is cached,
/// so the model's identity index and the diff hash an `Int` and compare boxed values without
/// re-wrapping them on every lookup.
public struct ItemID: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// The identity as the row or section declared it.
    public let base: any Hashable & Sendable
    // @unchecked: besides `base` and an `Int`, the only stored value is `boxed`, which wraps the
    // same `Hashable & Sendable` value as `base` (the initializer accepts nothing else).
    private let boxed: AnyHashable
    private let cachedHash: Int

    /// Wraps `base`; wrapping an `ItemID` again returns it unchanged.
    public init(_ base: some Hashable & Sendable) {
        if let already = base as? ItemID {
            self = already
        } else {
            self.base = base
            self.boxed = AnyHashable(base)
            self.cachedHash = boxed.hashValue
        }
    }

    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.cachedHash == rhs.cachedHash && lhs.boxed == rhs.boxed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cachedHash)
    }

    /// The identity's own description (a string identity prints without quotes).
    public var description: String { String(describing: boxed.base) }
}

extension ItemID: ExpressibleByStringLiteral {
    /// Creates a string identity.
    public init(stringLiteral value: String) { self.init(value) }
}

extension ItemID: ExpressibleByIntegerLiteral {
    /// Creates an integer identity.
    public init(integerLiteral value: Int) { self.init(value) }
}
