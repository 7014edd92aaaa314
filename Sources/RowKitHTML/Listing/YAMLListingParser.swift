import CYaml
import Yams

/// Reads YAML into a ``ListingNode`` tree: a libyaml event pre-scan guards the input, then Yams
/// composes it and the composed `Yams.Node` tree is walked with its marks.
///
/// The pre-scan runs before anything is composed, so composing cannot blow up: it rejects every
/// alias (`*name`, including `<<: *name` merges) at its location, so an alias bomb never expands;
/// stops at the first collection nested deeper than ``ListingLimits/maxDepth`` (Yams composes
/// recursively); rejects a second document; and reports every duplicated mapping key (Yams would
/// stop at the first). It is the only file that imports CYaml.
enum YAMLListingParser {
    /// Parses `bytes` (valid UTF-8, BOM removed, not empty) from `file`.
    ///
    /// - Returns: The tree, or `nil` with at least one diagnostic.
    /// - Complexity: O(n) in the input's length.
    static func parse(bytes: [UInt8], file: String) -> (ListingNode?, [ListingDiagnostic]) {
        let scan = preScan(bytes: bytes, file: file)
        guard scan.diagnostics.isEmpty else { return (nil, scan.diagnostics) }
        guard scan.documents > 0 else {
            return (nil, [ListingDiagnostic(
                location: SourceLocation(file: file, line: 1, column: 1),
                message: "the document is empty; expected a mapping with 'sections'")])
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let root: Yams.Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            return (nil, [diagnostic(for: error, file: file)])
        } catch {
            return (nil, [ListingDiagnostic(
                location: SourceLocation(file: file, line: 1, column: 1), message: "invalid YAML: \(error)")])
        }
        guard let root else {
            return (nil, [ListingDiagnostic(
                location: SourceLocation(file: file, line: 1, column: 1),
                message: "the document is empty; expected a mapping with 'sections'")])
        }
        var diagnostics: [ListingDiagnostic] = []
        let node = convert(root, file: file, diagnostics: &diagnostics)
        return (node, diagnostics)
    }

    // MARK: - Pre-scan

    /// What the event pre-scan found.
    private struct ScanResult {
        var diagnostics: [ListingDiagnostic] = []
        var documents = 0
    }

    /// A collection open during the pre-scan.
    private struct ScanFrame {
        /// For a mapping, the scalar keys seen so far and where; `nil` for a sequence.
        var keys: [String: SourceLocation]?
        /// For a mapping, whether the next node is a key.
        var expectingKey = true
    }

    private static func preScan(bytes: [UInt8], file: String) -> ScanResult {
        var result = ScanResult()
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            result.diagnostics.append(ListingDiagnostic(
                location: SourceLocation(file: file, line: 1, column: 1),
                message: "cannot initialize the YAML parser (out of memory)"))
            return result
        }
        defer { yaml_parser_delete(&parser) }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, base, buffer.count)
            var stack: [ScanFrame] = []
            var list = DiagnosticList()
            defer { result.diagnostics = list.finished() }
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    list.add(contentsOf: [parserError(parser, bytes: bytes, file: file)])
                    return
                }
                defer { yaml_event_delete(&event) }
                let location = SourceLocation(
                    file: file, line: Int(clamping: event.start_mark.line) + 1,
                    column: Int(clamping: event.start_mark.column) + 1)
                let type = event.type
                if type == YAML_STREAM_END_EVENT { return }
                if type == YAML_DOCUMENT_START_EVENT {
                    result.documents += 1
                    if result.documents > 1 {
                        list.add(location, "a listing is a single YAML document; found a second one")
                        return
                    }
                    continue
                }
                let isNode = type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT
                    || type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT
                if isNode, var top = stack.popLast() {
                    if top.keys != nil {
                        if top.expectingKey, type == YAML_SCALAR_EVENT {
                            let key = scalarText(event)
                            if let first = top.keys?[key] {
                                list.add(location, "duplicate key '\(shorten(key))'; first at \(first)")
                            } else {
                                top.keys?[key] = location
                            }
                        }
                        top.expectingKey.toggle()
                    }
                    stack.append(top)
                }
                switch type {
                case YAML_ALIAS_EVENT:
                    let name = cString(event.data.alias.anchor)
                    list.add(location, "aliases are not supported in listings (found '*\(shorten(name))')")
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    guard stack.count < ListingLimits.maxDepth else {
                        list.add(location, "nesting deeper than \(ListingLimits.maxDepth) levels")
                        return
                    }
                    stack.append(ScanFrame(keys: type == YAML_MAPPING_START_EVENT ? [:] : nil))
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    _ = stack.popLast()
                default:
                    break
                }
            }
        }
        return result
    }

    private static func scalarText(_ event: yaml_event_t) -> String {
        guard let value = event.data.scalar.value else { return "" }
        let buffer = UnsafeBufferPointer(start: value, count: event.data.scalar.length)
        return String(decoding: buffer, as: UTF8.self)
    }

    private static func cString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func cString(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// The diagnostic for the error libyaml stopped on.
    private static func parserError(_ parser: yaml_parser_t, bytes: [UInt8], file: String) -> ListingDiagnostic {
        let problem = cString(parser.problem)
        if parser.error == YAML_READER_ERROR {
            let (line, column) = ListingText.position(of: Int(clamping: parser.problem_offset), in: bytes)
            return ListingDiagnostic(
                location: SourceLocation(file: file, line: line, column: column),
                message: "invalid YAML: \(problem)")
        }
        var message = "invalid YAML: \(problem.isEmpty ? "syntax error" : problem)"
        let context = cString(parser.context)
        if problem.hasPrefix("Maximum nesting level") {
            // libyaml's own cap (1000), hit while its scanner reads flow collections ahead.
            message = "nesting deeper than \(ListingLimits.maxDepth) levels"
        } else if !context.isEmpty {
            message += " (\(context) started at \(Int(clamping: parser.context_mark.line) + 1):"
                + "\(Int(clamping: parser.context_mark.column) + 1))"
        }
        return ListingDiagnostic(
            location: SourceLocation(
                file: file, line: Int(clamping: parser.problem_mark.line) + 1,
                column: Int(clamping: parser.problem_mark.column) + 1),
            message: message)
    }

    private static func diagnostic(for error: YamlError, file: String) -> ListingDiagnostic {
        func at(_ mark: Mark?, _ message: String) -> ListingDiagnostic {
            ListingDiagnostic(
                location: SourceLocation(file: file, line: max(mark?.line ?? 1, 1), column: max(mark?.column ?? 1, 1)),
                message: message)
        }
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return at(mark, "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return at(context.mark, "duplicate key '\(duplicates.joined(separator: "', '"))'")
        default:
            return at(nil, "invalid YAML: \(error)")
        }
    }

    /// At most 40 characters of `text` for a message.
    static func shorten(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    // MARK: - Conversion

    /// Plain scalars longer than this are text: no YAML number, boolean or null is that long, and
    /// skipping Yams' regex resolution keeps a 10 MB plain scalar fast.
    private static let maxResolvedScalarLength = 1024

    /// Converts a composed node; depth is already bounded by the pre-scan.
    private static func convert(_ node: Yams.Node, file: String, diagnostics: inout [ListingDiagnostic]) -> ListingNode {
        let location = SourceLocation(
            file: file, line: max(node.mark?.line ?? 1, 1), column: max(node.mark?.column ?? 1, 1))
        switch node {
        case .scalar(let scalar):
            guard scalar.style == .plain, scalar.string.utf8.count <= maxResolvedScalarLength else {
                return ListingNode(value: .scalar(text: scalar.string, kind: .string, literalIsText: false), location: location)
            }
            let kind: ListingNode.ScalarKind
            switch node.tag.rawValue {
            case Tag.Name.null.rawValue: kind = .null
            case Tag.Name.bool.rawValue: kind = .bool
            case Tag.Name.int.rawValue, Tag.Name.float.rawValue: kind = .number
            default: kind = .string
            }
            return ListingNode(value: .scalar(text: scalar.string, kind: kind, literalIsText: true), location: location)
        case .sequence(let sequence):
            let items = sequence.map { convert($0, file: file, diagnostics: &diagnostics) }
            return ListingNode(value: .sequence(items), location: location)
        case .mapping(let mapping):
            var pairs: [ListingNode.Pair] = []
            for (key, value) in mapping {
                let keyNode = convert(key, file: file, diagnostics: &diagnostics)
                guard case .scalar(let text, _, _) = keyNode.value else {
                    diagnostics.append(ListingDiagnostic(
                        location: keyNode.location, message: "keys must be plain text, found \(keyNode.typeDescription)"))
                    continue
                }
                pairs.append(ListingNode.Pair(
                    key: text, keyLocation: keyNode.location,
                    value: convert(value, file: file, diagnostics: &diagnostics)))
            }
            return ListingNode(value: .mapping(pairs), location: location)
        case .alias:
            diagnostics.append(ListingDiagnostic(location: location, message: "aliases are not supported in listings"))
            return ListingNode(value: .scalar(text: "", kind: .null, literalIsText: false), location: location)
        }
    }
}
