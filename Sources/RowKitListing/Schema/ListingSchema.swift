import Foundation
import RowKit

/// Checks a listing against its schema as a stream of events, reporting every problem it finds
/// rather than stopping at the first, and hands on sections and rows as they end.
///
/// The structure a listing needs is fixed (document → `sections` → section → `rows` → row), so
/// one state per level is kept; any other mapping or sequence is skipped whole (counting its
/// depth), keeping only its type for a message. Memory is one row's fields at a time.
///
/// Problems are ranked by where they stand in the document (``DiagnosticRank``): the document's
/// fields, then each section (its keys, its rows, then its header, footer and index title), then
/// missing fields, then repeated ids, the order in which they are counted toward the limit.
struct ListingSchema {
    /// The fields each level allows, in documentation order.
    static let documentFields = ["version", "title", "style", "sections"]
    static let sectionFields = ["header", "footer", "index", "rows"]
    static let rowFields = ListingRow.Field.allCases.map(\.rawValue)

    /// The document's path as given, for locations.
    let file: String
    /// The title when the document has none.
    let defaultTitle: String
    /// The problems found so far.
    var diagnostics = RankedDiagnostics()
    /// Data the export will drop, found so far: the first ``warningLimit`` in document order.
    private(set) var warnings: [ListingDiagnostic] = []
    /// How many warnings there are in all, kept or not.
    private(set) var warningCount = 0
    /// The warnings kept of a document.
    static let warningLimit = 100
    /// What has ended and not been taken yet (sections and rows, in document order).
    var outputs: [SchemaOutput] = []
    /// How many rows passed so far (each one's number in document order).
    private(set) var rowsPassed = 0
    private var images: ImageResolver
    /// For a CSV file, its detail column's name: a detail that the `default` style hides is then
    /// one warning for the file (the same fix holds for every row), not one per row.
    var csvDetailColumn: String?
    private var warnedHiddenDetail = false
    /// Finds a body's images (``ListingReader/bodyImages``).
    private let bodyImages: (@Sendable (String) -> [MarkdownImageReference])?

    init(file: String, defaultTitle: String, bodyImages: (@Sendable (String) -> [MarkdownImageReference])? = nil) {
        self.file = file
        self.defaultTitle = defaultTitle
        self.bodyImages = bodyImages
        images = ImageResolver(directory: URL(fileURLWithPath: file).deletingLastPathComponent().path)
    }

    // MARK: - State

    /// Where the stream is in the listing's structure.
    private enum Level {
        case root, document, sections, section, rows, row, done
    }

    private var level = Level.root
    /// Inside a mapping or sequence the schema does not look into: how deep.
    private var skipDepth = 0

    /// A field's value as far as the schema needs it: a scalar in full, a collection by its type.
    struct Value {
        enum Shape {
            case scalar(String, ScalarKind, literalIsText: Bool)
            case mapping
            case sequence
        }

        var shape: Shape
        var line: Int
        var column: Int

        /// A short name of the value's type for diagnostics ("a mapping", "the number 12", ...).
        var typeDescription: String {
            switch shape {
            case .mapping: return "a mapping"
            case .sequence: return "a sequence"
            case .scalar(let text, let kind, _):
                switch kind {
                case .string: return "a string"
                case .null: return "null"
                case .number, .bool:
                    let shown = text.count > 24 ? String(text.prefix(24)) + "…" : text
                    return "\(kind == .number ? "the number" : "the boolean") \(shown)"
                }
            }
        }

        var isNull: Bool {
            if case .scalar(_, .null, _) = shape { return true }
            return false
        }
    }

    /// The fields of one mapping: the first key of each allowed name with its value.
    struct Fields {
        let names: [String]
        var keys: [(line: Int, column: Int)?]
        var values: [Value?]
        /// Keys seen so far, allowed or not (their position in the mapping).
        var pairCount = 0
        /// The allowed name whose value comes next, or `nil` when the next value is ignored.
        var pending: Int?

        init(names: [String]) {
            self.names = names
            keys = Array(repeating: nil, count: names.count)
            values = Array(repeating: nil, count: names.count)
        }

        /// Forgets every key and value, keeping the storage.
        mutating func reset() {
            for index in keys.indices {
                keys[index] = nil
                values[index] = nil
            }
            pairCount = 0
            pending = nil
        }

        subscript(name: String) -> Value? {
            guard let index = names.firstIndex(of: name) else { return nil }
            return values[index]
        }

        /// Notes the mapping's next key, at `line` and `column`: the first of an allowed name is
        /// kept and its value awaited. Returns the key's position among the mapping's keys and,
        /// for an unknown or repeated key, the problem (`location` names the first key's place).
        mutating func note(
            key: String, at line: Int, _ column: Int, context: String, file: String
        ) -> (pair: Int, problem: String?) {
            let pair = pairCount
            pairCount += 1
            pending = nil
            guard let index = names.firstIndex(of: key) else {
                let name = ListingText.shown(key)
                if let suggestion = key.closest(in: names) {
                    return (pair, "unknown field '\(name)' in \(context); did you mean '\(suggestion)'?")
                }
                return (
                    pair, "unknown field '\(name)' in \(context); expected one of: \(names.joined(separator: ", "))"
                )
            }
            if let first = keys[index] {
                return (
                    pair,
                    "duplicate key '\(key)'; first at \(SourceLocation(file: file, line: first.line, column: first.column))"
                )
            }
            keys[index] = (line, column)
            pending = index
            return (pair, nil)
        }
    }

    private var document = Fields(names: ListingSchema.documentFields)
    private var rootLine = 1
    private var rootColumn = 1
    /// The `sections` sequence: how many items so far, and how many were sections.
    private var sectionItems = 0
    /// How many sections (mappings in `sections`) started so far.
    private(set) var sectionsPassed = 0
    private var section = Fields(names: ListingSchema.sectionFields)
    private var sectionLine = 0
    private var sectionColumn = 0
    private var sectionRank = DiagnosticRank([2, 0])
    private var rowItems = 0
    private var row = Fields(names: ListingSchema.rowFields)
    private var rowLine = 0
    private var rowColumn = 0
    private var rowRank = DiagnosticRank([2, 0, 1, 0])

    // MARK: - Events

    /// Takes in one event.
    mutating func consume(_ event: ListingEvent) {
        switch event {
        case .mappingStart(let line, let column): start(isMapping: true, line, column)
        case .sequenceStart(let line, let column): start(isMapping: false, line, column)
        case .end: end()
        case .key(let text, let line, let column): key(text, line, column)
        case .scalar(let text, let kind, let literal, let line, let column):
            scalar(Value(shape: .scalar(text, kind, literalIsText: literal), line: line, column: column))
        }
    }

    private mutating func start(isMapping: Bool, _ line: Int, _ column: Int) {
        if skipDepth > 0 {
            skipDepth += 1
            return
        }
        let value = Value(shape: isMapping ? .mapping : .sequence, line: line, column: column)
        switch level {
        case .root:
            rootLine = line
            rootColumn = column
            if isMapping {
                level = .document
            } else {
                notAMapping(value, context: "the document", rank: DiagnosticRank([0, 0]))
                level = .done
                skipDepth = 1
            }
        case .document:
            if document.pending == 3, !isMapping {
                document.values[3] = value
                level = .sections
            } else {
                if document.pending == 3 {
                    add(DiagnosticRank([2, -1]), line, column, "'sections' must be a sequence, found a mapping")
                }
                record(value, in: &document)
                skipDepth = 1
            }
        case .sections:
            let rank = DiagnosticRank([2, sectionItems])
            sectionItems += 1
            if isMapping {
                level = .section
                section = Fields(names: Self.sectionFields)
                sectionLine = line
                sectionColumn = column
                sectionRank = rank
                sectionsPassed += 1
                rowItems = 0
                outputs.append(.sectionStart(location(line, column)))
            } else {
                notAMapping(value, context: "a section", rank: rank.appending(0, 0))
                skipDepth = 1
            }
        case .section:
            if section.pending == 3, !isMapping {
                section.values[3] = value
                level = .rows
            } else {
                if section.pending == 3 { rowsNotASequence(value) }
                record(value, in: &section)
                skipDepth = 1
            }
        case .rows:
            let rank = sectionRank.appending(1, rowItems)
            rowItems += 1
            if isMapping {
                level = .row
                row.reset()
                rowLine = line
                rowColumn = column
                rowRank = rank
            } else {
                notAMapping(value, context: "a row", rank: rank.appending(0, 0))
                skipDepth = 1
            }
        case .row:
            record(value, in: &row)
            skipDepth = 1
        case .done:
            skipDepth = 1
        }
    }

    private mutating func end() {
        if skipDepth > 0 {
            skipDepth -= 1
            return
        }
        switch level {
        case .document:
            finishDocument()
            level = .done
        case .sections:
            if sectionItems == 0, let value = document.values[3] {
                add(
                    DiagnosticRank([2, -1]), value.line, value.column,
                    "'sections' is empty; a listing needs at least one section")
            }
            document.pending = nil
            level = .document
        case .section:
            finishSection()
            level = .sections
        case .rows:
            section.pending = nil
            level = .section
        case .row:
            var fields = Fields(names: [])
            swap(&fields, &row)
            if let draft = checkRow(fields, line: rowLine, column: rowColumn, rank: rowRank) {
                outputs.append(.row(draft))
                rowsPassed += 1
            }
            swap(&fields, &row)
            level = .rows
        case .root, .done:
            break
        }
    }

    private mutating func key(_ text: String, _ line: Int, _ column: Int) {
        guard skipDepth == 0 else { return }
        switch level {
        case .document:
            let (pair, problem) = document.note(key: text, at: line, column, context: "the document", file: file)
            if let problem { add(DiagnosticRank([0, pair]), line, column, problem) }
        case .section:
            let (pair, problem) = section.note(key: text, at: line, column, context: "a section", file: file)
            if let problem { add(sectionRank.appending(0, pair), line, column, problem) }
        case .row:
            let (pair, problem) = row.note(key: text, at: line, column, context: "a row", file: file)
            if let problem { add(rowRank.appending(0, pair), line, column, problem) }
        default: break
        }
    }

    private mutating func scalar(_ value: Value) {
        guard skipDepth == 0 else { return }
        switch level {
        case .root:
            rootLine = value.line
            rootColumn = value.column
            notAMapping(value, context: "the document", rank: DiagnosticRank([0, 0]))
            level = .done
        case .document:
            if document.pending == 3 {
                if value.isNull {
                    add(
                        DiagnosticRank([2, -1]), value.line, value.column,
                        "'sections' is empty; a listing needs at least one section")
                } else {
                    add(
                        DiagnosticRank([2, -1]), value.line, value.column,
                        "'sections' must be a sequence, found \(value.typeDescription)")
                }
            }
            record(value, in: &document)
        case .sections:
            notAMapping(value, context: "a section", rank: DiagnosticRank([2, sectionItems]).appending(0, 0))
            sectionItems += 1
        case .section:
            if section.pending == 3, !value.isNull { rowsNotASequence(value) }
            record(value, in: &section)
        case .rows:
            notAMapping(value, context: "a row", rank: sectionRank.appending(1, rowItems).appending(0, 0))
            rowItems += 1
        case .row:
            record(value, in: &row)
        case .done:
            break
        }
    }

    // MARK: - Fields

    /// Takes `value` as the value of the pending key, if there is one. `null` (`~`, `null`, an
    /// empty value) means absent for every optional field; a row's `text` is required, so its
    /// `null` is kept to be reported.
    private func record(_ value: Value, in fields: inout Fields) {
        if let index = fields.pending, !value.isNull || fields.names[index] == "text" { fields.values[index] = value }
        fields.pending = nil
    }

    private mutating func rowsNotASequence(_ value: Value) {
        add(
            sectionRank.appending(1, -1), value.line, value.column,
            "'rows' must be a sequence, found \(value.typeDescription)")
    }

    private mutating func notAMapping(_ value: Value, context: String, rank: DiagnosticRank) {
        if context == "the document", value.isNull {
            add(rank, value.line, value.column, "the document is empty; expected a mapping with 'sections'")
        } else {
            add(rank, value.line, value.column, "\(context) must be a mapping, found \(value.typeDescription)")
        }
    }

    // MARK: - Levels

    /// The document's fields as far as they are known now (all of them once the stream ends).
    var header: (title: String?, style: TableStyle?, version: Int?) {
        var probe = self
        var scratch = RankedDiagnostics()
        swap(&probe.diagnostics, &scratch)
        let title = document.values[1].flatMap {
            probe.string($0, key: "title", required: false, rank: DiagnosticRank([]))
        }
        let style = document.values[2].flatMap {
            probe.enumValue($0, key: "style", TableStyle.self, kind: "table style", rank: DiagnosticRank([]))
        }
        let version = document.values[0].flatMap { probe.version($0, rank: DiagnosticRank([])) }
        return (title, style, version)
    }

    /// The validated document-level fields, checked as the document ends.
    private(set) var finalHeader: (title: String, style: TableStyle, version: Int)?

    private mutating func finishDocument() {
        var version = ListingDocument.currentVersion
        if let value = document.values[0] { version = self.version(value, rank: DiagnosticRank([1, 0])) ?? version }
        let title =
            document.values[1].flatMap { string($0, key: "title", required: false, rank: DiagnosticRank([1, 1])) }
            ?? defaultTitle
        let style =
            document.values[2].flatMap {
                enumValue($0, key: "style", TableStyle.self, kind: "table style", rank: DiagnosticRank([1, 2]))
            } ?? .insetGrouped
        if document.keys[3] == nil {
            add(DiagnosticRank([3]), rootLine, rootColumn, "missing required field 'sections' in the document")
        }
        finalHeader = (title, style, version)
    }

    private mutating func finishSection() {
        let header = section.values[0].flatMap {
            string($0, key: "header", required: false, rank: sectionRank.appending(2, 0))
        }
        let footer = section.values[1].flatMap {
            string($0, key: "footer", required: false, rank: sectionRank.appending(2, 1))
        }
        let index = section.values[2].flatMap {
            string($0, key: "index", required: false, rank: sectionRank.appending(2, 2))
        }
        outputs.append(
            .sectionEnd(
                ListingSection(
                    header: header, footer: footer, indexTitle: index, location: location(sectionLine, sectionColumn))))
    }

    /// Checks a row's fields (from a mapping, or from a CSV record's cells) and makes its draft,
    /// or `nil` when the row has no usable text.
    mutating func checkRow(_ fields: Fields, line: Int, column: Int, rank: DiagnosticRank) -> DraftRow? {
        let check = rank.appending(1)
        var text: String?
        if let value = fields.values[2] {
            text = string(value, key: "text", required: true, rank: check.appending(0))
        } else {
            add(check.appending(0), line, column, "missing required field 'text' in a row")
        }
        var explicitID: (id: String, line: Int, column: Int)?
        if let value = fields.values[0], let id = string(value, key: "id", required: true, rank: check.appending(1)) {
            if let problem = Self.problem(withID: id) {
                add(check.appending(1), value.line, value.column, problem)
            } else {
                explicitID = (id, value.line, value.column)
            }
        }
        let style =
            fields.values[1].flatMap {
                enumValue($0, key: "style", CellLayout.self, kind: "row style", rank: check.appending(2))
            } ?? .default
        let body = fields.values[6].flatMap { string($0, key: "body", required: false, rank: check.appending(3)) }
        var accessory: Accessory = body == nil ? .none : .disclosureIndicator
        if let value = fields.values[5], !value.isNull {
            accessory =
                enumValue(value, key: "accessory", Accessory.self, kind: "accessory", rank: check.appending(4))
                ?? accessory
        }
        var image: String?
        var imageURL: URL?
        if let value = fields.values[4],
            let path = string(value, key: "image", required: false, rank: check.appending(5))
        {
            image = path
            switch images.resolve(path) {
            case .success(let url): imageURL = url
            case .failure(let error): add(check.appending(5), value.line, value.column, error.message)
            }
        }
        // What the export will drop of the row: warnings.
        var dropped: [(Int, Int, String)] = []
        var link: String?
        if let value = fields.values[7], let url = string(value, key: "link", required: false, rank: check.appending(6))
        {
            if url.trimmingASCIIWhitespace().isEmpty {
                add(
                    check.appending(6), value.line, value.column,
                    "'link' is empty or only spaces; give a URL (such as https://example.com/) or leave 'link' out")
            } else if url.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                add(
                    check.appending(6), value.line, value.column,
                    "'link' '\(ListingText.shown(url))' holds a control character; remove it (write it as %XX if "
                        + "the URL needs it)")
            } else {
                link = url
                if URLPolicy.sanitize(url) == nil {
                    dropped.append(
                        (
                            value.line, value.column,
                            "'link' '\(ListingText.shown(url))' is not a URL rowkit links to (only http:, https:, mailto:, "
                                + "relative paths and #fragments); the row is shown without a link"
                        ))
                }
            }
        }
        if let body, body.utf8.count > ListingLimits.maxMarkdownSize, let value = fields.values[6] {
            dropped.append(
                (
                    value.line, value.column,
                    "'body' is \(ListingText.mebibytes(body.utf8.count)) MiB, over the "
                        + "\(ListingText.mebibytes(ListingLimits.maxMarkdownSize)) MiB Markdown limit; "
                        + "it is shown as plain text, not rendered as Markdown"
                ))
        }
        if let body, let value = fields.values[6] {
            dropped += bodyImageWarnings(body, line: value.line, column: value.column)
        }
        let detail = fields.values[3].flatMap { string($0, key: "detail", required: false, rank: check.appending(7)) }
        if let detail, !detail.isEmpty, style == .default, let value = fields.values[3] {
            if let column = csvDetailColumn {
                // One warning for the whole file, at its first such row, with the fix.
                if !warnedHiddenDetail {
                    warnedHiddenDetail = true
                    dropped.append(
                        (
                            value.line, value.column,
                            "the detail column '\(ListingText.shown(column))' is not shown by rows of style "
                                + "'default' (this row and every row like it); to show it, give a default style "
                                + "(rowkit's --default-style value1, value2 or subtitle) or a style column (--style)"
                        ))
                }
            } else {
                dropped.append(
                    (
                        value.line, value.column,
                        "'detail' is not shown by a row of style 'default'; give the row style value1, value2 or subtitle to show it"
                    ))
            }
        }
        // In file order, whatever the order of the row's keys.
        for (line, column, message) in dropped.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            warn(line, column, message)
        }
        guard let text else { return nil }
        var row = ListingRow(
            id: explicitID?.id ?? "", hasExplicitID: explicitID != nil, style: style, text: text,
            detail: detail, image: image, imageURL: imageURL, accessory: accessory, body: body, link: link,
            location: location(line, column))
        for (index, field) in ListingRow.Field.allCases.enumerated() {
            if let value = fields.values[index] { row.setPosition(of: field, line: value.line, column: value.column) }
        }
        return DraftRow(row: row, explicitID: explicitID)
    }

    /// The warnings about `body`'s images (at `line` and `column`, the body's place) that the
    /// export shows as their alternative text: a destination that is no URL rowkit shows, or a
    /// path the export would not copy. Only bodies with `![` are looked at.
    private mutating func bodyImageWarnings(_ body: String, line: Int, column: Int) -> [(Int, Int, String)] {
        guard let bodyImages, body.utf8.count <= ListingLimits.maxMarkdownSize,
            MarkdownImageReference.mayOccur(in: body)
        else { return [] }
        var warnings: [(Int, Int, String)] = []
        for image in bodyImages(body) where !image.isRemote {
            let place = "'body' line \(image.line), column \(image.column)"
            let path = image.source.trimmingASCIIWhitespace()
            let problem: String
            if URLPolicy.sanitize(path) == nil || path.isEmpty {
                problem =
                    "image '\(ListingText.shown(image.source))' is not a file path or http(s) URL rowkit shows"
            } else if case .failure(let error) = images.resolve(path) {
                problem = error.message
            } else {
                continue
            }
            warnings.append(
                (
                    line, column,
                    "\(place): \(problem); the export shows the image's alternative text instead"
                ))
        }
        return warnings
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
            return "invalid id '\(ListingText.shown(id))': use 1 to \(ListingLimits.maxIDLength) ASCII "
                + "letters, digits, '-', '_' or '.', starting with a letter or digit"
        }
        return nil
    }

    // MARK: - Values

    /// Records a problem.
    mutating func add(_ rank: DiagnosticRank, _ line: Int, _ column: Int, _ message: String) {
        diagnostics.add(rank, location(line, column), message)
    }

    /// Records a warning: data the export will drop, which is not an error.
    mutating func warn(_ line: Int, _ column: Int, _ message: String) {
        warningCount += 1
        if warnings.count < Self.warningLimit {
            warnings.append(ListingDiagnostic(location: location(line, column), message: message))
        }
    }

    func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// A string field's value; `null` is absent for optional fields and an error for required ones.
    mutating func string(_ value: Value, key: String, required: Bool, rank: DiagnosticRank) -> String? {
        guard case .scalar(let text, let kind, let literalIsText) = value.shape else {
            add(rank, value.line, value.column, "'\(key)' must be a string, found \(value.typeDescription)")
            return nil
        }
        switch kind {
        case .string:
            break
        case .null:
            if required { add(rank, value.line, value.column, "'\(key)' must be a string, found null") }
            return nil
        case .number, .bool:
            guard literalIsText else {
                add(rank, value.line, value.column, "'\(key)' must be a string, found \(value.typeDescription)")
                return nil
            }
        }
        if Self.containsNUL(text) {
            add(rank, value.line, value.column, "'\(key)' contains a NUL character")
            return nil
        }
        return text
    }

    /// Whether `text` holds a NUL byte.
    static func containsNUL(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return false }
            return memchr(base, 0, utf8.count) != nil
        }
    }

    private mutating func enumValue<T: RawRepresentable & CaseIterable>(
        _ value: Value, key: String, _ type: T.Type, kind: String, rank: DiagnosticRank
    ) -> T? where T.RawValue == String {
        guard let text = string(value, key: key, required: true, rank: rank) else { return nil }
        if let result = T(rawValue: text) { return result }
        let valid = T.allCases.map(\.rawValue)
        let list = valid.joined(separator: ", ")
        var message = "unknown \(kind) '\(ListingText.shown(text))'"
        if let suggestion = text.closest(in: valid) {
            message += "; did you mean '\(suggestion)'? (expected one of: \(list))"
        } else {
            message += "; expected one of: \(list)"
        }
        add(rank, value.line, value.column, message)
        return nil
    }

    /// The version number; only ``ListingDocument/currentVersion`` is accepted.
    private mutating func version(_ value: Value, rank: DiagnosticRank) -> Int? {
        guard case .scalar(let text, .number, _) = value.shape else {
            add(rank, value.line, value.column, "'version' must be a number, found \(value.typeDescription)")
            return nil
        }
        guard let number = Double(text), number == Double(ListingDocument.currentVersion) else {
            add(
                rank, value.line, value.column,
                "unsupported version \(ListingText.shown(text)); only version \(ListingDocument.currentVersion) is supported"
            )
            return nil
        }
        return ListingDocument.currentVersion
    }
}
