import RowKit
import Testing

/// The parts of RowKit that run concurrently: revisions are drawn from many threads, and diffs of
/// shared `Sendable` tables run in parallel off the main actor. `scripts/test.sh` runs this suite
/// under ThreadSanitizer.
@Suite struct ConcurrentUseTests {
    @Test func whenRevisionsAreDrawnFromManyTasksAtOnce_thenEveryOneIsUnique() async {
        let perTask = 2_000
        let revisions = await withTaskGroup(of: [Revision].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<perTask).map { _ in Revision.next() } }
            }
            var all: [Revision] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(revisions.count == 8 * perTask)
        #expect(Set(revisions).count == revisions.count)
    }

    @Test func whenOneTableIsDiffedInParallelTasks_thenEveryTaskGetsTheSameChangeset() async throws {
        let old = Table(style: .plain) {
            for letter in ["A", "B", "C", "D"] {
                Section(letter) { for number in 0..<200 { DefaultRow("\(letter)\(number)") } }
            }
        }
        let new = Table(style: .plain) {
            for letter in ["D", "B", "A", "E"] {
                Section(letter) {
                    for number in stride(from: 199, through: 0, by: -3) { DefaultRow("\(letter)\(number)") }
                }
            }
        }
        let model = try TableModel(old)
        let (table, revision) = (model.table, model.revision)
        let changesets = try await withThrowingTaskGroup(of: Changeset.self) { group in
            for _ in 0..<6 {
                group.addTask { try TableDiff.diff(from: table, revision: revision, to: new).changeset }
            }
            var all: [Changeset] = []
            for try await changeset in group { all.append(changeset) }
            return all
        }
        #expect(changesets.count == 6)
        #expect(Set(changesets).count == 1)
        var applied = model
        let diff = try TableDiff.diff(from: table, revision: revision, to: new)
        try applied.apply(diff)
        #expect(applied.sections.map(\.id) == new.sections.map(\.id))
    }
}
