/// Tests on eight bytes at once, for the scans that pass over runs of ordinary bytes (HTML and
/// script escaping, the look for controls in cmark's output). Internal to this module so that
/// they inline: declared `package` and `@inlinable` in `RowKitListing`, they were still called
/// per word from here in a release build (seen in `perf`), which cost more than the tests (the
/// YAML block reader, in `RowKitListing`, has its own two).
///
/// A word is eight bytes loaded in memory order (``load(_:)``). Each test returns the word's high
/// bits (`0x80` in each byte) set where that byte may match: a byte above a true match may be
/// flagged falsely (a borrow or a carry crosses into it), the lowest flagged byte never is, and a
/// word with no flag has no match. So the tests are exact for "does any byte match" and "which
/// byte matches first" (``firstFlagged(_:)``), and flags of several tests may be or-ed.
enum ByteWord {
    /// The bytes of a word.
    static var width: Int { 8 }

    private static var ones: UInt64 { 0x0101_0101_0101_0101 }
    private static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The eight bytes at `bytes`, the first in the lowest bits.
    @inline(__always)
    static func load(_ bytes: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
    }

    /// Flags the bytes below `limit` (at most 0x80).
    @inline(__always)
    static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// Flags the bytes equal to `byte`.
    @inline(__always)
    static func equal(_ byte: UInt8, in word: UInt64) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// The position in its word of the first flagged byte of `flags` (which has a flag).
    @inline(__always)
    static func firstFlagged(_ flags: UInt64) -> Int { flags.trailingZeroBitCount >> 3 }
}
