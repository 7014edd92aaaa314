import RowKit

/// Inputs for benchmarking `TableDiff`: reproducible pairs of large snapshots.
///
/// The benchmark runner times `TableDiff.changeset(from:to:)` on the pair; building the pair is
/// not part of the measurement.
public enum DiffBenchmark {
    /// A pair of snapshots of `rows` rows in sections of 1,000, where about `changeFraction` of the
    /// rows changed: a quarter deleted, a quarter inserted, a quarter moved (half of them to
    /// another section) and a quarter with new content.
    ///
    /// Identities are `Int`s (sections and rows in separate ranges) and contents are version
    /// numbers; the same `seed` always gives the same pair.
    ///
    /// - Complexity: O(*n* + *c* × 1,000), where *n* is `rows` and *c* the number of changes.
    public static func makeSnapshots(
        rows: Int, changeFraction: Double, seed: UInt64
    ) -> (old: TableSnapshot<Int, Int>, new: TableSnapshot<Int, Int>) {
        precondition(rows >= 0 && changeFraction >= 0 && changeFraction <= 1, "rows >= 0, 0 <= changeFraction <= 1")
        let sectionSize = 1_000
        let sectionCount = max(1, (rows + sectionSize - 1) / sectionSize)
        let sectionBase = Int(1) << 40
        var random = SplitMix64(seed: seed)

        var sections = [[(id: Int, content: Int)]]()
        sections.reserveCapacity(sectionCount)
        var old = TableSnapshot<Int, Int>()
        old.reserveCapacity(sections: sectionCount, rows: rows)
        for section in 0..<sectionCount {
            old.appendSection(sectionBase + section)
            let range = (section * sectionSize)..<min(rows, (section + 1) * sectionSize)
            var sectionRows = [(id: Int, content: Int)]()
            sectionRows.reserveCapacity(range.count + 16)
            for id in range {
                old.appendRow(id, content: 0)
                sectionRows.append((id, 0))
            }
            sections.append(sectionRows)
        }

        let changes = Int((Double(rows) * changeFraction).rounded())
        var nextID = rows
        for change in 0..<changes {
            let section = random.below(sectionCount)
            switch change % 4 {
            case 0:
                if !sections[section].isEmpty {
                    sections[section].remove(at: random.below(sections[section].count))
                }
            case 1:
                sections[section].insert((nextID, 0), at: random.below(sections[section].count + 1))
                nextID += 1
            case 2:
                guard !sections[section].isEmpty else { continue }
                let row = sections[section].remove(at: random.below(sections[section].count))
                let target = change % 8 == 2 ? section : random.below(sectionCount)
                sections[target].insert(row, at: random.below(sections[target].count + 1))
            default:
                if !sections[section].isEmpty {
                    sections[section][random.below(sections[section].count)].content += 1
                }
            }
        }

        var new = TableSnapshot<Int, Int>()
        new.reserveCapacity(sections: sectionCount, rows: rows + changes)
        for (section, sectionRows) in sections.enumerated() {
            new.appendSection(sectionBase + section)
            for row in sectionRows { new.appendRow(row.id, content: row.content) }
        }
        return (old, new)
    }
}
