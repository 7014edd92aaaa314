/// Reads a YAML listing as ``ListingEvent``s: with ``YAMLBlockReader`` while the document stays in
/// the subset most listings are written in, else with libyaml (``YAMLEventReader``), giving the
/// same events and problems either way.
///
/// When the block reader meets a line outside its subset, the input is read again from the start
/// with libyaml, whose first events (as many as were handed out) are the ones already given and
/// are passed over; its events from there on follow. A document outside the subset is parsed by
/// the block reader up to that line and then by libyaml from the start.
struct YAMLReader {
    private let input: ListingInput
    private let file: String
    private var block: YAMLBlockReader?
    private var libyaml: YAMLEventReader?
    /// Events handed out so far.
    private var delivered = 0

    init(input: ListingInput, file: String) {
        self.input = input
        self.file = file
        block = YAMLBlockReader(input: input)
    }

    /// Whether libyaml reads the document (the block reader left it at a line outside its subset).
    var usesLibyaml: Bool { libyaml != nil }

    /// The next event, or `nil` at the end of the stream or when reading stops.
    mutating func next() -> ListingEvent? {
        if block != nil {
            switch block!.next() {
            case .event(let event):
                delivered += 1
                return event
            case .end:
                return nil
            case .unsupported:
                block = nil
                input.start()
                libyaml = YAMLEventReader(input: input, file: file)
                for _ in 0..<delivered where libyaml!.next() == nil { return nil }
            }
        }
        guard libyaml != nil else { return nil }
        let event = libyaml!.next()
        if event != nil { delivered += 1 }
        return event
    }

    /// Whether a problem that stops the read has been found (only libyaml finds any: the block
    /// reader leaves every document it cannot read whole to it).
    var hasProblems: Bool { libyaml.map { !$0.problems.isEmpty } ?? false }

    /// The problems that make the document unreadable (see ``YAMLEventReader/finishedProblems()``).
    func finishedProblems() -> [ListingDiagnostic] { libyaml?.finishedProblems() ?? [] }
}

extension YAMLReader: ListingEventSource {}
