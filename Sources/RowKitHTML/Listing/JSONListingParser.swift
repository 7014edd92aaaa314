/// A strict RFC 8259 JSON parser that builds a ``ListingNode`` tree with a location on every node.
///
/// It never recurses: containers live on an explicit stack capped at ``ListingLimits/maxDepth``.
/// Numbers keep their literal text. The first syntax error stops it, reported at its exact
/// line and column. Input must already be valid UTF-8.
struct JSONListingParser {
    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var column = 1

    /// A container being filled. It stays on the stack while it fills and is mutated in place
    /// there: popping it, appending and pushing it back would copy its array on every item
    /// (the popped value and the rebound payload share storage), which is quadratic.
    private struct Frame {
        /// Whether this is an object (else an array).
        var isObject: Bool
        var location: SourceLocation
        /// The items so far, for an array.
        var items: [ListingNode] = []
        /// The pairs so far, for an object.
        var pairs: [ListingNode.Pair] = []
        /// The key whose value is being parsed, for an object.
        var key = ""
        var keyLocation: SourceLocation
    }

    /// Prepares to parse `bytes` (valid UTF-8, BOM removed) from the file at `file`.
    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    /// Parses the single JSON value that makes up the input.
    ///
    /// - Complexity: O(n) in the input's length.
    mutating func parse() throws(ListingSyntaxError) -> ListingNode {
        var stack: [Frame] = []
        while true {
            skipWhitespace()
            var value: ListingNode
            let start = here
            switch peek {
            case UInt8(ascii: "{"):
                try checkDepth(stack.count, at: start)
                advance()
                skipWhitespace()
                if peek == UInt8(ascii: "}") {
                    advance()
                    value = ListingNode(value: .mapping([]), location: start)
                } else {
                    let (key, keyLocation) = try parseKey(expectation: "a string key or '}'")
                    stack.append(Frame(isObject: true, location: start, key: key, keyLocation: keyLocation))
                    continue
                }
            case UInt8(ascii: "["):
                try checkDepth(stack.count, at: start)
                advance()
                skipWhitespace()
                if peek == UInt8(ascii: "]") {
                    advance()
                    value = ListingNode(value: .sequence([]), location: start)
                } else {
                    stack.append(Frame(isObject: false, location: start, keyLocation: start))
                    continue
                }
            default:
                value = try parseScalar()
            }
            // Attach the finished value to its parent, closing every container that ends here.
            while true {
                guard !stack.isEmpty else {
                    skipWhitespace()
                    if let byte = peek {
                        throw ListingSyntaxError(
                            here, "unexpected \(ListingText.describe(byte: byte)) after the JSON value")
                    }
                    return value
                }
                skipWhitespace()
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].pairs.append(
                        ListingNode.Pair(key: stack[top].key, keyLocation: stack[top].keyLocation, value: value))
                    if peek == UInt8(ascii: ",") {
                        advance()
                        skipWhitespace()
                        let (next, nextLocation) = try parseKey(expectation: "a string key")
                        stack[top].key = next
                        stack[top].keyLocation = nextLocation
                    } else if peek == UInt8(ascii: "}") {
                        advance()
                        let frame = stack.removeLast()
                        value = ListingNode(value: .mapping(frame.pairs), location: frame.location)
                        continue
                    } else {
                        throw unexpected(expecting: "',' or '}'")
                    }
                } else {
                    stack[top].items.append(value)
                    if peek == UInt8(ascii: ",") {
                        advance()
                    } else if peek == UInt8(ascii: "]") {
                        advance()
                        let frame = stack.removeLast()
                        value = ListingNode(value: .sequence(frame.items), location: frame.location)
                        continue
                    } else {
                        throw unexpected(expecting: "',' or ']'")
                    }
                }
                break
            }
        }
    }

    // MARK: - Tokens

    private var here: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Moves past one byte that is not a line break, counting columns in Unicode scalars.
    private mutating func advance() {
        if bytes[index] & 0xC0 != 0x80 { column += 1 }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09:
                advance()
            case 0x0A:
                index += 1
                line += 1
                column = 1
            case 0x0D:
                index += 1
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
                line += 1
                column = 1
            default:
                return
            }
        }
    }

    private func checkDepth(_ depth: Int, at location: SourceLocation) throws(ListingSyntaxError) {
        if depth >= ListingLimits.maxDepth {
            throw ListingSyntaxError(location, "nesting deeper than \(ListingLimits.maxDepth) levels")
        }
    }

    private func unexpected(expecting expectation: String) -> ListingSyntaxError {
        let found = peek.map(ListingText.describe(byte:)) ?? "end of input"
        return ListingSyntaxError(here, "expected \(expectation), found \(found)")
    }

    /// Parses `"key"` and the `:` after it.
    private mutating func parseKey(expectation: String) throws(ListingSyntaxError) -> (String, SourceLocation) {
        let location = here
        guard peek == UInt8(ascii: "\"") else { throw unexpected(expecting: expectation) }
        let key = try parseString()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw unexpected(expecting: "':' after the key") }
        advance()
        return (key, location)
    }

    private mutating func parseScalar() throws(ListingSyntaxError) -> ListingNode {
        let start = here
        guard let byte = peek else { throw unexpected(expecting: "a value") }
        switch byte {
        case UInt8(ascii: "\""):
            let text = try parseString()
            return ListingNode(value: .scalar(text: text, kind: .string, literalIsText: false), location: start)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for word in ["true", "false", "null"] where word.utf8.first == byte {
                let end = index + word.utf8.count
                guard end <= bytes.count, bytes[index..<end].elementsEqual(word.utf8) else {
                    throw ListingSyntaxError(start, "invalid literal; expected '\(word)'")
                }
                for _ in 0..<word.utf8.count { advance() }
                let kind: ListingNode.ScalarKind = word == "null" ? .null : .bool
                return ListingNode(value: .scalar(text: word, kind: kind, literalIsText: false), location: start)
            }
            throw unexpected(expecting: "a value")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = try parseNumber()
            return ListingNode(value: .scalar(text: text, kind: .number, literalIsText: false), location: start)
        default:
            throw unexpected(expecting: "a value")
        }
    }

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and returns its text.
    private mutating func parseNumber() throws(ListingSyntaxError) -> String {
        let startIndex = index
        let start = here
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if peek == UInt8(ascii: "-") { advance() }
        if peek == UInt8(ascii: "0") {
            advance()
            if isDigit(peek) { throw ListingSyntaxError(start, "invalid number: leading zeros are not allowed") }
        } else if isDigit(peek) {
            while isDigit(peek) { advance() }
        } else {
            throw unexpected(expecting: "a digit")
        }
        if peek == UInt8(ascii: ".") {
            advance()
            guard isDigit(peek) else { throw unexpected(expecting: "a digit after '.'") }
            while isDigit(peek) { advance() }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            advance()
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { advance() }
            guard isDigit(peek) else { throw unexpected(expecting: "a digit in the exponent") }
            while isDigit(peek) { advance() }
        }
        return String(decoding: bytes[startIndex..<index], as: UTF8.self)
    }

    /// Parses a string literal starting at its opening quote, decoding escapes.
    ///
    /// - Complexity: O(length); runs without escapes are copied in one step.
    private mutating func parseString() throws(ListingSyntaxError) -> String {
        let start = here
        advance()  // the opening quote
        var buffer: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else {
                throw ListingSyntaxError(start, "unterminated string")
            }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                buffer.append(contentsOf: bytes[runStart..<index])
                advance()
                return String(decoding: buffer, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                buffer.append(contentsOf: bytes[runStart..<index])
                try parseEscape(into: &buffer)
                runStart = index
            } else if byte < 0x20 {
                throw ListingSyntaxError(
                    here, "control character \(ListingText.hex(byte)) in a string; escape it")
            } else {
                advance()
            }
        }
    }

    private mutating func parseEscape(into buffer: inout [UInt8]) throws(ListingSyntaxError) {
        let start = here
        advance()  // the backslash
        guard let byte = peek else { throw ListingSyntaxError(start, "unterminated string") }
        let simple: UInt8?
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): simple = byte
        case UInt8(ascii: "b"): simple = 0x08
        case UInt8(ascii: "f"): simple = 0x0C
        case UInt8(ascii: "n"): simple = 0x0A
        case UInt8(ascii: "r"): simple = 0x0D
        case UInt8(ascii: "t"): simple = 0x09
        case UInt8(ascii: "u"): simple = nil
        default:
            throw ListingSyntaxError(start, "invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
        advance()
        if let simple {
            buffer.append(simple)
            return
        }
        var value = try parseHex4(escapeStart: start)
        if (0xD800...0xDBFF).contains(value) {
            let lowStart = here
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw ListingSyntaxError(start, "invalid \\u escape: unpaired surrogate") }
            advance()
            advance()
            let low = try parseHex4(escapeStart: lowStart)
            guard (0xDC00...0xDFFF).contains(low) else {
                throw ListingSyntaxError(start, "invalid \\u escape: unpaired surrogate")
            }
            value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(value) {
            throw ListingSyntaxError(start, "invalid \\u escape: unpaired surrogate")
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw ListingSyntaxError(start, "invalid \\u escape")
        }
        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    private mutating func parseHex4(escapeStart: SourceLocation) throws(ListingSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek else { throw ListingSyntaxError(escapeStart, "unterminated string") }
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw ListingSyntaxError(escapeStart, "invalid \\u escape: expected 4 hex digits")
            }
            value = value << 4 | UInt32(digit)
            advance()
        }
        return value
    }
}
