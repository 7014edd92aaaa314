import RowKit
import Testing

/// Randomized differential tests of `TableModel.performBatch`: thousands of seeded batches against a
/// naive array model, each checked by replaying its changeset on a mirror of the old rows.
struct BatchPropertyTests {
    static let tables = 120
    static let batchesPerTable = 25

    @Test func whenRandomBatchesSucceed_thenReplayingTheirChangesetsOnTheOldRowsGivesTheNewModel() throws {
        try checkRandomBatches(
            seed: 0x5EED_0001, tables: Self.tables, batchesPerTable: Self.batchesPerTable,
            maxRows: 6, operations: 1...8)
    }

    /// One or two sections of up to 300 rows and batches of up to 700 operations, mostly on rows:
    /// the index renumbers a section in the middle of a batch (at 4 × 8 log₂ k shifts), which must
    /// not lose where the batch's rows were before it, and after the batch (at 8 log₂ k).
    @Test func whenLongBatchesEditLargeSections_thenReplayingTheirChangesetsOnTheOldRowsGivesTheNewModel() throws {
        try checkRandomBatches(
            seed: 0x5EED_0003, tables: 10, batchesPerTable: 12, maxRows: 300, sections: 1...2,
            operations: 1...700, sectionOperationChance: 0.1)
    }

    private func checkRandomBatches(
        seed: UInt64, tables: Int, batchesPerTable: Int, maxRows: Int, sections: ClosedRange<Int> = 1...5,
        operations operationCount: ClosedRange<Int>, sectionOperationChance: Double = 1
    ) throws {
        var generator = BatchGenerator(seed: seed)
        var batches = 0
        for tableNumber in 0..<tables {
            var shadow = generator.table(maxRows: maxRows, sections: sections)
            var model = try TableModel(shadow.table)
            for batchNumber in 0..<batchesPerTable {
                let context = "table \(tableNumber), batch \(batchNumber)"
                shadow.beginBatch()
                if sectionOperationChance < 1 {
                    generator.sectionOperations = generator.random.chance(sectionOperationChance)
                }
                let operations = (0..<generator.random.int(in: operationCount)).map { _ in
                    generator.validOperation(on: &shadow)
                }
                let oldMirror = model.mirror
                let oldSectionIDs = model.sectionIDs
                let oldRevision = model.revision

                let changes: Changeset
                do {
                    changes = try model.perform(operations)
                } catch {
                    Issue.record("\(context): \(error)\n\(operations.map(\.description).joined(separator: "\n"))")
                    return
                }
                batches += 1
                let newMirror = model.mirror
                #expect(newMirror == shadow.mirror, "\(context): model differs from the naive model")
                #expect(model.sectionIDs == shadow.sectionIDs, "\(context): section identities differ")
                #expect(model.indexViolation() == nil, "\(context): \(model.indexViolation() ?? "")")
                // A batch with a net change gets a new revision; one without (its changes undone
                // within it) keeps the revision and returns an empty changeset.
                #expect((model.revision == oldRevision) == changes.isEmpty)
                if changes.isEmpty {
                    #expect(newMirror == oldMirror && model.sectionIDs == oldSectionIDs, "\(context): empty changeset")
                }
                #expect(changes.fromRevision == oldRevision && changes.toRevision == model.revision)
                #expect(throws: Never.self) { try changes.validate() }

                let replayed = try changes.replay(
                    on: oldMirror,
                    newSection: { newMirror[$0] },
                    insertedRow: { newMirror[$0.section][$0.row] },
                    reloadedRow: { path, old in
                        let new = newMirror[path.section][path.row]
                        #expect(new.id == old.id, "\(context): a reload changed identity at \(path)")
                        return new
                    })
                let replayedSections = try changes.replaySections(
                    on: oldSectionIDs, insertedSection: { model.sectionIDs[$0] },
                    reloadedSection: { _, old in old })
                guard replayed == newMirror, replayedSections == model.sectionIDs else {
                    Issue.record(
                        """
                        \(context): replay differs from the new model
                        operations:\n\(operations.map(\.description).joined(separator: "\n"))
                        old: \(oldMirror)
                        new: \(newMirror)
                        replayed: \(replayed)
                        changeset: \(changes)
                        """)
                    return
                }
            }
        }
        #expect(batches == tables * batchesPerTable)
    }

    @Test func whenARandomBatchHasOneBadOperation_thenItThrowsThatOperationsErrorAndTheModelIsUnchanged() throws {
        var generator = BatchGenerator(seed: 0x5EED_0002)
        for tableNumber in 0..<Self.tables {
            var shadow = generator.table()
            var model = try TableModel(shadow.table)
            for batchNumber in 0..<Self.batchesPerTable {
                let context = "table \(tableNumber), batch \(batchNumber)"
                shadow.beginBatch()
                let count = generator.random.int(in: 0...7)
                let badPosition = generator.random.int(in: 0...count)
                var operations: [TableBatch.Operation] = []
                var expectedProblem: TableUpdateError.Problem?
                for position in 0...count {
                    if position == badPosition {
                        let (bad, problem) = generator.badOperation(for: shadow)
                        operations.append(bad)
                        expectedProblem = problem
                    }
                    if position < count { operations.append(generator.validOperation(on: &shadow)) }
                }
                let before = model
                do {
                    try model.perform(operations)
                    Issue.record("\(context): the batch with a bad operation at \(badPosition) succeeded")
                    return
                } catch {
                    #expect(error.operationIndex == badPosition, "\(context): \(error)")
                    #expect(error.problem == expectedProblem, "\(context): \(error)")
                    #expect(error.operation?.description == operations[badPosition].description)
                }
                #expect(model.revision == before.revision, "\(context)")
                #expect(model.dump == before.dump, "\(context)")
                #expect(model.indexViolation() == nil, "\(context): \(model.indexViolation() ?? "")")

                // Without the bad operation the same batch goes through, so the model keeps evolving.
                operations.remove(at: badPosition)
                try model.perform(operations)
                #expect(model.mirror == shadow.mirror, "\(context)")
            }
        }
    }
}
