extension TableModel {
    /// The first way the identity index disagrees with the table, or `nil` when they agree.
    ///
    /// For tests: the randomized tests call it after every batch, failed or not.
    ///
    /// - Complexity: O(*n* + *s*) for *n* rows and *s* sections.
    package func indexViolation() -> String? {
        guard index.sectionPositions.count == table.sections.count, index.sectionKeys.count == table.sections.count
        else {
            return
                "index has \(index.sectionPositions.count) sections (\(index.sectionKeys.count) keys), table \(table.sections.count)"
        }
        var rows = 0
        for (position, section) in table.sections.enumerated() {
            guard index.sectionPositions[section.id] == position else {
                return
                    "section \"\(section.id)\" is at \(position), index says \(String(describing: index.sectionPositions[section.id]))"
            }
            let key = index.sectionKeys[position]
            guard index.keyPositions[Int(key)] == Int32(position) else {
                return "section \"\(section.id)\" has key \(key), which points at \(index.keyPositions[Int(key)])"
            }
            if let problem = section.rows.treeViolation() { return "section \"\(section.id)\": \(problem)" }
            var problem: String?
            var rowIndex = 0
            section.rows.forEachLeaf { leaf, ids in
                for (k, id) in ids.enumerated() {
                    if problem == nil, let hint = index.rowLocations.entry(id)?.hint,
                        let hinted = section.rows.hintedIndex(hint, inLeaf: leaf), hinted != k
                    {
                        problem =
                            "row \"\(id)\" is row \(k) of leaf \(leaf), its position hint holds for row \(hinted)"
                    }
                    if problem == nil, index.rowLocations[id] != TableIndex.Location(key: key, leaf: leaf) {
                        problem =
                            "row \"\(id)\" is at [\(position), \(rowIndex)] in leaf \(leaf), index says \(String(describing: index.rowLocations[id]))"
                    }
                    if problem == nil, path(of: id) != RowPath(section: position, row: rowIndex) {
                        problem =
                            "row \"\(id)\" is at [\(position), \(rowIndex)], path(of:) says \(String(describing: path(of: id)))"
                    }
                    rowIndex += 1
                }
            }
            if let problem { return problem }
            rows += section.rows.count
        }
        guard index.rowLocations.count == rows else {
            return "index has \(index.rowLocations.count) rows, table \(rows)"
        }
        let freeKeys = index.keyPositions.indices.filter { index.keyPositions[$0] < 0 }.map(Int32.init)
        guard Set(freeKeys) == Set(index.freeKeys), freeKeys.count == index.freeKeys.count else {
            return "section keys \(freeKeys) are unused, the index lists \(index.freeKeys) as free"
        }
        return nil
    }
}
