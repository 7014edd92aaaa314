import Testing

@testable import RowKitBench

/// The benchmarks' `--json` document, made through Codable in one place (``BenchmarkJSON``).
@Suite struct BenchmarkJSONTests {
    @Test func theDocumentHasEachPartsMembersSortedAndRoundedAsTheTablesPrintThem() {
        var results = BenchmarkResults(
            items: 1_000, columns: ["c", "swift"],
            rows: [.init(op: "offset_of", nanoseconds: ["c": 18.333, "swift": 1234.6], ratios: ["swift": 1.1849])])
        results.reference = ReferenceComparison(figures: [
            .init(op: "set", reference: "fenwick update", c: 50, referenceNanoseconds: 40, ratio: 1.25, limit: 1.5)
        ])
        var document = BenchmarkJSON()
        document.add(results.jsonMembers)
        document.add(FileExportBenchmark.jsonMembers([]))
        #expect(
            document.text
                == "{\"bytes_per_item\":{},\"items\":1000,\"ops\":{\"offset_of\":{\"c\":18.33,\"swift\":1235}},"
                + "\"ratios_alternating\":{\"offset_of\":{\"swift\":1.18}},\"reference\":{\"set\":{\"against\":"
                + "\"fenwick update\",\"c\":50,\"limit\":1.5,\"ratio\":1.25,\"reference\":40}}}\n")
    }
}
