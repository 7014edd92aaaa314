/// Paul Heckel's linear-time difference algorithm ("A technique for isolating differences between
/// files", CACM 21(4), 1978), over any `Hashable` elements.
///
/// Heckel's six passes:
/// 1. Count each symbol's occurrences in the new sequence (a symbol table keyed by the element).
/// 2. Count them in the old sequence, remembering an old position of each.
/// 3. Match every symbol that occurs exactly once in each sequence.
/// 4. Ascending: a match extends to the following pair of elements when both are unmatched and
///    equal (the start of the sequences counts as a match).
/// 5. Descending: likewise to the preceding pair (the end counts as a match).
/// 6. Read off the result: unmatched old elements are deleted, unmatched new ones inserted.
///
/// Heckel leaves moves implicit. Here the matched pairs in the longest run that keeps its relative
/// order (a longest increasing subsequence of old positions in new order) stay; every other
/// matched pair is a move, so the moves are as few as the matching allows.
///
/// Repeated elements are allowed: a repeated symbol is matched only where a neighbour's match
/// extends to it, and is otherwise deleted and inserted. `TableDiff` runs the same passes over row
/// identities, which are unique there, so passes 4 and 5 find nothing more and are skipped.
public enum Heckel {
    /// The difference between two sequences.
    public struct Result: Sendable, Hashable {
        /// One matched element that does not keep its order: from its old position to its new one.
        public struct Move: Sendable, Hashable {
            /// The old position.
            public var from: Int
            /// The new position.
            public var to: Int

            /// Creates a move.
            public init(from: Int, to: Int) {
                self.from = from
                self.to = to
            }
        }

        /// Old positions of deleted elements, ascending.
        public var deletes: [Int]
        /// New positions of inserted elements, ascending.
        public var inserts: [Int]
        /// Matched elements that move, ascending by `from`.
        public var moves: [Move]
        /// For each new position, the old position it is matched with, or `nil` when inserted.
        public var oldPositions: [Int?]
    }

    /// The difference between `old` and `new`.
    ///
    /// - Complexity: O(*n* + *m* log *m*) expected time and O(*n*) memory, where *n* is the total
    ///   length and *m* the number of matched elements (the moves' longest increasing subsequence;
    ///   O(*n*) when few elements move).
    public static func diff<T: Hashable>(old: [T], new: [T]) -> Result {
        var matching = Matching(old: old, new: new)
        if matching.hasRepeatedSymbols { matching.extendThroughNeighbours() }

        var keep = [Bool](repeating: false, count: new.count)
        var matchedNew = [Int]()
        var matchedOld = [Int]()
        for (newIndex, oldIndex) in matching.newToOld.enumerated() where oldIndex >= 0 {
            matchedNew.append(newIndex)
            matchedOld.append(oldIndex)
        }
        var keepMatched = [Bool](repeating: false, count: matchedOld.count)
        IncreasingSubsequence.mark(matchedOld, in: &keepMatched)
        for (position, kept) in keepMatched.enumerated() where kept { keep[matchedNew[position]] = true }

        var moves = [Result.Move]()
        var deletes = [Int]()
        for (oldIndex, newIndex) in matching.oldToNew.enumerated() {
            if newIndex < 0 {
                deletes.append(oldIndex)
            } else if !keep[newIndex] {
                moves.append(Result.Move(from: oldIndex, to: newIndex))
            }
        }
        let inserts = matching.newToOld.indices.filter { matching.newToOld[$0] < 0 }
        let oldPositions = matching.newToOld.map { $0 < 0 ? nil : $0 }
        return Result(deletes: deletes, inserts: inserts, moves: moves, oldPositions: oldPositions)
    }
}

extension Heckel {
    /// Passes 1–5: the symbol table and the matching it yields, as arrays of positions (-1 for
    /// unmatched). Shared by `Heckel.diff` and `TableDiff`.
    struct Matching {
        /// For each new position, the matched old position or -1.
        var newToOld: [Int]
        /// For each old position, the matched new position or -1.
        var oldToNew: [Int]
        /// Whether some symbol occurs more than once in either sequence.
        var hasRepeatedSymbols: Bool
        /// The first repeated symbol of the old sequence: its first position and the repeat.
        var firstOldRepeat: (first: Int, second: Int)?
        /// The first repeated symbol of the new sequence: its first position and the repeat.
        var firstNewRepeat: (first: Int, second: Int)?
        /// The symbol (an index into the symbol table) of each old element.
        private var oldSymbols: [Int]
        /// The symbol of each new element.
        private var newSymbols: [Int]

        /// Passes 1–3: counts every symbol in both sequences and matches the unique ones.
        ///
        /// - Complexity: O(*n*) expected: one hash-table access per element.
        init<T: Hashable>(old: [T], new: [T]) {
            var table = [T: Int](minimumCapacity: max(old.count, new.count))
            // Per symbol: occurrences in old and new, and the first position in each.
            var oldCounts = [Int32]()
            var newCounts = [Int32]()
            var oldLines = [Int]()
            var newLines = [Int]()
            oldCounts.reserveCapacity(max(old.count, new.count))
            newCounts.reserveCapacity(max(old.count, new.count))
            oldLines.reserveCapacity(max(old.count, new.count))
            newLines.reserveCapacity(max(old.count, new.count))
            var repeated = false
            var oldRepeat: (first: Int, second: Int)?
            var newRepeat: (first: Int, second: Int)?

            // Pass 2 (old first, so a repeat is reported at its later position).
            var oldSymbols = [Int](repeating: 0, count: old.count)
            for index in old.indices {
                let fresh = oldCounts.count
                let symbol = Self.claim(&table[old[index], default: -1], fresh)
                if symbol == fresh {
                    oldCounts.append(1)
                    newCounts.append(0)
                    oldLines.append(index)
                    newLines.append(-1)
                } else {
                    oldCounts[symbol] &+= 1
                    repeated = true
                    if oldRepeat == nil { oldRepeat = (oldLines[symbol], index) }
                }
                oldSymbols[index] = symbol
            }
            // Pass 1.
            var newSymbols = [Int](repeating: 0, count: new.count)
            for index in new.indices {
                let fresh = oldCounts.count
                let symbol = Self.claim(&table[new[index], default: -1], fresh)
                if symbol == fresh {
                    oldCounts.append(0)
                    newCounts.append(1)
                    oldLines.append(-1)
                    newLines.append(index)
                } else {
                    newCounts[symbol] &+= 1
                    if newCounts[symbol] == 1 {
                        newLines[symbol] = index
                    } else {
                        repeated = true
                        if newRepeat == nil { newRepeat = (newLines[symbol], index) }
                    }
                }
                newSymbols[index] = symbol
            }
            // Pass 3.
            var newToOld = [Int](repeating: -1, count: new.count)
            var oldToNew = [Int](repeating: -1, count: old.count)
            for index in new.indices {
                let symbol = newSymbols[index]
                if oldCounts[symbol] == 1 && newCounts[symbol] == 1 {
                    let oldIndex = oldLines[symbol]
                    newToOld[index] = oldIndex
                    oldToNew[oldIndex] = index
                }
            }
            self.newToOld = newToOld
            self.oldToNew = oldToNew
            self.hasRepeatedSymbols = repeated
            self.firstOldRepeat = oldRepeat
            self.firstNewRepeat = newRepeat
            self.oldSymbols = oldSymbols
            self.newSymbols = newSymbols
        }

        /// Passes 4 and 5: extends matches to equal, unmatched neighbours, first ascending (the start
        /// of both sequences counts as matched), then descending (the end counts as matched).
        ///
        /// - Complexity: O(*n*).
        mutating func extendThroughNeighbours() {
            let newCount = newSymbols.count
            let oldCount = oldSymbols.count
            // Pass 4: i = -1 and j = -1 stand for the matched starts.
            var index = -1
            while index < newCount - 1 {
                let oldIndex = index < 0 ? -1 : newToOld[index]
                if index < 0 || oldIndex >= 0 {
                    let nextNew = index + 1
                    let nextOld = oldIndex + 1
                    if nextOld < oldCount, newToOld[nextNew] < 0, oldToNew[nextOld] < 0,
                        newSymbols[nextNew] == oldSymbols[nextOld]
                    {
                        newToOld[nextNew] = nextOld
                        oldToNew[nextOld] = nextNew
                    }
                }
                index += 1
            }
            // Pass 5: i = newCount and j = oldCount stand for the matched ends.
            index = newCount
            while index > 0 {
                let oldIndex = index == newCount ? oldCount : newToOld[index]
                if oldIndex >= 0 {
                    let previousNew = index - 1
                    let previousOld = oldIndex - 1
                    if previousOld >= 0, newToOld[previousNew] < 0, oldToNew[previousOld] < 0,
                        newSymbols[previousNew] == oldSymbols[previousOld]
                    {
                        newToOld[previousNew] = previousOld
                        oldToNew[previousOld] = previousNew
                    }
                }
                index -= 1
            }
        }

        /// The symbol in `slot`, storing `fresh` there first if the slot is new (-1): one hash
        /// lookup for both the find and the insert.
        @inline(__always)
        private static func claim(_ slot: inout Int, _ fresh: Int) -> Int {
            if slot < 0 { slot = fresh }
            return slot
        }
    }
}
