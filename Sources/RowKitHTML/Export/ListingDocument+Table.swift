import RowKit

extension ListingDocument {
    /// The document as a RowKit table: the listing's style, its sections with their header, footer
    /// and index titles, and one standard row per listing row.
    ///
    /// Each row becomes the standard row of its cell style (`default` → `DefaultRow`, `value1` →
    /// `Value1Row`, `value2` → `Value2Row`, `subtitle` → `SubtitleRow`) with the row's resolved
    /// identity as a string `ItemID` and its fields as `CellContent`. The image is the file the
    /// reader resolved (an absolute path) when there is one, else the path as written.
    ///
    /// A section's identity is its header title when no other section has the same header,
    /// otherwise its position, so a document with repeated headers still makes a valid table.
    ///
    /// - Complexity: O(*n*), where *n* is the number of rows.
    public func makeTable() -> Table {
        var headerCounts: [String: Int] = [:]
        for section in sections {
            if let header = section.header { headerCounts[header, default: 0] += 1 }
        }
        let tableSections = sections.map { section in
            let uniqueHeader = section.header.flatMap { headerCounts[$0] == 1 ? $0 : nil }
            return Section(
                id: uniqueHeader.map { ItemID($0) },
                header: section.header.map { HeaderFooter.title($0) },
                footer: section.footer.map { HeaderFooter.title($0) },
                indexTitle: section.indexTitle,
                rows: section.rows.map(\.anyRow))
        }
        return Table(style: style.tableStyle, sections: tableSections)
    }
}

extension ListingStyle {
    /// The RowKit table style of the same name.
    public var tableStyle: TableStyle {
        switch self {
        case .plain: return .plain
        case .grouped: return .grouped
        case .insetGrouped: return .insetGrouped
        }
    }
}

extension ListingAccessory {
    /// The RowKit accessory of the same name.
    public var accessory: Accessory {
        switch self {
        case .none: return .none
        case .disclosureIndicator: return .disclosureIndicator
        case .checkmark: return .checkmark
        case .detailButton: return .detailButton
        case .detailDisclosureButton: return .detailDisclosureButton
        }
    }
}

extension ListingRow {
    /// What the row's cell shows.
    public var cellContent: CellContent {
        CellContent(
            text: text, detail: detail,
            image: (imageURL?.path ?? image).map { CellImage($0) },
            accessory: accessory.accessory, body: body, link: link)
    }

    /// The standard row of the row's cell style, type-erased.
    public var anyRow: AnyRow {
        let id = ItemID(self.id)
        switch style {
        case .default: return AnyRow(DefaultRow(id: id, content: cellContent))
        case .value1: return AnyRow(Value1Row(id: id, content: cellContent))
        case .value2: return AnyRow(Value2Row(id: id, content: cellContent))
        case .subtitle: return AnyRow(SubtitleRow(id: id, content: cellContent))
        }
    }
}
