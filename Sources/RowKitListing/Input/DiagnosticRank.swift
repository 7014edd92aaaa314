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
        withUnsafeMutableBytes(of: &parts) {
            $0.storeBytes(of: number, toByteOffset: count * MemoryLayout<Int>.stride, as: Int.self)
        }
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
