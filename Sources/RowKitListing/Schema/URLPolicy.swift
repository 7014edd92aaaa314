/// The URL policy of every link and image address RowKit writes (``SafeURL`` in RowKitHTML says
/// it in full): `http:`, `https:`, `mailto:`, relative references and `#fragments`; nothing with
/// control or invisible characters, no other scheme, no `//host`. The listing reader uses it to
/// warn about links the export will drop.
package enum URLPolicy {
    /// `url` when the policy allows it (trimmed of surrounding spaces), otherwise `nil`; also `nil`
    /// for a URL that is empty or only spaces, which would point at the page itself.
    package static func sanitize(_ url: String) -> String? {
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

    /// Whether browsers drop or normalise `scalar` in URLs (so it could hide a scheme).
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
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
    package func trimmingASCIIWhitespace() -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x0C }
        let bytes = Array(utf8)
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
            let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        if first == 0 && last == bytes.count - 1 { return self }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
