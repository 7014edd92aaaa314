import RowKitHTML
import Testing

/// Export errors name what went wrong, and quote listing text so it prints safely on a terminal.
struct ExportErrorTests {
    @Test func whenAnImageErrorQuotesControlOrBidiCharacters_thenTheyAreEscaped() {
        let error = ExportError.imageNotFound(source: "a\u{1B}[2J.png", path: "/tmp/a\u{1B}[2J.png", row: "r\u{202E}1")
        #expect(
            error.description == #"row "r\u{202E}1": image "a\u{1B}[2J.png" not found at /tmp/a\u{1B}[2J.png"#)
        let refused = ExportError.imageRefused(source: "café.png", row: "café", reason: "is not a regular file")
        #expect(refused.description == #"row "café": image "café.png" is not a regular file"#)
    }
}
