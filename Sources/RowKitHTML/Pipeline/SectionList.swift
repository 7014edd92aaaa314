/// A table's sections, in order, kept in the export's scratch file: a listing may have millions of
/// sections, and only the one being read and the ones of the page being planned are needed until
/// the table ends.
///
/// Records are encoded into a buffer of at most ``bufferSize`` bytes, which goes to the scratch
/// file when full; a ``Reader`` reads them back in order, one buffer's worth at a time.
///
/// Memory: the buffer and one range (16 bytes) per ``bufferSize`` bytes of records.
final class SectionList {
    /// A section of the table.
    struct Record: Equatable {
        /// The identity its anchor is made from; for a listing, decided when the table ends.
        var id: String?
        var header: String?
        var footer: String?
        var indexTitle: String?
        var rowStart: Int
        var rowCount = 0
    }

    /// Bytes of records kept in memory before they go to the scratch file.
    static let bufferSize = 1 << 16

    private let scratch: ScratchFile
    private var buffer: [UInt8] = []
    private var spilled: [Range<Int>] = []
    /// How many records were appended.
    private(set) var count = 0

    init(scratch: ScratchFile) {
        self.scratch = scratch
    }

    /// Appends `record` after the others.
    func append(_ record: Record) throws {
        ScratchVarint.append(record.rowStart, into: &buffer)
        ScratchVarint.append(record.rowCount, into: &buffer)
        for field in [record.id, record.header, record.footer, record.indexTitle] {
            guard let field else {
                buffer.append(0)
                continue
            }
            var text = field
            text.withUTF8 { utf8 in
                ScratchVarint.append(utf8.count + 1, into: &buffer)
                buffer.append(contentsOf: utf8)
            }
        }
        count += 1
        if buffer.count >= Self.bufferSize {
            spilled.append(try scratch.append(buffer))
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// A reader of the records from the first, in order.
    func makeReader() -> Reader { Reader(list: self) }

    /// Reads a ``SectionList``'s records in order, one spilled buffer at a time.
    final class Reader {
        private let list: SectionList
        private var chunk: [UInt8] = []
        private var offset = 0
        private var nextSpill = 0
        private var readBuffer = false
        /// The position of the record ``next()`` returns next.
        private(set) var position = 0

        fileprivate init(list: SectionList) {
            self.list = list
        }

        /// The next record, or `nil` after the last.
        func next() throws -> Record? {
            while offset == chunk.count {
                chunk.removeAll(keepingCapacity: true)
                offset = 0
                if nextSpill < list.spilled.count {
                    try list.scratch.read(list.spilled[nextSpill], appendingTo: &chunk)
                    nextSpill += 1
                } else if !readBuffer {
                    readBuffer = true
                    chunk = list.buffer
                } else {
                    return nil
                }
            }
            var record = Record(rowStart: ScratchVarint.read(chunk, &offset))
            record.rowCount = ScratchVarint.read(chunk, &offset)
            record.id = field()
            record.header = field()
            record.footer = field()
            record.indexTitle = field()
            position += 1
            return record
        }

        private func field() -> String? {
            let length = ScratchVarint.read(chunk, &offset)
            guard length > 0 else { return nil }
            defer { offset += length - 1 }
            return String(decoding: chunk[offset..<(offset + length - 1)], as: UTF8.self)
        }
    }
}
