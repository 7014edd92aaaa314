/// The visual style of a table, as UIKit's table styles.
public enum TableStyle: String, Sendable, Hashable, CaseIterable {
    /// Edge-to-edge rows; section headers float and stick to the top while their section scrolls.
    case plain
    /// Sections separated by space, headers scroll with their content.
    case grouped
    /// Grouped, with rounded sections inset from the edges.
    case insetGrouped
}

/// A declared table: a style and sections. A plain value; `TableModel` adds identity lookups and
/// transactional updates.
///
/// ```swift
/// let settings = Table(style: .insetGrouped) {
///     Section("Network") {
///         Value1Row("Wi-Fi", detail: "HomeNet", accessory: .disclosureIndicator)
///         DefaultRow("Bluetooth", accessory: .checkmark)
///     }
/// }
/// ```
public struct Table: Sendable {
    /// The table's style.
    public var style: TableStyle
    /// The sections, in order.
    public var sections: [Section]

    /// Declares a table with the result-builder DSL (conditionals and loops allowed).
    public init(style: TableStyle = .insetGrouped, @TableBuilder _ sections: () -> [Section]) {
        self.init(style: style, sections: sections())
    }

    /// Creates a table from sections; sections without an identity take their position.
    public init(style: TableStyle = .insetGrouped, sections: [Section]) {
        self.style = style
        self.sections = sections.enumerated().map { index, section in
            guard section.hasPositionalID else { return section }
            var positioned = section
            positioned.id = ItemID(PositionalSectionID(index: index))
            return positioned
        }
    }

    /// The number of rows in all sections.
    public var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    /// An indented text dump: one line per section (identity, header, footer, index title) and per
    /// row (identity, cell layout, text and detail); for tests and debugging.
    public var dump: String {
        var lines = ["Table(\(style.rawValue))"]
        for (index, section) in sections.enumerated() {
            var line = "  Section \(index) id=\(section.id)"
            if let title = section.header?.title { line += " header=\"\(title)\"" }
            if let title = section.footer?.title { line += " footer=\"\(title)\"" }
            if let title = section.indexTitle { line += " index=\"\(title)\"" }
            lines.append(line)
            for (rowIndex, row) in section.rows.enumerated() {
                lines.append("    [\(index), \(rowIndex)] " + row.dumpDescription)
            }
        }
        return lines.joined(separator: "\n")
    }
}

extension AnyRow {
    /// One line describing the row for dumps: identity, cell class and standard content.
    public var dumpDescription: String {
        var line = "id=\(id) cell=\(reuseIdentifier.name.split(separator: ".").last ?? "")"
        if let standard = base as? any StandardRowContent {
            line += " text=\"\(standard.content.text)\""
            if let detail = standard.content.detail { line += " detail=\"\(detail)\"" }
            if let isOn = standard.switchIsOn {
                line += " switch=\(isOn ? "on" : "off")"
            } else if standard.content.accessory != .none {
                line += " accessory=\(standard.content.accessory.rawValue)"
            }
        }
        return line
    }
}
