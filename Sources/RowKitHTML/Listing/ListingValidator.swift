import Foundation

/// Checks a ``ListingNode`` tree against the listing schema and builds the typed document,
/// reporting every problem it finds rather than stopping at the first.
struct ListingValidator {
    /// The document's path as given, for locations.
    let file: String
    /// The folder image paths are relative to.
    let directory: String
    /// The problems found so far.
    private(set) var diagnostics = DiagnosticList()
    /// The folder with its real path, looked up at the first row with an image.
    private var imageFolder: ListingImagePath.Folder?
    /// Each distinct image path's resolution: rows often share an icon, and resolving walks the
    /// file system one component at a time.
    private var resolvedImages: [String: Result<URL, ListingImagePath.ImagePathError>] = [:]

    /// The fields each level allows, in documentation order.
    static let documentFields = ["version", "title", "style", "sections"]
    static let sectionFields = ["header", "footer", "index", "rows"]
    static let rowFields = allRowFields.map(\.rawValue)
    /// The row fields in the order of ``rowFields``.
    private static let allRowFields = ListingRow.Field.allCases

    /// Prepares to validate the document at `file`; images resolve against `directory`.
    init(file: String, directory: String) {
        self.file = file
        self.directory = directory
    }

    /// A row before identities are resolved.
    private struct DraftRow {
        var row: ListingRow
        var explicitID: (String, SourceLocation)?
    }

    /// The validated document, or `nil` if any problem was found (see ``diagnostics``).
    mutating func document(from root: ListingNode, defaultTitle: String) -> ListingDocument? {
        guard let fields = fields(of: root, allowed: Self.documentFields, in: "the document") else { return nil }
        var version = ListingDocument.currentVersion
        if let pair = fields["version"] { version = self.version(pair.value) ?? version }
        let title = fields["title"].flatMap { string($0, required: false) } ?? defaultTitle
        let style = fields["style"].flatMap { enumValue($0, ListingStyle.self, kind: "table style") } ?? .insetGrouped
        var sections: [ListingSection] = []
        var drafts: [[DraftRow]] = []
        if let pair = fields["sections"] {
            if let items = sequence(pair) {
                if items.isEmpty { diagnostics.add(pair.value.location, "'sections' is empty; a listing needs at least one section") }
                for item in items {
                    if let (section, rows) = section(item) {
                        sections.append(section)
                        drafts.append(rows)
                    }
                }
            }
        } else {
            diagnostics.add(root.location, "missing required field 'sections' in the document")
        }
        resolveIdentities(&drafts)
        guard diagnostics.isEmpty else { return nil }
        for index in sections.indices { sections[index].rows = drafts[index].map(\.row) }
        return ListingDocument(path: file, version: version, title: title, style: style, sections: sections)
    }

    // MARK: - Levels

    private mutating func section(_ node: ListingNode) -> (ListingSection, [DraftRow])? {
        guard let fields = fields(of: node, allowed: Self.sectionFields, in: "a section") else { return nil }
        var rows: [DraftRow] = []
        if let pair = fields["rows"], let items = sequence(pair) {
            rows = items.compactMap { row($0) }
        }
        let section = ListingSection(
            header: fields["header"].flatMap { string($0, required: false) },
            footer: fields["footer"].flatMap { string($0, required: false) },
            indexTitle: fields["index"].flatMap { string($0, required: false) },
            rows: [], location: node.location)
        return (section, rows)
    }

    private mutating func row(_ node: ListingNode) -> DraftRow? {
        guard let fields = fields(of: node, allowed: Self.rowFields, in: "a row") else { return nil }
        var locations: [ListingRow.Field: SourceLocation] = Dictionary(minimumCapacity: fields.count)
        for (index, field) in Self.allRowFields.enumerated() {
            if let pair = fields.pairs[index] { locations[field] = pair.value.location }
        }
        var text: String?
        if let pair = fields["text"] {
            text = string(pair, required: true)
        } else {
            diagnostics.add(node.location, "missing required field 'text' in a row")
        }
        var explicitID: (String, SourceLocation)?
        if let pair = fields["id"], let id = string(pair, required: true) {
            if let problem = Self.problem(withID: id) {
                diagnostics.add(pair.value.location, problem)
            } else {
                explicitID = (id, pair.value.location)
            }
        }
        let style = fields["style"].flatMap { enumValue($0, ListingCellStyle.self, kind: "row style") } ?? .default
        let body = fields["body"].flatMap { string($0, required: false) }
        var accessory: ListingAccessory = body == nil ? .none : .disclosureIndicator
        if let pair = fields["accessory"], !isNull(pair.value) {
            accessory = enumValue(pair, ListingAccessory.self, kind: "accessory") ?? accessory
        }
        var image: String?
        var imageURL: URL?
        if let pair = fields["image"], let path = string(pair, required: false) {
            image = path
            let resolved = resolvedImages[path] ?? ListingImagePath.resolve(path) {
                if let imageFolder { return imageFolder }
                let folder = ListingImagePath.Folder(directory)
                imageFolder = folder
                return folder
            }
            resolvedImages[path] = resolved
            switch resolved {
            case .success(let url): imageURL = url
            case .failure(let error): diagnostics.add(pair.value.location, error.message)
            }
        }
        var link: String?
        if let pair = fields["link"], let value = string(pair, required: false) {
            if value.isEmpty || value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                diagnostics.add(pair.value.location, "'link' must be a non-empty URL without control characters")
            } else {
                link = value
            }
        }
        let detail = fields["detail"].flatMap { string($0, required: false) }
        guard let text else { return nil }
        let row = ListingRow(
            id: explicitID?.0 ?? "", hasExplicitID: explicitID != nil, style: style, text: text,
            detail: detail, image: image, imageURL: imageURL,
            accessory: accessory, body: body, link: link, location: node.location, fieldLocations: locations)
        return DraftRow(row: row, explicitID: explicitID)
    }

    /// Reports duplicate explicit ids, then derives the missing ones in document order.
    private mutating func resolveIdentities(_ drafts: inout [[DraftRow]]) {
        var firstUse: [String: SourceLocation] = Dictionary(minimumCapacity: drafts.reduce(0) { $0 + $1.count })
        var needsDerivedIDs = false
        for section in drafts {
            for draft in section {
                guard let (id, location) = draft.explicitID else {
                    needsDerivedIDs = true
                    continue
                }
                if let first = firstUse[id] {
                    diagnostics.add(location, "duplicate id '\(YAMLListingParser.shorten(id))'; first used at \(first)")
                } else {
                    firstUse[id] = location
                }
            }
        }
        guard needsDerivedIDs else { return }
        var identity = ListingIdentity(reserving: Set(firstUse.keys))
        for s in drafts.indices {
            for r in drafts[s].indices where drafts[s][r].explicitID == nil {
                drafts[s][r].row.id = identity.derive(from: drafts[s][r].row.text)
            }
        }
    }

    /// Why `id` is not a valid explicit identity, or `nil` if it is.
    static func problem(withID id: String) -> String? {
        let bytes = id.utf8
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
        }
        guard let first = bytes.first, isAlphanumeric(first), bytes.count <= ListingLimits.maxIDLength,
            bytes.allSatisfy({ isAlphanumeric($0) || $0 == 0x2D || $0 == 0x5F || $0 == 0x2E })
        else {
            return "invalid id '\(YAMLListingParser.shorten(id))': use 1 to \(ListingLimits.maxIDLength) ASCII "
                + "letters, digits, '-', '_' or '.', starting with a letter or digit"
        }
        return nil
    }

    // MARK: - Values

    /// The first pair for each allowed key of a mapping, in the order of the allowed names: a
    /// handful of fields, so a linear search beats hashing every key of every row.
    private struct Fields {
        /// The allowed names.
        let names: [String]
        /// For each allowed name, its first pair.
        var pairs: [ListingNode.Pair?]
        /// How many allowed names are present.
        var count = 0

        init(names: [String]) {
            self.names = names
            pairs = Array(repeating: nil, count: names.count)
        }

        /// The first pair with the key `name`, one of the allowed names.
        subscript(name: String) -> ListingNode.Pair? {
            guard let index = names.firstIndex(of: name) else { return nil }
            return pairs[index]
        }
    }

    /// The first pair for each key of a mapping; reports a non-mapping, unknown and repeated keys.
    private mutating func fields(
        of node: ListingNode, allowed: [String], in context: String
    ) -> Fields? {
        guard case .mapping(let pairs) = node.value else {
            if context == "the document", case .scalar(_, .null, _) = node.value {
                diagnostics.add(node.location, "the document is empty; expected a mapping with 'sections'")
            } else {
                diagnostics.add(node.location, "\(context) must be a mapping, found \(node.typeDescription)")
            }
            return nil
        }
        var result = Fields(names: allowed)
        for pair in pairs {
            let index = allowed.firstIndex(of: pair.key)
            if let index, let first = result.pairs[index] {
                diagnostics.add(pair.keyLocation, "duplicate key '\(pair.key)'; first at \(first.keyLocation)")
                continue
            }
            guard let index else {
                let name = YAMLListingParser.shorten(pair.key)
                if let suggestion = pair.key.closest(in: allowed) {
                    diagnostics.add(pair.keyLocation, "unknown field '\(name)' in \(context); did you mean '\(suggestion)'?")
                } else {
                    diagnostics.add(
                        pair.keyLocation,
                        "unknown field '\(name)' in \(context); expected one of: \(allowed.joined(separator: ", "))")
                }
                continue
            }
            result.pairs[index] = pair
            result.count += 1
        }
        return result
    }

    private func isNull(_ node: ListingNode) -> Bool {
        if case .scalar(_, .null, _) = node.value { return true }
        return false
    }

    /// A string field's value; `null` is absent for optional fields and an error for required ones.
    private mutating func string(_ pair: ListingNode.Pair, required: Bool) -> String? {
        let node = pair.value
        guard case .scalar(let text, let kind, let literalIsText) = node.value else {
            diagnostics.add(node.location, "'\(pair.key)' must be a string, found \(node.typeDescription)")
            return nil
        }
        switch kind {
        case .string:
            break
        case .null:
            if required { diagnostics.add(node.location, "'\(pair.key)' must be a string, found null") }
            return nil
        case .number, .bool:
            guard literalIsText else {
                diagnostics.add(node.location, "'\(pair.key)' must be a string, found \(node.typeDescription)")
                return nil
            }
        }
        if text.utf8.contains(0) {
            diagnostics.add(node.location, "'\(pair.key)' contains a NUL character")
            return nil
        }
        return text
    }

    private mutating func sequence(_ pair: ListingNode.Pair) -> [ListingNode]? {
        switch pair.value.value {
        case .sequence(let items): return items
        case .scalar(_, .null, _): return []
        default:
            diagnostics.add(pair.value.location, "'\(pair.key)' must be a sequence, found \(pair.value.typeDescription)")
            return nil
        }
    }

    private mutating func enumValue<Value: RawRepresentable & CaseIterable>(
        _ pair: ListingNode.Pair, _ type: Value.Type, kind: String
    ) -> Value? where Value.RawValue == String {
        guard let text = string(pair, required: true) else { return nil }
        if let value = Value(rawValue: text) { return value }
        let valid = Value.allCases.map(\.rawValue)
        let list = valid.joined(separator: ", ")
        var message = "unknown \(kind) '\(YAMLListingParser.shorten(text))'"
        if let suggestion = text.closest(in: valid) {
            message += "; did you mean '\(suggestion)'? (expected one of: \(list))"
        } else {
            message += "; expected one of: \(list)"
        }
        diagnostics.add(pair.value.location, message)
        return nil
    }

    /// The version number; only ``ListingDocument/currentVersion`` is accepted.
    private mutating func version(_ node: ListingNode) -> Int? {
        guard case .scalar(let text, .number, _) = node.value else {
            diagnostics.add(node.location, "'version' must be a number, found \(node.typeDescription)")
            return nil
        }
        guard let number = Double(text), number == Double(ListingDocument.currentVersion) else {
            diagnostics.add(
                node.location,
                "unsupported version \(YAMLListingParser.shorten(text)); only version \(ListingDocument.currentVersion) is supported")
            return nil
        }
        return ListingDocument.currentVersion
    }
}
