/// Where libyaml's lines depart from a listing's, to turn libyaml's marks into listing positions.
///
/// A listing's lines end at LF, CRLF or CR, as the JSON and CSV readers count them and as editors
/// and `grep -n` show them. libyaml (YAML 1.1) also ends a line at NEL (U+0085), LINE SEPARATOR
/// (U+2028) and PARAGRAPH SEPARATOR (U+2029), which text pasted from word processors and web pages
/// carries, so on its own it would report every later problem on a later line than the file's.
/// This notes, in the bytes fed to libyaml, each such break: the libyaml line it ends and its
/// column on the listing's line. It keeps 16 bytes per such break, nothing for a file without them.
struct YAMLLineBreaks {
    /// The libyaml lines (0-based) that end at a break a listing does not count, ascending.
    private var lines: [Int] = []
    /// For each of ``lines``, the break's column (0-based, in Unicode scalars) on the listing's line.
    private var columns: [Int] = []
    /// Line breaks of every kind libyaml counts, in the bytes noted so far.
    private var count = 0
    /// Unicode scalars since the last line break of any kind.
    private var column = 0
    /// Whether the last byte noted was a CR (an LF right after it ends the same line).
    private var afterCR = false
    /// How much of NEL (`C2 85`) or U+2028/U+2029 (`E2 80 A8`/`A9`) the last bytes noted began:
    /// 0 none, 1 `C2`, 2 `E2`, 3 `E2 80` (the input may be cut inside a character).
    private var partial = 0

    /// Notes the next `count` bytes fed to libyaml (valid UTF-8, possibly cut inside a character).
    ///
    /// - Complexity: O(`count`).
    mutating func note(_ bytes: UnsafePointer<UInt8>, count: Int) {
        for index in 0..<count {
            let byte = bytes[index]
            if byte == 0x0A {
                if !afterCR { self.count += 1 }
                column = 0
                afterCR = false
                partial = 0
            } else if byte == 0x0D {
                self.count += 1
                column = 0
                afterCR = true
                partial = 0
            } else if byte & 0xC0 != 0x80 {
                column += 1
                afterCR = false
                partial = byte == 0xC2 ? 1 : byte == 0xE2 ? 2 : 0
            } else {
                switch partial {
                case 1 where byte == 0x85, 3 where byte == 0xA8 || byte == 0xA9:
                    noteUncountedBreak()
                    partial = 0
                case 2 where byte == 0x80:
                    partial = 3
                default:
                    partial = 0
                }
            }
        }
    }

    /// Notes the break whose lead byte was the last scalar counted in ``column``.
    private mutating func noteUncountedBreak() {
        var breakColumn = column - 1
        if let last = lines.last, last == count - 1 { breakColumn += columns[columns.count - 1] + 1 }
        lines.append(count)
        columns.append(breakColumn)
        count += 1
        column = 0
    }

    /// The listing position (1-based line and column) of libyaml's 0-based `line` and `column`,
    /// which lie in the bytes noted so far.
    ///
    /// - Complexity: O(log *b*), *b* the breaks noted.
    func position(line: Int, column: Int) -> (line: Int, column: Int) {
        guard !lines.isEmpty else { return (line + 1, column + 1) }
        // How many of the noted breaks end a libyaml line before `line`.
        var low = 0
        var high = lines.count
        while low < high {
            let middle = (low + high) / 2
            if lines[middle] < line { low = middle + 1 } else { high = middle }
        }
        var listingColumn = column
        if low > 0, lines[low - 1] == line - 1 { listingColumn += columns[low - 1] + 1 }
        return (line - low + 1, listingColumn + 1)
    }
}
