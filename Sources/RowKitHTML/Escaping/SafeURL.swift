import RowKitListing

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
        URLPolicy.sanitize(url)
    }

    /// Whether the policy allows the URL whose UTF-8 bytes are `utf8`; the same answer as
    /// `sanitize(_:) != nil`, without making strings for the common all-ASCII case.
    static func allows(utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            // Non-ASCII can hold invisible characters: the general path decides.
            return sanitize(String(decoding: utf8, as: UTF8.self)) != nil
        }
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) })
        else {
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
        return lower.elementsEqual("http".utf8) || lower.elementsEqual("https".utf8)
            || lower.elementsEqual("mailto".utf8)
    }
}
