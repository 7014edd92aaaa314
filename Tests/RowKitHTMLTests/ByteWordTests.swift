import Testing

@testable import RowKitHTML

/// The eight-byte tests against the byte-by-byte answer: whether any byte matches, and which first.
struct ByteWordTests {
    /// Seeded random words, most of their bytes near the values the scans test for (and 0x00, 0xFF,
    /// where borrows and carries start).
    private static func words() -> [[UInt8]] {
        let near: [UInt8] = [
            0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x26, 0x27, 0x3C, 0x3E, 0x5C, 0x7E, 0x7F, 0x80,
            0xC2, 0xE2, 0xFF, 0x61,
        ]
        var state: UInt64 = 0xB17E
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }
        return (0..<20000).map { _ in
            (0..<ByteWord.width).map { _ in
                next() % 3 == 0 ? UInt8(truncatingIfNeeded: next()) : near[Int(next()) % near.count]
            }
        }
    }

    private func check(_ name: String, _ test: (UInt64) -> UInt64, _ matches: (UInt8) -> Bool) {
        for bytes in Self.words() {
            let flags = bytes.withUnsafeBufferPointer { test(ByteWord.load($0.baseAddress!)) }
            let first = bytes.firstIndex(where: matches)
            #expect((flags != 0) == (first != nil), "\(name) \(bytes)")
            if let first, flags != 0 { #expect(ByteWord.firstFlagged(flags) == first, "\(name) \(bytes)") }
        }
    }

    @Test func eachTestFindsWhetherAndWhereAByteMatchesAsALoopDoes() {
        for limit: UInt8 in [0x01, 0x20, 0x7F, 0x80] {
            check("below \(limit)", { ByteWord.below(limit, in: $0) }, { $0 < limit })
        }
        for byte: UInt8 in [0x00, 0x22, 0x26, 0x3C, 0x7F, 0xC2, 0xE2, 0xFF] {
            check("equal \(byte)", { ByteWord.equal(byte, in: $0) }, { $0 == byte })
        }
        check(
            "controls, quote or DEL",
            { ByteWord.below(0x20, in: $0) | ByteWord.equal(0x22, in: $0) | ByteWord.equal(0x7F, in: $0) },
            { $0 < 0x20 || $0 == 0x22 || $0 == 0x7F })
    }
}
