/// The text of a row's Markdown body as search sees it: what a reader reads, without the markup.
///
/// The words of ``plainText(_:limit:)`` are indexed (``forEachWord(inMarkdown:_:)``), and a
/// row whose body is on a detail page carries the start of it in its display data, for the
/// excerpt a result found by a body word shows (`search.js` takes an inline body's text from its
/// rendered markup instead).
///
/// Left out: link and image destinations and titles (`](…)`, reference definitions `[x]: …`),
/// HTML tags, comments and autolinks (`<…>` starting with a letter, `/`, `!` or `?`), entities
/// (`&amp;`), bare URLs (`https://…`, `www.…`, to the next space), fenced code's info string, and
/// reference links' labels, and the markup characters of emphasis, code spans, links, headings,
/// block quotes, list items and tables.
/// Kept: the words of the text, of link texts and image descriptions, and of code. A scan of the
/// bytes, not a parse: the same text whatever the Markdown renderer's options, in one pass.
enum SearchBodyText {
    /// The bytes of a detail page's body text that a row's display data carries, at most.
    static let excerptBytes = 1024

    /// Calls `body` with each folded word of `markdown`'s text (see ``SearchText``), in order.
    static func forEachWord(inMarkdown markdown: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try withText(of: markdown, limit: Int.max) { text in try SearchText.forEachWord(inUTF8: text, body) }
    }

    /// The text of `markdown`, runs of white space made one space, cut to at most `limit` UTF-8
    /// bytes (at a character's start).
    static func plainText(_ markdown: String, limit: Int = Int.max) -> String {
        withText(of: markdown, limit: limit) { text in
            var end = text.count
            if end > limit {
                end = limit
                while end > 0 && text[end] & 0xC0 == 0x80 { end -= 1 }
            }
            while end > 0 && text[end - 1] == UInt8(ascii: " ") { end -= 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: text[0..<end]), as: UTF8.self)
        }
    }

    /// Calls `body` with the text of `markdown` as ``scan(_:limit:into:)`` makes it, in a buffer
    /// of its own (the text is never longer than the Markdown).
    private static func withText<Result>(
        of markdown: String, limit: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        var markdown = markdown
        return try markdown.withUTF8 { bytes in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { buffer in
                let count = scan(bytes, limit: limit, into: buffer)
                return try body(UnsafeBufferPointer(rebasing: buffer[0..<count]))
            }
        }
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte >= 0x80
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r")
    }

    /// Whether `bytes` at `index` start with `prefix` (ASCII, compared without case).
    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let start = prefix.utf8Start
        for offset in 0..<count where bytes[index + offset] | 0x20 != start[offset] | 0x20 {
            return false
        }
        return true
    }

    /// The end of the line that `index` is on (the newline's index, or the end).
    private static func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var end = index
        while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
        return end
    }

    /// Writes the text of `bytes` into `text` (at least as long), stopping once it passes
    /// `limit` bytes; returns its length. Every byte written consumes one of `bytes` at least.
    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, limit: Int, into buffer: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var text = TextBuffer(bytes: buffer)
        let count = bytes.count
        var index = 0
        var lineStart = true
        func space() {
            if let last = text.last, last != UInt8(ascii: " ") { text.append(UInt8(ascii: " ")) }
        }
        while index < count && text.count <= limit {
            if lineStart {
                lineStart = false
                index = blockStart(bytes, from: index)
                continue
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: " "):
                space()
                if byte == UInt8(ascii: "\n") { lineStart = true }
                index += 1
            case UInt8(ascii: "]") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "("):
                // A link's or image's destination and title, to the matching parenthesis.
                index += 2
                var depth = 1
                while index < count && depth > 0 {
                    switch bytes[index] {
                    case UInt8(ascii: "\\"): index += 1
                    case UInt8(ascii: "("): depth += 1
                    case UInt8(ascii: ")"): depth -= 1
                    default: break
                    }
                    index += 1
                }
                space()
            case UInt8(ascii: "]") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "["):
                // A reference link's label (`[text][label]`).
                var end = index + 2
                while end < count && bytes[end] != UInt8(ascii: "]") && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                index = end < count && bytes[end] == UInt8(ascii: "]") ? end + 1 : index + 1
            case UInt8(ascii: "["), UInt8(ascii: "]"):
                index += 1
            case UInt8(ascii: "!") where index + 1 < count && bytes[index + 1] == UInt8(ascii: "["):
                index += 2
            case UInt8(ascii: "<"):
                let next = index + 1 < count ? bytes[index + 1] : 0
                let opensTag =
                    (next | 0x20 >= UInt8(ascii: "a") && next | 0x20 <= UInt8(ascii: "z"))
                    || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") || next == UInt8(ascii: "?")
                var end = index + 1
                while opensTag && end < count && bytes[end] != UInt8(ascii: ">") { end += 1 }
                if opensTag && end < count {
                    index = end + 1
                    space()
                } else {
                    text.append(byte)
                    index += 1
                }
            case UInt8(ascii: "&"):
                var end = index + 1
                while end < count && end - index <= 32
                    && (isLetterOrDigit(bytes[end]) && bytes[end] < 0x80 || bytes[end] == UInt8(ascii: "#"))
                {
                    end += 1
                }
                if end < count && end > index + 1 && bytes[end] == UInt8(ascii: ";") {
                    index = end + 1
                    space()
                } else {
                    text.append(byte)
                    index += 1
                }
            case UInt8(ascii: "\\"):
                // An escaped character is itself.
                if index + 1 < count && !isSpace(bytes[index + 1]) {
                    text.append(bytes[index + 1])
                    index += 2
                } else {
                    index += 1
                }
            case UInt8(ascii: "*"), UInt8(ascii: "`"), UInt8(ascii: "~"):
                index += 1
            case UInt8(ascii: "_"):
                // Emphasis, unless inside a word (`snake_case` stays one piece of text).
                let before = text.last.map(isLetterOrDigit) ?? false
                let after = index + 1 < count && isLetterOrDigit(bytes[index + 1])
                if before && after { text.append(byte) }
                index += 1
            case UInt8(ascii: "|"):
                space()
                index += 1
            case UInt8(ascii: "h"), UInt8(ascii: "H"), UInt8(ascii: "w"), UInt8(ascii: "W"):
                let atWordStart = !(text.last.map(isLetterOrDigit) ?? false)
                if atWordStart
                    && (hasPrefix(bytes, at: index, "http://") || hasPrefix(bytes, at: index, "https://")
                        || hasPrefix(bytes, at: index, "www."))
                {
                    while index < count && !isSpace(bytes[index]) && bytes[index] != UInt8(ascii: "<") { index += 1 }
                    space()
                } else {
                    text.append(byte)
                    index += 1
                }
            default:
                text.append(byte)
                index += 1
            }
        }
        return text.count
    }

    /// The text ``scan(_:limit:into:)`` writes, in a buffer as long as the Markdown.
    private struct TextBuffer {
        let bytes: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0

        init(bytes: UnsafeMutableBufferPointer<UInt8>) { self.bytes = bytes }

        var last: UInt8? { count > 0 ? bytes[count - 1] : nil }

        mutating func append(_ byte: UInt8) {
            bytes[count] = byte
            count += 1
        }
    }

    /// Skips the block markup at the start of a line (indentation, block quote marks, a list
    /// item's bullet, a heading's `#`s); a fence line or a reference definition is skipped whole.
    /// Returns where the line's text starts.
    private static func blockStart(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        let count = bytes.count
        var index = start
        while true {
            while index < count && (bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t")) {
                index += 1
            }
            guard index < count else { return index }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                continue
            }
            if (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "*"))
                && index + 1 < count && bytes[index + 1] == UInt8(ascii: " ")
            {
                index += 2
                continue
            }
            break
        }
        if hasPrefix(bytes, at: index, "```") || hasPrefix(bytes, at: index, "~~~") {
            return lineEnd(bytes, from: index)
        }
        if index < count && bytes[index] == UInt8(ascii: "#") {
            var end = index
            while end < count && bytes[end] == UInt8(ascii: "#") { end += 1 }
            if end == count || isSpace(bytes[end]) { return end }
        }
        if index < count && bytes[index] == UInt8(ascii: "[") {
            let end = lineEnd(bytes, from: index)
            var close = index + 1
            while close + 1 < end && bytes[close] != UInt8(ascii: "]") { close += 1 }
            if close + 1 < end && bytes[close] == UInt8(ascii: "]") && bytes[close + 1] == UInt8(ascii: ":") {
                return end
            }
        }
        return index
    }
}
