/// The longest strictly increasing subsequence of a sequence of integers, by patience sorting.
///
/// The diff keeps the matched items that form the longest run in unchanged relative order and
/// reports only the others as moves, so the number of moves is minimal.
@usableFromInline
enum IncreasingSubsequence {
    /// Marks, in `keep`, the positions of `values` that form a longest strictly increasing
    /// subsequence (`keep[i]` set to `true`; other entries are left alone).
    ///
    /// - Parameters:
    ///   - values: The sequence.
    ///   - keep: An array at least as long as `values`.
    /// - Complexity: O(*n* log *n*) time and O(*n*) memory; O(*n*) when `values` is already
    ///   increasing (every value extends the longest pile, found without a search).
    @inlinable
    static func mark(_ values: [Int], in keep: inout [Bool]) {
        let count = values.count
        guard count > 0 else { return }
        // tails[k]: position of the smallest value ending an increasing subsequence of length k+1.
        var tails = [Int]()
        tails.reserveCapacity(min(count, 1024))
        var predecessor = [Int](repeating: -1, count: count)
        for position in 0..<count {
            let value = values[position]
            if let last = tails.last, values[last] >= value {
                // Binary search: the first pile whose tail is >= value.
                var low = 0
                var high = tails.count - 1
                while low < high {
                    let mid = (low + high) / 2
                    if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
                }
                predecessor[position] = low > 0 ? tails[low - 1] : -1
                tails[low] = position
            } else {
                predecessor[position] = tails.last ?? -1
                tails.append(position)
            }
        }
        var position = tails[tails.count - 1]
        while position >= 0 {
            keep[position] = true
            position = predecessor[position]
        }
    }
}
