/// The ratios one run of `rowkit-bench` is held to, all from that run: the C tree against the
/// plain-C references, the model against the C tree, and the `ItemID` diff against the `Int` diff.
public struct TargetRatios: Sendable, Equatable {
    /// One ratio and its limit.
    public struct Ratio: Sendable, Equatable {
        /// A name for JSON and the table (`model_edit_vs_c_insert`).
        public var name: String
        /// What is compared, in words.
        public var meaning: String
        /// The measured ratio.
        public var value: Double
        /// The most it may be.
        public var limit: Double
        /// Whether the run measured it at the size its limit is for (the reference comparison's
        /// limits are for ``ReferenceComparison/limitRows`` rows; the others, for the size they
        /// name or any).
        public var isJudged = true

        /// Whether the ratio is within its limit.
        public var isMet: Bool { value <= limit }
    }

    /// The ratios, in display order.
    public var ratios: [Ratio]

    /// The ratios of a run: the reference comparison's (C tree / reference, medians of alternating
    /// rounds), model edit / C insert and model `path(of:)` / C `item_at` (medians of the model
    /// measurement's rounds, each timing both sides), and the `ItemID` / `Int` diff of 100,000 rows
    /// (median of alternating runs).
    public init(
        results: BenchmarkResults, diffs: [PipelineBenchmarks.DiffFigure], model: PipelineBenchmarks.ModelFigure
    ) {
        var ratios: [Ratio] = []
        for figure in results.reference?.figures ?? [] {
            guard let limit = figure.limit else { continue }
            let name = figure.op + "_vs_" + figure.reference.split(separator: " ")[0]
            ratios.append(
                Ratio(
                    name: name, meaning: "C \(figure.op) / \(figure.reference)", value: figure.ratio, limit: limit,
                    isJudged: results.items == ReferenceComparison.limitRows))
        }
        ratios.append(
            Ratio(
                name: "model_edit_vs_c_insert", meaning: "model edit / C insert, same rounds",
                value: model.editOverCInsert, limit: 20))
        ratios.append(
            Ratio(
                name: "model_lookup_vs_c_item_at", meaning: "model path(of:) / C item_at, same rounds",
                value: model.lookupOverCItemAt,
                limit: 2))
        if let diff = diffs.first(where: { $0.identity == "ItemID" && $0.rows == 100_000 }), let ratio = diff.ratioToInt
        {
            ratios.append(
                Ratio(
                    name: "diff_itemid_vs_int_100000", meaning: "ItemID diff / Int diff, 100000 rows", value: ratio,
                    limit: 1.5))
        }
        self.ratios = ratios
    }

    /// The ratios as text lines, each with its limit and verdict: within, over, or not judged when
    /// the run's size is not the one the limit is for.
    public func table() -> String {
        var lines = ["", "ratios of this run                        ratio     limit     verdict"]
        lines.append(String(repeating: "-", count: 74))
        for ratio in ratios {
            let verdict =
                !ratio.isJudged ? "not judged (limit for 10^6 rows)" : ratio.isMet ? "within" : "over"
            lines.append(
                ratio.meaning.padding(toLength: 42, withPad: " ", startingAt: 0)
                    + (BenchmarkResults.format(ratio.value) + "x").padding(toLength: 10, withPad: " ", startingAt: 0)
                    + ("<= " + BenchmarkResults.format(ratio.limit) + "x").padding(
                        toLength: 10, withPad: " ", startingAt: 0)
                    + verdict)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The ratios' member of the `--json` document (``BenchmarkJSON``): `"ratios": {"<name>":
    /// {"value": x, "limit": x}}`.
    public var jsonMembers: [String: BenchmarkJSON.Value] {
        let fields = ratios.map { ratio -> (String, BenchmarkJSON.Value) in
            (ratio.name, .object(["value": .figure(ratio.value), "limit": .figure(ratio.limit)]))
        }
        return ["ratios": .object(Dictionary(fields) { _, last in last })]
    }
}
