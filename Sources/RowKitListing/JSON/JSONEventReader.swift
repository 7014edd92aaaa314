/// A strict RFC 8259 JSON parser that reads a listing as a stream of ``ListingEvent``s, with a
/// line and column on every one.
///
/// It never recurses: open containers are counted on an explicit stack capped at
/// ``ListingLimits/maxDepth``. Numbers keep their literal text; a string or number longer than
/// ``ListingLimits/maxValueSize`` is an error. The first syntax error stops it, reported at its
/// exact line and column (``error``). Input must already be valid UTF-8 (``ListingInput``).
final class JSONEventReader {
    private let input: ListingInput
    private let file: String
    private var line = 1
    private var column = 1
    /// For each open container, whether it is an object.
    private var stack: [Bool] = []
    /// Whether the next thing is a value (else the end of one: a comma, a bracket or the end).
    private var expectingValue = true
    private var stopped = false
    /// An event made together with the one returned (a key after `{`, an end after `{}`).
    private var queued: ListingEvent?
    /// The syntax error that stopped the parser.
    private(set) var error: ListingDiagnostic?

    init(input: ListingInput, file: String) {
        self.input = input
        self.file = file
    }

    /// The next event, or `nil` at the end of the value or after an error.
    func next() -> ListingEvent? {
        if let queued {
            self.queued = nil
            return queued
        }
        guard !stopped else { return nil }
        do {
            while true {
                if expectingValue {
                    return try value()
                }
                if let event = try afterValue() { return event }
                if stopped { return nil }
            }
        } catch {
            self.error = error.diagnostic
            stopped = true
            return nil
        }
    }

    /// Reads a value: a scalar, or the start of a container (with its first key, or its end).
    private func value() throws(ListingSyntaxError) -> ListingEvent {
        skipWhitespace()
        let start = here
        switch peek {
        case UInt8(ascii: "{"):
            try checkDepth(at: start)
            advance()
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                advance()
                expectingValue = false
                queued = .end
            } else {
                let (key, keyLine, keyColumn) = try parseKey(expectation: "a string key or '}'")
                stack.append(true)
                queued = .key(key, keyLine, keyColumn)
            }
            return .mappingStart(start.line, start.column)
        case UInt8(ascii: "["):
            try checkDepth(at: start)
            advance()
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                advance()
                expectingValue = false
                queued = .end
            } else {
                stack.append(false)
            }
            return .sequenceStart(start.line, start.column)
        default:
            let event = try parseScalar()
            expectingValue = false
            return event
        }
    }

    /// After a value: a comma and the next key, or the end of containers, or the end of input.
    private func afterValue() throws(ListingSyntaxError) -> ListingEvent? {
        skipWhitespace()
        guard let isObject = stack.last else {
            if peek != nil {
                throw ListingSyntaxError(here, "unexpected \(foundCharacter) after the JSON value")
            }
            stopped = true
            return nil
        }
        if isObject {
            if peek == UInt8(ascii: ",") {
                advance()
                skipWhitespace()
                let (key, keyLine, keyColumn) = try parseKey(expectation: "a string key")
                expectingValue = true
                return .key(key, keyLine, keyColumn)
            } else if peek == UInt8(ascii: "}") {
                advance()
                stack.removeLast()
                return .end
            }
            throw unexpected(expecting: "',' or '}'")
        }
        if peek == UInt8(ascii: ",") {
            advance()
            expectingValue = true
            return nil
        } else if peek == UInt8(ascii: "]") {
            advance()
            stack.removeLast()
            return .end
        }
        throw unexpected(expecting: "',' or ']'")
    }

    // MARK: - Tokens

    private var here: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    /// The character at the reading position (which holds one), described for a message.
    private var foundCharacter: String {
        ListingText.describe(characterAt: input.bytes + input.position, count: input.limit - input.position)
    }

    /// The next byte, reading more input when the buffer is used up; `nil` at the end.
    private var peek: UInt8? {
        if input.position == input.limit, !input.refill() { return nil }
        return input.bytes[input.position]
    }

    /// Moves past one byte that is not a line break, counting columns in Unicode scalars.
    private func advance() {
        if input.bytes[input.position] & 0xC0 != 0x80 { column += 1 }
        input.position += 1
    }

    /// Makes at least `count` bytes available after the position, if the input has them.
    private func ensure(_ count: Int) -> Bool {
        while input.limit - input.position < count {
            if !input.refill() { return false }
        }
        return true
    }

    private func skipWhitespace() {
        while true {
            if input.position == input.limit, !input.refill() { return }
            switch input.bytes[input.position] {
            case 0x20, 0x09:
                advance()
            case 0x0A:
                input.position += 1
                line += 1
                column = 1
            case 0x0D:
                input.position += 1
                if peek == 0x0A { input.position += 1 }
                line += 1
                column = 1
            default:
                return
            }
        }
    }

    /// The message for a control character written raw in a string: what it is and its escape.
    private static func rawControlMessage(_ byte: UInt8) -> String {
        switch byte {
        case 0x0A, 0x0D:
            return "a line break in a string (is its closing quote missing?); inside a string write it as "
                + (byte == 0x0A ? #"\n"# : #"\r"#)
        case 0x09:
            return #"a tab in a string; write it as \t"#
        default:
            let digits = String(byte, radix: 16, uppercase: true)
            return "control character \(ListingText.hex(byte)) in a string; write it as \\u"
                + String(repeating: "0", count: 4 - digits.count) + digits
        }
    }

    private func checkDepth(at location: SourceLocation) throws(ListingSyntaxError) {
        if stack.count >= ListingLimits.maxDepth {
            throw ListingSyntaxError(location, "nesting deeper than \(ListingLimits.maxDepth) levels")
        }
    }

    private func unexpected(expecting expectation: String) -> ListingSyntaxError {
        let found = peek == nil ? "end of input" : foundCharacter
        return ListingSyntaxError(here, "expected \(expectation), found \(found)")
    }

    private func tooLong(_ start: SourceLocation) -> ListingSyntaxError {
        ListingSyntaxError(start, "a value longer than the \(ListingLimits.maxValueSize / 1_048_576) MiB limit")
    }

    /// Parses `"key"` and the `:` after it.
    private func parseKey(expectation: String) throws(ListingSyntaxError) -> (String, Int, Int) {
        let location = here
        guard peek == UInt8(ascii: "\"") else { throw unexpected(expecting: expectation) }
        let key = try parseString()
        skipWhitespace()
        guard peek == UInt8(ascii: ":") else { throw unexpected(expecting: "':' after the key") }
        advance()
        return (key, location.line, location.column)
    }

    private func parseScalar() throws(ListingSyntaxError) -> ListingEvent {
        let start = here
        guard let byte = peek else { throw unexpected(expecting: "a value") }
        switch byte {
        case UInt8(ascii: "\""):
            let text = try parseString()
            return .scalar(text, .string, false, start.line, start.column)
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            for word in ["true", "false", "null"] where word.utf8.first == byte {
                let length = word.utf8.count
                guard ensure(length),
                    UnsafeBufferPointer(start: input.bytes + input.position, count: length).elementsEqual(word.utf8)
                else {
                    throw ListingSyntaxError(start, "invalid literal; expected '\(word)'")
                }
                for _ in 0..<length { advance() }
                return .scalar(word, word == "null" ? .null : .bool, false, start.line, start.column)
            }
            throw unexpected(expecting: "a value")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let text = try parseNumber()
            return .scalar(text, .number, false, start.line, start.column)
        default:
            throw unexpected(expecting: "a value")
        }
    }

    /// Parses `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?` and returns its text.
    private func parseNumber() throws(ListingSyntaxError) -> String {
        let start = here
        var text: [UInt8] = []
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        func take() throws(ListingSyntaxError) {
            text.append(input.bytes[input.position])
            advance()
            if text.count > ListingLimits.maxValueSize { throw tooLong(start) }
        }
        if peek == UInt8(ascii: "-") { try take() }
        if peek == UInt8(ascii: "0") {
            try take()
            if isDigit(peek) { throw ListingSyntaxError(start, "invalid number: leading zeros are not allowed") }
        } else if isDigit(peek) {
            while isDigit(peek) { try take() }
        } else {
            throw unexpected(expecting: "a digit")
        }
        if peek == UInt8(ascii: ".") {
            try take()
            guard isDigit(peek) else { throw unexpected(expecting: "a digit after '.'") }
            while isDigit(peek) { try take() }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            try take()
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { try take() }
            guard isDigit(peek) else { throw unexpected(expecting: "a digit in the exponent") }
            while isDigit(peek) { try take() }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Whether `byte` ends a run of a string's bytes that are copied as they are: the closing
    /// quote, an escape, or a control character (an error).
    private static func endsStringRun(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20
    }

    /// Parses a string literal starting at its opening quote, decoding escapes.
    ///
    /// - Complexity: O(length); runs without escapes are copied in one step.
    private func parseString() throws(ListingSyntaxError) -> String {
        let start = here
        advance()  // the opening quote
        // The common case: the whole string is in the buffer and has no escape.
        let (end, scalars) = input.scan(until: Self.endsStringRun)
        if end < input.limit, input.bytes[end] == UInt8(ascii: "\"") {
            let text = String(
                decoding: UnsafeBufferPointer(start: input.bytes + input.position, count: end - input.position),
                as: UTF8.self)
            column += scalars + 1
            input.position = end + 1
            return text
        }
        var buffer: [UInt8] = []
        while true {
            if input.position == input.limit, !input.refill() {
                throw ListingSyntaxError(start, "unterminated string")
            }
            let base = input.bytes
            let limit = input.limit
            let (index, scalars) = input.scan(until: Self.endsStringRun)
            buffer.append(contentsOf: UnsafeBufferPointer(start: base + input.position, count: index - input.position))
            input.position = index
            column += scalars
            if buffer.count > ListingLimits.maxValueSize { throw tooLong(start) }
            guard index < limit else { continue }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                advance()
                return String(decoding: buffer, as: UTF8.self)
            } else if byte == UInt8(ascii: "\\") {
                try parseEscape(into: &buffer)
            } else {
                throw ListingSyntaxError(here, Self.rawControlMessage(byte))
            }
        }
    }

    private func parseEscape(into buffer: inout [UInt8]) throws(ListingSyntaxError) {
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
            let shown =
                byte > 0x20 && byte < 0x7F
                ? " '\\\(Character(Unicode.Scalar(byte)))'" : ": a backslash before \(foundCharacter)"
            throw ListingSyntaxError(start, "invalid escape\(shown)")
        }
        advance()
        if let simple {
            buffer.append(simple)
            return
        }
        var value = try parseHex4(escapeStart: start)
        if (0xD800...0xDBFF).contains(value) {
            let lowStart = here
            guard ensure(2), input.bytes[input.position] == UInt8(ascii: "\\"),
                input.bytes[input.position + 1] == UInt8(ascii: "u")
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

    private func parseHex4(escapeStart: SourceLocation) throws(ListingSyntaxError) -> UInt32 {
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

extension JSONEventReader: ListingEventSource {
    /// The JSON reader's one problem, a syntax error, ends its stream.
    var hasProblems: Bool { false }
}
