extension TableModel {
    /// The first way the identity index disagrees with the table, or `nil` when they agree.
    ///
    /// For tests: the randomized tests call it after every batch, failed or not.
    ///
    /// - Complexity: O(*n* + *s*) for *n* rows and *s* sections.
    func indexViolation() -> String? {
        guard index.sectionPositions.count == table.sections.count else {
            return "index has \(index.sectionPositions.count) sections, table \(table.sections.count)"
        }
        var rows = 0
        for (position, section) in table.sections.enumerated() {
            guard index.sectionPositions[section.id] == position else {
                return "section \"\(section.id)\" is at \(position), index says \(String(describing: index.sectionPositions[section.id]))"
            }
            let journal = index.journalLength(of: section.id)
            guard journal <= TableIndex.shiftLimit(rowCount: section.rows.count) else {
                return "section \"\(section.id)\" keeps \(journal) shifts, over the limit for \(section.rows.count) rows"
            }
            for (rowIndex, row) in section.rows.enumerated() {
                guard let stored = index.rowLocations[row.id], stored.stamp <= journal,
                      index.resolved(stored) == TableIndex.Location(section: section.id, row: rowIndex, stamp: journal)
                else {
                    return "row \"\(row.id)\" is at [\(position), \(rowIndex)], index says \(String(describing: index.rowLocations[row.id]))"
                }
            }
            rows += section.rows.count
        }
        guard index.rowLocations.count == rows else {
            return "index has \(index.rowLocations.count) rows, table \(rows)"
        }
        if let stray = index.shifts.keys.first(where: { index.sectionPositions[$0] == nil }) {
            return "index keeps shifts for \"\(stray)\", which is not a section"
        }
        return nil
    }
}
