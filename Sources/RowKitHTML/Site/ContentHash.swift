/// A stable 64-bit content hash (FNV-1a), printed as 16 lower-case hex digits.
///
/// Used for change detection in the manifest, content-addressed asset names and slug suffixes.
/// Not cryptographic: it guards against accidental change, not against an adversary choosing
/// collisions. Stable across runs, processes and platforms (unlike `Hasher`).
public struct ContentHash: Hashable, Sendable, CustomStringConvertible {
    /// The hash value.
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of no bytes.
    public init() {}

    /// The hash of `bytes`.
    public init(_ bytes: some Sequence<UInt8>) { update(bytes) }

    /// The hash of the UTF-8 bytes of `string`.
    public init(_ string: String) { update(string.utf8) }

    /// Adds `bytes` to the hash.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        var hash = value
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            for byte in buffer { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        if handled == nil {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }
        value = hash
    }

    /// 16 lower-case hex digits.
    public var description: String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
