import Foundation

/// Finds executable content in HTML: script and other active elements, event-handler attributes,
/// and URLs with a scheme outside the policy in any URL-carrying attribute. A small tokenizer,
/// strict on purpose: anything it cannot read as a well-formed tag is reported too.
enum MarkupChecker {
    static let activeElements: Set<String> = [
        "script", "iframe", "object", "embed", "frame", "frameset", "applet", "base", "meta-refresh", "form", "svg",
        "math", "template", "style",
    ]
    static let urlAttributes: Set<String> = [
        "href", "src", "action", "formaction", "srcset", "poster", "data", "xlink:href", "background", "cite",
    ]

    /// Problems found in `html`, each naming what and where; empty when the markup is inert.
    static func problems(in html: String) -> [String] {
        var problems: [String] = []
        let scalars = Array(html.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" {
                problems.append("control character U+\(String(scalar.value, radix: 16)) at \(index)")
            }
            guard scalar == "<" else { index += 1; continue }
            // Comments: skip to -->.
            if matches(scalars, index, "<!--") {
                guard let end = find(scalars, from: index + 4, "-->") else {
                    problems.append("unterminated comment"); break
                }
                index = end + 3
                continue
            }
            if let end = searchScriptEnd(scalars, index) {
                index = end
                continue
            }
            if matches(scalars, index, "<!DOCTYPE") || matches(scalars, index, "<!doctype") {
                index = (find(scalars, from: index, ">") ?? scalars.count) + 1
                continue
            }
            var cursor = index + 1
            if cursor < scalars.count && scalars[cursor] == "/" { cursor += 1 }
            var name = ""
            while cursor < scalars.count, isNameChar(scalars[cursor]) {
                name.unicodeScalars.append(scalars[cursor]); cursor += 1
            }
            if name.isEmpty {
                index += 1  // a literal '<' in text would have been escaped; report it
                problems.append("bare '<' at \(index)")
                continue
            }
            let lowerName = name.lowercased()
            if activeElements.contains(lowerName) && !(lowerName == "style") {
                problems.append("<\(lowerName)> element")
            }
            if lowerName == "style" { problems.append("<style> element") }
            // Attributes.
            while cursor < scalars.count && scalars[cursor] != ">" {
                while cursor < scalars.count,
                    scalars[cursor] == " " || scalars[cursor] == "\n" || scalars[cursor] == "/"
                { cursor += 1 }
                var attribute = ""
                while cursor < scalars.count,
                    scalars[cursor] != "=" && scalars[cursor] != " " && scalars[cursor] != ">"
                        && scalars[cursor] != "\n"
                {
                    attribute.unicodeScalars.append(scalars[cursor]); cursor += 1
                }
                var value = ""
                if cursor < scalars.count && scalars[cursor] == "=" {
                    cursor += 1
                    guard cursor < scalars.count, scalars[cursor] == "\"" else {
                        problems.append("unquoted value of \(attribute) in <\(lowerName)>")
                        break
                    }
                    cursor += 1
                    while cursor < scalars.count && scalars[cursor] != "\"" {
                        value.unicodeScalars.append(scalars[cursor]); cursor += 1
                    }
                    cursor += 1
                }
                let lowerAttribute = attribute.lowercased()
                if lowerAttribute.hasPrefix("on") { problems.append("event handler \(attribute) in <\(lowerName)>") }
                if lowerAttribute == "style" { problems.append("style attribute in <\(lowerName)>") }
                if urlAttributes.contains(lowerAttribute), let scheme = scheme(of: decode(value)),
                    !["http", "https", "mailto"].contains(scheme)
                {
                    problems.append("\(attribute)=\"\(value)\" in <\(lowerName)> has scheme \(scheme)")
                }
                if value.contains("<") { problems.append("'<' inside \(attribute) in <\(lowerName)>") }
            }
            index = cursor + 1
        }
        return problems
    }

    /// The site's own scripts, the only script elements the exporter writes.
    static let siteScripts = ["search.js", "rowkit-core.wasm.js", "rowkit-core.js", "listing.js"]

    /// A script element the exporter writes, one of the site's own scripts:
    /// `<script src="(../)*assets/<name>" defer></script>`, nothing inside. Returns the index
    /// after it when `index` starts exactly that, else `nil` (any other script is a problem).
    private static func searchScriptEnd(_ scalars: [Unicode.Scalar], _ index: Int) -> Int? {
        let opening = "<script src=\""
        guard matches(scalars, index, opening) else { return nil }
        var cursor = index + opening.unicodeScalars.count
        while matches(scalars, cursor, "../") { cursor += 3 }
        for name in siteScripts {
            let rest = "assets/\(name)\" defer></script>"
            if matches(scalars, cursor, rest) { return cursor + rest.unicodeScalars.count }
        }
        return nil
    }

    private static func isNameChar(_ scalar: Unicode.Scalar) -> Bool {
        (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9")
            || scalar == "-"
    }

    private static func matches(_ scalars: [Unicode.Scalar], _ at: Int, _ text: String) -> Bool {
        let pattern = Array(text.unicodeScalars)
        guard at + pattern.count <= scalars.count else { return false }
        return Array(scalars[at..<at + pattern.count]) == pattern
    }

    private static func find(_ scalars: [Unicode.Scalar], from: Int, _ text: String) -> Int? {
        var at = from
        while at < scalars.count { if matches(scalars, at, text) { return at }; at += 1 }
        return nil
    }

    /// Character references decoded once, the way a browser does before reading a URL.
    static func decode(_ value: String) -> String {
        let named: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "colon": ":", "Tab": "\t", "NewLine": "\n",
        ]
        var out = ""
        var rest = Substring(value)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.firstIndex(of: ";"), after.distance(from: after.startIndex, to: semi) <= 10 {
                let name = String(after[..<semi])
                var decoded: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
                } else if name.hasPrefix("#") {
                    decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
                } else {
                    decoded = named[name]
                }
                if let decoded { out += decoded; rest = after[after.index(after: semi)...]; continue }
            }
            out += "&"
            rest = after
        }
        return out + rest
    }

    /// The scheme a browser would see: ASCII tab and newlines removed, leading spaces/controls trimmed.
    static func scheme(of url: String) -> String? {
        let cleaned = String(
            String.UnicodeScalarView(url.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })
        )
        .drop { $0.unicodeScalars.first!.value <= 0x20 }
        if cleaned.hasPrefix("//") || cleaned.hasPrefix("\\\\") { return "protocol-relative" }
        guard let colon = cleaned.firstIndex(of: ":") else { return nil }
        let before = cleaned[..<colon]
        if before.contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { return nil }
        return before.lowercased()
    }
}
