import RowKitListing

/// Hands out stable, unique slugs (file and anchor names) for identities.
///
/// A slug is the identity's description in lower-case ASCII letters and digits, every other run
/// of characters turned into one `-`, trimmed of dashes and cut to 60 characters. When that
/// leaves nothing (an empty or entirely non-ASCII identity) the slug is `item-` followed by the
/// first 8 hex digits of the identity's ``ContentHash``. A slug already handed out gets `-2`,
/// `-3`, ... — the first free one — so the same identities in the same order always get the same
/// slugs.
///
/// Memory: about 8 bytes per slug handed out (it remembers 64-bit hashes of slugs in a compact
/// set, not the strings; a hash collision between two different slugs only costs an unneeded
/// suffix, never a duplicate).
public struct SlugAllocator: Sendable {
    private var used = HashSet64()
    private var reserved = 0

    /// Creates an allocator that has handed out nothing; `reserved` slugs are never handed out.
    public init(reserved: [String] = []) {
        for slug in reserved {
            if used.insert(ContentHash(slug).value) { self.reserved += 1 }
        }
    }

    /// How many slugs have been handed out.
    public var count: Int { used.count - reserved }

    /// The slug of `identity`, without reserving it.
    public static func baseSlug(for identity: String) -> String {
        var slug: [UInt8] = []
        var pendingDash = false
        for byte in identity.utf8 {
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            let isAlnum =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lower)
            if isAlnum {
                if pendingDash && !slug.isEmpty { slug.append(UInt8(ascii: "-")) }
                pendingDash = false
                slug.append(lower)
                if slug.count >= 60 { break }
            } else {
                pendingDash = true
            }
        }
        if slug.isEmpty {
            return "item-" + ContentHash(identity).description.prefix(8)
        }
        return String(decoding: slug, as: UTF8.self)
    }

    /// A slug for `identity` that this allocator has not handed out before, now reserved.
    public mutating func allocate(for identity: String) -> String {
        let base = Self.baseSlug(for: identity)
        if used.insert(ContentHash(base).value) { return base }
        var suffix = 2
        while true {
            let candidate = "\(base)-\(suffix)"
            if used.insert(ContentHash(candidate).value) { return candidate }
            suffix += 1
        }
    }
}
