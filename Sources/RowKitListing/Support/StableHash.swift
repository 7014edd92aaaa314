/// A fast, stable 64-bit hash (the XXH64 construction, seed 0): the same bytes give the same value
/// on every run, process and platform, unlike `Hasher`.
///
/// Used where many bytes must be hashed quickly: listing files (to tell an unchanged input), row
/// identities and slugs (for uniqueness in bounded memory) and the exporter's source keys. Not
/// cryptographic: it guards against accidental change, not against an adversary choosing
/// collisions. Feed bytes in any number of pieces; the value depends only on their concatenation.
package struct StableHash: Sendable {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var v1: UInt64 = prime1 &+ prime2
    private var v2: UInt64 = prime2
    private var v3: UInt64 = 0
    private var v4: UInt64 = 0 &- prime1
    private var total = 0
    /// Bytes not yet part of a 32-byte stripe.
    private var pending: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
    private var pendingCount = 0

    /// A hash of nothing yet.
    package init() {}

    /// The hash of `bytes`.
    package init(_ bytes: UnsafeRawBufferPointer) {
        update(bytes)
    }

    /// The hash of the UTF-8 bytes of `text`.
    package static func of(_ text: String) -> UInt64 {
        var copy = text
        return copy.withUTF8 { utf8 in
            var hash = StableHash()
            hash.update(UnsafeRawBufferPointer(utf8))
            return hash.value
        }
    }

    /// The hash of `bytes`.
    package static func of(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { StableHash($0).value }
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ lane: UInt64) -> UInt64 {
        let mixed = accumulator &+ lane &* prime2
        return ((mixed << 31) | (mixed >> 33)) &* prime1
    }

    @inline(__always)
    private static func merge(_ hash: UInt64, _ accumulator: UInt64) -> UInt64 {
        (hash ^ round(0, accumulator)) &* prime1 &+ prime4
    }

    /// Adds the bytes of a value that is not a byte buffer (a number, for instance).
    package mutating func update<T: BitwiseCopyable>(value: T) {
        withUnsafeBytes(of: value) { update($0) }
    }

    /// Adds the UTF-8 bytes of `text` and a separator, so `("ab", "c")` and `("a", "bc")` differ.
    package mutating func update(_ text: String) {
        var copy = text
        copy.withUTF8 { update(UnsafeRawBufferPointer($0)) }
        update(value: UInt64(text.utf8.count))
    }

    /// Adds `bytes`.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var pointer = bytes.baseAddress, !bytes.isEmpty else { return }
        var remaining = bytes.count
        total += remaining
        if pendingCount > 0 {
            let take = min(32 - pendingCount, remaining)
            withUnsafeMutableBytes(of: &pending) { stripe in
                (stripe.baseAddress! + pendingCount).copyMemory(from: pointer, byteCount: take)
            }
            pendingCount += take
            pointer += take
            remaining -= take
            guard pendingCount == 32 else { return }
            withUnsafeBytes(of: pending) { consume(stripe: $0.baseAddress!) }
            pendingCount = 0
        }
        while remaining >= 32 {
            consume(stripe: pointer)
            pointer += 32
            remaining -= 32
        }
        if remaining > 0 {
            withUnsafeMutableBytes(of: &pending) { stripe in
                stripe.baseAddress!.copyMemory(from: pointer, byteCount: remaining)
            }
            pendingCount = remaining
        }
    }

    @inline(__always)
    private mutating func consume(stripe: UnsafeRawPointer) {
        v1 = Self.round(v1, UInt64(littleEndian: stripe.loadUnaligned(as: UInt64.self)))
        v2 = Self.round(v2, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
        v3 = Self.round(v3, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 16, as: UInt64.self)))
        v4 = Self.round(v4, UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
    }

    /// The hash of everything added so far.
    package var value: UInt64 {
        var hash: UInt64
        if total >= 32 {
            hash =
                ((v1 << 1) | (v1 >> 63)) &+ ((v2 << 7) | (v2 >> 57)) &+ ((v3 << 12) | (v3 >> 52))
                &+ ((v4 << 18) | (v4 >> 46))
            hash = Self.merge(hash, v1)
            hash = Self.merge(hash, v2)
            hash = Self.merge(hash, v3)
            hash = Self.merge(hash, v4)
        } else {
            hash = Self.prime5
        }
        hash &+= UInt64(total)
        withUnsafeBytes(of: pending) { stripe in
            var offset = 0
            while offset + 8 <= pendingCount {
                let lane = UInt64(littleEndian: stripe.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                hash ^= Self.round(0, lane)
                hash = ((hash << 27) | (hash >> 37)) &* Self.prime1 &+ Self.prime4
                offset += 8
            }
            if offset + 4 <= pendingCount {
                let lane = UInt64(UInt32(littleEndian: stripe.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                hash ^= lane &* Self.prime1
                hash = ((hash << 23) | (hash >> 41)) &* Self.prime2 &+ Self.prime3
                offset += 4
            }
            while offset < pendingCount {
                hash ^= UInt64(stripe[offset]) &* Self.prime5
                hash = ((hash << 11) | (hash >> 53)) &* Self.prime1
                offset += 1
            }
        }
        hash ^= hash >> 33
        hash &*= Self.prime2
        hash ^= hash >> 29
        hash &*= Self.prime3
        hash ^= hash >> 32
        return hash
    }

    /// The value as 16 lower-case hex digits.
    package var hex: String { Self.hex(value) }

    /// `value` as 16 lower-case hex digits.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
