/// How many rows each of a table's row-data files (`search/r-<n>.js`) holds: 128, or for rows of
/// little display data 256, 512 or 1,024, so that a file of the table's first rows holds about
/// ``targetBytes`` at most.
///
/// A search result loads its row's file whole, and so does the one-page list for the rows it
/// shows, so a file stays small; but every file costs its creation, which is most of what an
/// export costs on some file systems. Rows of a CSV listing take about 50 bytes each: 128 of them
/// are 6 KB, and 100,000 rows would be 782 files where 256 rows a file (about 13 KB) makes 391.
///
/// The size is decided from the display data of the table's first 128 rows, in the order the
/// exporter makes them (``add(_:)``; earlier when their bytes already rule out a larger size), so
/// it is known before any row-data file is written and before the list pages, which name it, are
/// put together. Rows after them may be larger: a group of rows whose data passes a MiB is cut in
/// parts (``SearchIndexBuilder/rowFileBytes``).
struct SearchRowGroupSize {
    /// The rows of a file at least, and the rows the size is decided from.
    static let smallest = 128
    /// The rows of a file at most.
    static let largest = 1024
    /// The bytes of display data a file of the first rows holds at most, unless it is of
    /// ``smallest`` rows: with the trie's path (about 16 KB), a query for a late row stays within
    /// about 40 KB.
    static let targetBytes = 16 << 10

    /// The rows counted so far, at most ``smallest``.
    private(set) var rows = 0
    /// Their display data's bytes, each row's record and the comma after it.
    private(set) var bytes = 0
    /// The rows a file holds, once decided.
    private(set) var decided: Int?

    /// The rows a file holds for a table whose first 128 rows' display data is `bytes` long:
    /// the largest of 128, 256, 512 and 1,024 whose file of such rows is at most ``targetBytes``
    /// (128 when none is).
    static func rowsPerFile(firstRowsBytes bytes: Int) -> Int {
        var rows = smallest
        while rows < largest && bytes * (rows * 2 / smallest) <= targetBytes { rows *= 2 }
        return rows
    }

    /// Counts the next rows' display data (`records`, in row order); returns the rows a file
    /// holds when these rows decide it (`nil` before, and after).
    mutating func add(_ records: SearchDisplayRecords) -> Int? {
        guard decided == nil else { return nil }
        var start = 0
        for end in records.ends {
            bytes += end - start + 1
            start = end
            rows += 1
            // Past half the target, 128 rows are already more than a file of 256 may hold.
            if rows == Self.smallest || bytes * 2 > Self.targetBytes {
                let size = bytes * 2 > Self.targetBytes ? Self.smallest : Self.rowsPerFile(firstRowsBytes: bytes)
                decided = size
                return size
            }
        }
        return nil
    }

    /// The rows a file holds: as decided, or ``smallest`` for a table of fewer rows (one file).
    var rowsPerFile: Int { decided ?? Self.smallest }
}
