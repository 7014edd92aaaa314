/// Byte-level checks shared by every reader (UTF-8 validation, positions and byte descriptions),
/// and how messages quote listing text.
package enum ListingText {
    /// Validates UTF-8 (RFC 3629) in `bytes[0..<count]`.
    ///
    /// - Returns: How many bytes from the start are whole, valid sequences (`valid`), and the offset
    ///   of the first ill-formed sequence (`invalid`), if any. A sequence cut off by the end of the
    ///   buffer is neither: `valid` stops before it, so the caller can retry it with more bytes, and
    ///   reports it as invalid at the end of the input (`atEnd`).
    /// - Complexity: O(n); runs of ASCII are checked eight bytes at a time.
    static func validateUTF8(
        _ bytes: UnsafePointer<UInt8>, count n: Int, atEnd: Bool
    ) -> (valid: Int, invalid: Int?) {
        var i = 0
        while i < n {
            if i + 8 <= n {
                let word = UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 {
                    i += 8
                    continue
                }
            }
            let lead = bytes[i]
            if lead < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return (i, i)
            }
            let available = min(n - i, length)
            if available >= 2 {
                let second = bytes[i + 1]
                guard second >= low, second <= high else { return (i, i) }
                if available >= 3, bytes[i + 2] & 0xC0 != 0x80 { return (i, i) }
                if available >= 4, bytes[i + 3] & 0xC0 != 0x80 { return (i, i) }
            }
            guard available == length else { return (i, atEnd ? i : nil) }
            i += length
        }
        return (n, nil)
    }

    /// Counts lines and columns over bytes, as an editor shows them for UTF-8 text: 1-based, CR,
    /// LF and CRLF each end one line, columns count Unicode scalars. Feed the bytes before a
    /// position in any number of pieces, then ask ``position(next:)`` with the byte at it.
    struct PositionCounter {
        private var line = 1
        private var column = 1
        /// Whether the last byte counted was a CR, which ends a line unless an LF follows.
        private var pendingCR = false

        /// Counts `bytes[0..<count]`.
        mutating func count(_ bytes: UnsafePointer<UInt8>, _ count: Int) {
            for i in 0..<count {
                let byte = bytes[i]
                if pendingCR {
                    pendingCR = false
                    line += 1
                    column = 1
                    if byte == 0x0A { continue }
                }
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else if byte == 0x0D {
                    pendingCR = true
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
            }
        }

        /// The line and column of the position after the bytes counted, where `next` is the byte
        /// there (`nil` at the end of the input).
        func position(next: UInt8?) -> (line: Int, column: Int) {
            if pendingCR && next != 0x0A { return (line + 1, 1) }
            return (line, column)
        }
    }

    /// A printable description of a byte for diagnostics: `'x'` for visible ASCII, else hex.
    static func describe(byte: UInt8) -> String {
        if byte > 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        switch byte {
        case 0x20: return "a space"
        case 0x09: return "a tab"
        case 0x0A, 0x0D: return "a line break"
        default: return hex(byte)
        }
    }

    /// A printable description of the character that starts at `bytes`, whose `count` bytes are
    /// valid UTF-8 ending at a character's end: as ``describe(byte:)`` for ASCII, else the
    /// character quoted as messages quote text (`'é'`, `'\u{202E}'`), not its first byte.
    static func describe(characterAt bytes: UnsafePointer<UInt8>, count: Int) -> String {
        let lead = bytes[0]
        guard lead >= 0xC2 else { return describe(byte: lead) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        guard count >= length else { return hex(lead) }
        return "'\(shown(String(decoding: UnsafeBufferPointer(start: bytes, count: length), as: UTF8.self)))'"
    }

    /// `byte 0xAB` for a byte.
    static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "byte 0x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    /// The most characters of a value a message quotes.
    package static let shownCharacters = 40
    /// The most Unicode scalars of a value a message quotes (a character may hold many).
    package static let shownScalars = 160

    /// `text` as a message quotes it: shortened, and safe to print on a terminal.
    ///
    /// At most ``shownCharacters`` characters and ``shownScalars`` scalars are kept, followed by
    /// `…` when some were cut, and written as ``escaped(_:)`` writes them.
    ///
    /// - Complexity: O(*k*) in the characters kept, however long `text` is.
    package static func shown(_ text: String) -> String {
        escaped(text, characters: shownCharacters, scalars: shownScalars)
    }

    /// `text` made safe to print on a terminal, whole.
    ///
    /// A scalar that could act on a terminal or hide itself (``needsEscape(_:)``) is written as a
    /// visible escape in Swift's notation, `\u{1B}`: the scalar's value in uppercase hexadecimal,
    /// without leading zeros. A zero-width joiner between two scalars of one character (an emoji
    /// sequence such as 👩‍💻, an Indic conjunct) joins visible text and is kept. Everything else,
    /// accented letters, CJK and emoji included, is kept as written, and so is a backslash.
    ///
    /// - Complexity: O(*n*).
    package static func escaped(_ text: String) -> String {
        escaped(text, characters: .max, scalars: .max)
    }

    /// The first `characters` characters of `text`, at most `scalars` scalars of them (a
    /// character may be cut), escaped, then `…` if some were cut.
    private static func escaped(_ text: String, characters limit: Int, scalars scalarLimit: Int) -> String {
        var result = ""
        var characters = 0
        var scalars = 0
        for character in text {
            guard characters < limit else { return result + "…" }
            characters += 1
            let count = character.unicodeScalars.count
            for (index, scalar) in character.unicodeScalars.enumerated() {
                guard scalars < scalarLimit else { return result + "…" }
                scalars += 1
                let joins = scalar.value == 0x200D && index > 0 && index < count - 1
                if !joins, needsEscape(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// Whether a message writes `scalar` as an escape rather than as itself: C0 controls (tab and
    /// line breaks included), DEL, C1 controls (U+0080–U+009F), which can move the cursor, recolour
    /// or retitle a terminal; and the bidirectional and invisible formatting characters, which can
    /// reorder or hide what a line shows: U+061C, U+200B–U+200F, U+2028–U+202E, U+2060–U+2064,
    /// U+2066–U+206F and U+FEFF.
    package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x206F, 0xFEFF: return true
        default: return false
        }
    }

    /// `bytes` in mebibytes with one decimal, such as "60.0".
    static func mebibytes(_ bytes: Int) -> String {
        let tenths = Int((Double(bytes) / 1_048_576 * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
