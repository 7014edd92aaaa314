@testable import RowKit
import Testing

/// The identity index renumbers a section's rows lazily: an edit records one shift instead of
/// rewriting the entry of every later row, and the section is renumbered once its journal passes
/// 8 ⌈log₂(k + 1)⌉ shifts, after the batch.
struct IndexJournalTests {
    static let rows = 10_000

    static func model() throws -> TableModel {
        try TableModel(Table(style: .plain, sections: [Section(id: ItemID("rows"), rows: (0..<rows).map { AnyRow(DefaultRow("r\($0)", id: $0)) })]))
    }

    @Test func whenARowIsInsertedAtTheTop_thenNoOtherEntryIsRewrittenAndEveryPathIsStillRight() throws {
        var model = try Self.model()
        let before = model.index.rowLocations
        try model.performBatch { $0.insert(DefaultRow("new", id: -1), at: RowPath(section: 0, row: 0)) }
        #expect(model.index.journalLength(of: ItemID("rows")) == 1)
        let rewritten = (0..<Self.rows).filter { model.index.rowLocations[ItemID($0)] != before[ItemID($0)] }
        #expect(rewritten.isEmpty, "\(rewritten.count) entries rewritten")
        #expect(model.path(of: ItemID(0)) == RowPath(section: 0, row: 1))
        #expect(model.path(of: ItemID(Self.rows - 1)) == RowPath(section: 0, row: Self.rows))
        #expect(model.indexViolation() == nil)
    }

    @Test func whenTheJournalPassesItsLimit_thenTheSectionIsRenumberedAfterTheBatch() throws {
        var model = try Self.model()
        let limit = TableIndex.shiftLimit(rowCount: Self.rows)
        #expect(limit == 8 * 14, "10,000 rows take 14 bits")
        for step in 0..<limit {
            try model.performBatch { $0.insert(DefaultRow("new", id: -1 - step), at: RowPath(section: 0, row: step % 7)) }
        }
        #expect(model.index.journalLength(of: ItemID("rows")) == limit)
        try model.performBatch { $0.delete(.path(RowPath(section: 0, row: 3))) }
        #expect(model.index.journalLength(of: ItemID("rows")) == 0, "renumbered")
        #expect(model.indexViolation() == nil)
        // A batch of three times the limit (below the mid-batch threshold of four) is renumbered
        // once it ends, and its changeset is exact.
        let changes = try model.performBatch { batch in
            for step in 0..<(3 * limit) { batch.insert(DefaultRow("more", id: -10_000 - step), at: RowPath(section: 0, row: step)) }
        }
        #expect(changes.insertedRows.map(\.index) == (0..<(3 * limit)).map { RowPath(section: 0, row: $0) })
        #expect(model.index.journalLength(of: ItemID("rows")) == 0)
        #expect(model.indexViolation() == nil)
    }
}
