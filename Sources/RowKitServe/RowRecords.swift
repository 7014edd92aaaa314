import Foundation

/// Rows' display records, read from a table's search row files (`search/r-<n>.js`) exactly as the
/// exporter wrote them: what the one-page list and the search results draw a row from
/// (docs/search.md). The live page gets the records of the rows a change inserts or reloads.
struct RowRecords {
    /// The table's folder in the site (`/`-terminated, or empty), as a file URL.
    let folder: URL
    /// Rows per row file (the search index's `r`).
    static let rowsPerFile = 128
    private var files: [Int: [Substring]] = [:]

    init(folder: URL) { self.folder = folder }

    /// The record of row `row` (from 0), as JSON text; `nil` when its row file is missing or does
    /// not hold it.
    mutating func record(_ row: Int) -> Substring? {
        let file = row / Self.rowsPerFile
        if files[file] == nil {
            let url = folder.appendingPathComponent("search/r-\(file).js")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { return nil }
            files[file] = Self.records(inRowFile: text) ?? []
        }
        let records = files[file] ?? []
        let index = row % Self.rowsPerFile
        return index < records.count ? records[index] : nil
    }

    /// The records of a row file's text (`RowKitSearch.load("key","r-3",[[...],[...]]);`), each
    /// as its JSON text, or `nil` when the text is not a row file.
    static func records(inRowFile text: String) -> [Substring]? {
        // The array is the call's third argument: after the two strings, the first `[`.
        guard let call = text.range(of: "RowKitSearch.load(") else { return nil }
        var index = call.upperBound
        var strings = 0
        var inString = false
        var escaped = false
        while index < text.endIndex, strings < 2 || text[index] != "[" {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                    strings += 1
                }
            } else if character == "\"" {
                inString = true
            }
            index = text.index(after: index)
        }
        guard index < text.endIndex else { return nil }
        return topLevelElements(of: text[index...])
    }

    /// The elements of the JSON array at the start of `text`, each as its own text.
    static func topLevelElements(of text: Substring) -> [Substring]? {
        var elements: [Substring] = []
        var depth = 0
        var inString = false
        var escaped = false
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if inString {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inString = false
                }
            } else {
                switch character {
                case "\"": inString = true
                case "[", "{":
                    depth += 1
                    if depth == 2, character == "[" || character == "{" { start = index }
                case "]", "}":
                    if depth == 2 { elements.append(text[start...index]) }
                    depth -= 1
                    if depth == 0 { return elements }
                default: break
                }
            }
            index = text.index(after: index)
        }
        return nil
    }
}
