/// Collects diagnostics up to ``ListingLimits/maxDiagnostics``, then notes that the rest were dropped.
struct DiagnosticList: Sendable {
    /// The diagnostics kept so far.
    private(set) var items: [ListingDiagnostic] = []
    /// How many were dropped over the limit.
    private(set) var dropped = 0

    /// Whether nothing has been reported.
    var isEmpty: Bool { items.isEmpty && dropped == 0 }

    /// Whether the limit is reached: whatever is added now is only counted.
    var isFull: Bool { items.count >= ListingLimits.maxDiagnostics }

    /// Records `message` at `location`, unless the limit is reached; then it only counts it, and
    /// the message is not made.
    mutating func add(_ location: SourceLocation, _ message: @autoclosure () -> String) {
        if !isFull {
            items.append(ListingDiagnostic(location: location, message: message()))
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
