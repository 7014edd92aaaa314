/// Escaping of text for HTML element content and quoted attribute values.
///
/// One function serves both: `&`, `<`, `>`, `"` and `'` become character references; NUL, the C0
/// controls other than tab, line feed and carriage return, DEL and the C1 controls become U+FFFD,
/// so no control character reaches the page. The result is safe inside element content and inside
/// attribute values quoted with either quote; it is not safe in unquoted attributes, `<script>`,
/// `<style>` or URLs (URLs go through ``SafeURL`` first).
public enum HTMLEscaping {
    /// `text`, escaped.
    ///
    /// - Complexity: O(*n*) in the UTF-8 length of `text`.
    public static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        escape(text, appendingTo: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of `text`, escaped, to `output`.
    public static func escape(_ text: String, appendingTo output: inout [UInt8]) {
        var text = text
        text.withUTF8 { escape(utf8: $0, appendingTo: &output) }
    }

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    /// Whether one of the eight bytes of `word` is one ``escape(utf8:appendingTo:)`` may change
    /// (or C2, which starts a C1 control), or a tab or line break.
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        ByteWord.below(0x20, in: word) | ByteWord.equal(UInt8(ascii: "&"), in: word)
            | ByteWord.equal(UInt8(ascii: "<"), in: word) | ByteWord.equal(UInt8(ascii: ">"), in: word)
            | ByteWord.equal(UInt8(ascii: "\""), in: word) | ByteWord.equal(UInt8(ascii: "'"), in: word)
            | ByteWord.equal(0x7F, in: word) | ByteWord.equal(0xC2, in: word) != 0
    }

    /// Appends `utf8` (valid UTF-8), escaped, to `output`.
    static func escape(utf8: UnsafeBufferPointer<UInt8>, appendingTo output: inout [UInt8]) {
        var runStart = 0
        var index = 0
        let count = utf8.count
        func flush(upTo end: Int) {
            if end > runStart { output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<end])) }
        }
        while index < count {
            // Eight bytes at a time while none may be escaped: no `&`, `<`, `>`, `"`, `'`, byte
            // below 0x20, DEL or C2 (tab and line breaks, below 0x20 but kept, are looked at one
            // by one).
            if count - index >= ByteWord.width, !Self.mayNeedEscaping(ByteWord.load(utf8.baseAddress! + index)) {
                index += ByteWord.width
                continue
            }
            let byte = utf8[index]
            let escaped: StaticString?
            var width = 1
            switch byte {
            case UInt8(ascii: "&"): escaped = "&amp;"
            case UInt8(ascii: "<"): escaped = "&lt;"
            case UInt8(ascii: ">"): escaped = "&gt;"
            case UInt8(ascii: "\""): escaped = "&quot;"
            case UInt8(ascii: "'"): escaped = "&#39;"
            case 0x09, 0x0A, 0x0D: escaped = nil
            case 0x00..<0x20, 0x7F: escaped = "\u{FFFD}"
            case 0xC2 where index + 1 < count && (0x80...0x9F).contains(utf8[index + 1]):
                escaped = "\u{FFFD}"  // a C1 control, U+0080 to U+009F
                width = 2
            default: escaped = nil
            }
            if let escaped {
                flush(upTo: index)
                escaped.withUTF8Buffer { output.append(contentsOf: $0) }
                index += width
                runStart = index
            } else {
                index += 1
            }
        }
        flush(upTo: count)
    }
}
