import RowKit
import Testing

/// A changeset reads in the compact form of the articles; a batch's append is the operation of
/// the same name; a body's error is kept.
@Suite struct ChangesetDescriptionTests {
    static func letters() throws -> TableModel {
        try TableModel(
            Table {
                Section("First") {
                    DefaultRow("a"); DefaultRow("b"); DefaultRow("c")
                }
                Section("Second") {
                    DefaultRow("d"); DefaultRow("e")
                }
                Section("Third")
                Section("Fourth")
            })
    }

    @Test func whenAChangesetIsPrinted_thenItListsSectionsThenRowsInTheCompactForm() throws {
        var model = try Self.letters()
        let changes = try model.performBatch { batch in
            batch.deleteSection(.id("Fourth"))
            batch.moveSection(.id("First"), to: 1)
            batch.delete(.id("b"))
            batch.reload(.id("d"))
            batch.move(.id("c"), to: RowPath(section: 0, row: 0))
            batch.insert(DefaultRow("x"), at: RowPath(section: 2, row: 0))
        }
        #expect(
            changes.description
                == "delSec 3; movSec 0->1; del [0,1]; ins [2,0]; rel [1,0]; mov [0,2]->[0,0]")
        #expect(Changeset().description == "no changes")
        var everything = Changeset()
        everything.reloadedSections = [.init(0)]
        everything.reloadsEverything = true
        #expect(everything.description == "relSec 0; reloadsEverything")
    }

    @Test func whenARowIsAppended_thenTheOperationIsAppendRowToTheSection() throws {
        var batch = TableBatch()
        batch.append(DefaultRow("x"), to: .id("Second"))
        guard case .appendRow(let row, let section, _) = batch.operations.first else {
            Issue.record("recorded \(batch.operations)")
            return
        }
        #expect(row.id == "x" && section == .id("Second"))
        let operation = TableBatch.Operation.appendRow(AnyRow(DefaultRow("y")), to: .index(1), animation: .fade)
        var model = try Self.letters()
        try model.perform([operation])
        #expect(model.sections[1].rows.map(\.id) == ["d", "e", "y"])
    }

    @Test func whenTheBatchBodyThrows_thenTheErrorKeepsTheBodysError() throws {
        struct Cancelled: Error, Equatable { var reason: String }
        var model = try Self.letters()
        do {
            try model.performBatch { _ in throw Cancelled(reason: "user") }
            Issue.record("the batch succeeded")
        } catch {
            #expect(error.underlyingError as? Cancelled == Cancelled(reason: "user"))
            #expect(error.problem == .bodyThrew(#"Cancelled(reason: "user")"#))
        }
    }
}
