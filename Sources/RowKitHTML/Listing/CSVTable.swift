/// An RFC 4180 CSV file split into located fields: the header and the records after it.
///
/// Fields may be quoted; a quote inside a quoted field is doubled; quoted fields may hold commas
/// and line breaks; records end with CRLF, LF or CR. Blank lines are skipped. A quote inside an
/// unquoted field, text after a closing quote, and an unterminated quote are errors.
struct CSVTable {
    /// One field's text and where it starts.
    struct Field: Sendable {
        var text: String
        var location: SourceLocation
    }

    /// One record (line) of fields and where it starts.
    struct Record: Sendable {
        var fields: [Field]
        var location: SourceLocation
    }

    /// The header line.
    var header: Record
    /// The records after the header, in file order.
    var records: [Record]

    /// Splits `bytes` (valid UTF-8, BOM removed) from `file`.
    ///
    /// - Complexity: O(n) in the input's length.
    init(bytes: [UInt8], file: String) throws(ListingSyntaxError) {
        var reader = Reader(bytes: bytes, file: file)
        var all: [Record] = []
        while let record = try reader.nextRecord() { all.append(record) }
        guard let first = all.first else {
            throw ListingSyntaxError(SourceLocation(file: file, line: 1, column: 1), "the file is empty; expected a header line")
        }
        header = first
        records = Array(all.dropFirst())
    }

    /// The byte-level scanner.
    private struct Reader {
        let bytes: [UInt8]
        let file: String
        var index = 0
        var line = 1
        var column = 1

        var here: SourceLocation { SourceLocation(file: file, line: line, column: column) }

        mutating func advance() {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }

        /// Moves past a line break at `index` (CRLF, LF or CR) if there is one.
        mutating func skipLineBreak() -> Bool {
            guard index < bytes.count else { return false }
            if bytes[index] == 0x0D {
                index += 1
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
            } else if bytes[index] == 0x0A {
                index += 1
            } else {
                return false
            }
            line += 1
            column = 1
            return true
        }

        mutating func nextRecord() throws(ListingSyntaxError) -> Record? {
            while index < bytes.count {
                let start = here
                var fields: [Field] = []
                var blank = true
                while true {
                    let (field, quoted) = try nextField()
                    if quoted || !field.text.isEmpty { blank = false }
                    fields.append(field)
                    if index < bytes.count, bytes[index] == UInt8(ascii: ",") {
                        advance()
                        blank = false
                        continue
                    }
                    _ = skipLineBreak()
                    break
                }
                if blank { continue }
                return Record(fields: fields, location: start)
            }
            return nil
        }

        mutating func nextField() throws(ListingSyntaxError) -> (Field, Bool) {
            let start = here
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                let runStart = index
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: ",") || byte == 0x0A || byte == 0x0D { break }
                    if byte == UInt8(ascii: "\"") {
                        throw ListingSyntaxError(
                            here, "quote inside an unquoted field; quote the whole field and double the quote")
                    }
                    advance()
                }
                return (Field(text: String(decoding: bytes[runStart..<index], as: UTF8.self), location: start), false)
            }
            advance()
            var buffer: [UInt8] = []
            var runStart = index
            while true {
                guard index < bytes.count else {
                    throw ListingSyntaxError(start, "unterminated quoted field")
                }
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    buffer.append(contentsOf: bytes[runStart..<index])
                    advance()
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        buffer.append(byte)
                        advance()
                        runStart = index
                        continue
                    }
                    break
                } else if byte == 0x0A || byte == 0x0D {
                    buffer.append(contentsOf: bytes[runStart..<index])
                    let crlf = byte == 0x0D && index + 1 < bytes.count && bytes[index + 1] == 0x0A
                    buffer.append(contentsOf: bytes[index..<(index + (crlf ? 2 : 1))])
                    _ = skipLineBreak()
                    runStart = index
                } else {
                    advance()
                }
            }
            if index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != 0x0A, bytes[index] != 0x0D {
                throw ListingSyntaxError(
                    here, "expected ',' or a line break after the closing quote, found \(ListingText.describe(byte: bytes[index]))")
            }
            return (Field(text: String(decoding: buffer, as: UTF8.self), location: start), true)
        }
    }
}
