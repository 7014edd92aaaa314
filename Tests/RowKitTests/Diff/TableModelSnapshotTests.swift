import RowKit
import Testing

@Suite struct TableModelSnapshotTests {
    private func table(_ names: [String], footer: String? = nil) -> Table {
        Table(style: .grouped) {
            Section("Fruit", footer: footer) {
                for name in names { DefaultRow(name) }
            }
        }
    }

    @Test func whenADiffIsComputedOffTheMainActor_thenApplyingItMakesTheModelTheNewTable() async throws {
        var model = try TableModel(table(["apple", "pear", "plum"]))
        let (old, revision) = (model.table, model.revision)
        let new = table(["plum", "apple", "fig"])
        let diff = try await Task.detached { try TableDiff.diff(from: old, revision: revision, to: new) }.value

        let changes = try model.apply(diff)

        #expect(model.sections[0].rows.map(\.id) == ["plum", "apple", "fig"])
        #expect(changes.fromRevision == revision)
        #expect(changes.toRevision == model.revision)
        #expect(model.revision != revision)
        #expect(model.path(of: "fig") == RowPath(section: 0, row: 2))
        #expect(model.path(of: "pear") == nil)
    }

    @Test func whenTheModelChangedAfterDiffing_thenApplyingTheStaleDiffThrowsAndChangesNothing() throws {
        var model = try TableModel(table(["apple", "pear"]))
        let diff = try TableDiff.diff(from: model.table, revision: model.revision, to: table(["pear"]))
        try model.performBatch { $0.delete(.id("apple")) }
        let before = (model.dump, model.revision)

        #expect(throws: SnapshotError.stale(base: diff.baseRevision, current: model.revision)) {
            try model.apply(diff)
        }
        #expect(model.dump == before.0)
        #expect(model.revision == before.1)
    }

    @Test func whenUpdatingToATableWithADuplicateIdentity_thenItThrowsAndTheModelIsUnchanged() throws {
        var model = try TableModel(table(["apple"]))
        let before = (model.dump, model.revision)

        #expect(throws: SnapshotError.self) { try model.update(to: table(["fig", "fig"])) }
        #expect(model.dump == before.0)
        #expect(model.revision == before.1)
    }

    @Test func whenOnlyAFooterChanges_thenTheChangesetIsEmptyButTheModelTakesTheNewTable() throws {
        var model = try TableModel(table(["apple"], footer: "old"))
        let revision = model.revision

        let changes = try model.update(to: table(["apple"], footer: "new"))

        #expect(changes.isEmpty)
        #expect(model.sections[0].footer?.title == "new")
        #expect(model.revision != revision)
    }
}
