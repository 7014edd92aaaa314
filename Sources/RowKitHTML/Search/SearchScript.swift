/// The pieces of the index's script files: JavaScript string literals, postings strings and
/// file names.
///
/// Every index file is one call, `RowKitSearch.load("<table key>", "<file name>", <data>)`, so a
/// `<script>` element can load it from `file://` as from any host (nothing is fetched). The data
/// is JSON (objects, arrays, numbers and strings written here), never code.
enum SearchScript {
    /// The call every file makes; `data` is appended by the caller, then ``close``.
    static func open(key: String, name: String, into output: inout [UInt8]) {
        output.append(contentsOf: "RowKitSearch.load(".utf8)
        string(key, into: &output)
        output.append(UInt8(ascii: ","))
        string(name, into: &output)
        output.append(UInt8(ascii: ","))
    }

    /// Ends the call `open` began.
    static func close(_ output: inout [UInt8]) {
        output.append(contentsOf: ");\n".utf8)
    }

    /// Appends `text` as a double-quoted JavaScript string: quotes, backslashes, control
    /// characters, `<` and the line and paragraph separators escaped, other characters as UTF-8.
    ///
    /// The files are only ever loaded with `<script src>`, where no character of a string literal
    /// ends the script. `<` is escaped anyway, so that a file a server mislabels as HTML holds no
    /// tag or comment; `>` and `&` cannot open either, so they stay as they are (escaping them
    /// made the row data of a listing with Markdown bodies about a fifth larger).
    static func string(_ text: String, into output: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in string(utf8: bytes, into: &output) }
    }

    /// ``string(_:into:)`` of UTF-8 bytes, escaped into a scratch buffer on the stack and
    /// appended to `output` whenever it fills (a buffer for the longest result, six bytes per
    /// byte, came from the heap for every text over about 170 bytes).
    static func string(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        let count = bytes.count
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: scratchBytes) { buffer in
            let out = buffer.baseAddress!
            var length = 0
            func flush() {
                output.append(contentsOf: UnsafeBufferPointer(start: out, count: length))
                length = 0
            }
            out[length] = UInt8(ascii: "\"")
            length += 1
            var index = 0
            if let base = bytes.baseAddress {
                while index < count {
                    // A run of bytes that stay as they are is copied at once.
                    let end = plainRunEnd(base, from: index, count: count)
                    if end > index {
                        if end - index > scratchBytes - length {
                            flush()
                            output.append(contentsOf: UnsafeBufferPointer(start: base + index, count: end - index))
                        } else {
                            (out + length).update(from: base + index, count: end - index)
                            length += end - index
                        }
                        index = end
                        if index == count { break }
                    }
                    // Room for the longest escape, stored as eight bytes (see putUnicode).
                    if length + 8 > scratchBytes { flush() }
                    let byte = base[index]
                    index += 1
                    switch byte {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                        out[length] = UInt8(ascii: "\\")
                        out[length + 1] = byte
                        length += 2
                    case UInt8(ascii: "\n"):
                        out[length] = UInt8(ascii: "\\")
                        out[length + 1] = UInt8(ascii: "n")
                        length += 2
                    case 0xE2:
                        // U+2028 and U+2029 (E2 80 A8, E2 80 A9) end lines in older JavaScript.
                        if index + 1 < count, base[index] == 0x80, base[index + 1] == 0xA8 || base[index + 1] == 0xA9 {
                            putUnicode(base[index + 1] == 0xA8 ? 0x2028 : 0x2029, out + length)
                            length += 6
                            index += 2
                        } else {
                            out[length] = byte
                            length += 1
                        }
                    default:
                        // Control characters, `<` and DEL: the only other bytes a run stops at.
                        putUnicode(UInt32(byte), out + length)
                        length += 6
                    }
                }
            }
            if length == scratchBytes { flush() }
            out[length] = UInt8(ascii: "\"")
            length += 1
            flush()
        }
    }

    /// The scratch buffer of ``string(utf8:into:)``: small enough to be on the stack.
    private static var scratchBytes: Int { 1024 }

    /// Stores `\u` and the four hex digits of `value` (below 0x10000) at `out`, as one eight-byte
    /// store: the two bytes after the escape are scratch that the next write overwrites.
    @inline(__always)
    private static func putUnicode(_ value: UInt32, _ out: UnsafeMutablePointer<UInt8>) {
        @inline(__always) func hex(_ digit: UInt32) -> UInt64 {
            UInt64(digit < 10 ? 0x30 + digit : 0x57 + digit)
        }
        let word =
            UInt64(UInt8(ascii: "\\")) | UInt64(UInt8(ascii: "u")) << 8 | hex((value >> 12) & 0xF) << 16
            | hex((value >> 8) & 0xF) << 24 | hex((value >> 4) & 0xF) << 32 | hex(value & 0xF) << 40
        UnsafeMutableRawPointer(out).storeBytes(of: word.littleEndian, as: UInt64.self)
    }

    /// The end of the run of bytes from `from` that ``string(utf8:into:)`` copies as they are:
    /// all but quotes, backslashes, control characters, `<`, DEL and 0xE2 (the first byte of U+2028
    /// and U+2029), eight bytes at a time.
    @inline(__always)
    private static func plainRunEnd(_ bytes: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
        var end = from
        while count - end >= ByteWord.width {
            let word = ByteWord.load(bytes + end)
            let flags =
                ByteWord.below(0x20, in: word) | ByteWord.equal(UInt8(ascii: "\""), in: word)
                | ByteWord.equal(UInt8(ascii: "<"), in: word) | ByteWord.equal(UInt8(ascii: "\\"), in: word)
                | ByteWord.equal(0x7F, in: word) | ByteWord.equal(0xE2, in: word)
            if flags != 0 { return end + ByteWord.firstFlagged(flags) }
            end += ByteWord.width
        }
        let plain = Self.plain
        while end < count && plain[Int(bytes[end])] { end += 1 }
        return end
    }

    /// The bytes ``string(utf8:into:)`` copies as they are: all but quotes, backslashes, control
    /// characters, `<`, DEL and 0xE2 (the first byte of U+2028 and U+2029).
    private static let plain: [Bool] = {
        var table = [Bool](repeating: true, count: 256)
        for byte in 0..<0x20 { table[byte] = false }
        for byte in "\"\\<".utf8 { table[Int(byte)] = false }
        table[0x7F] = false
        table[0xE2] = false
        return table
    }()

    /// Digits that end a number (5 bits each) and digits that continue it.
    static let finalDigits = Array("0123456789abcdefghijklmnopqrstuv".utf8)
    static let continuingDigits = Array("wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_".utf8)

    /// The character that marks a run: after a row, `~` and a count `k` add the `k` rows that
    /// follow it.
    static let runMark = UInt8(ascii: "~")

    /// Appends `rows` (ascending, distinct) as a postings string: the first row, then each gap
    /// less one, every number in 5-bit digits, most significant first, the last digit from
    /// ``finalDigits`` and the others from ``continuingDigits``; a run of three or more rows
    /// right after a row is ``runMark`` and their count instead (a word in every row of a
    /// million is a few characters). Returns false, leaving `output` as it was, when the string
    /// would pass `limit` bytes (quotes included).
    /// `as`: ``BitmapWriter`` for the bitmap of the rows (``bitmapMark``) instead.
    @discardableResult
    static func postings<Writer: RowListWriter>(
        _ rows: some Sequence<UInt32>, as _: Writer.Type = PostingsWriter.self, into output: inout [UInt8],
        limit: Int = .max
    ) -> Bool {
        let start = output.count
        output.append(UInt8(ascii: "\""))
        var writer = Writer()
        for row in rows {
            writer.add(row, into: &output)
            if output.count - start > limit {
                output.removeSubrange(start...)
                return false
            }
        }
        writer.finish(into: &output)
        output.append(UInt8(ascii: "\""))
        if output.count - start > limit {
            output.removeSubrange(start...)
            return false
        }
        return true
    }

    /// Writes ascending rows into a postings string one at a time (without its quotes), and what
    /// it holds back once they end.
    protocol RowListWriter {
        init()
        /// Adds `row`, greater than every row added.
        mutating func add(_ row: UInt32, into output: inout [UInt8])
        /// Writes what is held back; the writer may take more rows after.
        mutating func finish(into output: inout [UInt8])
    }

    /// Writes rows as the numbers of a postings string (``postings(_:as:into:limit:)``), one row
    /// at a time, holding back the consecutive rows of a run until it ends (``finish(into:)``).
    struct PostingsWriter: RowListWriter {
        /// The last row added (written or held back).
        private var last: UInt32? = nil
        /// The consecutive rows after the last number written, not written yet.
        private var held: UInt32 = 0
        /// Runs shorter than this are written a character a row (`0`, a gap of none), which is
        /// no longer.
        static let shortestRun: UInt32 = 3

        /// Adds `row`, greater than every row added.
        mutating func add(_ row: UInt32, into output: inout [UInt8]) {
            if let last {
                if row == last &+ 1 {
                    held += 1
                    self.last = row
                    return
                }
                finish(into: &output)
                SearchScript.number(row - last - 1, into: &output)
            } else {
                SearchScript.number(row, into: &output)
            }
            last = row
        }

        /// Writes the rows held back; the next row added continues from the last one.
        mutating func finish(into output: inout [UInt8]) {
            if held >= Self.shortestRun {
                output.append(SearchScript.runMark)
                SearchScript.number(held, into: &output)
            } else {
                for _ in 0..<held { output.append(SearchScript.finalDigits[0]) }
            }
            held = 0
        }
    }

    /// The character that begins a *bitmap* postings string: `!`, the first row (a number of
    /// ``postings(_:as:into:limit:)``), then five rows a character, each a digit of ``finalDigits``
    /// whose bit `b` (from the least) says whether the row `first + 5 * i + b` is in the list,
    /// `i` the character's place after the first row. A list of more than about one row in five
    /// of its span is shorter so: a prefix's aggregate of most rows of a listing is a fifth of a
    /// character a row, where its gaps and runs took one or more.
    static let bitmapMark = UInt8(ascii: "!")

    /// The bytes of the bitmap postings string of rows from `first` to `last` (quotes included).
    static func bitmapBytes(first: UInt32, last: UInt32) -> Int {
        var digits = 1
        while digits < 7 && first >> (5 * digits) != 0 { digits += 1 }
        return 3 + digits + Int((last - first) / 5) + 1
    }

    /// The bytes of the postings string of `rows` (quotes included), without keeping it; once
    /// they pass `limit`, a count over it (the rest of the rows are not read).
    static func postingsBytes(_ rows: some Sequence<UInt32>, limit: Int = .max) -> Int {
        var output: [UInt8] = []
        var counted = 2
        var writer = PostingsWriter()
        for row in rows {
            writer.add(row, into: &output)
            if counted + output.count > limit { return counted + output.count }
            if output.count >= 1 << 14 {
                counted += output.count
                output.removeAll(keepingCapacity: true)
            }
        }
        writer.finish(into: &output)
        return counted + output.count
    }

    /// Writes rows as a bitmap postings string (``bitmapMark``), one row at a time: the first row
    /// added is the string's first.
    struct BitmapWriter: RowListWriter {
        /// The string's first row, and the rows of the character not written yet.
        private var first: UInt32? = nil
        private var character: UInt32 = 0
        private var bits: UInt8 = 0

        /// Adds `row`, greater than every row added.
        mutating func add(_ row: UInt32, into output: inout [UInt8]) {
            guard let first else {
                output.append(SearchScript.bitmapMark)
                SearchScript.number(row, into: &output)
                self.first = row
                bits = 1
                return
            }
            let at = (row - first) / 5
            while character < at {
                output.append(SearchScript.finalDigits[Int(bits)])
                bits = 0
                character += 1
            }
            bits |= 1 << UInt8((row - first) % 5)
        }

        /// Writes the last character.
        func finish(into output: inout [UInt8]) {
            if first != nil { output.append(SearchScript.finalDigits[Int(bits)]) }
        }
    }

    /// Appends `value` in the 5-bit digits of ``postings(_:as:into:limit:)``.
    static func number(_ value: UInt32, into output: inout [UInt8]) {
        var shift: UInt32 = 0
        while shift < 30 && value >> (shift + 5) != 0 { shift += 5 }
        while shift > 0 {
            output.append(continuingDigits[Int((value >> shift) & 31)])
            shift -= 5
        }
        output.append(finalDigits[Int(value & 31)])
    }

    /// A file-name-safe spelling of folded word scalars: ASCII letters and digits as they are,
    /// anything else as `_` + hexadecimal + `_`. Folded words are lower case, so names never
    /// differ by case alone (case-insensitive file systems keep them apart).
    static func fileName<S: Sequence<Unicode.Scalar>>(_ scalars: S) -> String {
        var name = ""
        for scalar in scalars {
            if (scalar >= "a" && scalar <= "z") || (scalar >= "0" && scalar <= "9") {
                name.unicodeScalars.append(scalar)
            } else {
                name += "_" + String(scalar.value, radix: 16) + "_"
            }
        }
        return name
    }
}
