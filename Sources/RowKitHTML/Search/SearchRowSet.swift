/// A set of rows of the search index in bounded memory: an ascending array while it is sparse,
/// a bitmap once it holds more than one row in 32 of the rows up to its last (then the bitmap is
/// smaller than the array, and a list of every row of 10,000,000 is 1.25 MB instead of 40).
///
/// The word lists ``SearchPostingRuns`` hands over and the aggregates of the open nodes of
/// ``SearchTrieWriter`` are these. Iterating gives the rows ascending.
struct SearchRowSet: Sequence {
    /// The rows, ascending, while ``bits`` is `nil`.
    private var rows: [UInt32] = []
    /// Bit `r` of word `r / 64` is set when row `r` is in the set.
    private var bits: [UInt64]? = nil
    /// The number of rows.
    private(set) var count = 0
    /// The greatest row, if any.
    private(set) var last: UInt32? = nil

    /// The rows an array holds before a dense set becomes a bitmap.
    private static let smallestBitmap = 1024

    init() {}

    var isEmpty: Bool { count == 0 }

    /// Whether the rows are kept as a bitmap (for tests).
    var isBitmap: Bool { bits != nil }

    /// Adds `row`, greater than every row of the set.
    mutating func append(_ row: UInt32) {
        precondition(last.map { row > $0 } ?? true, "rows are appended ascending")
        last = row
        count += 1
        if bits != nil {
            Self.set(row, in: &bits!)
            return
        }
        rows.append(row)
        becomeBitmapIfDense()
    }

    /// Adds every row of `other`.
    mutating func formUnion(_ other: SearchRowSet) {
        if other.isEmpty { return }
        if isEmpty {
            self = other
            return
        }
        if bits == nil && other.bits == nil {
            rows = Self.union(rows, other.rows)
            count = rows.count
            last = rows.last
            becomeBitmapIfDense()
            return
        }
        if bits == nil { becomeBitmap() }
        if let theirs = other.bits {
            if bits!.count < theirs.count {
                bits!.append(contentsOf: repeatElement(0, count: theirs.count - bits!.count))
            }
            for index in theirs.indices { bits![index] |= theirs[index] }
            count = bits!.reduce(0) { $0 + $1.nonzeroBitCount }
        } else {
            for row in other.rows where !Self.contains(row, in: bits!) {
                Self.set(row, in: &bits!)
                count += 1
            }
        }
        last = Swift.max(last!, other.last!)
    }

    private mutating func becomeBitmapIfDense() {
        if rows.count >= Self.smallestBitmap, let last, rows.count * 32 > Int(last) { becomeBitmap() }
    }

    private mutating func becomeBitmap() {
        var made = [UInt64](repeating: 0, count: Int(last ?? 0) / 64 + 1)
        for row in rows { Self.set(row, in: &made) }
        bits = made
        rows = []
    }

    private static func set(_ row: UInt32, in bits: inout [UInt64]) {
        let word = Int(row / 64)
        if word >= bits.count {
            // Room for the rows to come as well, so that appending grows the bitmap by doubling.
            bits.append(contentsOf: repeatElement(0, count: Swift.max(word + 1 - bits.count, bits.count)))
        }
        bits[word] |= 1 << UInt64(row % 64)
    }

    private static func contains(_ row: UInt32, in bits: [UInt64]) -> Bool {
        let word = Int(row / 64)
        return word < bits.count && bits[word] & (1 << UInt64(row % 64)) != 0
    }

    /// The rows in `a` or `b` (each ascending and distinct), ascending and distinct.
    private static func union(_ a: [UInt32], _ b: [UInt32]) -> [UInt32] {
        var merged: [UInt32] = []
        merged.reserveCapacity(Swift.max(a.count, b.count))
        var i = 0
        var j = 0
        while i < a.count && j < b.count {
            if a[i] < b[j] {
                merged.append(a[i])
                i += 1
            } else if b[j] < a[i] {
                merged.append(b[j])
                j += 1
            } else {
                merged.append(a[i])
                i += 1
                j += 1
            }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }

    /// The rows, ascending.
    struct Iterator: IteratorProtocol {
        fileprivate let set: SearchRowSet
        fileprivate var index = 0
        fileprivate var word: UInt64 = 0

        mutating func next() -> UInt32? {
            guard let bits = set.bits else {
                guard index < set.rows.count else { return nil }
                index += 1
                return set.rows[index - 1]
            }
            while word == 0 {
                guard index < bits.count else { return nil }
                word = bits[index]
                index += 1
            }
            let bit = word.trailingZeroBitCount
            word &= word - 1
            return UInt32((index - 1) * 64 + bit)
        }
    }

    func makeIterator() -> Iterator { Iterator(set: self) }
}
