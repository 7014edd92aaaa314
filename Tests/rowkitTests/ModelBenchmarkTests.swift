import Foundation
import Testing

@testable import RowKitBench

/// `rowkit-bench`'s model measurement: the C tree is timed in the same rounds as the model, and
/// the run's target ratios for the model are the medians of those rounds' ratios.
@Suite struct ModelBenchmarkTests {
    @Test func whenTheModelIsMeasured_thenTheCTreeIsTimedBesideItAndTheRatiosComeFromThoseRounds() throws {
        var benchmarks = PipelineBenchmarks()
        benchmarks.modelRows = 2_000
        benchmarks.modelRuns = 3
        let model = benchmarks.runModel()
        #expect(model.rows == 2_000)
        let figures = [
            model.editMicroseconds, model.lookupNanoseconds, model.cInsertNanoseconds, model.cItemAtNanoseconds,
            model.editOverCInsert, model.lookupOverCItemAt,
        ]
        #expect(figures.allSatisfy { $0 > 0 && $0.isFinite }, "\(figures)")

        var document = BenchmarkJSON()
        document.add(PipelineBenchmarks.jsonMembers(diffs: [], model: model, export: nil, peakBytes: nil, peakRows: 0))
        let json = document.text
        let object = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let members = try #require(object["model"] as? [String: Double])
        #expect(Set(members.keys) == ["rows", "edit_us", "lookup_ns", "c_insert_ns", "c_item_at_ns"])

        let ratios = TargetRatios(results: BenchmarkResults(items: 0, columns: []), diffs: [], model: model).ratios
        #expect(ratios.map(\.name) == ["model_edit_vs_c_insert", "model_lookup_vs_c_item_at"])
        #expect(ratios.map(\.value) == [model.editOverCInsert, model.lookupOverCItemAt])
        #expect(ratios.map(\.limit) == [20, 2])
    }
}
