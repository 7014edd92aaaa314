import CYaml

/// Reads YAML into a ``ListingNode`` tree in a single pass over libyaml's event stream.
///
/// The pass builds the tree and guards the input at once, and never recurses, so no input can blow
/// the stack: it rejects every alias (`*name`, including `<<: *name` merges) at its location, so an
/// alias bomb never expands; stops at the first collection nested deeper than
/// ``ListingLimits/maxDepth``; rejects a second document; and reports every duplicated mapping key.
/// Plain scalars get their kind from the YAML 1.1 implicit rules (``ScalarTag``); a mapping key that
/// is not a scalar is reported, and two equal ones in a mapping are a duplicate. It is the only
/// file that imports CYaml.
enum YAMLListingParser {
    /// Parses `bytes` (valid UTF-8, BOM removed, not empty) from `file`.
    ///
    /// - Returns: The tree, or `nil` with at least one diagnostic.
    /// - Complexity: O(n) in the input's length.
    static func parse(bytes: [UInt8], file: String) -> (ListingNode?, [ListingDiagnostic]) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            return (nil, [ListingDiagnostic(
                location: SourceLocation(file: file, line: 1, column: 1),
                message: "cannot initialize the YAML parser (out of memory)")])
        }
        defer { yaml_parser_delete(&parser) }
        var builder = TreeBuilder(file: file)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, base, buffer.count)
            while true {
                var event = yaml_event_t()
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    builder.problems.add(contentsOf: [parserError(parser, bytes: bytes, file: file)])
                    return
                }
                defer { yaml_event_delete(&event) }
                guard builder.consume(event) else { return }
            }
        }
        return builder.finished()
    }

    /// At most 40 characters of `text` for a message.
    static func shorten(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    /// Plain scalars longer than this are text: no YAML number, boolean or null is that long.
    private static let maxResolvedScalarLength = 1024

    // MARK: - Tree building

    /// A collection open in the event stream. It stays on the stack while it fills and is mutated
    /// there in place, so appending never copies its array.
    private struct Frame {
        /// Whether this is a mapping (else a sequence).
        var isMapping: Bool
        var location: SourceLocation
        /// The items so far, for a sequence.
        var items: [ListingNode] = []
        /// The pairs so far, for a mapping; a pair whose key is not a scalar is left out.
        var pairs: [ListingNode.Pair] = []
        /// For a mapping, whether the next node is a key.
        var expectingKey = true
        /// For a mapping, the scalar key whose value comes next (`nil` after a non-scalar key).
        var pendingKey: (text: String, location: SourceLocation)?
        /// For a mapping with many keys, where each scalar key first appears; small mappings
        /// search `pairs` instead.
        var firstKeys: [String: SourceLocation]?
        /// Whether this collection is a key of the mapping it is in.
        var isKey = false
        /// Where this collection's fingerprint starts in ``TreeBuilder/fingerprint``.
        var fingerprintStart = 0
        /// For a mapping, each distinct non-scalar key's fingerprint: where it first appears and
        /// how often it appears.
        var complexKeys: [[UInt8]: (location: SourceLocation, count: Int)] = [:]
    }

    /// Consumes libyaml events one at a time and builds the tree.
    private struct TreeBuilder {
        /// Above this many keys a mapping indexes its keys for the duplicate check.
        static let linearKeySearchLimit = 16

        let file: String
        /// Problems that stop the read: syntax, aliases, depth, documents, duplicate scalar keys.
        var problems = DiagnosticList()
        /// Non-scalar mapping keys, in the order they end; reported when nothing above is.
        var keyProblems: [ListingDiagnostic] = []
        /// The first mapping (in the order mappings end) with two equal non-scalar keys.
        var duplicateComplexKey: ListingDiagnostic?
        var documents = 0
        var stack: [Frame] = []
        var root: ListingNode?
        /// The canonical text (tags and values) of the non-scalar keys being read, to compare them.
        var fingerprint: [UInt8] = []
        /// How many of the open collections are non-scalar keys.
        var openKeys = 0

        init(file: String) {
            self.file = file
        }

        /// The tree, or why there is none.
        func finished() -> (ListingNode?, [ListingDiagnostic]) {
            guard problems.isEmpty else { return (nil, problems.finished()) }
            guard documents > 0, let root else {
                return (nil, [ListingDiagnostic(
                    location: SourceLocation(file: file, line: 1, column: 1),
                    message: "the document is empty; expected a mapping with 'sections'")])
            }
            if let duplicateComplexKey { return (nil, [duplicateComplexKey]) }
            return (root, keyProblems)
        }

        /// Takes in one event; returns `false` when reading stops.
        mutating func consume(_ event: yaml_event_t) -> Bool {
            let location = SourceLocation(
                file: file, line: Int(clamping: event.start_mark.line) + 1,
                column: Int(clamping: event.start_mark.column) + 1)
            switch event.type {
            case YAML_STREAM_END_EVENT:
                return false
            case YAML_DOCUMENT_START_EVENT:
                documents += 1
                if documents > 1 {
                    problems.add(location, "a listing is a single YAML document; found a second one")
                    return false
                }
            case YAML_SCALAR_EVENT:
                scalar(event, at: location)
            case YAML_ALIAS_EVENT:
                if beginNode() { stack[stack.count - 1].pendingKey = nil }
                let name = cString(event.data.alias.anchor)
                problems.add(location, "aliases are not supported in listings (found '*\(shorten(name))')")
                attach(ListingNode(value: .scalar(text: "", kind: .null, literalIsText: false), location: location))
            case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                return startCollection(event, at: location)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                endCollection()
            default:
                break
            }
            return true
        }

        /// Notes that a node starts; returns whether it is a mapping key.
        private mutating func beginNode() -> Bool {
            guard let top = stack.indices.last, stack[top].isMapping else { return false }
            let isKey = stack[top].expectingKey
            stack[top].expectingKey.toggle()
            return isKey
        }

        /// Adds a finished value node to its sequence, its mapping (under the pending key) or the root.
        private mutating func attach(_ node: ListingNode) {
            guard let top = stack.indices.last else {
                root = node
                return
            }
            if stack[top].isMapping {
                if let key = stack[top].pendingKey {
                    stack[top].pairs.append(ListingNode.Pair(key: key.text, keyLocation: key.location, value: node))
                }
                stack[top].pendingKey = nil
            } else {
                stack[top].items.append(node)
            }
        }

        private mutating func scalar(_ event: yaml_event_t, at location: SourceLocation) {
            let data = event.data.scalar
            let bytes = UnsafeBufferPointer(start: data.value, count: data.value == nil ? 0 : data.length)
            let text = String(decoding: bytes, as: UTF8.self)
            let isPlain = data.style == YAML_PLAIN_SCALAR_STYLE
            if openKeys > 0 {
                let tag = tagName(data.tag, quotedImplicit: data.quoted_implicit == 1, text: bytes)
                record(UInt8(ascii: "s"), tag: tag)
                fingerprint.append(contentsOf: String(bytes.count).utf8)
                fingerprint.append(UInt8(ascii: ":"))
                fingerprint.append(contentsOf: bytes)
            }
            if beginNode() {
                let top = stack.count - 1
                if let first = firstLocation(ofKey: text, at: location, in: top) {
                    problems.add(location, "duplicate key '\(shorten(text))'; first at \(first)")
                }
                stack[top].pendingKey = (text, location)
                return
            }
            guard isPlain, bytes.count <= maxResolvedScalarLength else {
                attach(ListingNode(value: .scalar(text: text, kind: .string, literalIsText: false), location: location))
                return
            }
            let kind: ListingNode.ScalarKind
            if data.quoted_implicit == 1 {
                kind = .string
            } else if let tag = data.tag {
                let name = String(cString: tag)
                kind = name == "!" ? .string : ScalarTag.kind(ofExplicitTag: name)
            } else {
                kind = ScalarTag(resolving: bytes).kind
            }
            attach(ListingNode(value: .scalar(text: text, kind: kind, literalIsText: true), location: location))
        }

        /// Where the mapping at `index` first had the scalar key `key`, or `nil` (and `key` is
        /// recorded at `location`) if this is its first time.
        private mutating func firstLocation(
            ofKey key: String, at location: SourceLocation, in index: Int
        ) -> SourceLocation? {
            if stack[index].firstKeys == nil, stack[index].pairs.count >= Self.linearKeySearchLimit {
                var firstKeys: [String: SourceLocation] = [:]
                for pair in stack[index].pairs where firstKeys[pair.key] == nil {
                    firstKeys[pair.key] = pair.keyLocation
                }
                stack[index].firstKeys = firstKeys
            }
            if stack[index].firstKeys != nil {
                if let first = stack[index].firstKeys?[key] { return first }
                stack[index].firstKeys?[key] = location
                return nil
            }
            return stack[index].pairs.first { $0.key == key }?.keyLocation
        }

        private mutating func startCollection(_ event: yaml_event_t, at location: SourceLocation) -> Bool {
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let isKey = beginNode()
            if isKey { stack[stack.count - 1].pendingKey = nil }
            guard stack.count < ListingLimits.maxDepth else {
                problems.add(location, "nesting deeper than \(ListingLimits.maxDepth) levels")
                return false
            }
            var frame = Frame(isMapping: isMapping, location: location)
            if isKey {
                frame.isKey = true
                if openKeys == 0 { fingerprint.removeAll(keepingCapacity: true) }
                openKeys += 1
            }
            if openKeys > 0 {
                frame.fingerprintStart = fingerprint.count
                let (tag, implicit) = isMapping
                    ? (event.data.mapping_start.tag, event.data.mapping_start.implicit)
                    : (event.data.sequence_start.tag, event.data.sequence_start.implicit)
                var name = isMapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq"
                if implicit == 0, let tag, String(cString: tag) != "!" { name = String(cString: tag) }
                record(isMapping ? UInt8(ascii: "{") : UInt8(ascii: "["), tag: name)
            }
            stack.append(frame)
            return true
        }

        private mutating func endCollection() {
            guard let frame = stack.popLast() else { return }
            if openKeys > 0 { fingerprint.append(frame.isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")) }
            if frame.isMapping, duplicateComplexKey == nil {
                let duplicated = frame.complexKeys.values.filter { $0.count > 1 }.map(\.location)
                    .sorted { ($0.line, $0.column) < ($1.line, $1.column) }
                if let first = duplicated.first {
                    let names = Array(repeating: "<uncovertable>", count: duplicated.count)
                    duplicateComplexKey = ListingDiagnostic(
                        location: first, message: "duplicate key '\(names.joined(separator: "', '"))'")
                }
            }
            let node = ListingNode(
                value: frame.isMapping ? .mapping(frame.pairs) : .sequence(frame.items), location: frame.location)
            guard frame.isKey else {
                attach(node)
                return
            }
            openKeys -= 1
            keyProblems.append(ListingDiagnostic(
                location: frame.location, message: "keys must be plain text, found \(node.typeDescription)"))
            if let top = stack.indices.last {
                let print = Array(fingerprint[frame.fingerprintStart...])
                stack[top].complexKeys[print, default: (frame.location, 0)].count += 1
            }
        }

        /// Appends a node's marker and tag to the fingerprint.
        private mutating func record(_ marker: UInt8, tag: String) {
            fingerprint.append(marker)
            fingerprint.append(contentsOf: tag.utf8)
            fingerprint.append(0)
        }

        /// The tag a scalar resolves to: explicit, non-specific (`!`: a string), quoted (a string)
        /// or implicit.
        private func tagName(
            _ tag: UnsafeMutablePointer<yaml_char_t>?, quotedImplicit: Bool, text: UnsafeBufferPointer<UInt8>
        ) -> String {
            if quotedImplicit { return ScalarTag.str.name }
            guard let tag else { return ScalarTag(resolving: text).name }
            let name = String(cString: tag)
            return name == "!" ? ScalarTag.str.name : name
        }
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
}
