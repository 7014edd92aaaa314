/// Timings of one benchmark run: for each operation, nanoseconds per operation per implementation
/// column, plus bytes per item per implementation. Benchmarks run in the same session merge into
/// one value (``merge(_:)``), so they share one table and one JSON document.
public struct BenchmarkResults: Sendable, Equatable {
    /// One measured operation.
    public struct Row: Sendable, Equatable {
        /// Operation name, e.g. `offset_of`.
        public var op: String
        /// Nanoseconds per operation by implementation column (`c`, `swift`, `naive`, ...).
        public var nanoseconds: [String: Double]
        /// Ratios to the first column measured in alternating rounds, by column: the median over
        /// rounds of that column's time / the first column's. Where a column has none, its ratio is
        /// the quotient of the two medians (the two were timed one after the other).
        public var ratios: [String: Double] = [:]

        /// Creates a row.
        public init(op: String, nanoseconds: [String: Double], ratios: [String: Double] = [:]) {
            self.op = op
            self.nanoseconds = nanoseconds
            self.ratios = ratios
        }
    }

    /// Number of items the benchmarks ran on.
    public var items: Int
    /// Implementation columns in display order; the first is the reference for ratios.
    public var columns: [String]
    /// Measured operations in display order.
    public var rows: [Row]
    /// Heap bytes per item by implementation column, after the inserts and removes.
    public var bytesPerItem: [String: Double]
    /// Heap bytes per item by implementation column, right after building.
    public var bytesPerItemFresh: [String: Double] = [:]
    /// The C tree side by side with the plain-C reference structures, when measured.
    public var reference: ReferenceComparison?

    /// Creates results.
    public init(
        items: Int, columns: [String], rows: [Row] = [], bytesPerItem: [String: Double] = [:]
    ) {
        self.items = items
        self.columns = columns
        self.rows = rows
        self.bytesPerItem = bytesPerItem
    }

    /// Appends `other`'s rows and columns (for benchmarks registered beside each other).
    public mutating func merge(_ other: BenchmarkResults) {
        for column in other.columns where !columns.contains(column) { columns.append(column) }
        rows.append(contentsOf: other.rows)
        bytesPerItem.merge(other.bytesPerItem) { _, new in new }
        bytesPerItemFresh.merge(other.bytesPerItemFresh) { _, new in new }
        if let reference = other.reference { self.reference = reference }
    }

    /// A text table: ns per operation for every column, then each other column's ratio to the
    /// first column (e.g. `swift/c`, `naive/c`: the quotient of the two medians beside it), then,
    /// for the columns timed in alternating rounds, the median of the rounds' ratios (`swift/c by
    /// round`, see ``Row/ratios``); then bytes per item fresh and after the edits, and a legend
    /// saying how the ratios are made; then the reference comparison, when measured.
    public func table() -> String {
        let reference = columns.first ?? ""
        let others = Array(columns.dropFirst())
        let byRound = others.filter { column in rows.contains { $0.ratios[column] != nil } }
        let header =
            ["op (\(items) items)"] + columns.map { "\($0) ns" } + others.map { "\($0)/\(reference)" }
            + byRound.map { "\($0)/\(reference) by round" }
        var lines: [[String]] = []
        for row in rows {
            var line = [row.op]
            for column in columns { line.append(row.nanoseconds[column].map(Self.format) ?? "-") }
            for column in others {
                if let value = row.nanoseconds[column], let base = row.nanoseconds[reference], base > 0 {
                    line.append(Self.format(value / base) + "x")
                } else {
                    line.append("-")
                }
            }
            for column in byRound { line.append(row.ratios[column].map { Self.format($0) + "x" } ?? "-") }
            lines.append(line)
        }
        for (name, bytes) in [("bytes/item fresh", bytesPerItemFresh), ("bytes/item", bytesPerItem)]
        where !bytes.isEmpty {
            var line = [name]
            for column in columns { line.append(bytes[column].map(Self.format) ?? "-") }
            line += (others + byRound).map { _ in "" }
            lines.append(line)
        }
        var main = Self.textTable(header: header, lines: lines, leftAligned: [0])
        if let column = byRound.first {
            main +=
                "\(column)/\(reference) is the \(column) median over the \(reference) median beside it; by round, the "
                + "median of the rounds'\n\(column)/\(reference), each round timing both (load that comes and goes "
                + "weighs on both alike).\n"
        }
        guard let comparison = self.reference else { return main }
        return main + referenceTable(comparison)
    }

    /// The reference comparison as a text table: the C tree's ns, the reference's, the quotient of
    /// the two medians, the median over alternating rounds of C / reference, the limit (set for
    /// ``ReferenceComparison/limitRows`` rows, on the ratio by round) and its verdict: within or
    /// over at that size, not judged at another.
    func referenceTable(_ reference: ReferenceComparison) -> String {
        let judged = items == ReferenceComparison.limitRows
        let header = [
            "C tree vs plain-C references", "c ns", "reference", "ref ns", "c/ref", "c/ref by round",
            "limit at 10^6 rows", "verdict",
        ]
        let lines = reference.figures.map { figure in
            let verdict: String
            if let limit = figure.limit {
                verdict = judged ? (figure.ratio <= limit ? "within" : "over") : "not judged"
            } else {
                verdict = "no limit"
            }
            return [
                figure.op, Self.format(figure.c), figure.reference, Self.format(figure.referenceNanoseconds),
                figure.referenceNanoseconds > 0 ? Self.format(figure.c / figure.referenceNanoseconds) + "x" : "-",
                Self.format(figure.ratio) + "x", figure.limit.map { "<= " + Self.format($0) + "x" } ?? "", verdict,
            ]
        }
        let legend =
            judged
            ? "The limits are for 10^6 rows, this run's size, and apply to c/ref by round.\n"
            : "The limits are for 10^6 rows and apply to c/ref by round; at \(items) rows they are not "
                + "judged\n(rowkit bench --items 1000000 judges them).\n"
        return "\n" + Self.textTable(header: header, lines: lines, leftAligned: [0, 2, 7]) + legend
    }

    /// Lines of cells in columns: left-aligned at `leftAligned`, right-aligned elsewhere, the header
    /// over a rule; no line ends in spaces.
    static func textTable(header: [String], lines: [[String]], leftAligned: Set<Int>) -> String {
        let all = [header] + lines
        let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
        func render(_ cells: [String]) -> String {
            var line = cells.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: widths[i] - cell.count)
                return leftAligned.contains(i) ? cell + pad : pad + cell
            }.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            return line
        }
        let rule = String(repeating: "-", count: widths.reduce(0, +) + 2 * (widths.count - 1))
        return ([render(header), rule] + lines.map(render)).joined(separator: "\n") + "\n"
    }

    /// The results' members of the `--json` document (``BenchmarkJSON``): `"items": N, "ops":
    /// {"<op>": {"c": ns, ...}}, "bytes_per_item": {"c": x, ...}, "bytes_per_item_fresh": {...},
    /// "ratios_alternating": {"<op>": {"swift": x}}, "reference": {"<op>": {"against": "fenwick
    /// find", "c": ns, "reference": ns, "ratio": x, "limit": x}}` (the last three when measured;
    /// `ratios_alternating` holds each column's median per-round ratio to the first column, see
    /// ``Row/ratios``; a reference `ratio` is the median by round, the one its limit applies to).
    public var jsonMembers: [String: BenchmarkJSON.Value] {
        func object(_ values: [String: Double]) -> BenchmarkJSON.Value {
            .object(values.mapValues(BenchmarkJSON.Value.figure))
        }
        var members: [String: BenchmarkJSON.Value] = [
            "items": .integer(items),
            "ops": .object(Dictionary(rows.map { ($0.op, object($0.nanoseconds)) }) { _, last in last }),
            "bytes_per_item": object(bytesPerItem),
        ]
        if !bytesPerItemFresh.isEmpty { members["bytes_per_item_fresh"] = object(bytesPerItemFresh) }
        let alternating = rows.filter { !$0.ratios.isEmpty }
        if !alternating.isEmpty {
            members["ratios_alternating"] = .object(
                Dictionary(alternating.map { ($0.op, object($0.ratios)) }) { _, last in last })
        }
        if let reference {
            members["reference"] = .object(
                Dictionary(
                    reference.figures.map { figure in
                        var fields: [String: BenchmarkJSON.Value] = [
                            "against": .string(figure.reference), "c": .figure(figure.c),
                            "reference": .figure(figure.referenceNanoseconds), "ratio": .figure(figure.ratio),
                        ]
                        if let limit = figure.limit { fields["limit"] = .figure(limit) }
                        return (figure.op, .object(fields))
                    }
                ) { _, last in last })
        }
        return members
    }

    /// Fixed-point with two decimals below 100, none from 100 on.
    static func format(_ value: Double) -> String {
        if value >= 100 { return String(Int(value.rounded())) }
        let hundredths = Int((value * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }
}
