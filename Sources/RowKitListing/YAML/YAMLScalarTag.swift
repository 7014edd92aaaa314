/// The tag a plain, untagged YAML scalar resolves to.
///
/// These are the YAML 1.1 implicit rules, tried in the order the reader has always used (bool,
/// int, float, merge, null, timestamp, value, else str), matched byte by byte instead of by
/// regular expression: each rule is a small regular language, so a left-to-right scan decides it.
enum ScalarTag: Sendable {
    case bool, int, float, merge, null, timestamp, value, str

    /// The tag's full name, as an explicit `!!name` tag spells it after expansion.
    var name: String {
        switch self {
        case .bool: return "tag:yaml.org,2002:bool"
        case .int: return "tag:yaml.org,2002:int"
        case .float: return "tag:yaml.org,2002:float"
        case .merge: return "tag:yaml.org,2002:merge"
        case .null: return "tag:yaml.org,2002:null"
        case .timestamp: return "tag:yaml.org,2002:timestamp"
        case .value: return "tag:yaml.org,2002:value"
        case .str: return "tag:yaml.org,2002:str"
        }
    }

    /// The listing kind of a scalar with this tag.
    var kind: ScalarKind {
        switch self {
        case .bool: return .bool
        case .int, .float: return .number
        case .null: return .null
        case .merge, .timestamp, .value, .str: return .string
        }
    }

    /// The kind of a scalar tagged explicitly with `name` (`!` means a plain string).
    static func kind(ofExplicitTag name: String) -> ScalarKind {
        switch name {
        case ScalarTag.null.name: return .null
        case ScalarTag.bool.name: return .bool
        case ScalarTag.int.name, ScalarTag.float.name: return .number
        default: return .string
        }
    }

    /// Resolves the text of a plain, untagged scalar.
    ///
    /// - Complexity: O(n) in the text's length.
    init(resolving text: UnsafeBufferPointer<UInt8>) {
        // Text that starts with an ASCII letter is a string unless it may be one of the words of
        // the bool and null rules (at most five letters, starting y, n, t, f or o): every other
        // rule needs a digit, sign, dot, `~`, `<` or `=` first. Most listing text is such.
        if let first = text.first {
            let lower = first | 0x20
            if lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
                && (text.count > 5
                    || !(lower == UInt8(ascii: "y") || lower == UInt8(ascii: "n") || lower == UInt8(ascii: "t")
                        || lower == UInt8(ascii: "f") || lower == UInt8(ascii: "o")))
            {
                self = .str
                return
            }
        }
        self = Self.scanned(text)
    }

    /// ``init(resolving:)`` by every rule in turn, without the shortcut for text that starts with
    /// a letter (tests compare the two).
    static func scanned(_ text: UnsafeBufferPointer<UInt8>) -> ScalarTag {
        let scanner = ScalarScanner(bytes: text)
        if scanner.isBool { return .bool }
        if scanner.isInt { return .int }
        if scanner.isFloat { return .float }
        if scanner.equals("<<") { return .merge }
        if scanner.isNull { return .null }
        if scanner.isTimestamp { return .timestamp }
        if scanner.equals("=") { return .value }
        return .str
    }
}

/// Matches one scalar's bytes against each implicit rule.
private struct ScalarScanner {
    let bytes: UnsafeBufferPointer<UInt8>

    func equals(_ word: StaticString) -> Bool {
        guard word.utf8CodeUnitCount == bytes.count else { return false }
        let other = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        return bytes.elementsEqual(other)
    }

    func equalsAny(_ words: [StaticString]) -> Bool { words.contains(where: equals) }

    /// `yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF`
    var isBool: Bool {
        bytes.count <= 5
            && equalsAny([
                "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
                "on", "On", "ON", "off", "Off", "OFF",
            ])
    }

    /// `~|null|Null|NULL|` (the empty scalar is null).
    var isNull: Bool { bytes.isEmpty || equalsAny(["~", "null", "Null", "NULL"]) }

    // MARK: Numbers

    /// `[-+]?` then one of: `0b[0-1_]+`, `0o?[0-7_]+`, `0|[1-9][0-9_]*`, `0x[0-9a-fA-F_]+`,
    /// `[1-9][0-9_]*(:[0-5]?[0-9])+`.
    var isInt: Bool {
        let start = signEnd
        guard start < bytes.count else { return false }
        let rest = bytes[start...]
        let first = rest[start]
        if first == UInt8(ascii: "0") {
            if rest.count == 1 { return true }
            let second = rest[start + 1]
            if second == UInt8(ascii: "b") {
                return rest.count > 2 && rest.dropFirst(2).allSatisfy { $0 == 0x30 || $0 == 0x31 || $0 == 0x5F }
            }
            if second == UInt8(ascii: "x") {
                return rest.count > 2 && rest.dropFirst(2).allSatisfy { Self.isHex($0) || $0 == 0x5F }
            }
            let octal = rest.dropFirst(second == UInt8(ascii: "o") ? 2 : 1)
            return !octal.isEmpty && octal.allSatisfy { (0x30...0x37).contains($0) || $0 == 0x5F }
        }
        guard (0x31...0x39).contains(first) else { return false }
        let head = rest.prefix { Self.isDigit($0) || $0 == 0x5F }
        if head.count == rest.count { return true }
        return Self.isSexagesimalTail(rest[head.endIndex...])
    }

    /// `[-+]?[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9]+)?`, `\.[0-9_]+([eE][-+][0-9]+)?`,
    /// `[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*`, `[-+]?\.(inf|Inf|INF)`, `\.(nan|NaN|NAN)`.
    var isFloat: Bool {
        guard let first = bytes.first else { return false }
        if first == UInt8(ascii: "."), Self.isDotFloat(bytes[1...]) { return true }
        if Self.isNaN(bytes[...]) { return true }
        let start = signEnd
        guard start < bytes.count else { return false }
        let rest = bytes[start...]
        if rest[start] == UInt8(ascii: ".") { return Self.isInfinity(rest.dropFirst()) }
        guard Self.isDigit(rest[start]) else { return false }
        let head = rest.prefix { Self.isDigit($0) || $0 == 0x5F }
        var tail = rest[head.endIndex...]
        if tail.first == UInt8(ascii: ":") {
            // Sexagesimal: the groups run up to a required '.', then [0-9_]*.
            guard let dot = tail.firstIndex(of: UInt8(ascii: ".")),
                Self.isSexagesimalTail(tail[..<dot])
            else { return false }
            return tail[(dot + 1)...].allSatisfy { Self.isDigit($0) || $0 == 0x5F }
        }
        if tail.first == UInt8(ascii: ".") {
            tail = tail.dropFirst().drop { Self.isDigit($0) || $0 == 0x5F }
        }
        if tail.isEmpty { return true }
        guard tail.first == UInt8(ascii: "e") || tail.first == UInt8(ascii: "E") else { return false }
        tail = tail.dropFirst()
        if tail.first == UInt8(ascii: "+") || tail.first == UInt8(ascii: "-") { tail = tail.dropFirst() }
        return !tail.isEmpty && tail.allSatisfy(Self.isDigit)
    }

    /// After a leading `.`: `[0-9_]+([eE][-+][0-9]+)?`.
    private static func isDotFloat(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        let digits = text.prefix { isDigit($0) || $0 == 0x5F }
        guard !digits.isEmpty else { return false }
        var tail = text[digits.endIndex...]
        if tail.isEmpty { return true }
        guard tail.first == UInt8(ascii: "e") || tail.first == UInt8(ascii: "E") else { return false }
        tail = tail.dropFirst()
        guard tail.first == UInt8(ascii: "+") || tail.first == UInt8(ascii: "-") else { return false }
        tail = tail.dropFirst()
        return !tail.isEmpty && tail.allSatisfy(isDigit)
    }

    private static func isInfinity(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        ["inf", "Inf", "INF"].contains { (word: StaticString) in
            text.elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
        }
    }

    private static func isNaN(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        [".nan", ".NaN", ".NAN"].contains { (word: StaticString) in
            text.elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
        }
    }

    /// `(:[0-5]?[0-9])+`: one or more groups of a colon and one digit, or two digits the first
    /// of which is 0 to 5.
    private static func isSexagesimalTail(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard text.first == UInt8(ascii: ":") else { return false }
        for group in text.dropFirst().split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
            switch group.count {
            case 1: guard isDigit(group[group.startIndex]) else { return false }
            case 2:
                guard (0x30...0x35).contains(group[group.startIndex]), isDigit(group[group.startIndex + 1])
                else { return false }
            default: return false
            }
        }
        return true
    }

    // MARK: Timestamps

    /// `YYYY-MM-DD`, or `YYYY-M?M-D?D` then `T`, `t` or blanks, `h?h:mm:ss(.f*)?` and an optional
    /// zone (`[ \t]*` then `Z` or `[-+]h?h(:mm)?`).
    var isTimestamp: Bool {
        var i = 0
        func digits(_ minimum: Int, _ maximum: Int) -> Bool {
            var n = 0
            while n < maximum, i < bytes.count, Self.isDigit(bytes[i]) {
                i += 1
                n += 1
            }
            return n >= minimum
        }
        func skip(_ byte: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        func blanks() -> Int {
            let start = i
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            return i - start
        }
        guard digits(4, 4), skip(UInt8(ascii: "-")) else { return false }
        let monthStart = i
        guard digits(1, 2), skip(UInt8(ascii: "-")) else { return false }
        let dayStart = i
        guard digits(1, 2) else { return false }
        if i == bytes.count {
            // The date-only form needs two-digit month and day.
            return dayStart - monthStart == 3 && i - dayStart == 2
        }
        if !skip(UInt8(ascii: "T")), !skip(UInt8(ascii: "t")), blanks() == 0 { return false }
        guard digits(1, 2), skip(UInt8(ascii: ":")), digits(2, 2), skip(UInt8(ascii: ":")), digits(2, 2)
        else { return false }
        if skip(UInt8(ascii: ".")) { _ = digits(0, Int.max) }
        if i == bytes.count { return true }
        _ = blanks()
        if skip(UInt8(ascii: "Z")) { return i == bytes.count }
        guard skip(UInt8(ascii: "+")) || skip(UInt8(ascii: "-")), digits(1, 2) else { return false }
        if skip(UInt8(ascii: ":")) { guard digits(2, 2) else { return false } }
        return i == bytes.count
    }

    // MARK: Bytes

    /// The index after an optional leading `+` or `-`.
    private var signEnd: Int {
        guard let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") else { return 0 }
        return 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
