import Foundation
import RowKit

/// One read of a listing through a ``ListingVisitor``: the passes over the input, the order rows
/// are handed out in, and the problems found.
///
/// The first pass reads the input from start to end, checks it and hands rows out as it goes
/// (settling identities in document order). It stops handing out rows at the first problem; the
/// reasons it may have to read again are:
///
/// - a repeated explicit id: ids are remembered as 64-bit hashes, so a repeated hash is looked at
///   again (a second pass collecting only the ids with such a hash) to report exactly which ids
///   repeat and where each was first used;
/// - rows handed out on a guess that proved wrong: the title or style was read after the rows (the
///   guess comes from a look at the end of the file), or an explicit id further down equals an id
///   derived earlier (that row should have taken a suffix); the replay knows every explicit id;
/// - CSV rows whose sections are not contiguous (or not in name order with `sort`): the first pass
///   notes where each run of a section's rows starts, and the replay reads the runs section by
///   section.
struct ListingScan<Visitor: ListingVisitor> {
    let reader: ListingReader
    var visitor: Visitor

    private var input: ListingInput?
    private var file: String { reader.path }
    private var defaultTitle = ""
    private var format = ListingFormat.yaml
    /// Schema problems of the document, with repeated ids added by a second look.
    private var diagnostics = RankedDiagnostics()
    private var identity: ListingIdentity
    private var passes = 0
    /// The warnings of the first pass (which reads the document in order).
    private var warnings: [ListingDiagnostic] = []
    private var warningCount = 0

    init(reader: ListingReader, visitor: Visitor) {
        self.reader = reader
        self.visitor = visitor
        identity = ListingIdentity(memoryBound: reader.identitiesInMemory)
    }

    // MARK: - Delivery

    /// What the pass being read hands out.
    private struct Delivery {
        /// Whether rows are still handed out.
        var active: Bool
        var begun = false
        /// The header given to `begin`.
        var header: ListingHeader?
        var section = -1
    }

    private var delivery = Delivery(active: false)

    /// How a pass settles identities.
    private enum IdentityMode {
        /// Note explicit ids (finding repeated hashes) and derive the others.
        case track
        /// Derive ids knowing every explicit id (a replay).
        case derive
        /// Report the explicit ids with these hashes that repeat, exactly.
        case secondLook(Set<UInt64>)
        /// Nothing: the rows are not in document order.
        case none
    }

    private var mode = IdentityMode.track
    /// The first use of each explicit id looked at again.
    private var firstUse: [String: SourceLocation] = [:]
    /// Rows checked in this pass, in document order.
    private var order = 0
    /// Whether an explicit id clashed with an id derived earlier in this pass.
    private var derivedTooEarly = false

    private mutating func stopDelivery() {
        guard delivery.active else { return }
        delivery.active = false
        if delivery.begun { visitor.abandon() }
    }

    /// Whether the next section start begins the pass (and needs the header).
    private var needsHeader: Bool { delivery.active && !delivery.begun }

    private mutating func deliverSectionStart(_ header: ListingHeader?) throws {
        guard delivery.active else { return }
        if !delivery.begun, let header {
            delivery.header = header
            delivery.begun = true
            try visitor.begin(header)
        }
        delivery.section += 1
    }

    /// Settles a checked row's identity and hands it out.
    private mutating func handOut(_ draft: consuming DraftRow) throws {
        let position = order
        order += 1
        let explicitID = draft.explicitID
        var row = (consume draft).row
        switch mode {
        case .track:
            if let explicit = explicitID {
                identity.noteExplicit(explicit.id)
                if identity.derivedTooEarly {
                    derivedTooEarly = true
                    stopDelivery()
                }
                if !identity.repeatedHashes.isEmpty { stopDelivery() }
            } else if delivery.active {
                row.id = identity.derive(from: row.text)
            }
        case .derive:
            if explicitID == nil { row.id = identity.derive(from: row.text) }
        case .secondLook(let hashes):
            if let explicit = explicitID, hashes.contains(StableHash.of(explicit.id) & ~1) {
                let location = SourceLocation(file: file, line: explicit.line, column: explicit.column)
                if let first = firstUse[explicit.id] {
                    diagnostics.add(
                        DiagnosticRank([4]).appending(position), location,
                        "duplicate id '\(ListingText.shown(explicit.id))'; first used at \(first)")
                } else {
                    firstUse[explicit.id] = location
                }
            }
        case .none:
            break
        }
        if delivery.active { try visitor.row(row, section: delivery.section) }
    }

    private mutating func deliverSectionEnd(_ section: ListingSection) throws {
        if delivery.active { try visitor.endSection(section, index: delivery.section) }
    }

    // MARK: - Run

    mutating func run() throws -> ListingSummary {
        let pathURL = URL(fileURLWithPath: file)
        defaultTitle = pathURL.deletingPathExtension().lastPathComponent
        let header = ListingHeader(path: file, title: defaultTitle)
        guard let known = reader.format ?? ListingFormat(pathExtension: pathURL.pathExtension) else {
            return failure(
                header,
                [
                    diagnostic(
                        1, 1,
                        "cannot tell the format from the extension '\(pathURL.pathExtension)'; "
                            + "use .yaml, .yml, .json or .csv, or pass a format")
                ])
        }
        format = known
        if let data = reader.data {
            input = ListingInput(data: data, path: file, capacity: reader.bufferSize)
        } else {
            switch ListingInput.open(path: file, capacity: reader.bufferSize) {
            case .success(let opened): input = opened
            case .failure(let problem): return failure(header, [problem.diagnostic])
            }
        }
        return format == .csv ? try runCSV() : try runDocument()
    }

    private func diagnostic(_ line: Int, _ column: Int, _ message: String) -> ListingDiagnostic {
        ListingDiagnostic(location: SourceLocation(file: file, line: line, column: column), message: message)
    }

    private mutating func failure(_ header: ListingHeader, _ problems: [ListingDiagnostic]) -> ListingSummary {
        stopDelivery()
        return ListingSummary(
            diagnostics: problems, header: header, sectionCount: 0, rowCount: 0, byteCount: input?.size ?? 0,
            passes: passes, contentHash: input?.contentHash)
    }

    /// The problems of the input itself, which hide all others: it cannot be read, it is not
    /// UTF-8, or (YAML and JSON) it holds nothing but blanks.
    private func inputProblem() -> ListingDiagnostic? {
        if let failure = identity.setAsideFailure { return diagnostic(1, 1, failure) }
        guard let input else { return nil }
        if let readError = input.readError { return diagnostic(1, 1, readError) }
        if let offset = input.invalidUTF8Offset {
            let (line, column) = input.position(ofSourceOffset: offset)
            let byte = input.byte(at: offset) ?? 0
            return diagnostic(line, column, "invalid UTF-8 (\(ListingText.hex(byte))); listings must be UTF-8 text")
        }
        if format != .csv, !input.sawContent {
            return diagnostic(1, 1, "the document is empty; expected a mapping with 'sections'")
        }
        return nil
    }

    /// Reads what a pass left unread, so the whole input is checked for UTF-8.
    private func readRest() {
        guard let input else { return }
        repeat { input.position = input.limit } while input.refill()
    }

    /// Reports `rows` read and `bytesRead` (default: what the input has read).
    private mutating func reportProgress(rows: Int, bytesRead: Int? = nil) {
        guard let input else { return }
        visitor.progress(
            ListingProgress(bytesRead: bytesRead ?? input.bytesRead, bytesTotal: input.size, rowsRead: rows))
    }

    // MARK: - YAML and JSON

    /// What one pass over a YAML or JSON document found.
    private struct DocumentPass {
        var problems: [ListingDiagnostic] = []
        var header: ListingHeader
        var sections = 0
        var rows = 0
    }

    private mutating func runDocument() throws -> ListingSummary {
        let hints = ListingHints(tail: input?.tail(ListingHints.tailLength) ?? [], format: format)
        var guess = ListingHeader(path: file, title: hints.title ?? defaultTitle, style: hints.style ?? .insetGrouped)
        mode = .track
        var pass = try documentPass(deliver: true, guess: guess)
        identity.settle()
        if identity.derivedTooEarly { stopDelivery() }
        if let problem = inputProblem() { return failure(pass.header, [problem]) }
        if !pass.problems.isEmpty { return failure(pass.header, pass.problems) }
        var complete = delivery.active && delivery.header == pass.header
        if !identity.repeatedHashes.isEmpty {
            complete = false
            mode = .secondLook(identity.repeatedHashes)
            _ = try documentPass(deliver: false, guess: guess)
        }
        if !diagnostics.isEmpty { return failure(pass.header, diagnostics.finished()) }
        if !complete {
            // Hand the rows out again, knowing the header and every explicit id.
            stopDelivery()
            identity = ListingIdentity(reservingExplicitIDsOf: identity)
            if let problem = identity.setAsideFailure { return failure(pass.header, [diagnostic(1, 1, problem)]) }
            mode = .derive
            guess = pass.header
            pass = try documentPass(deliver: true, guess: guess)
        }
        return ListingSummary(
            diagnostics: [], header: pass.header, sectionCount: pass.sections, rowCount: pass.rows,
            byteCount: input?.size ?? 0, passes: passes, warnings: warnings, warningCount: warningCount,
            contentHash: input?.contentHash)
    }

    /// Reads the document once with the current identity mode, handing rows out if `deliver`.
    private mutating func documentPass(deliver: Bool, guess: ListingHeader) throws -> DocumentPass {
        guard let input else { preconditionFailure("the input is open before a pass") }
        passes += 1
        input.start()
        delivery = Delivery(active: deliver)
        order = 0
        derivedTooEarly = false
        firstUse = [:]
        var schema = ListingSchema(file: file, defaultTitle: defaultTitle, bodyImages: reader.bodyImages)
        let keepDiagnostics: Bool
        if case .track = mode { keepDiagnostics = true } else { keepDiagnostics = false }
        var yaml = format == .yaml ? YAMLReader(input: input, file: file) : nil
        var json = format == .json ? JSONEventReader(input: input, file: file) : nil
        // With read-ahead, the parser runs on a thread of its own and the source and the input
        // are the thread's until `finish` hands them back.
        let yamlAhead = reader.readAhead ? yaml.map { ReadAhead($0, input: input) } : nil
        let jsonAhead = reader.readAhead ? json.map { ReadAhead($0, input: input) } : nil
        var aheadFinished = false
        func finishAhead() {
            guard !aheadFinished else { return }
            aheadFinished = true
            if let yamlAhead { yaml = yamlAhead.finish() }
            if let jsonAhead { json = jsonAhead.finish() }
        }
        defer { finishAhead() }
        func nextEvent() -> ListingEvent? {
            if let yamlAhead { return yamlAhead.next() }
            if let jsonAhead { return jsonAhead.next() }
            return yaml?.next() ?? json?.next()
        }
        var problemsFound: Bool { yamlAhead?.hasProblems ?? yaml?.hasProblems ?? false }
        var bytesRead: Int { yamlAhead?.bytesRead ?? jsonAhead?.bytesRead ?? input.bytesRead }
        var events = 0
        // The schema's outputs are swapped out and back, so neither array is ever copied, and
        // each output is moved out of it (swapped with a payload-free one), so a row's strings
        // are not retained for the copy and released with the array.
        var outputs: [SchemaOutput] = []
        while let event = nextEvent() {
            schema.consume(event)
            if delivery.active, problemsFound || !schema.diagnostics.isEmpty { stopDelivery() }
            if !schema.outputs.isEmpty {
                swap(&outputs, &schema.outputs)
                defer { outputs.removeAll(keepingCapacity: true) }
                for index in outputs.indices {
                    var output = SchemaOutput.sectionStart(SourceLocation(file: "", line: 0, column: 0))
                    swap(&output, &outputs[index])
                    switch consume output {
                    case .sectionStart:
                        var header: ListingHeader?
                        if needsHeader {
                            let known = schema.header
                            header = ListingHeader(
                                path: file, title: known.title ?? guess.title, style: known.style ?? guess.style)
                        }
                        try deliverSectionStart(header)
                    case .row(let draft):
                        try handOut(draft)
                    case .sectionEnd(let section):
                        try deliverSectionEnd(section)
                    }
                }
            }
            events += 1
            if events & 0x3FFF == 0 { reportProgress(rows: schema.rowsPassed, bytesRead: bytesRead) }
        }
        finishAhead()
        readRest()
        reportProgress(rows: schema.rowsPassed)
        var pass = DocumentPass(header: ListingHeader(path: file, title: defaultTitle))
        if let yaml { pass.problems = yaml.finishedProblems() }
        if let error = json?.error { pass.problems = [error] }
        if let final = schema.finalHeader {
            pass.header = ListingHeader(path: file, version: final.version, title: final.title, style: final.style)
        }
        pass.sections = schema.sectionsPassed
        pass.rows = schema.rowsPassed
        if keepDiagnostics {
            diagnostics = schema.diagnostics
            warnings = schema.warnings
            warningCount = schema.warningCount
        }
        if derivedTooEarly || !pass.problems.isEmpty { stopDelivery() }
        return pass
    }

    // MARK: - CSV

    /// A CSV section: its name, where it is first named, how many rows it has so far.
    private struct CSVSection {
        var name: String
        var line: Int
        var column: Int
        var rows = 0
        /// The header as checked (the name, unless empty or holding NUL).
        var header: String?
        /// The first footer and index title given by the section's rows, as checked.
        var footer: String?
        var indexTitle: String?
    }

    /// A run of consecutive records of one section: where it starts and how many records.
    private struct CSVRun {
        var section: Int
        var offset: Int
        var line: Int
        var count: Int
    }

    private var csvSections: [CSVSection] = []
    private var csvRuns: [CSVRun] = []
    private var csvColumns: CSVListingColumns?

    private mutating func runCSV() throws -> ListingSummary {
        let options = reader.csv
        let header = ListingHeader(path: file, title: options.title ?? defaultTitle, style: options.tableStyle)
        mode = .track
        let first = try csvFirstPass()
        if let problem = inputProblem() { return failure(header, [problem]) }
        if !first.problems.isEmpty { return failure(header, first.problems) }
        if first.outOfOrder {
            // Settle identities in document order: the runs, section by section.
            identity = ListingIdentity(memoryBound: reader.identitiesInMemory)
            mode = .track
            try csvGroupedPass(deliver: diagnostics.isEmpty, header: header)
        }
        identity.settle()
        if let problem = identity.setAsideFailure { return failure(header, [diagnostic(1, 1, problem)]) }
        if identity.derivedTooEarly { stopDelivery() }
        var complete = delivery.active
        if !identity.repeatedHashes.isEmpty {
            complete = false
            mode = .secondLook(identity.repeatedHashes)
            try csvGroupedPass(deliver: false, header: header)
        }
        if !diagnostics.isEmpty { return failure(header, diagnostics.finished()) }
        if !complete {
            stopDelivery()
            identity = ListingIdentity(reservingExplicitIDsOf: identity)
            if let problem = identity.setAsideFailure { return failure(header, [diagnostic(1, 1, problem)]) }
            mode = .derive
            try csvGroupedPass(deliver: true, header: header)
        }
        return ListingSummary(
            diagnostics: [], header: header, sectionCount: csvSections.count,
            rowCount: csvSections.reduce(0) { $0 + $1.rows }, byteCount: input?.size ?? 0, passes: passes,
            warnings: warnings, warningCount: warningCount, contentHash: input?.contentHash,
            bytesRead: input?.totalRead ?? 0)
    }

    private func sectionRank(_ index: Int) -> DiagnosticRank {
        reader.csv.sort ? DiagnosticRank([2], name: csvSections[index].name) : DiagnosticRank([2, index])
    }

    /// The first pass over a CSV file: header, records in file order, sections and their runs.
    private mutating func csvFirstPass() throws -> (problems: [ListingDiagnostic], outOfOrder: Bool) {
        guard let input else { preconditionFailure("the input is open before a pass") }
        passes += 1
        input.start()
        delivery = Delivery(active: true)
        order = 0
        let options = reader.csv
        let records = CSVRecordReader(input: input, file: file)
        var schema = ListingSchema(file: file, defaultTitle: defaultTitle, bodyImages: reader.bodyImages)
        schema.csvDetailColumn = options.detail ?? "detail"
        var columnProblems = DiagnosticList()
        let header = ListingHeader(path: file, title: options.title ?? defaultTitle, style: options.tableStyle)
        var outOfOrder = false
        do {
            guard let headerRecord = try records.next(maxColumns: ListingLimits.maxColumns) else {
                readRest()
                return ([diagnostic(1, 1, "the file is empty; expected a header line")], false)
            }
            let columns = CSVListingColumns(
                header: headerRecord, options: options, file: file, problems: &columnProblems)
            csvColumns = columns
            records.keptFields = columns.width
            let afterHeader = records.here
            _ = schema.string(
                ListingSchema.Value(shape: .scalar(header.title, .string, literalIsText: false), line: 1, column: 1),
                key: "title", required: false, rank: DiagnosticRank([1, 1]))
            var byName: [String: Int] = [:]
            var current: Int?
            var rowsRead = 0
            while let record = try records.next() {
                rowsRead += 1
                if rowsRead & 0x3FFF == 0 { reportProgress(rows: rowsRead) }
                if record.count != columns.width {
                    let count = record.count
                    // More fields than the header is most often a value with a comma in it.
                    let hint = count > columns.width ? " (a value with a comma in it goes in double quotes)" : ""
                    columnProblems.add(
                        SourceLocation(file: file, line: record.line, column: record.column),
                        "row has \(count) \(count == 1 ? "field" : "fields"); the header has \(columns.width)\(hint)")
                }
                guard columnProblems.isEmpty else {
                    stopDelivery()
                    continue
                }
                let (name, line, column) = columns.section(of: record)
                let index: Int
                if let known = byName[name] {
                    index = known
                } else {
                    index = csvSections.count
                    byName[name] = index
                    if options.sort, let current, !(csvSections[current].name < name) { outOfOrder = true }
                    csvSections.append(CSVSection(name: name, line: line, column: column))
                    if !name.isEmpty {
                        csvSections[index].header = schema.string(
                            ListingSchema.Value(
                                shape: .scalar(name, .string, literalIsText: false), line: line, column: column),
                            key: "header", required: false, rank: sectionRank(index).appending(2, 0))
                    }
                }
                if let current, index != current, index < csvSections.count - 1 { outOfOrder = true }
                if let last = csvRuns.last, last.section == index {
                    csvRuns[csvRuns.count - 1].count += 1
                } else {
                    csvRuns.append(CSVRun(section: index, offset: record.offset, line: record.line, count: 1))
                }
                if outOfOrder, delivery.active {
                    stopDelivery()
                    mode = .none
                }
                if columns.hasSectionFields {
                    noteSectionFields(of: record, columns: columns, section: index, schema: &schema)
                }
                let rank = sectionRank(index).appending(1, csvSections[index].rows)
                csvSections[index].rows += 1
                let draft = schema.checkRow(
                    columns.fields(of: record), line: record.line, column: record.column, rank: rank)
                if !schema.diagnostics.isEmpty { stopDelivery() }
                if index != current {
                    if let current { try deliverSectionEnd(csvSection(current)) }
                    try deliverSectionStart(header)
                    current = index
                }
                if let draft { try handOut(draft) }
                if derivedTooEarly { stopDelivery() }
            }
            if let current { try deliverSectionEnd(csvSection(current)) }
            if csvSections.isEmpty, columnProblems.isEmpty {
                // No record after the header: every record read makes a section or a problem.
                schema.add(
                    DiagnosticRank([2, -1]), afterHeader.line, afterHeader.column,
                    "the CSV has a header but no rows; a CSV listing needs at least one row")
                stopDelivery()
            }
            reportProgress(rows: rowsRead)
        } catch let error as ListingSyntaxError {
            readRest()
            return ([error.diagnostic], false)
        }
        diagnostics = schema.diagnostics
        warnings = schema.warnings
        warningCount = schema.warningCount
        if !columnProblems.isEmpty { return (columnProblems.finished(), false) }
        return ([], outOfOrder)
    }

    /// The checked section `index` as handed out (its rows come separately). Without an index
    /// title from a column, ``CSVListingOptions/indexInitials`` makes one of the header.
    private func csvSection(_ index: Int) -> ListingSection {
        let section = csvSections[index]
        var indexTitle = section.indexTitle
        if indexTitle == nil, reader.csv.indexInitials, let first = section.header?.first {
            indexTitle = String(first).uppercased()
        }
        return ListingSection(
            header: section.header, footer: section.footer, indexTitle: indexTitle,
            location: SourceLocation(file: file, line: section.line, column: section.column))
    }

    /// Takes section `index`'s footer and index title from `record` when the section has none yet
    /// (the first non-empty cell of each column among its rows), checked as strings.
    private mutating func noteSectionFields(
        of record: CSVRecordReader.Record, columns: CSVListingColumns, section index: Int, schema: inout ListingSchema
    ) {
        let (footer, indexTitle) = columns.sectionFields(of: record)
        func checked(_ cell: CSVRecordReader.Field, key: String, field: Int) -> String? {
            let value = ListingSchema.Value(
                shape: .scalar(cell.text, .string, literalIsText: false), line: cell.line, column: cell.column)
            return schema.string(
                value, key: key, required: false, rank: sectionRank(index).appending(2, field))
        }
        if csvSections[index].footer == nil, let footer {
            csvSections[index].footer = checked(footer, key: "footer", field: 1)
        }
        if csvSections[index].indexTitle == nil, let indexTitle {
            csvSections[index].indexTitle = checked(indexTitle, key: "index", field: 2)
        }
    }

    /// The bytes to read at run `runs[first]` of a section (`Int.max`: a whole buffer): its own,
    /// and those of the section's runs after it while the bytes skipped between them stay within
    /// the bytes of the runs (or 4 KiB), up to 1 MiB. So one read takes at most twice what it uses
    /// (or 4 KiB more), runs close to each other share one read, and the pass reads the file at
    /// most once per section, not a buffer per run.
    private func csvReadAhead(_ runs: [Int], from first: Int) -> Int {
        let start = csvRuns[runs[first]].offset
        var end = csvRunEnd(runs[first])
        guard end != .max else { return .max }
        var used = end - start, skipped = 0
        for next in runs[(first + 1)...] {
            let (offset, nextEnd) = (csvRuns[next].offset, csvRunEnd(next))
            guard nextEnd != .max, nextEnd - start <= 1 << 20 else { break }
            guard skipped + offset - end <= max(used + nextEnd - offset, 4096) else { break }
            skipped += offset - end
            used += nextEnd - offset
            end = nextEnd
        }
        return end - start
    }

    /// Where the record after run `index` starts: the next run's start (`Int.max` after the last).
    private func csvRunEnd(_ index: Int) -> Int {
        index + 1 < csvRuns.count ? csvRuns[index + 1].offset : .max
    }

    /// Reads the CSV rows again, section by section in document order, run by run.
    private mutating func csvGroupedPass(deliver: Bool, header: ListingHeader) throws {
        guard let input, let columns = csvColumns else { preconditionFailure("the first pass read the header") }
        passes += 1
        delivery = Delivery(active: deliver)
        order = 0
        derivedTooEarly = false
        firstUse = [:]
        let records = CSVRecordReader(input: input, file: file)
        records.keptFields = columns.width
        var schema = ListingSchema(file: file, defaultTitle: defaultTitle, bodyImages: reader.bodyImages)
        schema.csvDetailColumn = reader.csv.detail ?? "detail"
        var runsOfSection = Array(repeating: [Int](), count: csvSections.count)
        for (index, run) in csvRuns.enumerated() { runsOfSection[run.section].append(index) }
        var sectionOrder = Array(csvSections.indices)
        if reader.csv.sort { sectionOrder.sort { csvSections[$0].name < csvSections[$1].name } }
        var rowsRead = 0
        for index in sectionOrder {
            try deliverSectionStart(header)
            let runs = runsOfSection[index]
            var readEnd = 0  // the end of the bytes the last read ahead takes in
            for (position, runIndex) in runs.enumerated() {
                let run = csvRuns[runIndex]
                var expected = Int.max
                if csvRunEnd(runIndex) > readEnd {
                    expected = csvReadAhead(runs, from: position)
                    readEnd = expected == .max ? .max : run.offset + expected
                }
                records.reposition(to: run.offset, line: run.line, expecting: expected)
                for _ in 0..<run.count {
                    guard let record = try? records.next() else {
                        preconditionFailure("a record read before reads again")
                    }
                    rowsRead += 1
                    if rowsRead & 0x3FFF == 0 { reportProgress(rows: rowsRead) }
                    let fields = columns.fields(of: record)
                    guard
                        let draft = schema.checkRow(
                            fields, line: record.line, column: record.column, rank: DiagnosticRank([]))
                    else {
                        continue
                    }
                    try handOut(draft)
                    if derivedTooEarly || !identity.repeatedHashes.isEmpty { stopDelivery() }
                }
            }
            try deliverSectionEnd(csvSection(index))
        }
        reportProgress(rows: rowsRead)
    }
}
