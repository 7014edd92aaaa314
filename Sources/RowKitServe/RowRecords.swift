import Foundation
import RowKitHTML

/// Rows' display records, read from a table's search row files (`search/r-<n>.js`) exactly as the
/// exporter wrote them: what the one-page list and the search results draw a row from
/// (docs/search.md). The live page gets the records of the rows a change inserts or reloads.
struct RowRecords {
    /// The table's folder in the site (`/`-terminated, or empty), as a file URL.
    let folder: URL
    /// Rows per row group: the search index's `r` (in its root file, `search/t-.js`), read once;
    /// 128 when the root cannot be read (then no row file can be either).
    private var rowsPerFile: Int?
    /// Each row file read so far (by name, `r-3` or the part `r-3-1`): its records.
    private var files: [String: [Substring]] = [:]
    /// The groups read so far that are cut in parts: the index of each part's first row.
    private var groupParts: [Int: [Int]] = [:]

    init(folder: URL) { self.folder = folder }

    /// The record of row `row` (from 0), as JSON text; `nil` when its row file is missing or does
    /// not hold it. A group of rows cut in parts (rows with large inline bodies) is read from the
    /// part holding the row.
    mutating func record(_ row: Int) -> Substring? {
        let perFile = groupSize()
        let group = row / perFile
        var index = row % perFile
        var name = "r-\(group)"
        if files[name] == nil, groupParts[group] == nil {
            guard let text = read(name) else { return nil }
            if let starts = Self.partStarts(inGroupFile: text) {
                groupParts[group] = starts
            } else {
                files[name] = Self.records(inRowFile: text) ?? []
            }
        }
        if let starts = groupParts[group] {
            let part = (starts.lastIndex { $0 <= index }) ?? 0
            index -= starts[part]
            name = "r-\(group)-\(part)"
            if files[name] == nil {
                guard let text = read(name) else { return nil }
                files[name] = Self.records(inRowFile: text) ?? []
            }
        }
        let records = files[name] ?? []
        return index < records.count ? records[index] : nil
    }

    /// ``rowsPerFile``, read from the root on first use.
    private mutating func groupSize() -> Int {
        if let rowsPerFile { return rowsPerFile }
        let size = read("t-").flatMap(SearchRowGroupSize.rowsPerFile(inRootFile:)) ?? 128
        rowsPerFile = size
        return size
    }

    private func read(_ name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent("search/\(name).js"), encoding: .utf8)
    }

    /// The first row of each part of a cut group's file (`RowKitSearch.load("key","r-3",{"p":[0,2]});`),
    /// or `nil` when the text is not such a file.
    static func partStarts(inGroupFile text: String) -> [Int]? {
        // A row file ends `]]);`, a group's file `]});`: the search for the list runs only in the latter.
        guard text.hasPrefix("RowKitSearch.load("), text.hasSuffix("]});\n"), let open = text.range(of: ",{\"p\":["),
            let close = text.range(of: "]}", range: open.upperBound..<text.endIndex)
        else { return nil }
        let starts = text[open.upperBound..<close.lowerBound].split(separator: ",").compactMap { Int($0) }
        return starts.first == 0 ? starts : nil
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
