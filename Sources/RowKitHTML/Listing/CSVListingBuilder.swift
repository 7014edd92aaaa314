/// Maps a ``CSVTable`` onto a listing ``ListingNode`` tree with the cells' locations, so CSV goes
/// through the same validation as YAML and JSON.
enum CSVListingBuilder {
    /// The tree for `table`, or the column and ragged-row problems that prevent building it.
    static func build(
        _ table: CSVTable, options: CSVListingOptions, file: String, defaultTitle: String
    ) -> (ListingNode?, [ListingDiagnostic]) {
        var diagnostics = DiagnosticList()
        let headerLocation = table.header.location
        var columns: [String: Int] = [:]
        for (index, field) in table.header.fields.enumerated() {
            if columns[field.text] != nil {
                diagnostics.add(field.location, "duplicate column '\(YAMLListingParser.shorten(field.text))' in the header")
            } else {
                columns[field.text] = index
            }
        }
        let headerNames = table.header.fields.map { "'\(YAMLListingParser.shorten($0.text))'" }.joined(separator: ", ")
        // Each listing field and the column it comes from; explicit names must exist.
        var mapping: [(field: String, column: Int)] = []
        func map(_ field: String, _ explicit: String?, required: Bool = false) {
            let name = explicit ?? field
            if let column = columns[name] {
                mapping.append((field, column))
            } else if explicit != nil || required {
                diagnostics.add(
                    headerLocation,
                    "the \(field) column '\(YAMLListingParser.shorten(name))' is not in the header; the header has: \(headerNames)")
            }
        }
        map("text", options.text, required: true)
        for (field, explicit) in [
            ("id", options.id), ("style", options.style), ("detail", options.detail), ("image", options.image),
            ("accessory", options.accessory), ("body", options.body), ("link", options.link),
        ] {
            map(field, explicit)
        }
        var sectionColumn: Int?
        if let name = options.sectionBy {
            if let column = columns[name] {
                sectionColumn = column
            } else {
                diagnostics.add(
                    headerLocation,
                    "the section column '\(YAMLListingParser.shorten(name))' is not in the header; the header has: \(headerNames)")
            }
        }
        let width = table.header.fields.count
        for record in table.records where record.fields.count != width {
            diagnostics.add(record.location, "row has \(record.fields.count) \(record.fields.count == 1 ? "field" : "fields"); the header has \(width)")
        }
        guard diagnostics.isEmpty else { return (nil, diagnostics.finished()) }

        // Group rows into sections by the section column, in first-seen order.
        var order: [String] = []
        var groups: [String: (location: SourceLocation, rows: [ListingNode])] = [:]
        for record in table.records {
            var pairs: [ListingNode.Pair] = []
            for (field, column) in mapping {
                let cell = record.fields[column]
                guard !cell.text.isEmpty else { continue }
                pairs.append(ListingNode.Pair(key: field, keyLocation: cell.location, value: string(cell.text, cell.location)))
            }
            let row = ListingNode(value: .mapping(pairs), location: record.location)
            let name = sectionColumn.map { record.fields[$0].text } ?? ""
            if groups[name] == nil {
                order.append(name)
                groups[name] = (sectionColumn.map { record.fields[$0].location } ?? record.location, [])
            }
            groups[name]?.rows.append(row)
        }
        if options.sort { order.sort() }
        let sections = order.compactMap { name -> ListingNode? in
            guard let group = groups[name] else { return nil }
            var pairs = [ListingNode.Pair(key: "rows", keyLocation: group.location, value: ListingNode(value: .sequence(group.rows), location: group.location))]
            if !name.isEmpty { pairs.insert(ListingNode.Pair(key: "header", keyLocation: group.location, value: string(name, group.location)), at: 0) }
            return ListingNode(value: .mapping(pairs), location: group.location)
        }
        let start = SourceLocation(file: file, line: 1, column: 1)
        let root = ListingNode(
            value: .mapping([
                ListingNode.Pair(key: "title", keyLocation: start, value: string(options.title ?? defaultTitle, start)),
                ListingNode.Pair(key: "style", keyLocation: start, value: string(options.tableStyle.rawValue, start)),
                ListingNode.Pair(key: "sections", keyLocation: start, value: ListingNode(value: .sequence(sections), location: start)),
            ]),
            location: start)
        return (root, [])
    }

    private static func string(_ text: String, _ location: SourceLocation) -> ListingNode {
        ListingNode(value: .scalar(text: text, kind: .string, literalIsText: false), location: location)
    }
}
