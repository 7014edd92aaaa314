/// A type-erased, sendable identity of a row or a section.
///
/// Rows declare identities of any `Hashable & Sendable` type; the model stores them erased so
/// rows of different types can share a section. Two identities are equal when their underlying
/// values are equal as `AnyHashable` values (so values of the same type compare with the type's
/// `==`).
///
/// An identity is three words: the value's hash, computed once when the identity is made, and
/// either the value itself (an `Int`, stored inline: no allocation, no reference count) or a
/// reference to an immutable box holding it (a `String` or any other type). Hashing an identity
/// hashes its cached hash, like hashing an `Int`; two identities with different hashes are unequal
/// without a look inside; two inline ones compare one word, and two references to the same box
/// compare equal at once. Only identities with equal hashes in different boxes compare their
/// values. The model's identity index, the diff and the view's measurement cache all lean on that.
public struct ItemID: Hashable, Sendable, CustomStringConvertible {
    /// The value's `AnyHashable` hash.
    @usableFromInline let hashCode: Int
    /// An inline `Int` value; 0 when `box` holds the value.
    @usableFromInline let bits: Int
    /// The box holding a value that is not an `Int`; `nil` for an inline `Int`.
    @usableFromInline let box: ItemIDBox?

    private init(hashCode: Int, bits: Int, box: ItemIDBox?) {
        self.hashCode = hashCode
        self.bits = bits
        self.box = box
    }

    /// The identity whose words are `bits` and `box` (as `IdentityTable` keeps them): its hash is
    /// the box's, or the integer's own.
    init(bits: Int, box: ItemIDBox?) {
        self.init(hashCode: box?.hash ?? bits.hashValue, bits: bits, box: box)
    }

    /// An integer identity, stored inline.
    public init(_ value: Int) {
        // `AnyHashable(value).hashValue` is the Int's own hash (AnyHashable hashes an integer that
        // fits in 64 bits as that integer; `IdentityTests` checks it), at a tenth of the cost: the
        // boxing and the canonicalizing are skipped.
        self.init(hashCode: value.hashValue, bits: value, box: nil)
    }

    /// A string identity; its hash is computed once, here.
    public init(_ value: String) {
        let box = StringItemIDBox(value)
        self.init(hashCode: box.hash, bits: 0, box: box)
    }

    /// Wraps `base`; wrapping an `ItemID` again returns it unchanged.
    public init(_ base: some Hashable & Sendable) {
        // The common types by their metadata first: in code that is generic over a row type (a
        // row's identity reaching `AnyRow`), each `as?` below is a runtime cast that looks up
        // conformances, several times what the identity itself costs. Other types (an `Int64`,
        // or an `Optional` holding an `Int`, say) take the casts, as before.
        let type = type(of: base)  // the static type: `base` is not an existential
        if type == Int.self {
            self.init(unsafeBitCast(base, to: Int.self))
        } else if type == String.self {
            self.init(unsafeBitCast(base, to: String.self))
        } else if type == ItemID.self {
            self = unsafeBitCast(base, to: ItemID.self)
        } else if let already = base as? ItemID {
            self = already
        } else if let int = base as? Int {
            self.init(int)
        } else if let string = base as? String {
            self.init(string)
        } else {
            let box = TypedItemIDBox(base)
            self.init(hashCode: box.hash, bits: 0, box: box)
        }
    }

    /// The identity as the row or section declared it.
    public var base: any Hashable & Sendable { box?.value ?? bits }

    @inlinable
    public static func == (lhs: ItemID, rhs: ItemID) -> Bool {
        guard lhs.hashCode == rhs.hashCode else { return false }
        // Two inline integers, or the same box: the words decide.
        if lhs.box === rhs.box { return lhs.bits == rhs.bits }
        return differentBoxesEqual(lhs, rhs)
    }

    /// Equality of two identities with equal hashes that are not the same box: two boxes compare
    /// their values; an inline integer and a box compare as `AnyHashable` values (`1 as Int`
    /// equals `1 as Int64`).
    @usableFromInline
    static func differentBoxesEqual(_ lhs: ItemID, _ rhs: ItemID) -> Bool {
        if let left = lhs.box, let right = rhs.box { return left.isEqual(to: right) }
        return AnyHashable(lhs.base) == AnyHashable(rhs.base)
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(hashCode)
    }

    /// The same value `hash(into:)` gives a hasher seeded with `seed`, taken the short way an
    /// `Int` takes (one word hashed once), so a hash table of identities costs what one of
    /// integers costs.
    @inlinable
    public func _rawHashValue(seed: Int) -> Int {
        hashCode._rawHashValue(seed: seed)
    }

    /// The top 16 bits of the cached hash, for searches that compare many at once.
    var shortHash: UInt16 { UInt16(truncatingIfNeeded: hashCode >> 48) }

    /// The identity's own description (a string identity prints without quotes).
    public var description: String { String(describing: base) }
}

/// The box behind an `ItemID` that is not an inline `Int`: immutable after `init`, hence
/// `@unchecked Sendable` (each subclass stores one `Hashable & Sendable` value in a `let`).
@usableFromInline
class ItemIDBox: @unchecked Sendable {
    /// The value's `AnyHashable` hash, computed once.
    let hash: Int

    init(hash: Int) {
        self.hash = hash
    }

    /// The boxed value.
    var value: any Hashable & Sendable { preconditionFailure("ItemIDBox is abstract") }

    /// Whether the two boxed values are equal as `AnyHashable` values.
    @usableFromInline
    func isEqual(to other: ItemIDBox) -> Bool { preconditionFailure("ItemIDBox is abstract") }
}

/// The box of a `String` identity: two of them compare their strings directly.
final class StringItemIDBox: ItemIDBox, @unchecked Sendable {
    let string: String

    init(_ string: String) {
        self.string = string
        super.init(hash: string.hashValue)  // AnyHashable's hash of a String (IdentityTests checks)
    }

    override var value: any Hashable & Sendable { string }

    override func isEqual(to other: ItemIDBox) -> Bool {
        if let other = other as? StringItemIDBox { return string == other.string }
        return AnyHashable(string) == AnyHashable(other.value)
    }
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
