import RowKit
import Testing

/// Randomized differential tests: seeded random pairs of sectioned tables, diffed, then replayed on
/// the naive mirror with UIKit's rules; the replay must end exactly at the new table.
@Suite struct TableDiffPropertyTests {
    static let pairs = 3_000

    @Test func whenRandomTablesAreDiffed_thenChangesetAndItsStagesReplayToTheNewTable() throws {
        var coverage = Coverage()
        for seed in 0..<UInt64(Self.pairs) {
            var random = SeededRandom(seed: seed)
            let (old, new) = RandomTables.pair(&random)
            let policy: DiffOptions.MovedChangePolicy = seed % 2 == 0 ? .moveAndReload : .deleteAndInsert
            let options = DiffOptions(movedChanges: policy, reloadThreshold: .never)
            let changeset = try TableDiff.changeset(from: old.snapshot, to: new.snapshot, options: options)
            let context = Comment(rawValue: "seed \(seed) \(policy)\nold: \(old)\nnew: \(new)")

            let replayed = try DiffReplay.apply(
                changeset, to: old, dataSource: new, allowsMovedReloads: policy == .moveAndReload)
            #expect(replayed == new, context)

            var staged = old
            for stage in changeset.stages() {
                #expect(Self.isPure(stage), context)
                staged = try DiffReplay.apply(stage, to: staged, dataSource: new, allowsMovedReloads: false)
            }
            #expect(staged == new, context)

            #expect(Self.countsBalance(changeset, old: old, new: new), context)
            if policy == .deleteAndInsert {
                let moved = Set(changeset.movedRows.map(\.from))
                #expect(changeset.reloadedRows.allSatisfy { !moved.contains($0.index) }, context)
            }
            if old == new { #expect(changeset.isEmpty, context) }
            coverage.record(changeset, old: old, new: new)
        }
        // The generator must exercise every kind of change, or the replays prove little.
        #expect(coverage.allKindsSeen(atLeast: 50), "\(coverage)")
    }

    /// How many random pairs produced each kind of change.
    struct Coverage: CustomStringConvertible {
        var kinds: [String: Int] = [:]

        mutating func record(_ changeset: Changeset, old: Mirror, new: Mirror) {
            func seen(_ kind: String, _ condition: Bool) { if condition { kinds[kind, default: 0] += 1 } }
            let moved = Set(changeset.movedRows.map(\.from))
            seen("emptyOld", old.sections.isEmpty)
            seen("emptyNew", new.sections.isEmpty)
            seen("emptySection", new.sections.contains { $0.rows.isEmpty })
            seen("sectionInsert", !changeset.insertedSections.isEmpty)
            seen("sectionDelete", !changeset.deletedSections.isEmpty)
            seen("sectionMove", !changeset.movedSections.isEmpty)
            seen("rowInsert", !changeset.insertedRows.isEmpty)
            seen("rowDelete", !changeset.deletedRows.isEmpty)
            seen("rowReload", !changeset.reloadedRows.isEmpty)
            seen("rowMoveWithin", changeset.movedRows.contains { $0.from.section == $0.to.section })
            seen("rowMoveAcross", changeset.movedRows.contains { $0.from.section != $0.to.section })
            seen("movedAndReloaded", changeset.reloadedRows.contains { moved.contains($0.index) })
            seen("threeStages", changeset.stages().count == 3)
        }

        func allKindsSeen(atLeast minimum: Int) -> Bool {
            kinds.count == 13 && kinds.values.allSatisfy { $0 >= minimum }
        }

        var description: String {
            kinds.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    @Test func whenRandomSequencesWithRepeatsAreDiffed_thenHeckelResultRebuildsTheNewSequence() {
        for seed in 0..<UInt64(1_000) {
            var random = SeededRandom(seed: seed)
            let alphabet = random.int(in: 1...12)
            let old = (0..<random.int(in: 0...30)).map { _ in random.int(in: 0...alphabet) }
            let new = (0..<random.int(in: 0...30)).map { _ in random.int(in: 0...alphabet) }
            let result = Heckel.diff(old: old, new: new)
            #expect(Self.rebuild(old: old, new: new, with: result) == new, "seed \(seed): \(old) -> \(new)")
            for (newIndex, oldIndex) in result.oldPositions.enumerated() {
                if let oldIndex { #expect(old[oldIndex] == new[newIndex]) }
            }
            #expect(old.count - result.deletes.count + result.inserts.count == new.count)
        }
    }

    /// Whether a stage holds one kind of change: reloads only, deletes only, or inserts and moves.
    static func isPure(_ stage: Changeset) -> Bool {
        let reloads = !stage.reloadedRows.isEmpty || !stage.reloadedSections.isEmpty
        let deletes = !stage.deletedRows.isEmpty || !stage.deletedSections.isEmpty
        let insertsAndMoves =
            !stage.insertedRows.isEmpty || !stage.insertedSections.isEmpty
            || !stage.movedRows.isEmpty || !stage.movedSections.isEmpty
        return [reloads, deletes, insertsAndMoves].filter { $0 }.count == 1
    }

    /// Old + inserts − deletes = new, for sections and for rows (rows of inserted and deleted
    /// sections count with their section), and the same per surviving section with moves.
    static func countsBalance(_ changeset: Changeset, old: Mirror, new: Mirror) -> Bool {
        let sections = old.sections.count + changeset.insertedSections.count - changeset.deletedSections.count
        let insertedSectionRows = changeset.insertedSections.reduce(0) { $0 + new.sections[$1.index].rows.count }
        let deletedSectionRows = changeset.deletedSections.reduce(0) { $0 + old.sections[$1.index].rows.count }
        let rows =
            old.rowCount + changeset.insertedRows.count + insertedSectionRows
            - changeset.deletedRows.count - deletedSectionRows
        return sections == new.sections.count && rows == new.rowCount
            && changeset.oldRowCounts == old.rowCounts && changeset.newRowCounts == new.rowCounts
    }

    /// Applies a Heckel result with the same semantics as a batch on one section.
    static func rebuild(old: [Int], new: [Int], with result: Heckel.Result) -> [Int]? {
        let deleted = Set(result.deletes)
        let moved = Dictionary(uniqueKeysWithValues: result.moves.map { ($0.from, $0.to) })
        var slots = [Int?](repeating: nil, count: old.count - deleted.count + result.inserts.count)
        guard slots.count == new.count else { return nil }
        for index in result.inserts { slots[index] = new[index] }
        for (from, to) in moved { slots[to] = old[from] }
        var survivors = old.indices.filter { !deleted.contains($0) && moved[$0] == nil }[...]
        return slots.map { $0 ?? survivors.popFirst().map { old[$0] } ?? -1 }
    }
}

/// Random pairs of tables: an old table, and a new one made from it by random edits.
enum RandomTables {
    static func pair(_ random: inout SeededRandom) -> (Mirror, Mirror) {
        var nextRow = 0
        var nextSection = 1_000_000
        func freshRows(_ count: Int) -> [Mirror.Row] {
            (0..<count).map { _ in
                defer { nextRow += 1 }
                return Mirror.Row(id: nextRow, content: random.int(in: 0...1))
            }
        }
        func freshSection() -> Mirror.Section {
            defer { nextSection += 1 }
            return Mirror.Section(id: nextSection, rows: freshRows(random.int(in: 0...4)))
        }

        let old = Mirror(
            random.chance(0.05)
                ? []
                : (0..<random.int(in: 0...5)).map { _ in
                    defer { nextSection += 1 }
                    return Mirror.Section(id: nextSection, rows: freshRows(random.int(in: 0...8)))
                })
        if random.chance(0.05) { return (old, Mirror()) }
        if random.chance(0.05) { return (old, Mirror((0..<random.int(in: 0...4)).map { _ in freshSection() })) }

        let intensity = Double.random(in: 0..<0.7, using: &random)
        var sections = old.sections.filter { _ in !random.chance(intensity / 3) }
        for index in sections.indices {
            sections[index].rows = sections[index].rows.compactMap { row in
                if random.chance(intensity / 3) { return nil }
                var row = row
                if random.chance(intensity / 3) { row.content += 1 }
                return row
            }
        }
        for _ in 0..<random.int(in: 0...Int(intensity * 3)) {
            sections.insert(freshSection(), at: random.int(in: 0...sections.count))
        }
        for _ in 0..<random.int(in: 0...Int(intensity * 3)) where sections.count > 1 {
            let section = sections.remove(at: random.int(in: 0...sections.count - 1))
            sections.insert(section, at: random.int(in: 0...sections.count))
        }
        if !sections.isEmpty {
            let rowCount = sections.reduce(0) { $0 + $1.rows.count }
            for _ in 0..<random.int(in: 0...Int(intensity * Double(rowCount))) {
                let from = random.int(in: 0...sections.count - 1)
                guard !sections[from].rows.isEmpty else { continue }
                let row = sections[from].rows.remove(at: random.int(in: 0...sections[from].rows.count - 1))
                let to = random.chance(0.5) ? from : random.int(in: 0...sections.count - 1)
                sections[to].rows.insert(row, at: random.int(in: 0...sections[to].rows.count))
            }
            for _ in 0..<random.int(in: 0...Int(intensity * 6)) {
                let to = random.int(in: 0...sections.count - 1)
                sections[to].rows.insert(contentsOf: freshRows(1), at: random.int(in: 0...sections[to].rows.count))
            }
        }
        return (old, Mirror(sections))
    }
}
