import RowKit

extension ListingDocument {
    /// The document as a RowKit table: the listing's style, its sections with their header, footer
    /// and index titles, and one standard row per listing row.
    ///
    /// Each row becomes the standard row of its cell style (`default` → `DefaultRow`, `value1` →
    /// `Value1Row`, `value2` → `Value2Row`, `subtitle` → `SubtitleRow`), or a `SwitchRow` laid out
    /// in that style when it has a `switch`, with the row's resolved identity as a string `ItemID`
    /// and its fields as `CellContent`.
    ///
    /// Images: with no `imageBase`, an image is the path as written, relative to the document's
    /// folder (pass that folder as the exporter's base directory). With an `imageBase` (a real
    /// path, symbolic links resolved, as when several documents share one export), an image is the
    /// reader's resolved file relative to that folder, or its absolute path when it lies outside.
    ///
    /// A section's identity is its header title when no other section has the same header,
    /// otherwise its position, so a document with repeated headers still makes a valid table.
    ///
    /// - Complexity: O(*n*), where *n* is the number of rows.
    public func makeTable(imageBase: String? = nil) -> Table {
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
                rows: section.rows.map { $0.anyRow(imageBase: imageBase) })
        }
        return Table(style: style, sections: tableSections)
    }
}

extension ListingRow {
    /// What the row's cell shows; `imageBase` as in ``ListingDocument/makeTable(imageBase:)``.
    public func cellContent(imageBase: String? = nil) -> CellContent {
        CellContent(
            text: text, detail: detail, image: imageSource(imageBase: imageBase).map { CellImage($0) },
            accessory: accessory, body: body, link: link)
    }

    /// The standard row of the row's cell style, or a `SwitchRow` in that style when the row has a
    /// switch, type-erased; `imageBase` as in ``ListingDocument/makeTable(imageBase:)``.
    public func anyRow(imageBase: String? = nil) -> AnyRow {
        let id = ItemID(self.id)
        let cellContent = cellContent(imageBase: imageBase)
        if let switchIsOn {
            return AnyRow(SwitchRow(id: id, content: cellContent, isOn: switchIsOn, layout: style))
        }
        switch style {
        case .default: return AnyRow(DefaultRow(id: id, content: cellContent))
        case .value1: return AnyRow(Value1Row(id: id, content: cellContent))
        case .value2: return AnyRow(Value2Row(id: id, content: cellContent))
        case .subtitle: return AnyRow(SubtitleRow(id: id, content: cellContent))
        }
    }

    /// The image path the exporter resolves: as written without a base, else relative to it.
    private func imageSource(imageBase: String?) -> String? {
        guard let imageBase, let imageURL else { return image }
        let prefix = imageBase.hasSuffix("/") ? imageBase : imageBase + "/"
        let path = imageURL.path
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
