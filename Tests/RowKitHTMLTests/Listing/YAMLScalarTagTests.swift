import Testing
import Yams

@testable import RowKitHTML

/// The listing reader's byte-level YAML scalar resolution agrees with Yams' regular-expression
/// resolver, which the reader used before it read libyaml's events itself.
struct YAMLScalarTagTests {
    private func resolved(_ text: String) -> String {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { YAMLListingParser.ScalarTag(resolving: UnsafeBufferPointer($0)).name }
    }

    private func expected(_ text: String) -> String {
        Resolver.default.resolveTag(of: Node(text)).rawValue
    }

    @Test func whenAScalarIsTypical_thenItResolvesAsYamsDoes() {
        let cases = [
            "", "~", "null", "Null", "NULL", "nul", "yes", "No", "TRUE", "tRUE", "off", "On", "0", "00", "0_", "-0",
            "+12", "1_000", "0b101", "0b", "0b12", "0o17", "0o", "0o8", "017", "0x1F", "0x", "0xg", "1:30", "1:60",
            "1:5:59", "0:30", "1:", "1.5", "1.", ".5", "-.5", ".5e+3", ".5e3", "1e5", "1E-5", "1e", "1.5e+", "1:30.5",
            "1:30.", "0:30.5", ".inf", "-.Inf", "+.INF", ".iNf", ".nan", "-.nan", ".NaN", "<<", "=", "==",
            "2001-12-14", "2001-1-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
            "2001-12-15T02:59:43.1Z", "2001-12-14 21:59:43", "2001-12-14  1:59:43 Z", "2001-12-14T21:59",
            "2001-12-14T21:59:43.", "2001-12-14T21:59:43+05:0", "row-1", "A item 1", "value1", "default",
        ]
        for text in cases {
            #expect(resolved(text) == expected(text), "\(text)")
        }
    }

    @Test func whenScalarsAreRandomNumberLikeText_thenTheyResolveAsYamsDoes() {
        var random = SeededRandom(seed: 0x5EED_4A11)
        let alphabet = Array("0123456789_-+.:eEoxbTtZ \tinfaNnulyes~<=")
        for _ in 0..<20_000 {
            let length = Int(random.next() % 14)
            let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            #expect(resolved(text) == expected(text), "\(text.debugDescription)")
        }
    }

    /// Yams' resolution of the same texts, kept as a golden file.
    @Test func yamsResolutionIsRecordedAsAGoldenFile() throws {
        var random = SeededRandom(seed: 0x5EED_4A11)
        let alphabet = Array("0123456789_-+.:eEoxbTtZ \tinfaNnulyes~<=")
        var lines: [String] = []
        for _ in 0..<8_000 {
            let length = Int(random.next() % 14)
            let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            lines.append("\(text.debugDescription) \(expected(text).dropFirst("tag:yaml.org,2002:".count))")
        }
        try ReaderGoldenTests.check(lines.joined(separator: "\n") + "\n", golden: "yaml-scalar-tags.txt")
    }
}
