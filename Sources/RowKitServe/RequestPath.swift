/// The site file a request path names, or `nil` when the path is not one the server serves.
///
/// Only paths inside the site are served: a path is split at `/` before it is decoded, and a
/// segment that decodes to `.`, `..`, or holds `/`, `\`, a NUL byte or a control character is
/// refused, as is a malformed `%` escape. So `..`, `%2e%2e`, `%2f` and `%00` never reach the file
/// system. A path that ends in `/` names that folder's `index.html`. Symbolic links are checked
/// where the file is opened (``SiteFiles``), since a path can be well formed and still lead out.
enum RequestPath {
    /// The site-relative path (`contacts/index.html`) for the request target's path (the part
    /// before `?`), or `nil` when it is refused.
    static func sitePath(_ target: Substring) -> String? {
        guard target.first == "/" else { return nil }
        var segments: [String] = []
        let raw = target.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in raw.enumerated() {
            if segment.isEmpty {
                // `//` inside the path is refused; a trailing `/` names the folder's index page.
                guard index == raw.count - 1 else { return nil }
                segments.append("index.html")
                continue
            }
            guard let decoded = percentDecoded(segment), isAllowed(decoded) else { return nil }
            segments.append(decoded)
        }
        if segments.isEmpty { segments = ["index.html"] }
        return segments.joined(separator: "/")
    }

    /// Whether a decoded segment may name a file or folder of the site.
    private static func isAllowed(_ segment: String) -> Bool {
        guard segment != ".", segment != "..", !segment.isEmpty else { return false }
        return !segment.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `segment` with its `%XX` escapes decoded as UTF-8, or `nil` when an escape is malformed or
    /// the bytes are not UTF-8.
    static func percentDecoded(_ segment: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(segment.utf8.count)
        var iterator = segment.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
