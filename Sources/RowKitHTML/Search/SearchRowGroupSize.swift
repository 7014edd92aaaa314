/// How many rows each of a table's row-data files (`search/r-<n>.js`) holds: 128, or for rows of
/// little display data as many more, in steps of 32 up to 1,024, as keep a file of rows like the
/// table's first ones within ``targetBytes``.
///
/// A search result loads its row's file whole, and so does the one-page list for the rows it
/// shows, so a file stays small; but every file costs its creation, which is most of what an
/// export costs on some file systems. Rows of a CSV listing take about 42 bytes each: 128 of them
/// are 5.4 KB, and 100,000 rows would be 782 files where 352 rows a file (about 15 KB) makes 285.
///
/// The size is decided from the display data of the table's first 128 rows, in the order the
/// exporter makes them (``add(_:)``; earlier when their bytes already rule out a larger size), so
/// it is known before any row-data file is written and before the list pages, which name it, are
/// put together. Rows after them may be larger: a group of rows whose data passes a MiB is cut in
/// parts (``SearchIndexBuilder/rowFileBytes``).
///
/// A re-export keeps the previous export's size while it stays near what the first rows call for
/// (``keeps(_:fitting:)``): otherwise an edit of one of the first rows could move the size a step,
/// and every row file would be cut anew, written again and, on a page `rowkit serve` keeps live,
/// loaded again with the page.
package struct SearchRowGroupSize {
    /// The rows of a file at least, and the rows the size is decided from.
    static let smallest = 128
    /// The rows of a file at most.
    static let largest = 1024
    /// The step between sizes: a size is a multiple of it, so that rows a little larger or
    /// smaller than others give the same size.
    static let step = 32
    /// The bytes of display data a file of rows like the first ones holds at most, unless it is
    /// of ``smallest`` rows: with the trie's path (a leaf of up to about 19 KB) and later rows a
    /// little longer than the first (larger numbers), a query for any row of a 100,000-row CSV
    /// listing stays within about 40 KB (41.3 KB for a row in the middle of the listing of
    /// `generate-example --format csv`, docs/search.md).
    static let targetBytes = 15 << 10

    /// The rows a file holds for a table whose first 128 rows' display data is `bytes` long: the
    /// most, a multiple of ``step`` from 128 to 1,024, whose file of such rows is at most
    /// ``targetBytes`` (128 when none is).
    static func rowsPerFile(firstRowsBytes bytes: Int) -> Int {
        guard bytes > 0 else { return largest }
        let fitting = targetBytes * smallest / bytes
        return min(largest, max(smallest, fitting / step * step))
    }

    /// Whether a re-export keeps `previous` rows a file (the previous export's, when it had any)
    /// where the first rows call for `fitting`: when a file of them holds at most a tenth more
    /// than ``targetBytes``, and no more than a quarter more files are written than `fitting`
    /// makes.
    static func keeps(_ previous: Int?, fitting: Int) -> Bool {
        guard let previous, previous >= smallest, previous <= largest else { return false }
        return previous * 10 <= fitting * 11 && previous * 4 >= fitting * 3
    }

    /// The rows per row file that an index's root file names
    /// (`RowKitSearch.load("key","t-",{"n":5,"r":256,…`), or `nil` when the text is not such a file.
    package static func rowsPerFile(inRootFile text: String) -> Int? {
        guard text.hasPrefix("RowKitSearch.load("), let open = text.range(of: ",{\"n\":"),
            let field = text.range(of: ",\"r\":", range: open.upperBound..<text.endIndex)
        else { return nil }
        let digits = text[field.upperBound...].prefix { $0.isASCII && $0.isNumber }
        guard let rows = Int(digits), rows > 0 else { return nil }
        return rows
    }

    /// The previous export's rows a file, if any (see ``keeps(_:fitting:)``).
    let previous: Int?

    /// A size to decide; `previous`: the rows a file of the previous export of the table.
    init(previous: Int? = nil) { self.previous = previous }

    /// The rows counted so far, at most ``smallest``.
    private(set) var rows = 0
    /// Their display data's bytes, each row's record and the comma after it.
    private(set) var bytes = 0
    /// The rows a file holds, once decided.
    private(set) var decided: Int?

    /// Counts the next rows' display data (`records`, in row order); returns the rows a file
    /// holds when these rows decide it (`nil` before, and after).
    mutating func add(_ records: SearchDisplayRecords) -> Int? {
        guard decided == nil else { return nil }
        var start = 0
        for end in records.ends {
            bytes += end - start + 1
            start = end
            rows += 1
            // Past 128/160 of the target, not even 160 rows like these fit in a file: 128 it is.
            let tooLarge = bytes * (Self.smallest + Self.step) > Self.targetBytes * Self.smallest
            if rows == Self.smallest || tooLarge {
                let fitting = tooLarge ? Self.smallest : Self.rowsPerFile(firstRowsBytes: bytes)
                let size = Self.keeps(previous, fitting: fitting) ? previous! : fitting
                decided = size
                return size
            }
        }
        return nil
    }

    /// The rows a file holds: as decided, or ``smallest`` for a table of fewer rows (one file).
    var rowsPerFile: Int { decided ?? Self.smallest }
}
