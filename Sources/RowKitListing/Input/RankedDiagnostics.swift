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
