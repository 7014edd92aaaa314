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
/// extends to it, and is otherwise deleted and inserted. `TableDiff` runs the same passes over
/// section and row identities, which are unique there: passes 4 and 5 would find nothing more, so
/// they are skipped, and pass 1 tries each row's old neighbour before the symbol table.
@usableFromInline
package enum Heckel {
    /// The difference between two sequences.
    package struct Result: Sendable, Hashable {
        /// One matched element that does not keep its order: from its old position to its new one.
        package struct Move: Sendable, Hashable {
            /// The old position.
            package var from: Int
            /// The new position.
            package var to: Int

            /// Creates a move.
            package init(from: Int, to: Int) {
                self.from = from
                self.to = to
            }
        }

        /// Old positions of deleted elements, ascending.
        package var deletes: [Int]
        /// New positions of inserted elements, ascending.
        package var inserts: [Int]
        /// Matched elements that move, ascending by `from`.
        package var moves: [Move]
        /// For each new position, the old position it is matched with, or `nil` when inserted.
        package var oldPositions: [Int?]

        /// Creates a result from its parts.
        package init(deletes: [Int], inserts: [Int], moves: [Move], oldPositions: [Int?]) {
            self.deletes = deletes
            self.inserts = inserts
            self.moves = moves
            self.oldPositions = oldPositions
        }
    }

    /// The difference between `old` and `new`.
    ///
    /// - Complexity: O(*n* + *m* log *m*) expected time and O(*n*) memory, where *n* is the total
    ///   length and *m* the number of matched elements (the moves' longest increasing subsequence;
    ///   O(*n*) when few elements move).
    package static func diff<T: Hashable>(old: [T], new: [T]) -> Result {
        var matching = Matching(old: old, new: new)
        if matching.hasRepeatedSymbols { matching.extendThroughNeighbours(old: old, new: new) }

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
    @usableFromInline
    struct Matching {
        /// For each new position, the matched old position or -1.
        @usableFromInline var newToOld: [Int]
        /// For each old position, the matched new position or -1.
        @usableFromInline var oldToNew: [Int]
        /// Whether some symbol occurs more than once in either sequence.
        @usableFromInline var hasRepeatedSymbols: Bool
        /// The first repeated symbol of the old sequence: its first position and the repeat.
        @usableFromInline var firstOldRepeat: (first: Int, second: Int)?
        /// The first repeated symbol of the new sequence: its first position and the repeat.
        @usableFromInline var firstNewRepeat: (first: Int, second: Int)?

        /// A symbol-table entry: where the symbol occurs once in each sequence, or that it occurs
        /// never (`absent`) or more than once (`repeated`). Heckel needs only "once or not" of each
        /// count, and the line of the single occurrence.
        @usableFromInline
        struct Entry {
            @usableFromInline static var absent: Int32 { -1 }
            @usableFromInline static var repeated: Int32 { -2 }
            @usableFromInline var oldLine: Int32 = Entry.absent
            @usableFromInline var newLine: Int32 = Entry.absent

            @inlinable init() {}

            /// Records an occurrence at `line`; returns the earlier line when this is the first
            /// repeat.
            @inlinable @inline(__always)
            static func record(_ line: Int, in slot: inout Int32) -> Int? {
                switch slot {
                case absent:
                    slot = Int32(truncatingIfNeeded: line)
                    return nil
                case repeated:
                    return nil
                default:
                    let first = Int(slot)
                    slot = repeated
                    return first
                }
            }
        }

        /// Passes 1–3: counts every symbol in both sequences and matches the unique ones.
        ///
        /// - Complexity: O(*n*) expected: one hash-table access per element, then one pass over
        ///   the table.
        @inlinable
        init<T: Hashable>(old: [T], new: [T]) {
            precondition(old.count < Int32.max && new.count < Int32.max, "sequences longer than Int32.max")
            let larger = max(old.count, new.count)
            var table = [T: Entry](minimumCapacity: larger + larger / 8)
            var oldRepeat: (first: Int, second: Int)?
            var newRepeat: (first: Int, second: Int)?
            // Pass 2 (old first, so a repeat is reported at its later position).
            for index in old.indices {
                if let first = Entry.record(index, in: &table[old[index], default: Entry()].oldLine), oldRepeat == nil {
                    oldRepeat = (first, index)
                }
            }
            // Pass 1.
            for index in new.indices {
                if let first = Entry.record(index, in: &table[new[index], default: Entry()].newLine), newRepeat == nil {
                    newRepeat = (first, index)
                }
            }
            // Pass 3: symbols that occur exactly once in each.
            var newToOld = [Int](repeating: -1, count: new.count)
            var oldToNew = [Int](repeating: -1, count: old.count)
            for entry in table.values where entry.oldLine >= 0 && entry.newLine >= 0 {
                newToOld[Int(entry.newLine)] = Int(entry.oldLine)
                oldToNew[Int(entry.oldLine)] = Int(entry.newLine)
            }
            self.newToOld = newToOld
            self.oldToNew = oldToNew
            self.hasRepeatedSymbols = oldRepeat != nil || newRepeat != nil
            self.firstOldRepeat = oldRepeat
            self.firstNewRepeat = newRepeat
        }

        /// Passes 1–3 for sequences whose symbols should each occur at most once per sequence
        /// (identities): the same matching, with pass 1 shortened by Heckel's neighbour rule.
        ///
        /// Every old symbol goes into the table (that is also how repeats are found). Each new
        /// element first tries the old element after the previous match, as pass 4 would; only
        /// when that differs does it consult the table. With unique symbols the matching is
        /// determined by the symbols alone, so the shortcut changes the cost, not the result: about
        /// one table access per old element and one per changed new element.
        ///
        /// The table is a ``SymbolTable``: slots of a hash and line numbers, the symbols themselves
        /// staying in `old` and `new`, so it costs the same for any identity type (an `ItemID` of
        /// three words as an `Int`).
        ///
        /// A repeat is reported in `firstOldRepeat` or `firstNewRepeat`; the matching is then
        /// incomplete and must not be used.
        ///
        /// - Complexity: O(*n*) expected.
        @inlinable
        init<T: Hashable>(uniqueOld old: [T], new: [T]) {
            precondition(old.count < Int32.max && new.count < Int32.max, "sequences longer than Int32.max")
            var table = SymbolTable(capacity: old.count + 16)
            defer { table.free() }
            var oldRepeat: (first: Int, second: Int)?
            var newRepeat: (first: Int, second: Int)?
            old.withUnsafeBufferPointer { old in
                for index in old.indices {
                    let slot = table.slot(for: old[index], named: Int32(index), in: old, new: nil)
                    if let first = Entry.record(index, in: &table.slots[slot].entry.oldLine), oldRepeat == nil {
                        oldRepeat = (first, index)
                    }
                }
            }
            var newToOld = [Int](repeating: -1, count: new.count)
            var oldToNew = [Int](repeating: -1, count: old.count)
            var guess = 0
            old.withUnsafeBufferPointer { old in
                new.withUnsafeBufferPointer { new in
                    for index in new.indices {
                        var oldIndex = -1
                        if guess < old.count && old[guess] == new[index] {
                            oldIndex = guess
                        } else {
                            let slot = table.slot(for: new[index], named: ~Int32(index), in: old, new: new)
                            let line = table.slots[slot].entry.oldLine
                            if line >= 0 {
                                oldIndex = Int(line)
                            } else if line == Entry.absent {
                                // Only in new: the table remembers it, to catch a repeat.
                                if let first = Entry.record(index, in: &table.slots[slot].entry.newLine),
                                    newRepeat == nil
                                {
                                    newRepeat = (first, index)
                                }
                            }
                        }
                        guard oldIndex >= 0 else { continue }
                        if oldToNew[oldIndex] >= 0 {
                            if newRepeat == nil { newRepeat = (oldToNew[oldIndex], index) }
                            continue
                        }
                        newToOld[index] = oldIndex
                        oldToNew[oldIndex] = index
                        guess = oldIndex + 1
                    }
                }
            }
            self.newToOld = newToOld
            self.oldToNew = oldToNew
            self.hasRepeatedSymbols = oldRepeat != nil || newRepeat != nil
            self.firstOldRepeat = oldRepeat
            self.firstNewRepeat = newRepeat
        }

        /// Passes 4 and 5: extends matches to equal, unmatched neighbours, first ascending (the start
        /// of both sequences counts as matched), then descending (the end counts as matched).
        ///
        /// Equal elements have the same symbol-table entry, so comparing elements is comparing
        /// Heckel's entry pointers.
        ///
        /// - Complexity: O(*n*).
        @inlinable
        mutating func extendThroughNeighbours<T: Hashable>(old: [T], new: [T]) {
            // Pass 4: i = -1 and j = -1 stand for the matched starts.
            var index = -1
            while index < new.count - 1 {
                let oldIndex = index < 0 ? -1 : newToOld[index]
                if index < 0 || oldIndex >= 0 {
                    let nextNew = index + 1
                    let nextOld = oldIndex + 1
                    if nextOld < old.count, newToOld[nextNew] < 0, oldToNew[nextOld] < 0, new[nextNew] == old[nextOld] {
                        newToOld[nextNew] = nextOld
                        oldToNew[nextOld] = nextNew
                    }
                }
                index += 1
            }
            // Pass 5: i = new.count and j = old.count stand for the matched ends.
            index = new.count
            while index > 0 {
                let oldIndex = index == new.count ? old.count : newToOld[index]
                if oldIndex >= 0 {
                    let previousNew = index - 1
                    let previousOld = oldIndex - 1
                    if previousOld >= 0, newToOld[previousNew] < 0, oldToNew[previousOld] < 0,
                        new[previousNew] == old[previousOld]
                    {
                        newToOld[previousNew] = previousOld
                        oldToNew[previousOld] = previousNew
                    }
                }
                index -= 1
            }
        }
    }

    /// Heckel's symbol table for sequences of unique symbols: open addressing with linear
    /// probing over slots that hold 32 bits of a symbol's hash, where the symbol is (a line of the
    /// old sequence, or of the new one as ~line), and its `Entry`. The symbols stay in their
    /// sequences and are compared there only when the stored hash bits match, so a slot is 16
    /// bytes whatever the symbol type. At most three quarters full: it doubles (placing slots by
    /// their stored bits) as symbols only in the new sequence arrive.
    @usableFromInline
    struct SymbolTable {
        @usableFromInline
        struct Slot {
            @usableFromInline var hash: UInt32
            /// The old line of the symbol (>= 0), or ~line of the new sequence; `Int32.min` when
            /// the slot is empty.
            @usableFromInline var symbol: Int32
            @usableFromInline var entry: Matching.Entry

            @inlinable init(hash: UInt32, symbol: Int32) {
                self.hash = hash
                self.symbol = symbol
                entry = Matching.Entry()
            }
        }

        @usableFromInline var slots: UnsafeMutablePointer<Slot>
        @usableFromInline var mask: Int
        @usableFromInline var count = 0

        /// A table for up to `capacity` symbols.
        @inlinable
        init(capacity: Int) {
            var size = 16
            while size * 3 < capacity * 4 { size <<= 1 }
            slots = .allocate(capacity: size)
            slots.initialize(repeating: Slot(hash: 0, symbol: .min), count: size)
            mask = size - 1
        }

        @inlinable
        func free() {
            slots.deinitialize(count: mask + 1)
            slots.deallocate()
        }

        /// The slot of `symbol`, a new one named `name` (its old line, or ~ its new line) when the
        /// table does not hold it. `old` holds the old symbols; `new`, when given, the new ones.
        @inlinable
        mutating func slot<T: Hashable>(
            for symbol: T, named name: Int32, in old: UnsafeBufferPointer<T>, new: UnsafeBufferPointer<T>?
        ) -> Int {
            if (count + 1) * 4 > (mask + 1) * 3 { grow() }
            let hash = UInt32(truncatingIfNeeded: symbol.hashValue)
            var i = Int(hash) & mask
            while true {
                let stored = slots[i].symbol
                if stored == .min {
                    slots[i] = Slot(hash: hash, symbol: name)
                    count += 1
                    return i
                }
                if slots[i].hash == hash {
                    let other = stored >= 0 ? old[Int(stored)] : new![Int(~stored)]
                    if other == symbol { return i }
                }
                i = (i + 1) & mask
            }
        }

        /// Doubles the table, placing every slot by its stored hash.
        @inlinable
        mutating func grow() {
            let old = slots
            let oldSize = mask + 1
            let size = oldSize * 2
            slots = .allocate(capacity: size)
            slots.initialize(repeating: Slot(hash: 0, symbol: .min), count: size)
            mask = size - 1
            for k in 0..<oldSize where old[k].symbol != .min {
                var i = Int(old[k].hash) & mask
                while slots[i].symbol != .min { i = (i + 1) & mask }
                slots[i] = old[k]
            }
            old.deinitialize(count: oldSize)
            old.deallocate()
        }
    }
}
