import Testing

@testable import RowKit

/// The identity index keeps each row's section and leaf; a row's path follows from its leaf. An
/// edit rewrites no other row's entry (except the half leaf a split moves), and a batch finds
/// where its rows were before it from the shifts it made, noting every row at once past the limit.
struct IdentityIndexTests {
    static let rows = 10_000

    static func model(rows: Int = rows) throws -> TableModel {
        try TableModel(
            Table(
                style: .plain,
                sections: [Section(id: ItemID("rows"), rows: (0..<rows).map { AnyRow(DefaultRow("r\($0)", id: $0)) })]))
    }

    @Test func whenARowIsInsertedAtTheTop_thenNoOtherEntryIsRewrittenAndEveryPathIsStillRight() throws {
        var model = try Self.model()
        let before = model.index.rowLocations
        try model.performBatch { $0.insert(DefaultRow("new", id: -1), at: RowPath(section: 0, row: 0)) }
        let rewritten = (0..<Self.rows).filter { model.index.rowLocations[ItemID($0)] != before[ItemID($0)] }
        #expect(rewritten.isEmpty, "\(rewritten.count) entries rewritten")
        #expect(model.path(of: ItemID(0)) == RowPath(section: 0, row: 1))
        #expect(model.path(of: ItemID(Self.rows - 1)) == RowPath(section: 0, row: Self.rows))
        #expect(model.indexViolation() == nil)
    }

    /// The rows (of `ids`) whose position hint holds, so that `path(of:)` reads no row of their leaf.
    static func rowsWithHintsThatHold(_ model: TableModel, _ ids: Range<Int>) -> Int {
        ids.count { id in
            guard let (location, hint) = model.index.rowLocations.entry(ItemID(id)) else { return false }
            let section = Int(model.index.keyPositions[Int(location.key)])
            return model.table.sections[section].rows.hintedIndex(hint, inLeaf: location.leaf) != nil
        }
    }

    @Test func whenAModelIsBuilt_thenEveryPositionHintHolds_andAnEditEndsOnlyThoseOfTheLeafItShifts() throws {
        var model = try Self.model()
        #expect(Self.rowsWithHintsThatHold(model, 0..<Self.rows) == Self.rows)
        try model.performBatch { $0.insert(DefaultRow("new", id: -1), at: RowPath(section: 0, row: 0)) }
        // The rows of the first leaf (112 of a built tree) moved up one slot; no other row moved.
        #expect(Self.rowsWithHintsThatHold(model, 0..<Self.rows) == Self.rows - 112)
        #expect(model.path(of: ItemID(5)) == RowPath(section: 0, row: 6))
        #expect(model.path(of: ItemID(500)) == RowPath(section: 0, row: 501))
        #expect(model.indexViolation() == nil)
    }

    @Test func whenALeafsEpochWrapsAround_thenItsHintsAreMadeAgainAndEveryPathIsStillRight() throws {
        var model = try Self.model(rows: 300)
        let leaf = try #require(model.index.rowLocations[ItemID(0)]).leaf
        // The hints of a built tree's leaves (300 rows: three of 100) are made in epoch 0; this
        // insert shifts row 0's leaf to epoch 1, so its rows' hints stop holding.
        try model.performBatch { $0.insert(DefaultRow("a", id: -1), at: RowPath(section: 0, row: 0)) }
        #expect(Self.rowsWithHintsThatHold(model, 0..<100) == 0)
        #expect(Self.rowsWithHintsThatHold(model, 100..<300) == 200)
        // The next shift wraps the epoch to 0, where the old hints (two rows off now) would hold
        // again: the edit has the leaf's hints made again.
        model.table.sections[0].rows.storage.setEpochForTesting(0xFF_FFFF, ofLeaf: leaf)
        try model.performBatch { $0.insert(DefaultRow("b", id: -2), at: RowPath(section: 0, row: 0)) }
        #expect(model.path(of: ItemID(0)) == RowPath(section: 0, row: 2))
        #expect(model.path(of: ItemID(99)) == RowPath(section: 0, row: 101))
        #expect(Self.rowsWithHintsThatHold(model, 0..<100) == 100)
        #expect(model.indexViolation() == nil)
    }

    @Test func whenOneLeafFillsUp_thenOnlyTheRowsItsSplitMovesAreRewritten() throws {
        var model = try Self.model()
        var rewritten = 0
        for step in 0..<200 {
            let before = model.index.rowLocations
            try model.performBatch { $0.insert(DefaultRow("new", id: -1 - step), at: RowPath(section: 0, row: 5)) }
            rewritten += (0..<Self.rows).count { model.index.rowLocations[ItemID($0)] != before[ItemID($0)] }
        }
        // 200 inserts into one leaf of 112 split it twice or three times; each split re-homes half a
        // leaf of at most 128 rows.
        #expect(rewritten > 0 && rewritten <= 3 * 64, "\(rewritten) entries rewritten")
        #expect(model.indexViolation() == nil)
    }

    @Test func whenABatchShiftsASectionPastTheLimit_thenEveryOldPositionIsStillExact() throws {
        var model = try Self.model(rows: 3_000)
        let limit = BatchLog.shiftLimit(rowCount: 3_000)
        #expect(limit == 2 * 54, "2√3000, rounded down")
        // Inserts at the top, then deletes of the original rows spread over the section: their old
        // rows are found by moving back through the inserts until the limit, by the noted positions
        // after it.
        let changes = try model.performBatch { batch in
            for step in 0..<limit { batch.insert(DefaultRow("more", id: -1 - step), at: RowPath(section: 0, row: 0)) }
            for id in stride(from: 0, to: 3_000, by: 10) { batch.delete(.id(ItemID(id))) }
        }
        #expect(changes.insertedRows.map(\.index) == (0..<limit).map { RowPath(section: 0, row: $0) })
        #expect(
            changes.deletedRows.map(\.index) == stride(from: 0, to: 3_000, by: 10).map { RowPath(section: 0, row: $0) })
        #expect(model.indexViolation() == nil)
        #expect(try changes.validate() == ())
    }

    @Test func whenAFailedBatchHadShiftedRowsAcrossLeaves_thenTheModelAndItsIndexAreAsBefore() throws {
        var model = try Self.model(rows: 1_000)
        let before = model.sections[0].rows.map(\.id)
        #expect(throws: TableUpdateError.self) {
            try model.performBatch { batch in
                for step in 0..<400 { batch.insert(DefaultRow("more", id: -1 - step), at: RowPath(section: 0, row: 7)) }
                for step in 0..<300 { batch.delete(.path(RowPath(section: 0, row: 500 + step % 3))) }
                batch.delete(.id(ItemID(123_456)))  // unknown: the batch fails here
            }
        }
        #expect(model.sections[0].rows.map(\.id) == before)
        #expect(model.indexViolation() == nil)
    }
}
