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

    /// Records every diagnostic of `other`.
    mutating func add(contentsOf other: [ListingDiagnostic]) {
        for diagnostic in other { add(diagnostic.location, diagnostic.message) }
    }

    /// The diagnostics sorted by position (stable), with a closing note when some were dropped.
    func finished() -> [ListingDiagnostic] {
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

/// A single fatal syntax problem that stops a parser.
struct ListingSyntaxError: Error, Sendable {
    /// The problem and its location.
    var diagnostic: ListingDiagnostic

    /// Creates the error for `message` at `location`.
    init(_ location: SourceLocation, _ message: String) {
        diagnostic = ListingDiagnostic(location: location, message: message)
    }
}
