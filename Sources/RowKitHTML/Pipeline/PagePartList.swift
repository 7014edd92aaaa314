/// The parts of a table's list pages (each a section's part of a page), page by page, kept in the
/// export's scratch file: a listing of one-row sections has one part per row, and only the page
/// being planned needs them before the table ends.
///
/// Memory: a buffer of at most ``SectionList/bufferSize`` bytes and one range (16 bytes) per
/// buffer's worth of parts.
final class PagePartList {
    /// A section's part of a page.
    struct Part: Equatable {
        /// The section's position in the table.
        var section: Int
        /// Whether the section starts on this page.
        var isFirst: Bool
        var rows = 0
        /// Whether the section ends on this page.
        var hasFooter = false
    }

    private let scratch: ScratchFile
    private var buffer: [UInt8] = []
    private var spilled: [Range<Int>] = []
    /// How many pages were appended.
    private(set) var count = 0

    init(scratch: ScratchFile) {
        self.scratch = scratch
    }

    /// Appends the parts of the next page.
    func append(_ parts: [Part]) throws {
        ScratchVarint.append(parts.count, into: &buffer)
        for part in parts {
            ScratchVarint.append(part.section, into: &buffer)
            ScratchVarint.append(part.rows, into: &buffer)
            buffer.append((part.isFirst ? 1 : 0) | (part.hasFooter ? 2 : 0))
        }
        count += 1
        if buffer.count >= SectionList.bufferSize {
            spilled.append(try scratch.append(buffer))
            buffer.removeAll(keepingCapacity: true)
        }
    }

    /// A reader of the pages' parts from the first page, in order.
    func makeReader() -> Reader { Reader(list: self) }

    /// Reads a ``PagePartList``'s pages in order, one spilled buffer at a time.
    final class Reader {
        private let list: PagePartList
        private var chunk: [UInt8] = []
        private var offset = 0
        private var nextSpill = 0
        private var readBuffer = false

        fileprivate init(list: PagePartList) {
            self.list = list
        }

        /// The parts of the next page, or `nil` after the last page.
        func next() throws -> [Part]? {
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
            let count = ScratchVarint.read(chunk, &offset)
            var parts: [Part] = []
            parts.reserveCapacity(count)
            for _ in 0..<count {
                let section = ScratchVarint.read(chunk, &offset)
                let rows = ScratchVarint.read(chunk, &offset)
                let flags = chunk[offset]
                offset += 1
                parts.append(Part(section: section, isFirst: flags & 1 != 0, rows: rows, hasFooter: flags & 2 != 0))
            }
            return parts
        }
    }
}
