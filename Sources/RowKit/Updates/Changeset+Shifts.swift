extension Changeset {
    /// Removes the moves that are only shifts: moves whose item would land where it is listed to
    /// go if it were not moved at all (a row moved to its own path while another change elsewhere
    /// renumbers nothing around it, or a section moved back to where the other changes take it).
    ///
    /// `replay` puts the items that are neither deleted nor moved (the stayers) in their old order
    /// into the new positions that are neither inserted nor move destinations. A move can be left
    /// out when its item, counted among the stayers, lands at its destination: as many stayers
    /// come before its source as free new positions come before its destination. Of those moves,
    /// a longest run whose destinations increase with their sources is left out, so the changeset
    /// replays to the same state. A row move is left out only within one section (the same
    /// section before and after); a reload listed with a move that is left out stays, as a reload
    /// in place.
    ///
    /// - Complexity: O(*s* + *c* log *c*) for *s* sections and *c* listed changes.
    mutating func removeShiftOnlyMoves() {
        if !movedSections.isEmpty { removeShiftOnlySectionMoves() }
        if !movedRows.isEmpty { removeShiftOnlyRowMoves() }
    }

    private mutating func removeShiftOnlySectionMoves() {
        let leaving = (deletedSections.map(\.index) + movedSections.map(\.from)).sorted()
        let arriving = (insertedSections.map(\.index) + movedSections.map(\.to)).sorted()
        let shifts = movedSections.indices.filter { position in
            let move = movedSections[position]
            return move.from - Self.count(below: move.from, in: leaving)
                == move.to - Self.count(below: move.to, in: arriving)
        }
        let dropped = Self.increasingRun(of: shifts, to: { movedSections[$0].to })
        guard !dropped.isEmpty else { return }
        movedSections = movedSections.indices.filter { !dropped.contains($0) }.map { movedSections[$0] }
    }

    private mutating func removeShiftOnlyRowMoves() {
        var leaving: [Int: [Int]] = [:]
        var arriving: [Int: [Int]] = [:]
        for edit in deletedRows { leaving[edit.index.section, default: []].append(edit.index.row) }
        for edit in insertedRows { arriving[edit.index.section, default: []].append(edit.index.row) }
        for move in movedRows {
            leaving[move.from.section, default: []].append(move.from.row)
            arriving[move.to.section, default: []].append(move.to.row)
        }
        for key in leaving.keys { leaving[key]!.sort() }
        for key in arriving.keys { arriving[key]!.sort() }
        let map = sectionMap()
        // Moves are sorted by `from`, so each section's candidates come out in source order.
        var shiftsBySection: [Int: [Int]] = [:]
        for (position, move) in movedRows.enumerated()
        where map.newIndex(ofOld: move.from.section) == move.to.section {
            let staying = move.from.row - Self.count(below: move.from.row, in: leaving[move.from.section] ?? [])
            let free = move.to.row - Self.count(below: move.to.row, in: arriving[move.to.section] ?? [])
            if staying == free { shiftsBySection[move.from.section, default: []].append(position) }
        }
        var dropped = Set<Int>()
        for shifts in shiftsBySection.values {
            dropped.formUnion(Self.increasingRun(of: shifts, to: { movedRows[$0].to.row }))
        }
        guard !dropped.isEmpty else { return }
        movedRows = movedRows.indices.filter { !dropped.contains($0) }.map { movedRows[$0] }
    }

    /// The number of elements of `sorted` (ascending) below `value`.
    private static func count(below value: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The positions (given in source order) of a longest run whose destinations increase.
    private static func increasingRun(of positions: [Int], to destination: (Int) -> Int) -> Set<Int> {
        guard positions.count > 1 else { return Set(positions) }
        var keep = [Bool](repeating: false, count: positions.count)
        IncreasingSubsequence.mark(positions.map(destination), in: &keep)
        return Set(positions.indices.filter { keep[$0] }.map { positions[$0] })
    }
}
