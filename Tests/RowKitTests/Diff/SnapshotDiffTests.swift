import RowKit
import RowKitBench
import Testing

@Suite struct SnapshotDiffTests {
    static func settings(wifi: String, bluetooth: Bool = true) -> Table {
        Table {
            Section("Network") {
                Value1Row("Wi-Fi", detail: wifi)
                if bluetooth { DefaultRow("Bluetooth") }
            }
            Section("General") {
                DefaultRow("About")
            }
        }
    }

    @Test func whenATablesRowChangesDetail_thenTheDiffReloadsItByIdentity() throws {
        let diff = try TableDiff.diff(
            from: Self.settings(wifi: "Home"), revision: .initial, to: Self.settings(wifi: "Office", bluetooth: false))
        #expect(diff.changeset.reloadedRows == [.init(RowPath(section: 0, row: 0))])
        #expect(diff.changeset.deletedRows == [.init(RowPath(section: 0, row: 1))])
        #expect(diff.table.rowCount == 2)
    }

    @Test func whenASnapshotIsTakenAtARevision_thenTheChangesetStartsFromIt() throws {
        let revision = Revision.next()
        let old = TableSnapshot(Self.settings(wifi: "Home"), revision: revision)
        #expect(old.revision == revision)
        #expect(old.sectionIDs == [ItemID("Network"), ItemID("General")])
        let changeset = try TableDiff.changeset(from: old, to: TableSnapshot(Self.settings(wifi: "Home")))
        #expect(changeset.fromRevision == revision && changeset.isEmpty)
    }

    @Test func whenTheDiffRunsOffTheMainActor_thenItsResultComesBackWhole() async throws {
        let (old, new) = DiffBenchmark.makeSnapshots(rows: 2_000, changeFraction: 0.1, seed: 3)
        let changeset = try await Task.detached { try TableDiff.changeset(from: old, to: new) }.value
        #expect(changeset == (try TableDiff.changeset(from: old, to: new)))

        let table = Self.settings(wifi: "Home")
        let diff = try await Task.detached {
            try TableDiff.diff(from: table, revision: .initial, to: Self.settings(wifi: "Work"))
        }.value
        #expect(diff.changeset.reloadedRows.count == 1)
    }

    @Test func whenTheModelIsStillAtTheBaseRevision_thenTheDiffIsFresh() throws {
        let base = Revision.next()
        let diff = try TableDiff.diff(from: Self.settings(wifi: "A"), revision: base, to: Self.settings(wifi: "B"))
        #expect(diff.baseRevision == base)
        #expect(throws: Never.self) { try diff.checkFresh(current: base) }
    }

    @Test func whenTheModelMovedOn_thenApplyingTheDiffIsRefusedAsStale() throws {
        let base = Revision.next()
        let diff = try TableDiff.diff(from: Self.settings(wifi: "A"), revision: base, to: Self.settings(wifi: "B"))
        let current = Revision.next()
        #expect(throws: SnapshotError.stale(base: base, current: current)) { try diff.checkFresh(current: current) }
        #expect(throws: SnapshotError.stale(base: base, current: current)) {
            try diff.changeset.checkFresh(current: current)
        }
    }
}
