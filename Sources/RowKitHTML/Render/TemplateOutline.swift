import Foundation

/// What a Mustache template's tags say about its shape, read before the template is parsed: how
/// deep its sections nest and which templates it includes (`{{> name}}`, `{{< name}}`), at what
/// depth.
///
/// The Mustache parser and renderer recurse once per nested section and per included template,
/// so a template that includes itself, or one with sections nested a hundred thousand deep, would
/// overflow the stack. ``TemplateSet`` reads every template's outline first and refuses both
/// with an error that names the templates.
struct TemplateOutline {
    /// An included template and the depth of sections around the tag that includes it.
    struct Inclusion {
        let name: String
        let depth: Int
        let line: Int
    }

    /// The deepest nesting of sections (`#`, `^`, `$`, `<`) in the template.
    private(set) var depth = 0
    /// The templates it includes, in order.
    private(set) var inclusions: [Inclusion] = []

    /// The deepest nesting of sections and included templates RowKit renders.
    static let maximumDepth = 100

    /// Why a template's outline cannot be read.
    struct TooDeep: Error {
        let line: Int
    }

    /// Reads the outline of `text`; throws ``TooDeep`` at the first section deeper than
    /// ``maximumDepth``.
    init(_ text: String) throws(TooDeep) {
        let bytes = Array(text.utf8)
        var open: [UInt8] = Array("{{".utf8)
        var close: [UInt8] = Array("}}".utf8)
        var index = 0
        var line = 1
        var current = 0
        while let start = Self.find(open, in: bytes, from: index) {
            line += Self.newlines(in: bytes, from: index, to: start)
            var cursor = start + open.count
            guard cursor < bytes.count else { break }
            let sigil = bytes[cursor]
            let triple = sigil == UInt8(ascii: "{") && open == Array("{{".utf8)
            if sigil == UInt8(ascii: "=") {
                // {{=<% %>=}}: the new delimiters, up to "=" and the old closing delimiter.
                guard let end = Self.find([UInt8(ascii: "=")] + close, in: bytes, from: cursor + 1) else { break }
                let words = bytes[(cursor + 1)..<end].split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
                line += Self.newlines(in: bytes, from: start, to: end)
                index = end + 1 + close.count
                if words.count == 2 {
                    open = Array(words[0])
                    close = Array(words[1])
                }
                continue
            }
            guard let end = Self.find(triple ? Array("}}}".utf8) : close, in: bytes, from: cursor) else { break }
            line += Self.newlines(in: bytes, from: start, to: end)
            index = end + (triple ? 3 : close.count)
            cursor += 1
            switch sigil {
            case UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "$"), UInt8(ascii: "<"), UInt8(ascii: ">"):
                let name = Self.name(bytes[cursor..<end])
                if sigil == UInt8(ascii: ">") || sigil == UInt8(ascii: "<"), !name.hasPrefix("*") {
                    inclusions.append(Inclusion(name: name, depth: current, line: line))
                }
                if sigil != UInt8(ascii: ">") {
                    current += 1
                    guard current <= Self.maximumDepth else { throw TooDeep(line: line) }
                    depth = max(depth, current)
                }
            case UInt8(ascii: "/"):
                current = max(0, current - 1)
            default:
                break
            }
        }
    }

    private static func name(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The first index at or after `start` where `pattern` begins in `bytes`.
    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        var index = start
        while index <= bytes.count - pattern.count {
            if bytes[index] == pattern[0], bytes[index..<(index + pattern.count)].elementsEqual(pattern) {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func newlines(in bytes: [UInt8], from start: Int, to end: Int) -> Int {
        guard start < end else { return 0 }
        return bytes[start..<end].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}
