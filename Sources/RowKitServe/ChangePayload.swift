import RowKit

/// A changeset in the live page's coordinates (docs/live.md): sections by index, rows by their
/// flat index in the listing (rows only, from 0), every row that leaves its place listed as a
/// delete at its old index and every row that arrives as an insert at its new one, with the
/// records the page draws them from.
///
/// It is made from RowKit's `Changeset` (paths, UIKit's contract) and both outlines, and checked
/// against them: the rows that stay must be the same identities in the same order on both sides.
struct ChangePayload {
    var deletedSections: [Int] = []
    /// New index of each inserted (or moved-in) section.
    var insertedSections: [Int] = []
    /// New index of each section whose header, footer or index title changed in place.
    var reloadedSections: [Int] = []
    var movedSections: [(from: Int, to: Int)] = []
    /// Old flat indices, ascending.
    var deletedRows: [Int] = []
    /// New flat indices, ascending.
    var insertedRows: [Int] = []
    /// New flat indices, ascending: rows that stay in place and changed.
    var reloadedRows: [Int] = []
    /// Old flat index to new flat index of each row that is both deleted and inserted.
    var movedRows: [(from: Int, to: Int)] = []

    /// The most rows a change sent in place may insert or reload (each with its record); a
    /// larger change reloads the pages instead.
    static let recordLimit = 10_000

    /// Whether the change inserts or reloads more than ``recordLimit`` rows.
    var needsTooManyRecords: Bool { insertedRows.count + reloadedRows.count > Self.recordLimit }

    /// Whether nothing a page shows changed.
    var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty && deletedRows.isEmpty
            && insertedRows.isEmpty && reloadedRows.isEmpty
    }

    /// The payload of `changes` from `old` to `new`, or `nil` when the changeset does not account
    /// for the difference between the outlines (the page then reloads instead).
    init?(_ changes: Changeset, from old: TableOutline, to new: TableOutline) {
        let oldRows = old.sectionStarts
        let newRows = new.sectionStarts
        var leaving = [Bool](repeating: false, count: old.rowCount)
        var arriving = [Bool](repeating: false, count: new.rowCount)
        func flat(_ path: RowPath, _ starts: [Int]) -> Int? {
            guard path.section >= 0, path.section + 1 < starts.count else { return nil }
            let index = starts[path.section] + path.row
            return path.row >= 0 && index < starts[path.section + 1] ? index : nil
        }
        var leavingSections = Set(changes.deletedSections.map(\.index))
        var arrivingSections = Set(changes.insertedSections.map(\.index))
        // A move listed with the same index on both sides still moves: the sections around it
        // changed order. Every listed move leaves and arrives.
        for move in changes.movedSections {
            leavingSections.insert(move.from)
            arrivingSections.insert(move.to)
            movedSections.append((move.from, move.to))
        }
        for section in leavingSections {
            guard section >= 0, section + 1 < oldRows.count else { return nil }
            for row in oldRows[section]..<oldRows[section + 1] { leaving[row] = true }
        }
        for section in arrivingSections {
            guard section >= 0, section + 1 < newRows.count else { return nil }
            for row in newRows[section]..<newRows[section + 1] { arriving[row] = true }
        }
        deletedSections = leavingSections.sorted()
        insertedSections = arrivingSections.sorted()
        for edit in changes.deletedRows {
            guard let row = flat(edit.index, oldRows) else { return nil }
            leaving[row] = true
        }
        for edit in changes.insertedRows {
            guard let row = flat(edit.index, newRows) else { return nil }
            arriving[row] = true
        }
        for move in changes.movedRows {
            guard let from = flat(move.from, oldRows), let to = flat(move.to, newRows) else { return nil }
            leaving[from] = true
            arriving[to] = true
        }
        deletedRows = leaving.indices.filter { leaving[$0] }
        insertedRows = arriving.indices.filter { arriving[$0] }
        // The rows that stay, in order on both sides, must be the same rows.
        let staying = old.rowCount - deletedRows.count
        guard staying == new.rowCount - insertedRows.count else { return nil }
        var newIndexOfStaying = [Int](repeating: -1, count: old.rowCount)
        var next = 0
        for row in 0..<old.rowCount where !leaving[row] {
            while next < new.rowCount, arriving[next] { next += 1 }
            guard next < new.rowCount, old.rowIDs[row] == new.rowIDs[next] else { return nil }
            newIndexOfStaying[row] = next
            next += 1
        }
        var reloaded = Set<Int>()
        for edit in changes.reloadedRows {
            guard let row = flat(edit.index, oldRows) else { return nil }
            if newIndexOfStaying[row] >= 0 { reloaded.insert(newIndexOfStaying[row]) }
        }
        // Rows whose content changed inside a reloaded section come as reloads too.
        for section in changes.reloadedSections.map(\.index) where !leavingSections.contains(section) {
            guard section >= 0, section + 1 < oldRows.count else { return nil }
            for row in oldRows[section]..<oldRows[section + 1] where newIndexOfStaying[row] >= 0 {
                reloaded.insert(newIndexOfStaying[row])
            }
        }
        reloadedRows = reloaded.sorted()
        // A delete and an insert of the same identity are one row moving.
        var inserted: [String: Int] = [:]
        for row in insertedRows { inserted[new.rowIDs[row]] = row }
        for row in deletedRows {
            if let to = inserted[old.rowIDs[row]] { movedRows.append((row, to)) }
        }
        // Sections that keep their identity and place but changed their text.
        var oldSection: [String: Int] = [:]
        for (index, id) in old.sectionIDs.enumerated() { oldSection[id] = index }
        for (index, id) in new.sectionIDs.enumerated() where !arrivingSections.contains(index) {
            if let was = oldSection[id], old.sections[was] != new.sections[index] { reloadedSections.append(index) }
        }
    }

    /// The `changeset` event's JSON (docs/live.md); `record` gives the record of a new row.
    func json(
        table: String, revision: Int, base: Int, pages: Int, outline: TableOutline, anchors: [String],
        record: (Int) -> Substring?
    ) -> String? {
        func section(_ index: Int, withRows: Bool) -> String {
            let info = outline.sections[index]
            var fields = [String(index)]
            if withRows { fields.append(String(outline.sectionStarts[index + 1] - outline.sectionStarts[index])) }
            fields.append(JSONText.string(index < anchors.count ? anchors[index] : ""))
            fields += [info.header, info.footer, info.indexTitle].map(JSONText.string)
            return "[" + fields.joined(separator: ",") + "]"
        }
        // An inserted row says which section it joins (ascending rows: the section only grows).
        func rows(_ indices: [Int], withSection: Bool) -> String? {
            var items: [String] = []
            items.reserveCapacity(indices.count)
            var section = 0
            for row in indices {
                guard let record = record(row) else { return nil }
                guard withSection else {
                    items.append("[\(row),\(record)]")
                    continue
                }
                while section + 2 < outline.sectionStarts.count && outline.sectionStarts[section + 1] <= row {
                    section += 1
                }
                items.append("[\(row),\(record),\(section)]")
            }
            return "[" + items.joined(separator: ",") + "]"
        }
        guard let inserts = rows(insertedRows, withSection: true), let reloads = rows(reloadedRows, withSection: false)
        else { return nil }
        var out = "{\"table\":\(JSONText.string(table)),\"revision\":\(revision),\"base\":\(base)"
        out += ",\"rows\":\(outline.rowCount),\"pages\":\(pages)"
        out += ",\"sections\":{\"delete\":\(JSONText.numbers(deletedSections))"
        out += ",\"insert\":[" + insertedSections.map { section($0, withRows: true) }.joined(separator: ",") + "]"
        out += ",\"reload\":[" + reloadedSections.map { section($0, withRows: false) }.joined(separator: ",") + "]"
        out += ",\"move\":[" + movedSections.map { "[\($0.from),\($0.to)]" }.joined(separator: ",") + "]}"
        out += ",\"delete\":\(JSONText.numbers(deletedRows)),\"insert\":\(inserts),\"reload\":\(reloads)"
        out += ",\"move\":[" + movedRows.map { "[\($0.from),\($0.to)]" }.joined(separator: ",") + "]}"
        return out
    }
}
