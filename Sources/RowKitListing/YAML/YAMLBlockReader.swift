#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads the YAML that listings are mostly written in, straight from the input's bytes, and gives
/// exactly the events ``YAMLEventReader`` gives for it, several times faster than libyaml.
///
/// The subset, line by line (anything else is ``Step/unsupported``):
/// - LF line ends; no tab, carriage return or other character that YAML forbids or treats as a
///   line break (NEL, U+2028, U+2029), no byte order mark inside; blank lines and `#` comments.
/// - The root is a block mapping at column 1. Block mappings of plain keys (`[A-Za-z0-9_]`, then
///   also `-` and `.`, no two equal in one mapping) and block sequences (`- `), nested by
///   indentation, a nested collection on the lines after its key, more indented (a sequence may
///   also be at the key's own column); a mapping may start on a sequence entry's line
///   (`- key: value`).
/// - Values on the key's (or entry's) line: a plain scalar on one line (not starting with an
///   indicator, without `: ` or a trailing `:`), a one-line single- or double-quoted scalar
///   (escapes `\\ \" \n \t \r \uXXXX`), or a literal block scalar (`|` or `|-`) whose first
///   line holds text.
/// - At most ``ListingLimits/maxDepth`` levels, values of at most ``ListingLimits/maxValueSize``
///   bytes, lines of at most ``maxLine`` bytes, and an input that ends cleanly (no ill-formed
///   UTF-8, no read error).
///
/// No event is handed out before the line that could still change it has been read whole and
/// found inside the subset (a scalar waits for the next line's indentation, which could continue
/// it), so at ``Step/unsupported`` the events handed out so far are the first events libyaml
/// gives for the whole document, and ``YAMLReader`` goes on with libyaml from there.
struct YAMLBlockReader {
    enum Step {
        case event(ListingEvent)
        /// The document has ended, inside the subset.
        case end
        /// The input leaves the subset (or ends badly): no event after the last one is valid.
        case unsupported
    }

    /// The longest line read, in bytes (a longer one is left to libyaml).
    static let maxLine = 1 << 20
    /// Most keys in one mapping (a mapping with more is left to libyaml).
    static let maxKeys = 64

    private struct Frame {
        var isMapping: Bool
        /// The column (from 0) of its keys or entries.
        var indent: Int
        /// Where its keys start in ``YAMLBlockReader/keys``.
        var keysStart: Int
        /// For a sequence, whether it is a mapping's value at the mapping's own column (it ends at
        /// the first line there that is not an entry).
        var indentless = false
    }

    /// A line of the input: `bytes[start..<end]`, without its line feed.
    private struct Line {
        var start: Int
        var end: Int
        var hasBreak: Bool
    }

    /// A literal block scalar being read.
    private struct Literal {
        var line: Int
        var column: Int
        var owner: Int
        var strip: Bool
        /// Its content's indentation, once its first line is read.
        var indent: Int?
        var text: [UInt8] = []
        var blankLines = 0
        var endedWithBreak = false
    }

    private let input: ListingInput
    /// The number of the next line (from 1).
    private var lineNumber = 1
    private var stack: [Frame] = []
    private var keys: [String] = []
    /// Events ready to hand out, from `head` on.
    private var ready: [ListingEvent] = []
    private var head = 0
    /// A scalar value read, waiting until the next line shows it is whole: that line must not be
    /// indented more than `heldOwner`.
    private var held: ListingEvent?
    private var heldOwner = 0
    /// After a key with nothing after it on its line: the column of its mapping (the next line
    /// must start a collection further in).
    private var nestedAfter: Int?
    private var literal: Literal?
    private var rootSeen = false
    private var ended = false

    init(input: ListingInput) {
        self.input = input
        ready.reserveCapacity(16)
    }

    /// The next event, the end, or where the subset stops.
    mutating func next() -> Step {
        while head == ready.count {
            if ended { return .end }
            ready.removeAll(keepingCapacity: true)
            head = 0
            guard readLine() else { return .unsupported }
        }
        head += 1
        return .event(ready[head - 1])
    }

    // MARK: - Lines

    /// Reads and takes in the next line (or the end); `false` when it leaves the subset.
    private mutating func readLine() -> Bool {
        guard let line = nextLine() else { return finish() }
        defer {
            input.position = line.hasBreak ? line.end + 1 : line.end
            lineNumber += 1
        }
        guard Self.isAllowed(input.bytes, line.start, line.end) else { return false }
        let bytes = input.bytes
        var column = 0
        while line.start + column < line.end && bytes[line.start + column] == UInt8(ascii: " ") { column += 1 }
        let first = line.start + column
        if literal != nil {
            if let taken = literalLine(line, column: column) { return taken }
        }
        // Blank lines and comments.
        if first == line.end || bytes[first] == UInt8(ascii: "#") { return true }
        return contentLine(line, column: column)
    }

    /// The next whole line in the input's window, or `nil` at the end of the input.
    private mutating func nextLine() -> Line? {
        var searchFrom = input.position
        while true {
            let start = input.position
            let count = input.limit - searchFrom
            if count > 0, let found = Self.lineFeed(in: input.bytes, from: searchFrom, count: count) {
                return Line(start: start, end: found, hasBreak: true)
            }
            if input.limit - start > Self.maxLine { return Line(start: start, end: input.limit, hasBreak: false) }
            let scanned = input.limit - start
            if !input.refill() {
                guard input.limit > input.position else { return nil }
                return Line(start: input.position, end: input.limit, hasBreak: false)
            }
            searchFrom = input.position + scanned
        }
    }

    private static func lineFeed(in bytes: UnsafeMutablePointer<UInt8>, from: Int, count: Int) -> Int? {
        guard let found = memchr(bytes + from, 0x0A, count) else { return nil }
        return from + UnsafeMutableRawPointer(bytes + from).distance(to: found)
    }

    /// Whether `bytes[start..<end]` holds only characters the subset allows: no C0 control (tab
    /// and carriage return included), DEL, C1 control, U+2028, U+2029, U+FEFF, U+FFFE or U+FFFF.
    /// The bytes are valid UTF-8.
    private static func isAllowed(_ bytes: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        guard end - start <= maxLine else { return false }
        var index = start
        while index < end {
            // Eight printable ASCII bytes at a time: none below 0x20 and none from 0x7F on (the
            // eight-byte tests of RowKitHTML's `ByteWord`, written out here to be inlined).
            if end - index >= 8 {
                let word = UnsafeRawPointer(bytes + index).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let below20 = (word &- ones &* 0x20) & ~word
                let from7F = (word &+ ones) | word
                if (below20 | from7F) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                    continue
                }
            }
            let byte = bytes[index]
            if byte >= 0x20 && byte < 0x7F {
                index += 1
                continue
            }
            if byte < 0x80 { return false }
            let next = index + 1 < end ? bytes[index + 1] : 0
            let third = index + 2 < end ? bytes[index + 2] : 0
            if byte == 0xC2 && next < 0xA0 { return false }
            if byte == 0xE2 && next == 0x80 && (third == 0xA8 || third == 0xA9) { return false }
            if byte == 0xEF && next == 0xBB && third == 0xBF { return false }
            if byte == 0xEF && next == 0xBF && (third == 0xBE || third == 0xBF) { return false }
            index += 1
        }
        return true
    }

    /// The end of the input: the held value, then the end of every open collection.
    private mutating func finish() -> Bool {
        guard input.invalidUTF8Offset == nil, input.readError == nil else { return false }
        if literal != nil { guard closeLiteral() else { return false } }
        guard rootSeen, nestedAfter == nil else { return false }
        if let held { ready.append(held) }
        held = nil
        for _ in stack { ready.append(.end) }
        stack.removeAll()
        ended = true
        return true
    }

    // MARK: - Literal block scalars

    /// Takes `line` into the literal being read: `true` when it is one of its lines, `nil` when
    /// it ends the literal (and is to be read as a line of its own), `false` outside the subset.
    private mutating func literalLine(_ line: Line, column: Int) -> Bool? {
        let width = line.end - line.start
        guard let indent = literal!.indent else {
            // The first line sets the indentation, and must hold text.
            guard column < width, column > literal!.owner else { return false }
            literal!.indent = column
            appendLiteral(line, from: column)
            return true
        }
        if column < width && column < indent {
            guard closeLiteral() else { return false }
            return nil
        }
        if column >= width && width <= indent {
            literal!.blankLines += 1
            return true
        }
        for _ in 0..<literal!.blankLines { literal!.text.append(UInt8(ascii: "\n")) }
        literal!.blankLines = 0
        literal!.text.append(UInt8(ascii: "\n"))
        appendLiteral(line, from: indent)
        return literal!.text.count <= ListingLimits.maxValueSize
    }

    private mutating func appendLiteral(_ line: Line, from column: Int) {
        literal!.text.append(
            contentsOf: UnsafeBufferPointer(
                start: input.bytes + line.start + column, count: line.end - line.start - column))
        literal!.endedWithBreak = line.hasBreak
    }

    /// Ends the literal being read: its value is held like any scalar's.
    private mutating func closeLiteral() -> Bool {
        guard var value = literal, value.indent != nil else { return false }
        literal = nil
        if !value.strip && value.endedWithBreak { value.text.append(UInt8(ascii: "\n")) }
        guard value.text.count <= ListingLimits.maxValueSize else { return false }
        held = .scalar(String(decoding: value.text, as: UTF8.self), .string, false, value.line, value.column)
        heldOwner = value.owner
        return true
    }

    // MARK: - Structure

    /// What a line's value is.
    private enum Value {
        case scalar(ListingEvent)
        /// A literal block scalar, its indicator at `column`.
        case literal(column: Int, strip: Bool)
        /// Nothing on the line: a collection follows on the next lines.
        case nested
    }

    /// Takes in a line with something at `column`. The line is read whole first; its events go
    /// out, and the reader's state changes, only if all of it is in the subset.
    private mutating func contentLine(_ line: Line, column: Int) -> Bool {
        let bytes = input.bytes
        let at = line.start + column
        let isEntry = bytes[at] == UInt8(ascii: "-") && (at + 1 == line.end || bytes[at + 1] == UInt8(ascii: " "))
        if held != nil && column > heldOwner { return false }
        // The collection the line is in: a new one (the value of the key before, or the root), or
        // an open one at its column, closing those further in.
        var opens = false
        var indentless = false
        var closing = 0
        if let owner = nestedAfter {
            // Further in, or a sequence at the key's own column.
            guard column > owner || (isEntry && column == owner) else { return false }
            opens = true
            indentless = column == owner
        } else if !rootSeen {
            guard column == 0, !isEntry else { return false }
            opens = true
        } else {
            var top = stack.count - 1
            while top >= 0 && stack[top].indent > column { top -= 1 }
            if top > 0 && !isEntry && stack[top].indentless && stack[top].indent == column { top -= 1 }
            guard top >= 0, stack[top].indent == column, stack[top].isMapping != isEntry else { return false }
            closing = stack.count - 1 - top
        }
        let depth = stack.count - closing + (opens ? 1 : 0)
        guard depth <= ListingLimits.maxDepth else { return false }

        // The key of the line (on an entry's line, the first of a mapping starting there), and
        // where the value starts.
        var key: (text: String, column: Int)?
        var valueStart: Int
        if isEntry {
            valueStart = at + 1
            while valueStart < line.end && bytes[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
            guard valueStart > at + 1, valueStart < line.end, bytes[valueStart] != UInt8(ascii: "#") else {
                return false
            }
            if let (text, after) = Self.key(bytes, valueStart, line.end) {
                guard depth < ListingLimits.maxDepth else { return false }
                key = (text, valueStart - line.start)
                valueStart = after
            }
        } else {
            guard let (text, after) = Self.key(bytes, at, line.end) else { return false }
            if !opens {
                // The mapping's keys; those of the mappings closing now come after them.
                let start = stack[stack.count - 1 - closing].keysStart
                let end = closing > 0 ? stack[stack.count - closing].keysStart : keys.count
                guard end - start < Self.maxKeys, !keys[start..<end].contains(text) else { return false }
            }
            key = (text, column)
            valueStart = after
        }
        guard let value = parseValue(line, from: valueStart) else { return false }
        // An entry with nothing after its dash is left to libyaml.
        if case .nested = value, key == nil { return false }
        commit(
            closing: closing, opens: opens, indentless: indentless, isEntry: isEntry, column: column, key: key,
            value: value)
        return true
    }

    /// Applies a line read whole: the held value, the ends, then the line's events. A value
    /// belongs to the mapping of `key` (at the key's column), or to the sequence at `column`.
    private mutating func commit(
        closing: Int, opens: Bool, indentless: Bool, isEntry: Bool, column: Int, key: (text: String, column: Int)?,
        value: Value
    ) {
        if let held { ready.append(held) }
        held = nil
        for _ in 0..<closing {
            let frame = stack.removeLast()
            if frame.isMapping { keys.removeSubrange(frame.keysStart...) }
            ready.append(.end)
        }
        if opens {
            nestedAfter = nil
            rootSeen = true
            ready.append(isEntry ? .sequenceStart(lineNumber, column + 1) : .mappingStart(lineNumber, column + 1))
            stack.append(Frame(isMapping: !isEntry, indent: column, keysStart: keys.count, indentless: indentless))
        }
        if isEntry, let key {
            // A mapping starting on the entry's line.
            ready.append(.mappingStart(lineNumber, key.column + 1))
            stack.append(Frame(isMapping: true, indent: key.column, keysStart: keys.count))
        }
        if let key {
            keys.append(key.text)
            ready.append(.key(key.text, lineNumber, key.column + 1))
        }
        let owner = key?.column ?? column
        switch value {
        case .scalar(let event):
            held = event
            heldOwner = owner
        case .literal(let at, let strip):
            literal = Literal(line: lineNumber, column: at + 1, owner: owner, strip: strip)
        case .nested:
            nestedAfter = owner
        }
    }

    /// A plain key at `start` (`[A-Za-z0-9_][A-Za-z0-9_.-]*`) followed by `:` and a space or the
    /// line's end: the key and where its value may start.
    private static func key(_ bytes: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> (String, Int)? {
        var index = start
        while index < end {
            let byte = bytes[index]
            let isWord =
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            if isWord || (index > start && (byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."))) {
                index += 1
                continue
            }
            break
        }
        guard index > start, index < end, bytes[index] == UInt8(ascii: ":"),
            index + 1 == end || bytes[index + 1] == UInt8(ascii: " ")
        else { return nil }
        let text = String(decoding: UnsafeBufferPointer(start: bytes + start, count: index - start), as: UTF8.self)
        return (text, index + 1)
    }

    /// The value from `from` to the end of `line` (spaces before it skipped), if in the subset.
    private func parseValue(_ line: Line, from: Int) -> Value? {
        let bytes = input.bytes
        var start = from
        while start < line.end && bytes[start] == UInt8(ascii: " ") { start += 1 }
        if start == line.end || bytes[start] == UInt8(ascii: "#") {
            // A comment needs a space before it (`from` is just after `: ` or `- `, or the line's end).
            return start == from && start < line.end ? nil : .nested
        }
        let column = start - line.start
        switch bytes[start] {
        case UInt8(ascii: "\""):
            guard let text = Self.doubleQuoted(bytes, start, line.end) else { return nil }
            return .scalar(.scalar(text, .string, false, lineNumber, column + 1))
        case UInt8(ascii: "'"):
            guard let text = Self.singleQuoted(bytes, start, line.end) else { return nil }
            return .scalar(.scalar(text, .string, false, lineNumber, column + 1))
        case UInt8(ascii: "|"):
            var index = start + 1
            var strip = false
            if index < line.end && bytes[index] == UInt8(ascii: "-") {
                strip = true
                index += 1
            }
            guard Self.onlyComment(bytes, index, line.end) else { return nil }
            return .literal(column: column, strip: strip)
        default:
            guard let end = Self.plainEnd(bytes, start, line.end) else { return nil }
            let text = UnsafeBufferPointer(start: bytes + start, count: end - start)
            let string = String(decoding: text, as: UTF8.self)
            guard text.count <= YAMLEventReader.maxResolvedScalarLength else {
                return .scalar(.scalar(string, .string, false, lineNumber, column + 1))
            }
            return .scalar(.scalar(string, ScalarTag(resolving: text).kind, true, lineNumber, column + 1))
        }
    }

    /// Whether `bytes[from..<end]` is empty, spaces, or spaces and then a comment.
    private static func onlyComment(_ bytes: UnsafeMutablePointer<UInt8>, _ from: Int, _ end: Int) -> Bool {
        var index = from
        while index < end && bytes[index] == UInt8(ascii: " ") { index += 1 }
        return index == end || (index > from && bytes[index] == UInt8(ascii: "#"))
    }

    /// The end (trailing spaces and comment dropped) of a one-line plain scalar at `start`, if the
    /// subset has it: it starts with no indicator but `-` before a digit or `.`, and holds no `: `
    /// and no `:` at its end.
    private static func plainEnd(_ bytes: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        switch bytes[start] {
        case UInt8(ascii: "-"):
            guard start + 1 < end else { return nil }
            let next = bytes[start + 1]
            guard (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) || next == UInt8(ascii: ".") else {
                return nil
            }
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"),
            UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"),
            UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "%"), UInt8(ascii: "@"),
            UInt8(ascii: "`"):
            return nil
        default:
            break
        }
        var index = start
        var last = start  // one past the last non-space byte
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: ":") && (index + 1 == end || bytes[index + 1] == UInt8(ascii: " ")) { return nil }
            if byte == UInt8(ascii: " ") {
                if index + 1 < end && bytes[index + 1] == UInt8(ascii: "#") { break }
            } else {
                last = index + 1
            }
            index += 1
        }
        return last
    }

    /// The text of a double-quoted scalar that starts at `start` and ends on its line, if it has
    /// only the escapes the subset reads and nothing but a comment after it.
    private static func doubleQuoted(_ bytes: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> String? {
        var text: [UInt8] = []
        var index = start + 1
        var plainFrom = index
        while index < end {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text.append(contentsOf: UnsafeBufferPointer(start: bytes + plainFrom, count: index - plainFrom))
                guard onlyComment(bytes, index + 1, end) else { return nil }
                return String(decoding: text, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            text.append(contentsOf: UnsafeBufferPointer(start: bytes + plainFrom, count: index - plainFrom))
            guard index + 1 < end else { return nil }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\\"), UInt8(ascii: "\""): text.append(escape)
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "t"): text.append(0x09)
            case UInt8(ascii: "r"): text.append(0x0D)
            case UInt8(ascii: "u"):
                guard index + 4 <= end else { return nil }
                var value: UInt32 = 0
                for offset in 0..<4 {
                    guard let digit = hexDigit(bytes[index + offset]) else { return nil }
                    value = value << 4 | digit
                }
                index += 4
                guard let scalar = Unicode.Scalar(value) else { return nil }
                text.append(contentsOf: UTF8.encode(scalar)!)
            default:
                return nil
            }
            plainFrom = index
        }
        return nil
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    /// The text of a single-quoted scalar that starts at `start` and ends on its line (`''` is a
    /// quote), with nothing but a comment after it.
    private static func singleQuoted(_ bytes: UnsafeMutablePointer<UInt8>, _ start: Int, _ end: Int) -> String? {
        var text: [UInt8] = []
        var index = start + 1
        var plainFrom = index
        while index < end {
            guard bytes[index] == UInt8(ascii: "'") else {
                index += 1
                continue
            }
            text.append(contentsOf: UnsafeBufferPointer(start: bytes + plainFrom, count: index - plainFrom))
            if index + 1 < end && bytes[index + 1] == UInt8(ascii: "'") {
                text.append(UInt8(ascii: "'"))
                index += 2
                plainFrom = index
                continue
            }
            guard onlyComment(bytes, index + 1, end) else { return nil }
            return String(decoding: text, as: UTF8.self)
        }
        return nil
    }
}
