import Foundation
import Testing

@testable import RowKitListing

/// A YAML listing's problems are at the file's lines and columns, as JSON and CSV count them
/// (lines end at LF, CRLF or CR), even though libyaml also ends lines at NEL, U+2028 and U+2029.
struct YAMLLineBreaksTests {
    private func messages(_ text: String, path: String = "ls.yaml") -> [String] {
        ListingReader.validate(Data(text.utf8), path: path).map(\.description)
    }

    @Test func whenAYAMLStringHoldsALineSeparator_thenLaterProblemsAreAtTheFilesLines() {
        let yaml =
            "version: 1\nsections:\n  - rows:\n      - text: \"a\u{2028}b\"\n        style: fancy\n"
            + "      - {text: \"a\u{85}b\", style: fancy}\n"
        #expect(
            messages(yaml) == [
                "ls.yaml:5:16: unknown row style 'fancy'; expected one of: default, value1, value2, subtitle",
                "ls.yaml:6:30: unknown row style 'fancy'; expected one of: default, value1, value2, subtitle",
            ])
    }

    @Test func whenSeveralSeparatorsShareALine_thenColumnsCountFromTheFilesLineStart() {
        let yaml =
            "version: 1\r\nsections:\r\n  - rows:\r\n      - text: \"a\u{2028}\u{2029}b\u{85}c\"\r\n"
            + "        style: fancy\r\n      - {text: \"x\u{2028}y\u{2028}z\", style: fancy}\n"
        #expect(
            messages(yaml) == [
                "ls.yaml:5:16: unknown row style 'fancy'; expected one of: default, value1, value2, subtitle",
                "ls.yaml:6:32: unknown row style 'fancy'; expected one of: default, value1, value2, subtitle",
            ])
    }

    @Test func whenACommentHoldsALineSeparator_thenTheSyntaxErrorIsAtTheFilesPosition() {
        let yaml = "version: 1\nsections:\n  - rows:\n      # pasted \u{2028} comment\n      - text: x\n"
        #expect(
            messages(yaml) == [
                "ls.yaml:4:18: invalid YAML: did not find expected key (while parsing a block mapping started at 1:1)"
            ])
    }

    @Test func whenTheBytesAreCutInsideASeparatorOrACRLF_thenThePositionsAreTheSame() {
        let text = "ab\u{2028}cd\r\nef\u{85}g\u{2029}\rh\ni"
        let bytes = Array(text.utf8)
        var whole = YAMLLineBreaks()
        bytes.withUnsafeBufferPointer { whole.note($0.baseAddress!, count: $0.count) }
        for cut in 1..<bytes.count {
            var split = YAMLLineBreaks()
            bytes.withUnsafeBufferPointer { buffer in
                split.note(buffer.baseAddress!, count: cut)
                split.note(buffer.baseAddress! + cut, count: buffer.count - cut)
            }
            // libyaml's lines: "ab", "cd", "ef", "g", "", "h", "i".
            for (line, column) in [(0, 1), (1, 1), (2, 0), (3, 0), (3, 1), (5, 0), (6, 0)] {
                #expect(split.position(line: line, column: column) == whole.position(line: line, column: column))
            }
        }
        #expect(whole.position(line: 1, column: 1) == (1, 5))
        #expect(whole.position(line: 3, column: 0) == (2, 4))
        #expect(whole.position(line: 4, column: 0) == (2, 6))
        #expect(whole.position(line: 5, column: 0) == (3, 1))
        #expect(whole.position(line: 6, column: 0) == (4, 1))
    }
}
