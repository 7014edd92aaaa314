/// Collects diagnostics up to ``ListingLimits/maxDiagnostics``, then notes that the rest were dropped.
struct DiagnosticList: Sendable {
    /// The diagnostics kept so far.
    private(set) var items: [ListingDiagnostic] = []
    /// How many were dropped over the limit.
    private(set) var dropped = 0

    /// Whether nothing has been reported.
    var isEmpty: Bool { items.isEmpty && dropped == 0 }

    /// Records `message` at `location`, unless the limit is reached.
    mutating func add(_ location: SourceLocation, _ message: String) {
        if items.count < ListingLimits.maxDiagnostics {
            items.append(ListingDiagnostic(location: location, message: message))
        } else {
            dropped += 1
        }
    }

    /// The diagnostics sorted by position (stable), with a closing note when some were dropped.
    func finished() -> [ListingDiagnostic] {
        Self.sorted(items, dropped: dropped)
    }

    /// `items` sorted by position, ties in their given order, and a note for `dropped` more.
    static func sorted(_ items: [ListingDiagnostic], dropped: Int) -> [ListingDiagnostic] {
        let sorted = items.enumerated().sorted { lhs, rhs in
            let (a, b) = (lhs.element.location, rhs.element.location)
            if a.line != b.line { return a.line < b.line }
            if a.column != b.column { return a.column < b.column }
            return lhs.offset < rhs.offset
        }.map(\.element)
        guard dropped > 0, let last = sorted.last else { return sorted }
        return sorted + [
            ListingDiagnostic(
                location: last.location,
                message: "\(dropped) more problems not shown (limit \(ListingLimits.maxDiagnostics))")
        ]
    }
}

/// Where a schema problem stands in the order the problems of a document are counted: the order
/// of its parts (document fields, each section with its rows, missing fields, repeated ids), not
/// the order a stream happens to meet them in. A document's title may follow its rows, and a CSV
/// file's rows are grouped into sections by a column; ranking keeps which problems are shown
/// (the first ``ListingLimits/maxDiagnostics``) independent of that.
///
/// A rank is a path of up to eight numbers compared in order (a CSV section sorted by name is
/// compared by its name at one point of the path), held inline: every row gets one, so making
/// one allocates nothing.
struct DiagnosticRank: Comparable, Sendable {
    private var parts: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var count = 0
    /// A section ranked by its name (CSV sections sorted by name), compared after the first
    /// `nameAt` numbers.
    private var name: String?
    private var nameAt = 0

    /// The rank `path`, with `name` compared after its numbers.
    init(_ path: [Int], name: String? = nil) {
        precondition(path.count <= 8, "a rank is at most eight numbers deep")
        for number in path { append(number) }
        self.name = name
        nameAt = path.count
    }

    private subscript(index: Int) -> Int {
        withUnsafeBytes(of: parts) { $0.load(fromByteOffset: index * MemoryLayout<Int>.stride, as: Int.self) }
    }

    private mutating func append(_ number: Int) {
        precondition(count < 8, "a rank is at most eight numbers deep")
        withUnsafeMutableBytes(of: &parts) { $0.storeBytes(of: number, toByteOffset: count * MemoryLayout<Int>.stride, as: Int.self) }
        count += 1
    }

    static func < (lhs: DiagnosticRank, rhs: DiagnosticRank) -> Bool {
        var index = 0
        while true {
            if index == lhs.nameAt, index == rhs.nameAt, let a = lhs.name, let b = rhs.name, a != b { return a < b }
            if index == lhs.count || index == rhs.count { return lhs.count < rhs.count }
            if lhs[index] != rhs[index] { return lhs[index] < rhs[index] }
            index += 1
        }
    }

    static func == (lhs: DiagnosticRank, rhs: DiagnosticRank) -> Bool {
        !(lhs < rhs) && !(rhs < lhs)
    }

    /// This rank followed by `number` inside it.
    func appending(_ number: Int) -> DiagnosticRank {
        var copy = self
        copy.append(number)
        return copy
    }

    /// This rank followed by `first`, then `second` inside it.
    func appending(_ first: Int, _ second: Int) -> DiagnosticRank {
        var copy = self
        copy.append(first)
        copy.append(second)
        return copy
    }
}

/// The schema problems of a document: the ``ListingLimits/maxDiagnostics`` first by rank, and a
/// count of the rest, in memory bounded by the limit however many problems a document has.
struct RankedDiagnostics: Sendable {
    private var kept: [(rank: DiagnosticRank, diagnostic: ListingDiagnostic)] = []
    /// The index of the highest kept rank, once the limit is reached.
    private var highest = 0
    /// How many problems beyond the kept ones were found.
    private(set) var dropped = 0

    /// Whether no problem was found.
    var isEmpty: Bool { kept.isEmpty && dropped == 0 }

    /// Records `message` at `location`, ranked `rank`.
    mutating func add(_ rank: DiagnosticRank, _ location: SourceLocation, _ message: String) {
        let item = (rank: rank, diagnostic: ListingDiagnostic(location: location, message: message))
        guard kept.count >= ListingLimits.maxDiagnostics else {
            kept.append(item)
            if kept.count == ListingLimits.maxDiagnostics { findHighest() }
            return
        }
        dropped += 1
        // Keep the lowest ranks: replace the highest kept one if the new one ranks below it. A
        // stream meets problems mostly in rank order, so this is rare.
        guard rank < kept[highest].rank else { return }
        kept[highest] = item
        findHighest()
    }

    private mutating func findHighest() {
        highest = kept.indices.max { kept[$0].rank < kept[$1].rank } ?? 0
    }

    /// The kept problems sorted by position (ties by rank), with a note when some were dropped.
    func finished() -> [ListingDiagnostic] {
        let ordered = kept.sorted { $0.rank < $1.rank }.map(\.diagnostic)
        return DiagnosticList.sorted(ordered, dropped: dropped)
    }
}

/// A single fatal syntax problem that stops a parser.
struct ListingSyntaxError: Error, Sendable {
    /// The problem and its location.
    var diagnostic: ListingDiagnostic

    /// Creates the error for `message` at `location`.
    init(_ location: SourceLocation, _ message: String) {
        diagnostic = ListingDiagnostic(location: location, message: message)
    }
}
