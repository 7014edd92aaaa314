/// Reads an RFC 4180 CSV file one record at a time, each field with its location.
///
/// Fields may be quoted; a quote inside a quoted field is doubled; quoted fields may hold commas
/// and line breaks; records end with CRLF, LF or CR. Blank lines are skipped. A quote inside an
/// unquoted field, text after a closing quote, and an unterminated quote are errors, and so is a
/// field or record longer than ``ListingLimits/maxValueSize``. Input must already be valid UTF-8.
final class CSVRecordReader {
    /// One field's text and where it starts.
    struct Field: Sendable {
        var text: String
        var line: Int
        var column: Int
    }

    /// One record (line) of fields and where it starts.
    struct Record: Sendable {
        /// The fields, at most ``CSVRecordReader/keptFields`` of them.
        var fields: [Field]
        /// How many fields the record has (more than `fields` holds when some were not kept).
        var count: Int
        var line: Int
        var column: Int
        /// The source offset of the record's first byte.
        var offset: Int
    }

    private let input: ListingInput
    private let file: String
    private var line = 1
    private var column = 1
    /// Records keep at most this many fields (the header's width is all a listing needs); the
    /// count of the others is kept.
    var keptFields = Int.max

    init(input: ListingInput, file: String) {
        self.input = input
        self.file = file
    }

    /// Continues at a record found by an earlier pass: `offset` in the source, at `line`, where
    /// about `expected` bytes will be read (see ``ListingInput/reposition(to:expecting:)``).
    func reposition(to offset: Int, line: Int, expecting expected: Int = .max) {
        input.reposition(to: offset, expecting: expected)
        self.line = line
        column = 1
    }

    /// Where the next record would start: just after the last one read.
    var here: SourceLocation { SourceLocation(file: file, line: line, column: column) }

    private func tooLong(_ start: SourceLocation) -> ListingSyntaxError {
        ListingSyntaxError(start, "a value longer than the \(ListingLimits.maxValueSize / 1_048_576) MiB limit")
    }

    /// Whether a byte is available at the position (reading more if needed).
    private var hasByte: Bool {
        input.position < input.limit || input.refill()
    }

    private func advance() {
        if input.bytes[input.position] & 0xC0 != 0x80 { column += 1 }
        input.position += 1
    }

    /// Moves past a line break at the position (CRLF, LF or CR) if there is one.
    private func skipLineBreak() -> Bool {
        guard hasByte else { return false }
        let byte = input.bytes[input.position]
        if byte == 0x0D {
            input.position += 1
            if hasByte, input.bytes[input.position] == 0x0A { input.position += 1 }
        } else if byte == 0x0A {
            input.position += 1
        } else {
            return false
        }
        line += 1
        column = 1
        return true
    }

    /// The next record, or `nil` at the end of the input.
    ///
    /// - Parameter maxColumns: For the header: a record of more fields is an error at the first
    ///   field over the limit, before more are read.
    func next(maxColumns: Int = .max) throws(ListingSyntaxError) -> Record? {
        while hasByte {
            let start = here
            let offset = input.offset(of: input.position)
            var fields: [Field] = []
            var count = 0
            var blank = true
            var size = 0
            while true {
                let (field, quoted) = try nextField()
                if count == maxColumns {
                    throw ListingSyntaxError(
                        SourceLocation(file: file, line: field.line, column: field.column),
                        "the header has more than \(maxColumns) columns; a CSV listing may have at most \(maxColumns)")
                }
                if quoted || !field.text.isEmpty { blank = false }
                size += field.text.utf8.count + 1
                if size > ListingLimits.maxValueSize { throw tooLong(start) }
                if count < keptFields { fields.append(field) }
                count += 1
                if hasByte, input.bytes[input.position] == UInt8(ascii: ",") {
                    advance()
                    blank = false
                    continue
                }
                _ = skipLineBreak()
                break
            }
            if blank { continue }
            return Record(fields: fields, count: count, line: start.line, column: start.column, offset: offset)
        }
        return nil
    }

    private func nextField() throws(ListingSyntaxError) -> (Field, Bool) {
        let start = here
        guard hasByte, input.bytes[input.position] == UInt8(ascii: "\"") else {
            var buffer: [UInt8] = []
            while hasByte {
                let base = input.bytes
                let (index, scalars) = input.scan {
                    $0 == UInt8(ascii: ",") || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "\"")
                }
                let stop = index < input.limit
                buffer.append(
                    contentsOf: UnsafeBufferPointer(start: base + input.position, count: index - input.position))
                input.position = index
                column += scalars
                if buffer.count > ListingLimits.maxValueSize { throw tooLong(start) }
                guard stop else { continue }
                if base[index] == UInt8(ascii: "\"") {
                    throw ListingSyntaxError(
                        here, "quote inside an unquoted field; quote the whole field and double the quote")
                }
                break
            }
            return (Field(text: String(decoding: buffer, as: UTF8.self), line: start.line, column: start.column), false)
        }
        advance()
        var buffer: [UInt8] = []
        while true {
            guard hasByte else { throw ListingSyntaxError(start, "unterminated quoted field") }
            let base = input.bytes
            let limit = input.limit
            let (index, scalars) = input.scan { $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            buffer.append(contentsOf: UnsafeBufferPointer(start: base + input.position, count: index - input.position))
            input.position = index
            column += scalars
            if buffer.count > ListingLimits.maxValueSize { throw tooLong(start) }
            guard index < limit else { continue }
            let byte = base[index]
            if byte == UInt8(ascii: "\"") {
                advance()
                if hasByte, input.bytes[input.position] == UInt8(ascii: "\"") {
                    buffer.append(byte)
                    advance()
                    continue
                }
                break
            }
            // A line break inside the field is kept as written (CRLF, LF or CR).
            buffer.append(byte)
            if byte == 0x0D {
                input.position += 1
                if hasByte, input.bytes[input.position] == 0x0A {
                    buffer.append(0x0A)
                    input.position += 1
                }
            } else {
                input.position += 1
            }
            line += 1
            column = 1
        }
        if hasByte {
            let byte = input.bytes[input.position]
            if byte != UInt8(ascii: ","), byte != 0x0A, byte != 0x0D {
                throw ListingSyntaxError(
                    here,
                    "expected ',' or a line break after the closing quote, found "
                        + ListingText.describe(
                            characterAt: input.bytes + input.position, count: input.limit - input.position))
            }
        }
        return (Field(text: String(decoding: buffer, as: UTF8.self), line: start.line, column: start.column), true)
    }
}
