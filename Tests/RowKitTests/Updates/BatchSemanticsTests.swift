import Testing

@testable import RowKit

/// The documented semantics of `TableModel.performBatch`, one rule per test.
struct BatchSemanticsTests {
    static func letters() throws -> TableModel {
        try TableModel(
            Table {
                Section("First") {
                    DefaultRow("a"); DefaultRow("b"); DefaultRow("c")
                }
                Section("Second") {
                    DefaultRow("d"); DefaultRow("e")
                }
                Section("Empty")
            })
    }

    static func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }

    @Test func whenOperationsFollowEachOther_thenEachIsInterpretedAgainstTheStateTheLastOneLeft() throws {
        var model = try Self.letters()
        let changes = try model.performBatch { batch in
            batch.insert(DefaultRow("x"), at: Self.path(0, 0))
            batch.delete(.path(Self.path(0, 1)))  // "a", now at row 1
        }
        #expect(model.sections[0].rows.map(\.id) == ["x", "b", "c"])
        #expect(changes.deletedRows == [.init(Self.path(0, 0))], "deletes are reported in old coordinates")
        #expect(changes.insertedRows == [.init(Self.path(0, 0))], "inserts in new coordinates")
    }

    @Test func whenARowIsReplacedByTheSameIdentity_thenItIsAReloadAndByAnotherIdentity_thenADeleteAndAnInsert() throws {
        var model = try Self.letters()
        let same = try model.performBatch {
            $0.replace(.path(Self.path(1, 1)), with: DefaultRow("E", id: "e"), animation: .fade)
        }
        #expect(same.reloadedRows == [.init(Self.path(1, 1), animation: .fade)])
        #expect(same.insertedRows.isEmpty && same.deletedRows.isEmpty)
        let other = try model.performBatch {
            $0.replace(.path(Self.path(1, 1)), with: DefaultRow("f"), animation: .left)
        }
        #expect(other.deletedRows == [.init(Self.path(1, 1), animation: .left)])
        #expect(other.insertedRows == [.init(Self.path(1, 1), animation: .left)])
        #expect(model.path(of: "e") == nil && model.path(of: "f") == Self.path(1, 1))
    }

    @Test func whenARowIsBothMovedAndReloaded_thenTheChangesetMovesItAndReloadsItAtItsOldPath() throws {
        var model = try Self.letters()
        let changes = try model.performBatch { batch in
            batch.reload(.id("a"), animation: .fade)
            batch.move(.id("a"), to: Self.path(1, 2), animation: .left)
        }
        #expect(changes.deletedRows.isEmpty && changes.insertedRows.isEmpty)
        #expect(changes.movedRows == [.init(from: Self.path(0, 0), to: Self.path(1, 2), animation: .left)])
        #expect(changes.reloadedRows == [.init(Self.path(0, 0), animation: .left)])
        try changes.validate()
    }

    @Test func whenARowIsDeletedAndInsertedAgainWithItsIdentity_thenTheChangesetDeletesAndInsertsIt() throws {
        var model = try Self.letters()
        let changes = try model.performBatch { batch in
            batch.delete(.id("b"))
            batch.insert(DefaultRow("b"), at: Self.path(0, 0))
        }
        #expect(model.sections[0].rows.map(\.id) == ["b", "a", "c"])
        #expect(changes.deletedRows == [.init(Self.path(0, 1))])
        #expect(changes.insertedRows == [.init(Self.path(0, 0))])
        #expect(changes.movedRows.isEmpty)
    }

    @Test func whenRowsChangeInsideInsertedOrDeletedSections_thenOnlyTheSectionChangesAreListed() throws {
        var model = try Self.letters()
        let changes = try model.performBatch { batch in
            batch.appendSection(Section("Third") { DefaultRow("n") })
            batch.append(DefaultRow("m"), to: .id("Third"))
            batch.delete(.id("d"))
            batch.deleteSection(.id("Second"), animation: .bottom)
            batch.move(.id("c"), to: Self.path(1, 0))  // into the empty section
        }
        #expect(model.sectionIDs == ["First", "Empty", "Third"])
        #expect(changes.deletedSections == [.init(1, animation: .bottom)])
        #expect(changes.insertedSections == [.init(2)])
        #expect(changes.insertedRows.isEmpty && changes.deletedRows.isEmpty)
        #expect(changes.movedRows == [.init(from: Self.path(0, 2), to: Self.path(1, 0))])
    }

    @Test func whenARowMovesOutOfASectionThatIsThenDeleted_thenItMovesAndOnlyTheSectionIsDeleted() throws {
        var model = try Self.letters()
        let changes = try model.performBatch { batch in
            batch.move(.id("e"), to: Self.path(0, 3), animation: .middle)
            batch.deleteSection(.id("Second"))
        }
        #expect(model.sections[0].rows.map(\.id) == ["a", "b", "c", "e"])
        #expect(changes.deletedSections == [.init(1)])
        #expect(
            changes.insertedRows == [.init(Self.path(0, 3), animation: .middle)],
            "a row from a deleted section arrives as an insert")
        #expect(changes.movedRows.isEmpty)
    }

    @Test func whenSectionsMoveAndRowsChangeInsideThem_thenRowChangesUseOldAndNewSectionIndices() throws {
        var model = try Self.letters()
        let changes = try model.performBatch { batch in
            batch.moveSection(.id("First"), to: 2)
            batch.delete(.id("b"))
            batch.insert(DefaultRow("z"), at: Self.path(2, 0))
        }
        #expect(model.sectionIDs == ["Second", "Empty", "First"])
        #expect(changes.movedSections == [.init(from: 0, to: 2)])
        #expect(changes.deletedRows == [.init(Self.path(0, 1))])
        #expect(changes.insertedRows == [.init(Self.path(2, 0))])
    }

    @Test func whenASectionIsReloaded_thenItsRowChangesAreLeftToTheReload() throws {
        var model = try Self.letters()
        let changes = try model.performBatch { batch in
            batch.reloadSection(.id("Second"), animation: .fade)
            batch.append(DefaultRow("f"), to: .index(1))
        }
        #expect(changes.reloadedSections == [.init(1, animation: .fade)])
        #expect(changes.insertedRows.isEmpty)
        #expect(changes.newRowCounts == [3, 3, 0])
    }

    @Test func whenASectionWithoutIdentityIsInserted_thenItTakesItsPositionAsIdentity() throws {
        var model = try Self.letters()
        try model.performBatch { $0.insertSection(Section { DefaultRow("p") }, at: 1) }
        #expect(model.sectionIndex(of: ItemID(PositionalSectionID(index: 1))) == 1)
        // Position 1's identity is taken: the next free one.
        try model.performBatch { $0.insertSection(Section(), at: 1) }
        #expect(model.sectionIndex(of: ItemID(PositionalSectionID(index: 2))) == 1)
        #expect(model.sectionIndex(of: ItemID(PositionalSectionID(index: 1))) == 2)
    }

    @Test func whenUntitledSectionsAreInsertedAmongUntitledOnes_thenEachGetsAnIdentityNoOtherHas() throws {
        var model = try TableModel(Table { Section { DefaultRow("x") } })  // its identity: #0
        let changes = try model.performBatch { batch in
            batch.insertSection(Section { DefaultRow("y") }, at: 0)
            batch.appendSection(Section { DefaultRow("z") })
        }
        #expect(changes.insertedSections.map(\.index) == [0, 2])
        let ids = model.sections.map(\.id)
        #expect(Set(ids).count == 3)
        #expect(ids[1] == ItemID(PositionalSectionID(index: 0)), "the old section keeps its identity")
        try model.performBatch { batch in
            batch.deleteSection(.index(0))
            batch.appendSection(Section { DefaultRow("w") })
            batch.replaceSection(.index(0), with: Section { DefaultRow("v") })
        }
        #expect(Set(model.sections.map(\.id)).count == 3)
        #expect(model.sections.flatMap { $0.rows.map(\.id) } == ["v", "z", "w"])
    }

    @Test func whenAnUntitledSectionIsDescribed_thenItIsCalledUntitled() {
        let operation = TableBatch.Operation.insertSection(Section(), at: 0, animation: .automatic)
        #expect(operation.description == "insert section (untitled) at 0")
        let titled = TableBatch.Operation.appendSection(Section("Wi-Fi"), animation: .automatic)
        #expect(titled.description == "append section \"Wi-Fi\"")
    }

    @Test func whenABatchChangesNothingInTheEnd_thenItsChangesetIsEmptyAndTheRevisionStays() throws {
        var model = try Self.letters()
        let revision = model.revision
        let inPlace = try model.performBatch { $0.move(.id("b"), to: Self.path(0, 1)) }
        let andBack = try model.performBatch { batch in
            batch.move(.id("d"), to: Self.path(0, 0))
            batch.move(.id("d"), to: Self.path(1, 0))
            batch.moveSection(.id("Second"), to: 0)
            batch.moveSection(.id("Second"), to: 1)
        }
        let insertedAndDeleted = try model.performBatch { batch in
            batch.insert(DefaultRow("x"), at: Self.path(2, 0))
            batch.delete(.id("x"))
        }
        for changes in [inPlace, andBack, insertedAndDeleted] {
            #expect(changes.isEmpty)
            #expect(changes.fromRevision == revision && changes.toRevision == revision)
            #expect(changes.oldRowCounts == [3, 2, 0] && changes.newRowCounts == [3, 2, 0])
        }
        #expect(model.revision == revision)
        #expect(model.sections.map { $0.rows.map(\.id) } == [["a", "b", "c"], ["d", "e"], []])
    }

    @Test func whenAMovedRowEndsAtItsOldIndexAmongOtherChanges_thenTheMoveIsKept() throws {
        // [a, b] → insert x at 0 → [x, a, b] → move b to 1 → [x, b, a]: b is at index 1 before and
        // after, but it passed a, so a view needs the move.
        var model = try TableModel(
            Table {
                Section("S") {
                    DefaultRow("a"); DefaultRow("b")
                }
            })
        let revision = model.revision
        let changes = try model.performBatch { batch in
            batch.insert(DefaultRow("x"), at: Self.path(0, 0))
            batch.move(.id("b"), to: Self.path(0, 1))
        }
        #expect(changes.movedRows.map { [$0.from, $0.to] } == [[Self.path(0, 1), Self.path(0, 1)]])
        #expect(model.revision != revision && changes.toRevision == model.revision)
        let replayed = try changes.replay(
            on: [["a", "b"]], newSection: { _ in [] }, insertedRow: { _ in "x" }, reloadedRow: { _, id in id })
        #expect(replayed == [["x", "b", "a"]])
    }

    /// A move that is only a shift is not listed, for rows and sections, and a
    /// reload listed with such a move is a reload in place.
    @Test func whenAMoveIsOnlyAShiftAmongOtherChanges_thenItIsNotListed() throws {
        var model = try Self.letters()
        let rowInPlace = try model.performBatch { batch in
            batch.move(.id("b"), to: Self.path(0, 1))
            batch.delete(.id("d"))
        }
        #expect(rowInPlace.movedRows.isEmpty)
        #expect(rowInPlace.deletedRows.map(\.index) == [Self.path(1, 0)])

        model = try Self.letters()
        let rowShifted = try model.performBatch { batch in
            batch.move(.id("b"), to: Self.path(0, 1))
            batch.delete(.id("a"))
        }
        #expect(rowShifted.movedRows.isEmpty, "b only shifts up because a was deleted")
        #expect(rowShifted.deletedRows.map(\.index) == [Self.path(0, 0)])

        model = try Self.letters()
        let reloadInPlace = try model.performBatch { batch in
            batch.reload(.id("b"))
            batch.move(.id("b"), to: Self.path(0, 1))
        }
        #expect(reloadInPlace.movedRows.isEmpty && reloadInPlace.reloadedRows.map(\.index) == [Self.path(0, 1)])

        model = try Self.letters()
        let sectionReloadInPlace = try model.performBatch { batch in
            batch.reloadSection(.index(1))
            batch.moveSection(.index(1), to: 1)
        }
        #expect(sectionReloadInPlace.movedSections.isEmpty)
        #expect(sectionReloadInPlace.reloadedSections.map(\.index) == [1])

        model = try Self.letters()
        let sectionInPlace = try model.performBatch { batch in
            batch.appendSection(Section("Fourth"))
            batch.deleteSection(.index(3))
            batch.moveSection(.index(1), to: 1)
            batch.deleteSection(.index(2))
        }
        #expect(sectionInPlace.movedSections.isEmpty)
        #expect(sectionInPlace.deletedSections.map(\.index) == [2])

        model = try Self.letters()
        let sectionShifted = try model.performBatch { batch in
            batch.moveSection(.index(1), to: 1)
            batch.deleteSection(.index(0))
        }
        #expect(sectionShifted.movedSections.isEmpty && sectionShifted.deletedSections.map(\.index) == [0])
        for changes in [rowInPlace, rowShifted, reloadInPlace, sectionReloadInPlace, sectionInPlace, sectionShifted] {
            try changes.validate()
        }
    }

    /// Leaving out shift-only moves keeps every real move: random batches of moves among inserts
    /// and deletes replay to the model's new rows, and no listed move could be left out.
    @Test func whenMovesMixWithOtherChanges_thenTheChangesetStillReplaysAndListsNoShift() throws {
        var random = SeededRandom(seed: 0x0037_0019)
        for round in 0..<300 {
            let before: [[String]] = [(0..<6).map { "a\($0)" }, (0..<4).map { "b\($0)" }]
            var model = try TableModel(
                Table {
                    for (index, ids) in before.enumerated() {
                        Section(id: "s\(index)") { for id in ids { DefaultRow(id) } }
                    }
                })
            var next = 0
            let changes = try model.performBatch { batch in
                var counts = before.map(\.count)
                for _ in 0..<random.int(in: 1...5) {
                    let section = random.int(in: 0...1)
                    switch random.int(in: 0...3) {
                    case 0 where counts[section] > 0:
                        batch.delete(.path(Self.path(section, random.int(in: 0...counts[section] - 1))))
                        counts[section] -= 1
                    case 1:
                        batch.insert(
                            DefaultRow("x\(next)"), at: Self.path(section, random.int(in: 0...counts[section])))
                        next += 1
                        counts[section] += 1
                    default:
                        guard counts[section] > 0 else { continue }
                        let row = random.int(in: 0...counts[section] - 1)
                        batch.move(
                            .path(Self.path(section, row)),
                            to: Self.path(section, random.int(in: 0...counts[section] - 1)))
                    }
                }
            }
            let after = model.sections.map { $0.rows.map { "\($0.id)" } }
            let replayed = try changes.replay(
                on: before, newSection: { after[$0] }, insertedRow: { after[$0.section][$0.row] },
                reloadedRow: { _, id in id })
            #expect(replayed == after, "round \(round): \(changes)")
            for position in changes.movedRows.indices {
                var without = changes
                without.movedRows.remove(at: position)
                let move = changes.movedRows[position]
                let other = try? without.replay(
                    on: before, newSection: { after[$0] }, insertedRow: { after[$0.section][$0.row] },
                    reloadedRow: { _, id in id })
                #expect(other != after, "round \(round): \(move.from)->\(move.to) is only a shift")
            }
        }
    }

    @Test func whenTheBatchIsEmpty_thenNothingChangesAndTheRevisionStays() throws {
        var model = try Self.letters()
        let revision = model.revision
        let changes = try model.performBatch { _ in }
        #expect(changes.isEmpty)
        #expect(model.revision == revision && changes.fromRevision == revision && changes.toRevision == revision)
        #expect(changes.oldRowCounts == [3, 2, 0] && changes.newRowCounts == [3, 2, 0])
    }

    @Test func whenTheBodyThrows_thenNothingIsAppliedAndTheErrorSaysSo() throws {
        struct Cancelled: Error {}
        var model = try Self.letters()
        let before = model.dump
        #expect {
            try model.performBatch { batch in
                batch.delete(.id("a"))
                throw Cancelled()
            }
        } throws: { error in
            guard let error = error as? TableUpdateError, case .bodyThrew = error.problem else { return false }
            return error.operationIndex == 1 && error.operation == nil
        }
        #expect(model.dump == before)
    }

    @Test func whenOneOperationIsWrong_thenTheErrorNamesItsIndexAndOperationAndTheModelIsUnchanged() throws {
        var model = try Self.letters()
        let before = model
        do {
            try model.performBatch { batch in
                batch.insert(DefaultRow("x"), at: Self.path(0, 0))
                batch.moveSection(.index(0), to: 2)
                batch.delete(.id("a"))
                batch.move(.id("a"), to: Self.path(0, 0), animation: .fade)
                batch.reload(.id("x"))
            }
            Issue.record("the batch succeeded")
        } catch {
            #expect(error.operationIndex == 3)
            #expect(error.problem == .rowDeletedEarlier("a"))
            #expect(
                error.description
                    == #"operation 3 (move row "a" to [0, 0] (fade)): row "a" was deleted earlier in this batch"#)
        }
        #expect(model.revision == before.revision && model.dump == before.dump)
        #expect(model.indexViolation() == nil)
        #expect(model.path(of: "x") == nil && model.path(of: "a") == Self.path(0, 0))
    }

    @Test func whenARowOrSectionTheBatchInsertedIsReloaded_thenTheBatchThrows() throws {
        var model = try Self.letters()
        #expect(throws: TableUpdateError.self) {
            try model.performBatch { batch in
                batch.append(DefaultRow("x"), to: .index(2))
                batch.reload(.id("x"))
            }
        }
        do {
            try model.performBatch { batch in
                batch.appendSection(Section("New"))
                batch.reloadSection(.index(3))
            }
            Issue.record("the batch succeeded")
        } catch {
            #expect(error.operationIndex == 1 && error.problem == .reloadOfInsertedSection("New"))
        }
    }

    @Test func whenLookingUp_thenIdentitiesAndPathsAgreeAndUnknownsAreNil() throws {
        let model = try Self.letters()
        #expect(model.numberOfSections == 3)
        #expect(model.numberOfRows(inSection: 0) == 3 && model.numberOfRows(inSection: 2) == 0)
        #expect(model.numberOfRows(inSection: 3) == nil && model.numberOfRows(inSection: -1) == nil)
        #expect(model.path(of: "e") == Self.path(1, 1))
        #expect(model.row(withID: "e")?.id == "e")
        #expect(model.contains(rowID: "e") && !model.contains(rowID: "q"))
        #expect(model.section(withID: "Second")?.rows.count == 2)
        #expect(model.section(at: 5) == nil)
        #expect(model.sectionIndex(of: "Nope") == nil)
    }
}
