extension TableView {
    /// Checks every invariant of the view and throws the first broken one: the tree's own
    /// invariants; the view's row counts equal its table's; one tree item per header, row and
    /// footer; every measured height is the height the tree holds (or more, for a height cut to
    /// keep the total below the tree's limit); displayed items ascending,
    /// matching their model items; no cell bound to two rows, every displayed cell bound to its
    /// row, every pooled cell bound to none; selection paths pointing at their rows.
    ///
    /// For tests; a broken invariant is a bug in RowKit.
    ///
    /// - Complexity: O(n) (O(n log n) tree reads).
    package func checkInvariants() throws(TableViewError) {
        func fail(_ message: String) throws(TableViewError) { throw .inconsistent(message) }
        try tree.checkInvariants()
        let counts = table.sections.map(\.rows.count)
        if counts != rowCounts { try fail("row counts \(rowCounts) but the table has \(counts)") }
        if sectionStarts != Self.starts(for: rowCounts) { try fail("section starts out of date") }
        if tree.count != sectionStarts[rowCounts.count] {
            try fail("tree has \(tree.count) items, table needs \(sectionStarts[rowCounts.count])")
        }
        // A height cut to keep the total below the tree's limit (see `LayoutTree`) is smaller.
        let clamped = tree.hasClampedHeights
        func outOfDate(_ height: Double, _ expected: Double) -> Bool {
            clamped ? height > expected : height != expected
        }
        for (s, section) in table.sections.enumerated() {
            if outOfDate(tree.height(at: sectionStarts[s]), headerSlotHeight(section)) {
                try fail("header \(s) height out of date")
            }
            if outOfDate(tree.height(at: sectionStarts[s + 1] - 1), footerHeight(section)) {
                try fail("footer \(s) height out of date")
            }
            for (r, row) in section.rows.enumerated() {
                let height = tree.height(at: sectionStarts[s] + 1 + r)
                if case .automatic = row.height,
                    let measured = measuredHeights[HeightKey(id: row.id, kind: .row, width: contentWidth)],
                    outOfDate(height, measured)
                {
                    try fail("row [\(s), \(r)] id=\(row.id) measured \(measured) but laid out \(height)")
                }
                if outOfDate(height, rowHeight(row)) {
                    try fail("row [\(s), \(r)] height \(height), expected \(rowHeight(row))")
                }
            }
        }
        var boundHandles = Set<Int>()
        var boundRows = Set<ItemID>()
        for (index, entry) in visible.enumerated() {
            if index > 0, visible[index - 1].flat >= entry.flat { try fail("displayed items out of order") }
            if !entry.announced { try fail("item \(entry.flat) displayed without willDisplay") }
            if !boundHandles.insert(entry.handle).inserted { try fail("view #\(entry.handle) shows two items") }
            if reuse.isPooled(entry.handle) { try fail("view #\(entry.handle) is displayed and pooled") }
            if entry.section >= rowCounts.count { try fail("displayed item in missing section \(entry.section)") }
            let start = sectionStarts[entry.section]
            switch entry.kind {
            case .row:
                if entry.flat != start + 1 + entry.row { try fail("row entry \(entry.flat) misplaced") }
                let row = table.sections[entry.section].rows[entry.row]
                if row.id != entry.id { try fail("row entry \(entry.row) shows \(entry.id), model has \(row.id)") }
                if !boundRows.insert(row.id).inserted { try fail("row \(row.id) displayed twice") }
                guard let cell = reuse.cell(entry.handle) else { try fail("row entry without a cell"); continue }
                if cell.boundRowID != row.id {
                    try fail("cell #\(entry.handle) bound to \(String(describing: cell.boundRowID)), shows \(row.id)")
                }
                if cell.isSelected != (selected[row.id] != nil) {
                    try fail("cell #\(entry.handle) selection out of date")
                }
            case .header:
                if entry.flat != start { try fail("header entry misplaced") }
            case .footer:
                if entry.flat != sectionStarts[entry.section + 1] - 1 { try fail("footer entry misplaced") }
            }
        }
        for handle in reuse.slots.indices where reuse.isPooled(handle) {
            if let cell = reuse.cell(handle), cell.boundRowID != nil { try fail("pooled cell #\(handle) still bound") }
        }
        for (id, path) in selected {
            guard path.section < rowCounts.count, path.row < rowCounts[path.section],
                row(at: path).id == id
            else { try fail("selection \(id) points at \(path)"); continue }
        }
        if contentOffset != clampedOffset(contentOffset) { try fail("offset \(contentOffset) out of range") }
    }
}
