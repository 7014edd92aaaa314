import Foundation

/// How search folds text into words, the same way in Swift (building the index) and in the
/// browser (`search.js`, reading a query), so a query finds what the index holds.
///
/// Folding, in order: compatibility decomposition (NFKD), lower case, NFKD again (lower-casing
/// can produce decomposable letters: `İ` becomes `i` and a combining dot), every combining mark
/// removed (so `é` is `e`), then a few letters that have no decomposition spelled out: `ß` `ss`,
/// `æ` `ae`, `œ` `oe`, `ø` `o`, `ł` `l`, `đ` `d`, `ð` `d`, `þ` `th`, `ı` `i`, final `ς` `σ`.
/// A word is a maximal run of letters and numbers (Unicode general categories L and N); anything
/// else separates words. Words are cut to ``maximumWordLength`` scalars.
///
/// The browser side is `foldWords` in `Templates/search.js.mustache`; the browser test folds a
/// corpus of tricky strings on both sides and compares.
public enum SearchText {
    /// Words longer than this (in Unicode scalars) are cut, in the index and in queries alike.
    public static let maximumWordLength = 24

    /// The folded words of `text`, in order, repeats kept.
    public static func words(in text: String) -> [String] {
        var words: [String] = []
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII: lower-casing and splitting on bytes gives the same words, much faster.
            var word: [UInt8] = []
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if word.count < maximumWordLength { word.append(byte) }
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    if word.count < maximumWordLength { word.append(byte + 32) }
                default:
                    if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                    word.removeAll(keepingCapacity: true)
                }
            }
            if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
            return words
        }
        let folded = text.decomposedStringWithCompatibilityMapping.lowercased().decomposedStringWithCompatibilityMapping
        var word = String.UnicodeScalarView()
        var length = 0
        func end() {
            if !word.isEmpty { words.append(String(word)) }
            word = String.UnicodeScalarView()
            length = 0
        }
        for scalar in folded.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber:
                for spelled in spelledOut(scalar) where length < maximumWordLength {
                    word.append(spelled)
                    length += 1
                }
            default:
                end()
            }
        }
        end()
        return words
    }

    /// Calls `body` with each folded word of `text` as UTF-8 bytes, in order, repeats kept: the
    /// words of ``words(in:)``, without making a string of each when `text` is ASCII.
    static func forEachWord(in text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        let done: Void? = try text.utf8.withContiguousStorageIfAvailable { bytes in
            try forEachWord(inUTF8: bytes, body)
        }
        if done != nil { return }
        for var word in words(in: text) { try word.withUTF8(body) }
    }

    /// ``forEachWord(in:_:)`` of text given as valid UTF-8 bytes.
    static func forEachWord(
        inUTF8 bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws -> Void
    )
        rethrows
    {
        for byte in bytes where byte >= 0x80 {
            for var word in words(in: String(decoding: bytes, as: UTF8.self)) { try word.withUTF8(body) }
            return
        }
        // The table read once, not through its lazy global's check at every byte.
        let folding = asciiFolding
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumWordLength) { word in
            var length = 0
            for byte in bytes {
                let folded = folding[Int(byte)]
                if folded != 0 {
                    if length < maximumWordLength {
                        word[length] = folded
                        length += 1
                    }
                } else if length > 0 {
                    try body(UnsafeBufferPointer(rebasing: word[0..<length]))
                    length = 0
                }
            }
            if length > 0 { try body(UnsafeBufferPointer(rebasing: word[0..<length])) }
        }
    }

    /// An ASCII byte as it is in a word (letters lower-cased), or 0 where it separates words.
    private static let asciiFolding: [UInt8] = (0..<256).map { value in
        switch UInt8(value) {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(value)
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(value) + 32
        default: 0
        }
    }

    /// The letters without a decomposition that fold to others.
    private static func spelledOut(_ scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        switch scalar {
        case "ß": ["s", "s"]
        case "æ": ["a", "e"]
        case "œ": ["o", "e"]
        case "ø": ["o"]
        case "ł": ["l"]
        case "đ", "ð": ["d"]
        case "þ": ["t", "h"]
        case "ı": ["i"]
        case "ς": ["σ"]
        default: [scalar]
        }
    }

    /// The distinct folded words of `texts`, in order of first appearance.
    static func distinctWords(in texts: [String]) -> [String] {
        var distinct: [String] = []
        for text in texts {
            for word in words(in: text) where !distinct.contains(word) { distinct.append(word) }
        }
        return distinct
    }
}
