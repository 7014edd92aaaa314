import Foundation

/// Writes large synthetic listings, a row at a time, for trying pagination and for benchmarks.
///
/// Two kinds, each as YAML, JSON or CSV (the same rows in every format):
///
/// - ``Kind/pagination``: 26 sections "A" to "Z" with index titles, rows spread evenly over them
///   in the four cell styles (a detail on every row but the `default` ones, which show none),
///   every hundredth row with a Markdown body and a detail page.
/// - ``Kind/bodies``: 26 sections "Section A" to "Section Z", each row (style `value1`) a text, a
///   detail and a five-line Markdown body (a heading, emphasis, a link, a list, code), about 300 bytes a row.
///   The bodies are shown under their rows unless `detailPages`, which gives each row a detail
///   page (the listing format's default for a row with a body).
/// - ``Kind/sections``: every row in a section of its own ("Section 1", "Section 2", ...), without
///   index titles.
/// - ``Kind/indexedSections``: the same, each section with an index title ("1", "2", ...).
/// - ``Kind/largeBodies``: one section of rows with a Markdown body of about 1 MB each
///   (``largeBodyBytes``: a list of short items), shown under the row unless `detailPages`.
///
/// The output is the same for the same arguments.
public struct ListingGenerator: Sendable {
    /// What the rows hold.
    public enum Kind: String, Sendable, CaseIterable {
        case pagination, bodies, sections
        case indexedSections = "indexed-sections"
        case largeBodies = "large-bodies"
    }

    /// The size of a ``Kind/largeBodies`` row's body, about.
    public static let largeBodyBytes = 1_000_000

    /// The syntax written.
    public enum Format: String, Sendable, CaseIterable {
        case yaml, json, csv
    }

    public var kind: Kind
    public var rows: Int
    public var format: Format
    /// For ``Kind/bodies``: a detail page per row instead of bodies shown under the rows.
    public var detailPages: Bool

    /// A generator of `rows` rows of `kind` in `format`.
    public init(kind: Kind = .pagination, rows: Int, format: Format, detailPages: Bool = false) {
        self.kind = kind
        self.rows = rows
        self.format = format
        self.detailPages = detailPages
    }

    /// The columns a CSV listing of this kind is exported with (`--section-by section`).
    public static let csvSectionColumn = "section"

    /// One generated row.
    private struct Item {
        var id: String?
        var section: String
        var index: String?
        var style: String?
        var text: String
        var detail: String?
        var accessory: String?
        var body: String?
    }

    private static let letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { String(UnicodeScalar($0)) }
    private static let styles = ["default", "value1", "subtitle", "value2"]

    /// The Markdown body of row `index` (from 0), if it has one.
    public func body(ofRow index: Int) -> String {
        item(index).body ?? ""
    }

    /// Row `index` (from 0).
    private func item(_ index: Int) -> Item {
        let letter = Self.letters[index * Self.letters.count / rows]
        switch kind {
        case .pagination:
            let number = index + 1
            let body =
                number % 100 == 0
                ? "# \(letter) item \(number)\n\nRow **\(number)** of \(rows), in section *\(letter)*." : nil
            let style = Self.styles[index % Self.styles.count]
            return Item(
                id: "row-\(number)", section: letter, index: letter, style: style,
                text: "\(letter) item \(number)", detail: style == "default" ? nil : "No. \(number)",
                accessory: body == nil ? nil : "disclosureIndicator", body: body)
        case .sections, .indexedSections:
            return Item(
                section: "Section \(index + 1)", index: kind == .sections ? nil : "\(index + 1)",
                text: "Row \(index + 1)")
        case .largeBodies:
            return Item(
                section: "Rows", text: "Row \(index + 1)", accessory: detailPages ? nil : "none",
                body: Self.largeBody(index))
        case .bodies:
            let body = """
                ## Heading \(index)
                Some *emphasis* and **strong** text with a [link](https://example.org/\(index)).
                - first point
                - second point
                Final paragraph `code` here.
                """
            return Item(
                section: "Section \(letter)", index: letter, style: "value1",
                text: "Item number \(index) of the listing",
                detail: "Detail \(index)",
                accessory: detailPages ? nil : "none", body: body)
        }
    }

    /// The body of row `index` of ``Kind/largeBodies``: a list of short items, each with emphasis
    /// and code, so the markup is about 2.7 times the Markdown (a body that grows as it is
    /// rendered).
    private static func largeBody(_ index: Int) -> String {
        var body = "Row \(index + 1):\n\n"
        var item = 0
        while body.utf8.count < largeBodyBytes {
            item += 1
            body += "- *\(item)* `x`\n"
        }
        return body
    }

    /// Writes the listing to `url`.
    public func write(to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try write { try handle.write(contentsOf: Data($0.utf8)) }
    }

    /// Writes the listing through `output`, a chunk at a time.
    public func write(_ output: (String) throws -> Void) throws {
        var chunk = ""
        func emit(_ text: String) throws {
            chunk += text
            if chunk.utf8.count > 1 << 20 {
                try output(chunk)
                chunk = ""
            }
        }
        switch format {
        case .yaml: try yaml(emit)
        case .json: try json(emit)
        case .csv: try csv(emit)
        }
        try output(chunk)
    }

    private var title: String {
        switch kind {
        case .pagination: "Large listing (\(rows) rows)"
        case .bodies: "Rows with bodies (\(rows) rows)"
        case .sections, .indexedSections: "One-row sections (\(rows) rows)"
        case .largeBodies: "Rows with large bodies (\(rows) rows)"
        }
    }

    private func yaml(_ emit: (String) throws -> Void) throws {
        try emit("version: 1\ntitle: \(Self.quoted(title))\nstyle: plain\nsections:\n")
        var current: String?
        for index in 0..<rows {
            let item = item(index)
            if item.section != current {
                current = item.section
                let index = item.index.map { "    index: \(Self.quoted($0))\n" } ?? ""
                try emit("  - header: \(Self.quoted(item.section))\n\(index)    rows:\n")
            }
            var line = "      - "
            var first = true
            func field(_ name: String, _ value: String?) {
                guard let value else { return }
                line += (first ? "" : "        ") + "\(name): \(value)\n"
                first = false
            }
            field("id", item.id.map(Self.quoted))
            field("style", item.style)
            field("text", Self.quoted(item.text))
            field("detail", item.detail.map(Self.quoted))
            field("accessory", item.accessory)
            if let body = item.body {
                line += "        body: |\n"
                for bodyLine in body.split(separator: "\n", omittingEmptySubsequences: false) {
                    line += bodyLine.isEmpty ? "\n" : "          \(bodyLine)\n"
                }
            }
            try emit(line)
        }
    }

    private func json(_ emit: (String) throws -> Void) throws {
        try emit("{\"version\": 1, \"title\": \(Self.quoted(title)), \"style\": \"plain\", \"sections\": [")
        var current: String?
        for index in 0..<rows {
            let item = item(index)
            var text = ""
            if item.section != current {
                text += current == nil ? "\n" : "]},\n"
                current = item.section
                let index = item.index.map { "\"index\": \(Self.quoted($0)), " } ?? ""
                text += "{\"header\": \(Self.quoted(item.section)), \(index)\"rows\": [\n"
            } else {
                text += ",\n"
            }
            var fields: [String] = []
            if let id = item.id { fields.append("\"id\": \(Self.quoted(id))") }
            if let style = item.style { fields.append("\"style\": \"\(style)\"") }
            fields.append("\"text\": \(Self.quoted(item.text))")
            if let detail = item.detail { fields.append("\"detail\": \(Self.quoted(detail))") }
            if let accessory = item.accessory { fields.append("\"accessory\": \"\(accessory)\"") }
            if let body = item.body { fields.append("\"body\": \(Self.quoted(body))") }
            text += "{" + fields.joined(separator: ", ") + "}"
            try emit(text)
        }
        try emit(current == nil ? "]}\n" : "]}\n]}\n")
    }

    private func csv(_ emit: (String) throws -> Void) throws {
        try emit("id,section,style,text,detail,accessory,body\n")
        for index in 0..<rows {
            let item = item(index)
            let body = item.body.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" } ?? ""
            try emit(
                "\(item.id ?? ""),\(item.section),\(item.style ?? ""),\(item.text),\(item.detail ?? ""),\(item.accessory ?? ""),\(body)\n"
            )
        }
    }

    /// `text` as a double-quoted YAML or JSON string.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
