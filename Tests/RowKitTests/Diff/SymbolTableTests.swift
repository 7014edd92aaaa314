import RowKit
import RowKitBench
import Testing

/// The diff's symbol table keeps the symbols in their sequences and grows as symbols only in the
/// new sequence arrive; identities of any type match the same way.
struct SymbolTableTests {
    @Test func whenTheNewSnapshotHasFarMoreRowsThanTheOld_thenEveryNewRowIsInsertedAndNoneLost() throws {
        let old = snapshot([(100, rows(1, 2, 3))])
        let new = snapshot([(100, (0..<20_000).map { ($0, 0) })])
        let changes = try TableDiff.changeset(from: old, to: new)
        #expect(changes.insertedRows.count == 20_000 - 3)
        #expect(changes.deletedRows.isEmpty && changes.movedRows.isEmpty)
    }

    @Test func whenARepeatHidesAmongManyNewRows_thenTheDiffNamesBothPositions() throws {
        let new = snapshot([(100, (0..<5_000).map { ($0, 0) } + [(4_321, 0)])])
        #expect(
            throws: SnapshotError.duplicateRowID(
                ItemID(4_321), first: RowPath(section: 0, row: 4_321), second: RowPath(section: 0, row: 5_000),
                side: .new)
        ) {
            try TableDiff.changeset(from: snapshot([(100, rows(1))]), to: new)
        }
    }

    @Test func whenIdentitiesAreItemIDs_thenTheChangesetIsTheOneOfTheirValues() throws {
        let (old, new) = DiffBenchmark.makeSnapshots(rows: 5_000, changeFraction: 0.05, seed: 3)
        func erased(_ snapshot: TableSnapshot<Int, Int>) -> TableSnapshot<ItemID, Int> {
            var out = TableSnapshot<ItemID, Int>()
            for section in 0..<snapshot.sectionCount {
                out.appendSection(ItemID(snapshot.sectionIDs[section]))
                for (id, content) in zip(snapshot.rowIDs(inSection: section), snapshot.contents(inSection: section)) {
                    // Every third identity a string, so boxed and inline identities mix.
                    out.appendRow(id % 3 == 0 ? ItemID("r\(id)") : ItemID(id), content: content)
                }
            }
            return out
        }
        let plain = try TableDiff.changeset(from: old, to: new)
        let identities = try TableDiff.changeset(from: erased(old), to: erased(new))
        #expect(identities.deletedRows == plain.deletedRows && identities.insertedRows == plain.insertedRows)
        #expect(identities.movedRows == plain.movedRows && identities.reloadedRows == plain.reloadedRows)
    }
}
