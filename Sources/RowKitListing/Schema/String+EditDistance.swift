extension String {
    /// The Levenshtein distance to `other` in Unicode scalars, or `nil` once it exceeds `limit`.
    ///
    /// - Complexity: O(n × m), and O(1) when the lengths differ by more than `limit`.
    package func editDistance(to other: String, limit: Int) -> Int? {
        let a = Array(unicodeScalars)
        let b = Array(other.unicodeScalars)
        guard abs(a.count - b.count) <= limit else { return nil }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            for j in stride(from: 1, through: b.count, by: 1) {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        let distance = previous[b.count]
        return distance <= limit ? distance : nil
    }

    /// The closest of `candidates` within an edit distance of 2, for a "did you mean" hint.
    package func closest(in candidates: [String]) -> String? {
        candidates
            .compactMap { candidate in editDistance(to: candidate, limit: 2).map { (candidate, $0) } }
            .min { $0.1 < $1.1 }?.0
    }
}
