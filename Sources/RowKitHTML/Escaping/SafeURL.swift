/// The URL policy for every `href` and `src` the exporter writes, including Markdown links.
///
/// Allowed: `http:`, `https:` and `mailto:` URLs, relative references without a scheme (paths,
/// `?queries`) and `#fragments`. Everything else is refused: other schemes (`javascript:`,
/// `data:`, `vbscript:`, `file:`, ...), protocol-relative `//host` references (and `\\host`,
/// which browsers treat the same), and any URL containing ASCII control characters, spaces
/// splitting the scheme, or NUL — browsers strip tabs and newlines from schemes, so
/// `java\tscript:` would otherwise run. A refused URL is dropped: the text it was attached to is
/// still shown, it just points nowhere.
public enum SafeURL {
    /// `url` when the policy allows it (trimmed of surrounding spaces), otherwise `nil`; also `nil`
    /// for a URL that is empty or only spaces, which would point at the page itself.
    public static func sanitize(_ url: String) -> String? {
        let trimmed = url.trimmingASCIIWhitespace()
        if trimmed.isEmpty { return nil }
        // Control characters (tab, newline, NUL, ...) and DEL anywhere: refuse outright.
        if trimmed.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return nil }
        // Characters browsers drop or normalise in URLs can hide a scheme; refuse them too.
        if trimmed.unicodeScalars.contains(where: { isInvisible($0) }) { return nil }
        let bytes = Array(trimmed.utf8)
        if bytes.first == UInt8(ascii: "#") { return trimmed }
        if bytes.count >= 2 {
            let first = bytes[0], second = bytes[1]
            let slashes: Set<UInt8> = [UInt8(ascii: "/"), UInt8(ascii: "\\")]
            if slashes.contains(first) && slashes.contains(second) { return nil }
        }
        // A scheme is everything before the first ':' that comes before any '/', '?' or '#'.
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return trimmed  // relative reference, no scheme
            case UInt8(ascii: ":"):
                let scheme = String(decoding: bytes.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)
                    .lowercased()
                return ["http", "https", "mailto"].contains(scheme) ? trimmed : nil
            default:
                continue
            }
        }
        return trimmed
    }

    /// Whether the policy allows the URL whose UTF-8 bytes are `utf8`; the same answer as
    /// `sanitize(_:) != nil`, without making strings for the common all-ASCII case.
    static func allows(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            // Non-ASCII can hold invisible characters: the general path decides.
            return sanitize(String(decoding: utf8, as: UTF8.self)) != nil
        }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else {
            return false  // empty: it would point at the page itself
        }
        let bytes = UnsafeBufferPointer(rebasing: utf8[first...last])
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return false }
        if bytes[0] == UInt8(ascii: "#") { return true }
        let isSlash: (UInt8) -> Bool = { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") }
        if bytes.count >= 2 && isSlash(bytes[0]) && isSlash(bytes[1]) { return false }
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                return true  // relative reference, no scheme
            case UInt8(ascii: ":"):
                return isAllowedScheme(UnsafeBufferPointer(rebasing: bytes[..<index]))
            default:
                continue
            }
        }
        return true
    }

    /// Whether ASCII `scheme` is `http`, `https` or `mailto`, in any case.
    private static func isAllowedScheme(_ scheme: UnsafeBufferPointer<UInt8>) -> Bool {
        let lower = scheme.lazy.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }
        return lower.elementsEqual("http".utf8) || lower.elementsEqual("https".utf8) || lower.elementsEqual("mailto".utf8)
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x80...0x9F, 0xA0, 0xAD, 0x200B...0x200F, 0x2028...0x202E, 0x2060...0x2064, 0x2066...0x206F,
             0xFEFF, 0xFFF9...0xFFFB:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The string without leading and trailing ASCII spaces, tabs and line breaks.
    func trimmingASCIIWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if first == 0 && last == bytes.count - 1 { return self }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
