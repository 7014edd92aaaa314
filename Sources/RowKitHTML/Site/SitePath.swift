import Foundation
import RowKitListing

/// The paths of a site's files, as the exporter makes them and as a manifest must list them:
/// relative to the site folder, components separated by `/`, none of them empty, `.` or `..`, and
/// no control character (U+0000–U+001F, U+007F–U+009F) anywhere.
///
/// Such a path names an entry inside the site folder, unless a folder on its way is a symbolic
/// link; the site writer never follows one (it walks the site's folders itself, opened without
/// following links). A manifest entry that is not a site path is never looked up: the export stops
/// with ``ExportError/manifestInvalid(path:entry:reason:)``.
package enum SitePath {
    /// Why `path` is not a site path (completing "the path …, which …"), or `nil` when it is one:
    /// the first problem in it, read from the start.
    ///
    /// - Complexity: O(*n*) in the length of `path`, one pass over its bytes, no allocation.
    static func problem(_ path: String) -> String? {
        let slash = UInt8(ascii: "/")
        let dot = UInt8(ascii: ".")
        if path.utf8.first == slash { return "is absolute" }
        var length = 0
        var dots = 0
        var previous: UInt8 = 0
        for byte in path.utf8 {
            // C0 and DEL are single bytes; C1 (U+0080–U+009F) is 0xC2 followed by 0x80–0x9F.
            if byte < 0x20 || byte == 0x7F { return control(UInt32(byte)) }
            if previous == 0xC2 && (0x80...0x9F).contains(byte) { return control(UInt32(byte)) }
            previous = byte
            if byte == slash {
                if let problem = problem(ofComponent: length, dots: dots) { return problem }
                length = 0
                dots = 0
            } else {
                length += 1
                if byte == dot { dots += 1 }
            }
        }
        if path.isEmpty { return "is empty" }
        return problem(ofComponent: length, dots: dots)
    }

    /// The problem of a component `length` bytes long, `dots` of them `.`, if any.
    private static func problem(ofComponent length: Int, dots: Int) -> String? {
        if length == 0 { return "has an empty component" }
        if length == dots && length <= 2 { return length == 1 ? "has a '.' component" : "has a '..' component" }
        return nil
    }

    private static func control(_ value: UInt32) -> String { "has a control character (U+\(hex(value)))" }

    /// Whether `path` is a site path.
    static func isValid(_ path: String) -> Bool { problem(path) == nil }

    /// `path` in double quotes for a message: `"` and `\` escaped, cut to its first 200
    /// characters (a manifest line may be of any length), and written as every message writes
    /// listing text (``ListingText/escaped(_:)``: control, bidirectional and invisible characters
    /// as `\u{1B}`).
    package static func quoted(_ path: String) -> String {
        let cut = String(path.prefix(200))
        let text = ListingText.escaped(
            cut.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))
        return "\"" + text + (cut.count < path.count ? "…" : "") + "\""
    }

    /// At least four upper-case hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
