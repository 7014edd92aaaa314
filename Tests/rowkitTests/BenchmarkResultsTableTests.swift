import Testing

@testable import RowKitBench

/// The text table `rowkit bench` prints: every ratio agrees with the figures beside it or says how
/// it is made, and every limit comes with its verdict and the size it applies to.
@Suite struct BenchmarkResultsTableTests {
    /// A view row whose round ratio (1.07) is far from the quotient of its medians (4069 / 9149).
    static func results(items: Int) -> BenchmarkResults {
        var results = BenchmarkResults(
            items: items, columns: ["c", "swift", "naive"],
            rows: [
                .init(op: "offset_of", nanoseconds: ["c": 20, "swift": 25, "naive": 400], ratios: ["swift": 1.2]),
                .init(op: "view_scroll_frame", nanoseconds: ["c": 9149, "swift": 4069], ratios: ["swift": 1.07]),
                .init(op: "build_new", nanoseconds: ["c": 100, "swift": 50, "naive": 10]),
            ])
        results.reference = ReferenceComparison(figures: [
            .init(op: "item_at", reference: "fenwick find", c: 90, referenceNanoseconds: 100, ratio: 0.8, limit: 0.5),
            .init(op: "offset_of", reference: "fenwick prefix", c: 30, referenceNanoseconds: 20, ratio: 1.4, limit: 2),
            .init(op: "remove", reference: "chunked remove", c: 10, referenceNanoseconds: 10, ratio: 1, limit: nil),
        ])
        return results
    }

    /// The words of the first line of `table` that starts with the word `prefix`, in the reference
    /// comparison when `inReference`.
    static func line(_ table: String, _ prefix: String, inReference: Bool = false) -> [Substring] {
        var lines = table.split(separator: "\n")[...]
        if inReference { lines = lines.drop { !$0.hasPrefix("C tree vs plain-C references") } }
        let line = lines.first { $0.hasPrefix(prefix + " ") }
        return line?.split(separator: " ") ?? []
    }

    @Test func whenTheRoundRatioDiffersFromTheMedians_thenBothAreShownUnderTheirOwnHeaders() {
        let table = Self.results(items: 1_000).table()
        let header = table.split(separator: "\n")[0]
        #expect(header.hasSuffix("swift/c  naive/c  swift/c by round"))
        #expect(
            Self.line(table, "view_scroll_frame") == ["view_scroll_frame", "9149", "4069", "-", "0.44x", "-", "1.07x"])
        #expect(Self.line(table, "offset_of") == ["offset_of", "20.00", "25.00", "400", "1.25x", "20.00x", "1.20x"])
        #expect(Self.line(table, "build_new") == ["build_new", "100", "50.00", "10.00", "0.50x", "0.10x", "-"])
        #expect(table.contains("swift/c is the swift median over the c median beside it; by round, the median"))
    }

    @Test func whenTheRunIsNotAtAMillionRows_thenEachLimitSaysItsSizeAndIsNotJudged() {
        let table = Self.results(items: 1_000).table()
        #expect(table.contains("  limit at 10^6 rows  verdict\n"))
        #expect(
            Self.line(table, "item_at").suffix(9) == [
                "fenwick", "find", "100", "0.90x", "0.80x", "<=", "0.50x", "not", "judged",
            ])
        #expect(table.contains("The limits are for 10^6 rows and apply to c/ref by round; at 1000 rows"))
        #expect(Self.line(table, "remove").suffix(2) == ["no", "limit"])
    }

    @Test func whenTheRunIsAtAMillionRows_thenEachLimitHasAVerdictOnTheRoundRatio() {
        let table = Self.results(items: 1_000_000).table()
        #expect(Self.line(table, "item_at").suffix(3) == ["<=", "0.50x", "over"])
        #expect(
            Self.line(table, "offset_of", inReference: true).last == "within",
            "1.4 by round is within 2, though 30/20 is 1.5")
        #expect(table.contains("The limits are for 10^6 rows, this run's size, and apply to c/ref by round."))
        #expect(!table.contains("not judged"))
    }

    @Test func theRunsRatiosGiveEachLimitAVerdictAndJudgeTheReferenceOnesOnlyAtAMillionRows() {
        let model = PipelineBenchmarks.ModelFigure(
            rows: 1_000_000, editMicroseconds: 3, lookupNanoseconds: 150, cInsertNanoseconds: 200,
            cItemAtNanoseconds: 70, editOverCInsert: 25, lookupOverCItemAt: 1.5)
        let small = TargetRatios(results: Self.results(items: 1_000), diffs: [], model: model).table()
        let large = TargetRatios(results: Self.results(items: 1_000_000), diffs: [], model: model).table()
        func verdict(_ table: String, _ meaning: String) -> String? {
            table.split(separator: "\n").first { $0.hasPrefix(meaning) }.map { String($0.dropFirst(62)) }
        }
        #expect(verdict(small, "C item_at / fenwick find") == "not judged (limit for 10^6 rows)")
        #expect(verdict(large, "C item_at / fenwick find") == "over")
        #expect(verdict(large, "C offset_of / fenwick prefix") == "within")
        #expect(verdict(small, "model edit / C insert") == "over", "the model's limit holds at any --items")
        #expect(verdict(small, "model path(of:) / C item_at") == "within")
    }
}
