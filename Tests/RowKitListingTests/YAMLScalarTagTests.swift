import Foundation
import Testing

@testable import RowKitListing

/// The reader's byte-level YAML scalar resolution agrees with the regular-expression resolver of
/// Yams (which the reader once used): its results on 8,000 seeded random number-like texts are
/// kept in `Fixtures/golden/yaml-scalar-tags.txt`.
struct YAMLScalarTagTests {
    private func resolved(_ text: String) -> String {
        var bytes = Array(text.utf8)
        let name = bytes.withUnsafeMutableBufferPointer { ScalarTag(resolving: UnsafeBufferPointer($0)).name }
        return String(name.dropFirst("tag:yaml.org,2002:".count))
    }

    @Test func whenAScalarIsTypical_thenItResolvesByTheYAML11Rules() {
        let cases: [(String, String)] = [
            ("", "null"), ("~", "null"), ("null", "null"), ("Null", "null"), ("NULL", "null"), ("nul", "str"),
            ("yes", "bool"), ("No", "bool"), ("TRUE", "bool"), ("tRUE", "str"), ("off", "bool"), ("On", "bool"),
            ("0", "int"), ("00", "int"), ("0_", "int"), ("-0", "int"), ("+12", "int"), ("1_000", "int"),
            ("0b101", "int"), ("0b", "str"), ("0b12", "str"), ("0o17", "int"), ("0o", "str"), ("0o8", "str"),
            ("017", "int"), ("0x1F", "int"), ("0x", "str"), ("0xg", "str"), ("1:30", "int"), ("1:60", "str"),
            ("1:5:59", "int"), ("0:30", "str"), ("1:", "str"), ("1.5", "float"), ("1.", "float"), (".5", "float"),
            ("-.5", "str"), (".5e+3", "float"), (".5e3", "str"), ("1e5", "float"), ("1E-5", "float"), ("1e", "str"),
            ("1.5e+", "str"), ("1:30.5", "float"), ("1:30.", "float"), ("0:30.5", "float"), (".inf", "float"),
            ("-.Inf", "float"), ("+.INF", "float"), (".iNf", "str"), (".nan", "float"), ("-.nan", "str"),
            (".NaN", "float"), ("<<", "merge"), ("=", "value"), ("==", "str"), ("2001-12-14", "timestamp"),
            ("2001-1-14", "str"), ("2001-12-14t21:59:43.10-05:00", "timestamp"),
            ("2001-12-14 21:59:43.10 -5", "timestamp"),
            ("2001-12-15T02:59:43.1Z", "timestamp"), ("2001-12-14 21:59:43", "timestamp"),
            ("2001-12-14  1:59:43 Z", "timestamp"), ("2001-12-14T21:59", "str"), ("2001-12-14T21:59:43.", "timestamp"),
            ("2001-12-14T21:59:43+05:0", "str"), ("row-1", "str"), ("A item 1", "str"), ("value1", "str"),
            ("default", "str"),
        ]
        for (text, tag) in cases {
            #expect(resolved(text) == tag, "\(text.debugDescription)")
        }
    }

    @Test func whenAScalarStartsWithALetter_thenTheShortcutAgreesWithEveryRule() {
        // Seeded random texts of up to seven characters over letters (those the bool and null
        // words start with among them), digits and the characters other rules start with.
        let alphabet = Array("yYnNtTfFoOaAeEsSuUlLrR019.-+~<=:_ x".utf8)
        var state: UInt64 = 0x7A65
        for _ in 0..<20000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var bytes = (0..<Int(state >> 61)).map { step -> UInt8 in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return alphabet[Int(state >> 33) % alphabet.count]
            }
            for word in ["yes", "No", "TRUE", "false", "Off", "on", "null", "NULL", "y", "n"] where state & 0xF == 0 {
                bytes = Array(word.utf8)
            }
            bytes.withUnsafeMutableBufferPointer { buffer in
                let text = UnsafeBufferPointer(buffer)
                #expect(
                    ScalarTag(resolving: text).name == ScalarTag.scanned(text).name,
                    "\(String(decoding: text, as: UTF8.self).debugDescription)")
            }
        }
    }

    @Test func whenScalarsAreRandomNumberLikeText_thenTheyResolveAsYamsDid() throws {
        var random = SeededRandom(seed: 0x5EED_4A11)
        let alphabet = Array("0123456789_-+.:eEoxbTtZ \tinfaNnulyes~<=")
        var lines: [String] = []
        for _ in 0..<8_000 {
            let length = Int(random.next() % 14)
            let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
            lines.append("\(text.debugDescription) \(resolved(text))")
        }
        let golden = try String(
            contentsOf: ReaderGolden.folder.appendingPathComponent("yaml-scalar-tags.txt"), encoding: .utf8)
        #expect(lines.joined(separator: "\n") + "\n" == golden)
    }
}
