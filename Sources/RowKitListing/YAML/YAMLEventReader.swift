import Cyaml

/// Reads YAML as a stream of ``ListingEvent``s over libyaml's event API, one event at a time.
///
/// The stream is guarded as it goes, and nothing recurses, so no input can blow the stack or
/// the memory: every alias (`*name`, including `<<: *name` merges) is rejected at its location,
/// so an alias bomb never expands; reading stops at the first collection nested deeper than
/// ``ListingLimits/maxDepth``, at a second document, and at a value longer than
/// ``ListingLimits/maxValueSize`` (libyaml is not fed further once that much input has gone by
/// without an event, so it never holds such a value); every duplicated mapping key is reported.
/// Plain scalars get their kind from the YAML 1.1 implicit rules (``ScalarTag``). A mapping key
/// that is not a scalar is reported and skipped with its value; two equal ones in a mapping are
/// a duplicate. This is the only file that imports Cyaml.
struct YAMLEventReader {
    private let input: ListingInput
    private let file: String
    private let parser: YAMLParser
    private let feed: YAMLFeed

    /// Problems that stop the read: syntax, aliases, depth, size, documents, duplicate scalar keys.
    private(set) var problems = DiagnosticList()
    /// Non-scalar mapping keys, in the order they end; reported when nothing above is.
    private var keyProblems: [ListingDiagnostic] = []
    /// The first mapping (in the order mappings end) with two equal non-scalar keys.
    private var duplicateComplexKey: ListingDiagnostic?
    private var documents = 0
    private var rootSeen = false
    private var stopped = false
    /// The event made by the last libyaml event, not handed out yet (one makes at most one).
    private var pending: ListingEvent?
    /// Where the last event ended (for a value too long to read).
    private var lastEnd = (line: 1, column: 1)

    /// Plain scalars longer than this are text: no YAML number, boolean or null is that long.
    static let maxResolvedScalarLength = 1024
    /// Above this many keys a mapping indexes its keys for the duplicate check.
    private static let linearKeySearchLimit = 16

    /// A collection open in the event stream.
    private struct Frame {
        var isMapping: Bool
        var location: SourceLocation
        /// Whether its events go to the schema (not a key, and not the value of a dropped key).
        var emitting: Bool
        /// For a mapping, whether the next node is a key.
        var expectingKey = true
        /// For a mapping, whether the value that comes next has a scalar key (else it is dropped).
        var hasPendingKey = false
        /// For a mapping, where its scalar keys start in ``YAMLEventReader/keys`` (they are
        /// there while it is open), or, once it has many, an index of them.
        var keysStart = 0
        var keyIndex: [String: SourceLocation]?
        /// Whether this collection is a key of the mapping it is in.
        var isKey = false
        /// Where this collection's fingerprint starts in ``YAMLEventReader/fingerprint``.
        var fingerprintStart = 0
        /// For a mapping, each distinct non-scalar key's fingerprint: where it first appears and
        /// how often it appears.
        var complexKeys: [[UInt8]: (location: SourceLocation, count: Int)] = [:]
    }

    private var stack: [Frame] = []
    /// The scalar keys of the open mappings, innermost last, with where each first appears.
    private var keys: [(text: String, line: Int, column: Int)] = []
    /// The canonical text (tags and values) of the non-scalar keys being read, to compare them.
    private var fingerprint: [UInt8] = []
    /// How many of the open collections are non-scalar keys.
    private var openKeys = 0

    init(input: ListingInput, file: String) {
        self.input = input
        self.file = file
        parser = YAMLParser()
        feed = YAMLFeed(input: input)
        guard parser.initialized else {
            problems.add(
                SourceLocation(file: file, line: 1, column: 1), "cannot initialize the YAML parser (out of memory)")
            stopped = true
            return
        }
        yaml_parser_set_encoding(parser.state, YAML_UTF8_ENCODING)
        let context = Unmanaged.passUnretained(feed).toOpaque()
        yaml_parser_set_input(
            parser.state,
            { context, buffer, size, sizeRead in
                guard let context, let buffer, let sizeRead else { return 0 }
                return Unmanaged<YAMLFeed>.fromOpaque(context).takeUnretainedValue().feed(buffer, size, sizeRead)
            }, context)
    }

    private func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    /// The listing position (1-based) of a libyaml mark, counting lines as the listing does.
    private func position(of mark: yaml_mark_t) -> (line: Int, column: Int) {
        feed.breaks.position(line: Int(clamping: mark.line), column: Int(clamping: mark.column))
    }

    /// The problems that make the document unreadable, most serious kind first: syntax and
    /// stream problems, an empty document, repeated non-scalar keys, non-scalar keys.
    func finishedProblems() -> [ListingDiagnostic] {
        guard problems.isEmpty else { return problems.finished() }
        // The input ended early at a character YAML does not allow, and what came before it read.
        if let disallowed = disallowedProblem() { return [disallowed] }
        guard documents > 0, rootSeen else {
            return [
                ListingDiagnostic(
                    location: location(1, 1), message: "the document is empty; expected a mapping with 'sections'")
            ]
        }
        if let duplicateComplexKey { return [duplicateComplexKey] }
        return keyProblems
    }

    /// The next event, or `nil` at the end of the stream or when reading stops.
    mutating func next() -> ListingEvent? {
        while pending == nil {
            guard !stopped else { return nil }
            var event = yaml_event_t()
            guard yaml_parser_parse(parser.state, &event) == 1 else {
                problems.add(contentsOf: parserError())
                stopped = true
                return nil
            }
            feed.fedSinceEvent = 0
            lastEnd = position(of: event.end_mark)
            consume(event)
            yaml_event_delete(&event)
        }
        defer { pending = nil }
        return pending
    }

    // MARK: - Events

    private mutating func consume(_ event: yaml_event_t) {
        let start = position(of: event.start_mark)
        let at = location(start.line, start.column)
        switch event.type {
        case YAML_STREAM_END_EVENT:
            stopped = true
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                problems.add(at, "a listing is a single YAML document; found a second one")
                stopped = true
            }
        case YAML_SCALAR_EVENT:
            scalar(event, at: at)
        case YAML_ALIAS_EVENT:
            let isKey = beginNode()
            let name = Self.cString(event.data.alias.anchor)
            problems.add(at, "aliases are not supported in listings (found '*\(ListingText.shown(name))')")
            if isKey {
                stack[stack.count - 1].hasPendingKey = false
            } else {
                finishScalarValue(.scalar("", .null, false, at.line, at.column))
            }
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            startCollection(event, at: at)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            endCollection()
        default:
            break
        }
    }

    /// Notes that a node starts; returns whether it is a mapping key.
    private mutating func beginNode() -> Bool {
        guard let top = stack.indices.last, stack[top].isMapping else { return false }
        let isKey = stack[top].expectingKey
        stack[top].expectingKey.toggle()
        return isKey
    }

    /// Whether a value starting now goes to the schema.
    private var valueIsEmitted: Bool {
        guard let top = stack.last else { return true }
        return top.emitting && (!top.isMapping || top.hasPendingKey)
    }

    /// Hands on a scalar value (or drops it, when its key was not a scalar) and clears its
    /// mapping's pending key.
    private mutating func finishScalarValue(_ event: ListingEvent?) {
        if valueIsEmitted, let event { pending = (event) }
        if let top = stack.indices.last, stack[top].isMapping { stack[top].hasPendingKey = false }
        if stack.isEmpty { rootSeen = true }
    }

    private mutating func scalar(_ event: yaml_event_t, at location: SourceLocation) {
        let data = event.data.scalar
        let bytes = UnsafeBufferPointer(start: data.value, count: data.value == nil ? 0 : data.length)
        guard bytes.count <= ListingLimits.maxValueSize else {
            problems.add(location, "a value longer than the \(ListingLimits.maxValueSize / 1_048_576) MiB limit")
            stopped = true
            return
        }
        if openKeys > 0 {
            let tag = tagName(data.tag, quotedImplicit: data.quoted_implicit == 1, text: bytes)
            record(UInt8(ascii: "s"), tag: tag)
            fingerprint.append(contentsOf: String(bytes.count).utf8)
            fingerprint.append(UInt8(ascii: ":"))
            fingerprint.append(contentsOf: bytes)
        }
        if beginNode() {
            let text = String(decoding: bytes, as: UTF8.self)
            let top = stack.count - 1
            if let first = firstLocation(ofKey: text, at: location, in: top) {
                problems.add(location, "duplicate key '\(ListingText.shown(text))'; first at \(first)")
            }
            stack[top].hasPendingKey = true
            if stack[top].emitting { pending = (.key(text, location.line, location.column)) }
            return
        }
        guard valueIsEmitted else {
            finishScalarValue(nil)
            return
        }
        let text = String(decoding: bytes, as: UTF8.self)
        guard data.style == YAML_PLAIN_SCALAR_STYLE, bytes.count <= Self.maxResolvedScalarLength else {
            finishScalarValue(.scalar(text, .string, false, location.line, location.column))
            return
        }
        let kind: ScalarKind
        if data.quoted_implicit == 1 {
            kind = .string
        } else if let tag = data.tag {
            let name = String(cString: tag)
            kind = name == "!" ? .string : ScalarTag.kind(ofExplicitTag: name)
        } else {
            kind = ScalarTag(resolving: bytes).kind
        }
        finishScalarValue(.scalar(text, kind, true, location.line, location.column))
    }

    /// Where the mapping at `index` (the innermost) first had the scalar key `key`, or `nil` (and
    /// `key` is recorded at `location`) if this is its first time.
    private mutating func firstLocation(ofKey key: String, at location: SourceLocation, in index: Int)
        -> SourceLocation?
    {
        let start = stack[index].keysStart
        if stack[index].keyIndex == nil, keys.count - start >= Self.linearKeySearchLimit {
            var keyIndex: [String: SourceLocation] = [:]
            for entry in keys[start...] where keyIndex[entry.text] == nil {
                keyIndex[entry.text] = SourceLocation(file: file, line: entry.line, column: entry.column)
            }
            stack[index].keyIndex = keyIndex
            keys.removeSubrange(start...)
        }
        if stack[index].keyIndex != nil {
            if let first = stack[index].keyIndex?[key] { return first }
            stack[index].keyIndex?[key] = location
            return nil
        }
        for entry in keys[start...] where entry.text == key {
            return SourceLocation(file: file, line: entry.line, column: entry.column)
        }
        keys.append((key, location.line, location.column))
        return nil
    }

    private mutating func startCollection(_ event: yaml_event_t, at location: SourceLocation) {
        let isMapping = event.type == YAML_MAPPING_START_EVENT
        let isKey = beginNode()
        if isKey { stack[stack.count - 1].hasPendingKey = false }
        guard stack.count < ListingLimits.maxDepth else {
            problems.add(location, "nesting deeper than \(ListingLimits.maxDepth) levels")
            stopped = true
            return
        }
        let emitting = !isKey && valueIsEmitted
        var frame = Frame(isMapping: isMapping, location: location, emitting: emitting)
        frame.keysStart = keys.count
        if isKey {
            frame.isKey = true
            if openKeys == 0 { fingerprint.removeAll(keepingCapacity: true) }
            openKeys += 1
        }
        if openKeys > 0 {
            frame.fingerprintStart = fingerprint.count
            let (tag, implicit) =
                isMapping
                ? (event.data.mapping_start.tag, event.data.mapping_start.implicit)
                : (event.data.sequence_start.tag, event.data.sequence_start.implicit)
            var name = isMapping ? "tag:yaml.org,2002:map" : "tag:yaml.org,2002:seq"
            if implicit == 0, let tag, String(cString: tag) != "!" { name = String(cString: tag) }
            record(isMapping ? UInt8(ascii: "{") : UInt8(ascii: "["), tag: name)
        }
        if stack.isEmpty { rootSeen = true }
        stack.append(frame)
        if emitting {
            pending =
                (isMapping
                    ? .mappingStart(location.line, location.column) : .sequenceStart(location.line, location.column))
        }
    }

    private mutating func endCollection() {
        guard let frame = stack.popLast() else { return }
        if keys.count > frame.keysStart { keys.removeSubrange(frame.keysStart...) }
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
        if frame.emitting { pending = (.end) }
        guard frame.isKey else {
            if let top = stack.indices.last, stack[top].isMapping { stack[top].hasPendingKey = false }
            return
        }
        openKeys -= 1
        keyProblems.append(
            ListingDiagnostic(
                location: frame.location,
                message: "keys must be plain text, found \(frame.isMapping ? "a mapping" : "a sequence")"))
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

    private static func cString(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    private static func cString(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// The diagnostic for a character YAML does not allow, where the feed ended the input.
    private func disallowedProblem() -> ListingDiagnostic? {
        guard let offset = feed.disallowedOffset else { return nil }
        let (line, column) = input.position(ofSourceOffset: input.markLength + offset, skipping: input.markLength)
        return ListingDiagnostic(
            location: location(line, column), message: "invalid YAML: control characters are not allowed")
    }

    /// The diagnostic for the error libyaml stopped on.
    private func parserError() -> [ListingDiagnostic] {
        if feed.valueTooLong {
            return [
                ListingDiagnostic(
                    location: location(lastEnd.line, lastEnd.column),
                    message: "a value longer than the \(ListingLimits.maxValueSize / 1_048_576) MiB limit")
            ]
        }
        let state = parser.state.pointee
        if let disallowed = disallowedProblem() {
            // libyaml saw the input only up to the character; its error stands only if it lies
            // before it (an error at the cut is the cut's doing).
            let at = position(of: state.problem_mark)
            if state.error == YAML_READER_ERROR
                || at >= (disallowed.location.line, disallowed.location.column)
            {
                return [disallowed]
            }
        }
        let problem = Self.cString(state.problem)
        if state.error == YAML_READER_ERROR {
            let (line, column) = input.position(
                ofSourceOffset: input.markLength + Int(clamping: state.problem_offset), skipping: input.markLength)
            return [ListingDiagnostic(location: location(line, column), message: "invalid YAML: \(problem)")]
        }
        var message = "invalid YAML: \(problem.isEmpty ? "syntax error" : problem)"
        let context = Self.cString(state.context)
        let at = position(of: state.problem_mark)
        if problem == "found character that cannot start any token",
            input.byte(atLine: at.line, column: at.column, skipping: input.markLength) == 0x09
        {
            // The commonest mistake of a listing written by hand: an editor's tab as indentation.
            message =
                "invalid YAML: a tab as indentation or before a value; YAML indents with spaces only, so replace "
                + "it with spaces"
        } else if problem.hasPrefix("Maximum nesting level") {
            // libyaml's own cap (1000), hit while its scanner reads flow collections ahead.
            message = "nesting deeper than \(ListingLimits.maxDepth) levels"
        } else if !context.isEmpty {
            let started = position(of: state.context_mark)
            message += " (\(context) started at \(started.line):\(started.column))"
        }
        return [ListingDiagnostic(location: location(at.line, at.column), message: message)]
    }
}

/// libyaml's parser, deleted with its owner.
private final class YAMLParser {
    let state: UnsafeMutablePointer<yaml_parser_t>
    let initialized: Bool

    init() {
        state = .allocate(capacity: 1)
        state.initialize(to: yaml_parser_t())
        initialized = yaml_parser_initialize(state) == 1
    }

    deinit {
        if initialized { yaml_parser_delete(state) }
        state.deinitialize(count: 1)
        state.deallocate()
    }
}

/// libyaml's input: the validated bytes of a ``ListingInput``, and a guard on how much input goes
/// by without an event.
private final class YAMLFeed {
    let input: ListingInput
    /// Input bytes handed to libyaml since it last produced an event.
    var fedSinceEvent = 0
    /// Whether feeding stopped because a value was longer than the limit.
    var valueTooLong = false
    /// Input bytes handed to libyaml in all.
    private var fed = 0
    /// Where the first character YAML does not allow (a control character) is, in bytes handed
    /// to libyaml before it; feeding ends there.
    ///
    /// libyaml checks characters as it decodes them into its buffer, which runs ahead of its
    /// parser by however much the read handler gave it, so on its own it would report such a
    /// character before or after a syntax error earlier in the document depending on how the
    /// input was cut. Ending the input at the character makes the first problem in the document
    /// the one reported, however the input is read.
    private(set) var disallowedOffset: Int?
    /// The line breaks libyaml counts that a listing's positions do not (NEL, U+2028, U+2029).
    private(set) var breaks = YAMLLineBreaks()

    init(input: ListingInput) {
        self.input = input
    }

    /// libyaml's read handler: copies the next validated bytes of the input, up to the first
    /// character YAML does not allow.
    func feed(_ buffer: UnsafeMutablePointer<UInt8>, _ size: Int, _ sizeRead: UnsafeMutablePointer<Int>) -> Int32 {
        if fedSinceEvent > ListingLimits.maxValueSize + (1 << 20) {
            valueTooLong = true
            return 0
        }
        if disallowedOffset != nil || (input.position == input.limit && !input.refill()) {
            sizeRead.pointee = 0
            return 1
        }
        var count = min(size, input.limit - input.position)
        if let cut = Self.firstDisallowed(
            input.bytes + input.position, count: count, available: input.limit - input.position)
        {
            count = cut
            disallowedOffset = fed + cut
        }
        buffer.update(from: input.bytes + input.position, count: count)
        breaks.note(input.bytes + input.position, count: count)
        input.position += count
        fedSinceEvent += count
        fed += count
        sizeRead.pointee = count
        return 1
    }

    /// The index of the first character in the `count` bytes at `bytes` that YAML 1.1 does not
    /// allow in a stream (C0 controls but tab, line feed and carriage return; DEL; C1 controls
    /// but NEL; U+FFFE and U+FFFF), as libyaml checks; `nil` when there is none. The bytes are
    /// valid UTF-8 and whole characters up to `available`, which may go past `count`.
    static func firstDisallowed(_ bytes: UnsafePointer<UInt8>, count: Int, available: Int) -> Int? {
        var index = 0
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F { return index }
            } else if byte == 0xC2, index + 1 < available {
                let next = bytes[index + 1]
                if next >= 0x80 && next <= 0x9F && next != 0x85 { return index }
            } else if byte == 0xEF, index + 2 < available, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                return index
            }
            index += 1
        }
        return nil
    }
}

extension DiagnosticList {
    /// Records every diagnostic of `other`.
    mutating func add(contentsOf other: [ListingDiagnostic]) {
        for diagnostic in other { add(diagnostic.location, diagnostic.message) }
    }
}

extension YAMLEventReader: ListingEventSource {
    var hasProblems: Bool { !problems.isEmpty }
}
