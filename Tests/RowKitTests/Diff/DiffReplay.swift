import RowKit

/// A table as plain arrays: sections of rows, each known by identity, rows with a version number
/// as content. The "naive model" the diff is checked against.
struct Mirror: Equatable, CustomStringConvertible {
    struct Row: Equatable {
        var id: Int
        var content: Int
    }

    struct Section: Equatable {
        var id: Int
        var rows: [Row]
    }

    var sections: [Section]

    init(_ sections: [Section] = []) { self.sections = sections }

    init(_ snapshot: TableSnapshot<Int, Int>) {
        sections = snapshot.sectionIDs.indices.map { section in
            let range = snapshot.rowRange(inSection: section)
            return Section(
                id: snapshot.sectionIDs[section],
                rows: range.map { Row(id: snapshot.rowIDs[$0], content: snapshot.contents[$0]) })
        }
    }

    var snapshot: TableSnapshot<Int, Int> {
        TableSnapshot(
            sections: sections.map { section in
                (id: section.id, rows: section.rows.map { (id: $0.id, content: $0.content) })
            })
    }

    var rowCounts: [Int] { sections.map(\.rows.count) }
    var rowCount: Int { sections.reduce(0) { $0 + $1.rows.count } }

    var description: String {
        sections.map { section in
            "\(section.id): " + section.rows.map { "\($0.id)v\($0.content)" }.joined(separator: " ")
        }.joined(separator: " | ")
    }
}

/// Replays a changeset on a mirror with UIKit's batch-update semantics, refusing every
/// combination UIKit refuses: an independent check of the diff and of its stages.
///
/// Semantics: deletes, reloads and move sources are read in old coordinates; then inserted
/// sections (with their rows from the data source) and moved sections take their new indices and
/// the remaining sections fill the gaps in order; within each section, inserted rows (from the
/// data source) and moved rows take their new rows and the remaining rows fill the gaps in order.
/// Reloaded rows take their content from the data source.
enum DiffReplay {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The state after applying `changeset` to `old`; `final` is the data source (the state after
    /// the whole change). With `allowsMovedReloads` a row may be moved and reloaded in one batch
    /// (the exact, unstaged changeset); UIKit does not allow it.
    static func apply(
        _ changeset: Changeset, to old: Mirror, dataSource final: Mirror, allowsMovedReloads: Bool
    ) throws -> Mirror {
        func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition { throw Failure(description: message()) }
        }
        try check(changeset.oldRowCounts == old.rowCounts, "oldRowCounts \(changeset.oldRowCounts) != \(old.rowCounts)")
        try check(isAscending(changeset.deletedSections.map(\.index)), "deleted sections not ascending")
        try check(isAscending(changeset.insertedSections.map(\.index)), "inserted sections not ascending")
        try check(isAscending(changeset.reloadedSections.map(\.index)), "reloaded sections not ascending")
        try check(isAscending(changeset.movedSections.map(\.from)), "moved sections not ascending")
        try check(isAscending(changeset.deletedRows.map(\.index)), "deleted rows not ascending")
        try check(isAscending(changeset.insertedRows.map(\.index)), "inserted rows not ascending")
        try check(isAscending(changeset.reloadedRows.map(\.index)), "reloaded rows not ascending")
        try check(isAscending(changeset.movedRows.map(\.from)), "moved rows not ascending")

        // Sections.
        let oldCount = old.sections.count
        let deletedSections = Set(changeset.deletedSections.map(\.index))
        let insertedSections = Set(changeset.insertedSections.map(\.index))
        let newCount = oldCount - deletedSections.count + insertedSections.count
        try check(
            newCount == changeset.newRowCounts.count,
            "section count \(newCount) != newRowCounts \(changeset.newRowCounts.count)")
        try check(deletedSections.allSatisfy { $0 >= 0 && $0 < oldCount }, "deleted section out of range")
        try check(insertedSections.allSatisfy { $0 >= 0 && $0 < newCount }, "inserted section out of range")
        var sectionMoves = [Int: Int]()
        var sectionTargets = Set<Int>()
        for move in changeset.movedSections {
            try check(
                move.from >= 0 && move.from < oldCount && move.to >= 0 && move.to < newCount,
                "section move out of range")
            try check(!deletedSections.contains(move.from), "section \(move.from) deleted and moved")
            try check(!insertedSections.contains(move.to), "section \(move.to) inserted and moved to")
            try check(sectionMoves.updateValue(move.to, forKey: move.from) == nil, "section \(move.from) moved twice")
            try check(sectionTargets.insert(move.to).inserted, "two sections moved to \(move.to)")
        }
        let reloadedSections = Set(changeset.reloadedSections.map(\.index))
        for reload in changeset.reloadedSections {
            try check(reload.index >= 0 && reload.index < oldCount, "reloaded section out of range")
            try check(!deletedSections.contains(reload.index), "section \(reload.index) deleted and reloaded")
            try check(
                allowsMovedReloads || sectionMoves[reload.index] == nil, "section \(reload.index) moved and reloaded")
        }

        // Rows.
        func oldRowExists(_ path: RowPath) -> Bool {
            path.section >= 0 && path.section < oldCount && path.row >= 0
                && path.row < old.sections[path.section].rows.count
        }
        func newRowExists(_ path: RowPath) -> Bool {
            path.section >= 0 && path.section < newCount && path.row >= 0
                && path.row < changeset.newRowCounts[path.section]
        }
        let deletedRows = Set(changeset.deletedRows.map(\.index))
        try check(deletedRows.count == changeset.deletedRows.count, "a row is deleted twice")
        for path in deletedRows {
            try check(oldRowExists(path), "deleted row \(path) out of range")
            try check(!deletedSections.contains(path.section), "row \(path) listed in deleted section")
            try check(!reloadedSections.contains(path.section), "row \(path) listed in reloaded section")
        }
        var rowMoves = [RowPath: RowPath]()
        var rowTargets = Set<RowPath>()
        for move in changeset.movedRows {
            try check(oldRowExists(move.from), "moved row \(move.from) out of range")
            try check(newRowExists(move.to), "move target \(move.to) out of range")
            try check(!deletedSections.contains(move.from.section), "row \(move.from) moves out of a deleted section")
            try check(!insertedSections.contains(move.to.section), "row moves into inserted section \(move.to.section)")
            try check(!deletedRows.contains(move.from), "row \(move.from) deleted and moved")
            try check(!reloadedSections.contains(move.from.section), "row \(move.from) moves out of a reloaded section")
            try check(rowMoves.updateValue(move.to, forKey: move.from) == nil, "row \(move.from) moved twice")
            try check(rowTargets.insert(move.to).inserted, "two rows moved to \(move.to)")
        }
        let insertedRows = Set(changeset.insertedRows.map(\.index))
        try check(insertedRows.count == changeset.insertedRows.count, "a row is inserted twice")
        for path in insertedRows {
            try check(newRowExists(path), "inserted row \(path) out of range")
            try check(!insertedSections.contains(path.section), "row \(path) listed in inserted section")
            try check(!rowTargets.contains(path), "row \(path) inserted and moved to")
        }
        var reloadedIDs = Set<Int>()
        for reload in changeset.reloadedRows {
            try check(oldRowExists(reload.index), "reloaded row \(reload.index) out of range")
            try check(
                !deletedSections.contains(reload.index.section), "row \(reload.index) reloaded in deleted section")
            try check(!deletedRows.contains(reload.index), "row \(reload.index) deleted and reloaded")
            try check(allowsMovedReloads || rowMoves[reload.index] == nil, "row \(reload.index) moved and reloaded")
            try check(
                reloadedIDs.insert(old.sections[reload.index.section].rows[reload.index.row].id).inserted,
                "row reloaded twice")
        }
        for section in changeset.reloadedSections.map(\.index) {
            for row in old.sections[section].rows { reloadedIDs.insert(row.id) }
        }

        // Place sections: inserted and moved ones at their new indices, the rest in order.
        var origins = [Int?](repeating: nil, count: newCount)
        var placed = [Bool](repeating: false, count: newCount)
        for section in insertedSections { placed[section] = true }
        for (from, to) in sectionMoves {
            origins[to] = from
            placed[to] = true
        }
        var remaining = (0..<oldCount).filter { !deletedSections.contains($0) && sectionMoves[$0] == nil }[...]
        for section in 0..<newCount where !placed[section] {
            guard let origin = remaining.popFirst() else {
                throw Failure(description: "too few sections to fill \(section)")
            }
            origins[section] = origin
        }
        try check(remaining.isEmpty, "sections left over after placing")

        // Place rows the same way, section by section.
        var result = Mirror()
        for section in 0..<newCount {
            guard let origin = origins[section] else {
                try check(section < final.sections.count, "inserted section \(section) missing from data source")
                result.sections.append(final.sections[section])
                try check(
                    changeset.newRowCounts[section] == final.sections[section].rows.count,
                    "inserted section \(section) count")
                continue
            }
            let oldSection = old.sections[origin]
            let count = changeset.newRowCounts[section]
            if reloadedSections.contains(origin) {
                // A reloaded section takes its rows, any number of them, from the data source.
                guard let reloaded = final.sections.first(where: { $0.id == oldSection.id }) else {
                    throw Failure(description: "reloaded section \(oldSection.id) missing from data source")
                }
                try check(reloaded.rows.count == count, "reloaded section \(section): newRowCounts \(count)")
                result.sections.append(reloaded)
                continue
            }
            var slots = [Mirror.Row?](repeating: nil, count: count)
            for path in insertedRows where path.section == section {
                try check(
                    section < final.sections.count && path.row < final.sections[section].rows.count,
                    "insert \(path) missing from data source")
                slots[path.row] = final.sections[section].rows[path.row]
            }
            for (from, to) in rowMoves where to.section == section {
                slots[to.row] = old.sections[from.section].rows[from.row]
            }
            var survivors = oldSection.rows.indices.filter {
                let path = RowPath(section: origin, row: $0)
                return !deletedRows.contains(path) && rowMoves[path] == nil
            }[...]
            var rows = [Mirror.Row]()
            for slot in slots {
                if let row = slot {
                    rows.append(row)
                } else if let survivor = survivors.popFirst() {
                    rows.append(oldSection.rows[survivor])
                } else {
                    throw Failure(description: "section \(section): too few rows for newRowCounts \(count)")
                }
            }
            try check(survivors.isEmpty, "section \(section): rows left over for newRowCounts \(count)")
            result.sections.append(Mirror.Section(id: oldSection.id, rows: rows))
        }

        // Reloads: the data source's content for the same identity.
        if !reloadedIDs.isEmpty {
            var finalContent = [Int: Int]()
            for section in final.sections { for row in section.rows { finalContent[row.id] = row.content } }
            for section in result.sections.indices {
                for row in result.sections[section].rows.indices
                where reloadedIDs.contains(result.sections[section].rows[row].id) {
                    let id = result.sections[section].rows[row].id
                    guard let content = finalContent[id] else {
                        throw Failure(description: "reloaded row \(id) missing from data source")
                    }
                    result.sections[section].rows[row].content = content
                }
            }
        }
        try check(
            result.rowCounts == changeset.newRowCounts, "newRowCounts \(changeset.newRowCounts) != \(result.rowCounts)")
        return result
    }

    private static func isAscending<T: Comparable>(_ values: [T]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 < $1 }
    }
}
