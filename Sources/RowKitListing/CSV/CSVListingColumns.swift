/// Which CSV column holds which listing field, from the header line and ``CSVListingOptions``.
struct CSVListingColumns {
    /// For each row field (in ``ListingRow/Field`` order), its column.
    private(set) var fieldColumns: [Int?] = Array(repeating: nil, count: ListingRow.Field.allCases.count)
    /// The column whose value names the row's section.
    private(set) var sectionColumn: Int?
    /// The columns holding sections' footers and index titles.
    private(set) var footerColumn: Int?
    private(set) var indexColumn: Int?
    /// Whether sections take a footer or an index title from a column.
    var hasSectionFields: Bool { footerColumn != nil || indexColumn != nil }
    /// The style a row without a style cell gets (``CSVListingOptions/defaultStyle``), when it is
    /// not `default`.
    private let defaultStyle: String?
    /// The number of fields every record must have.
    let width: Int

    /// The columns `options` name in `header`, and the problems that prevent reading the rows
    /// (a repeated column name, a named column that is not in the header), in header then
    /// option order.
    init(header: CSVRecordReader.Record, options: CSVListingOptions, file: String, problems: inout DiagnosticList) {
        width = header.count
        defaultStyle = options.defaultStyle == .default ? nil : options.defaultStyle.rawValue
        let headerLocation = SourceLocation(file: file, line: header.line, column: header.column)
        // A repeated name is a problem only for a column the listing reads (which one is meant?):
        // columns it ignores may repeat, as the empty names of a spreadsheet's trailing `,,`.
        var read: Set<String> = [options.text]
        for (field, explicit) in Self.optionalFields(of: options) { read.insert(explicit ?? field.rawValue) }
        for name in [options.sectionBy, options.footer, options.index].compactMap(\.self) { read.insert(name) }
        var columns: [String: Int] = [:]
        for (index, field) in header.fields.enumerated() {
            if columns[field.text] == nil {
                columns[field.text] = index
            } else if read.contains(field.text) {
                problems.add(
                    SourceLocation(file: file, line: field.line, column: field.column),
                    "duplicate column '\(ListingText.shown(field.text))' in the header")
            }
        }
        // Made only for a message, and naming the first few columns of a wide header.
        var headerNames: String {
            var names = header.fields.prefix(Self.namesListed).map { "'\(ListingText.shown($0.text))'" }
            if header.fields.count > Self.namesListed {
                names.append("and \(header.fields.count - Self.namesListed) more")
            }
            return names.joined(separator: ", ")
        }
        // What a message about a missing column `name` says after the header's names: a column
        // that differs only in case or surrounding spaces (`Text`, ` text`), or that the header is
        // one column holding another separator (a spreadsheet's export with `;` or tabs).
        func hint(_ name: String) -> String {
            if header.fields.count == 1, let separator = [";", "\t"].first(where: header.fields[0].text.contains) {
                return " (one column: fields are separated by commas, not by '\(ListingText.shown(separator))')"
            }
            let wanted = name.lowercased()
            if let near = header.fields.first(where: { $0.text.trimmingASCIIWhitespace().lowercased() == wanted }) {
                return " (did you mean '\(ListingText.shown(near.text))'? names must match exactly)"
            }
            return ""
        }
        func missing(_ kind: String, _ name: String) {
            problems.add(
                headerLocation,
                "the \(kind) column '\(ListingText.shown(name))' is not in the header; the header has: \(headerNames)"
                    + hint(name))
        }
        func map(_ field: ListingRow.Field, _ explicit: String?, required: Bool = false) {
            let name = explicit ?? field.rawValue
            if let column = columns[name] {
                fieldColumns[Self.index(of: field)] = column
            } else if explicit != nil || required {
                missing(field.rawValue, name)
            }
        }
        map(.text, options.text, required: true)
        for (field, explicit) in Self.optionalFields(of: options) { map(field, explicit) }
        if let name = options.sectionBy {
            if let column = columns[name] {
                sectionColumn = column
            } else {
                missing("section", name)
            }
        }
        if let name = options.footer {
            if let column = columns[name] { footerColumn = column } else { missing("footer", name) }
        }
        if let name = options.index {
            if let column = columns[name] { indexColumn = column } else { missing("index", name) }
        }
    }

    /// The row fields other than `text`, in the order their columns are looked up, each with the
    /// column `options` names for it (`nil`: the column of the field's name, if any).
    private static func optionalFields(of options: CSVListingOptions) -> [(ListingRow.Field, String?)] {
        [
            (.id, options.id), (.style, options.style), (.detail, options.detail), (.image, options.image),
            (.accessory, options.accessory), (.body, options.body), (.link, options.link),
        ]
    }

    /// The most header columns a message lists.
    static let namesListed = 20

    private static func index(of field: ListingRow.Field) -> Int {
        ListingRow.Field.allCases.firstIndex(of: field) ?? 0
    }

    /// A record's cells as the fields of a row: each non-empty mapped cell is a string value at
    /// the cell's position.
    func fields(of record: CSVRecordReader.Record) -> ListingSchema.Fields {
        var fields = ListingSchema.Fields(names: ListingSchema.rowFields)
        for (index, column) in fieldColumns.enumerated() {
            guard let column else { continue }
            let cell = record.fields[column]
            guard !cell.text.isEmpty else { continue }
            fields.keys[index] = (cell.line, cell.column)
            fields.values[index] = ListingSchema.Value(
                shape: .scalar(cell.text, .string, literalIsText: false), line: cell.line, column: cell.column)
        }
        if let defaultStyle, case let style = Self.index(of: .style), fields.values[style] == nil {
            fields.keys[style] = (record.line, record.column)
            fields.values[style] = ListingSchema.Value(
                shape: .scalar(defaultStyle, .string, literalIsText: false), line: record.line, column: record.column)
        }
        return fields
    }

    /// A record's footer and index title cells (`nil` for an empty cell or no such column).
    func sectionFields(
        of record: CSVRecordReader.Record
    ) -> (footer: CSVRecordReader.Field?, index: CSVRecordReader.Field?) {
        func cell(_ column: Int?) -> CSVRecordReader.Field? {
            guard let column, !record.fields[column].text.isEmpty else { return nil }
            return record.fields[column]
        }
        return (cell(footerColumn), cell(indexColumn))
    }

    /// The section a record belongs to: its name (empty: no header) and where it is written.
    func section(of record: CSVRecordReader.Record) -> (name: String, line: Int, column: Int) {
        guard let sectionColumn else { return ("", record.line, record.column) }
        let cell = record.fields[sectionColumn]
        return (cell.text, cell.line, cell.column)
    }
}
