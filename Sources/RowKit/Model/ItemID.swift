/// A type-erased, sendable identity of a row or a section.
///
/// Rows declare identities of any `Hashable & Sendable` type; the model stores them erased so
/// rows of different types can share a section. Two identities are equal when their underlying
/// values are of the same type and equal (as with `AnyHashable`).
///
/// The hash value is computed once, when the identity is created, so the model's identity index
/// hashes an `Int` rather than re-wrapping the value in `AnyHashable` on every lookup; equal hash
/// values are then confirmed by comparing the values.
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    /// The identity as the row or section declared it.
    public let base: any Hashable & Sendable
    /// `AnyHashable(base).hashValue`, cached (valid for this process only, like every hash value).
    private let cachedHash: Int

    /// Wraps `base`; wrapping an `ItemID` again returns it unchanged.
    public init(_ base: some Hashable & Sendable) {
        if let already = base as? ItemID {
            self = already
        } else {
            self.base = base
            self.cachedHash = AnyHashable(base).hashValue
        }
    }

    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        lhs.cachedHash == rhs.cachedHash && AnyHashable(lhs.base) == AnyHashable(rhs.base)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(cachedHash)
    }

    /// The identity's own description (a string identity prints without quotes).
    public var description: String { String(describing: base) }
}

extension ItemID: ExpressibleByStringLiteral {
    /// Creates a string identity.
    public init(stringLiteral value: String) { self.init(value) }
}

extension ItemID: ExpressibleByIntegerLiteral {
    /// Creates an integer identity.
    public init(integerLiteral value: Int) { self.init(value) }
}
