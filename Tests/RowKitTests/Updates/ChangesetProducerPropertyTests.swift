import RowKit
import Testing

/// Every changeset RowKit produces is one RowKit accepts: random batches of every operation kind
/// and random snapshot pairs diffed under each `DiffOptions`, each checked by every consumer.
///
/// For each changeset from an old model to a new one: `validate()` passes; `replay` and
/// `replaySections` on mirrors give the new rows and sections; `stages()` chain from the old counts
/// to the new, each stage validates, is one kind of change, and applying them in order (with the
/// API's replay and with `DiffReplay`'s UIKit rules) gives the new rows; and a headless view
/// showing the old model applies the changeset whole, after which it displays exactly a
/// brute-force layout of the new model, every displayed cell shows its row's new content, and its
/// display events account for every item that left or came.
@MainActor
@Suite struct ChangesetProducerPropertyTests {
    // MARK: Producers

    @Test(arguments: TableViewBackend.allCases)
    func whenRandomBatchesOfEveryKindAreApplied_thenTheirChangesetsAreTakenWholeByEveryConsumer(
        backend: TableViewBackend
    ) throws {
        var generator = BatchGenerator(seed: 0xC0DE_0016)
        var checker = Checker(backend: backend)
        var kinds = KindCoverage()
        for tableNumber in 0..<100 {
            var shadow = generator.table(maxRows: 8)
            var model = try TableModel(checker.rows.table(shadow.table))
            let view = checker.makeView(model, random: &generator.random)
            let ledger = EventLedger(view)
            for batchNumber in 0..<12 {
                shadow.beginBatch()
                let operations = (0..<generator.random.int(in: 1...8)).map { _ in
                    checker.rows.operation(generator.validOperation(on: &shadow))
                }
                let old = model
                let changes = try model.perform(operations)
                let context =
                    "table \(tableNumber) batch \(batchNumber)\n\(operations.map(\.description).joined(separator: "\n"))"
                kinds.record(changes)
                try checker.check(changes, from: old, to: model, view: view, ledger: ledger, context: context)
                if generator.random.chance(0.3) {
                    view.scroll(to: Double(generator.random.int(in: 0...max(Int(view.contentHeight), 0))))
                }
            }
        }
        #expect(kinds.allSeen(atLeast: 20), "\(kinds)")
    }

    @Test(arguments: TableViewBackend.allCases)
    func whenRandomSnapshotPairsAreDiffedUnderEachOption_thenTheirChangesetsAreTakenWholeByEveryConsumer(
        backend: TableViewBackend
    ) throws {
        let options = [
            DiffOptions(reloadThreshold: .never),
            DiffOptions(movedChanges: .deleteAndInsert, reloadThreshold: .never),
            DiffOptions(),
            DiffOptions(movedChanges: .deleteAndInsert, reloadThreshold: .changedFraction(0.3)),
            DiffOptions(reloadThreshold: .changedRows(3), insertAnimation: .fade, deleteAnimation: .left),
        ]
        var kinds = KindCoverage()
        for seed in 0..<UInt64(300) {
            var random = SeededRandom(seed: 0xD1FF_0016 &+ seed)
            let (oldMirror, newMirror) = RandomTables.pair(&random)
            for (index, option) in options.enumerated() {
                // A checker (and its measurement recorder) per view: pairs reuse row identities.
                var checker = Checker(backend: backend)
                let old = try TableModel(checker.rows.table(oldMirror))
                var model = old
                let changes = try model.update(to: checker.rows.table(newMirror), options: option)
                let context = "seed \(seed) options \(index)\nold: \(oldMirror)\nnew: \(newMirror)"
                #expect(changes.reloadsEverything == false || index >= 3, "\(context)")
                if option.movedChanges == .deleteAndInsert {
                    let moved = Set(changes.movedRows.map(\.from))
                    #expect(changes.reloadedRows.allSatisfy { !moved.contains($0.index) }, "\(context)")
                }
                kinds.record(changes)
                let view = checker.makeView(old, random: &random)
                try checker.check(
                    changes, from: old, to: model, view: view, ledger: EventLedger(view), context: context)
            }
        }
        #expect(kinds.allSeen(atLeast: 20, except: ["sectionReload", "sectionReloadCountChange"]), "\(kinds)")
    }

    // MARK: Consumers

    /// Checks a changeset with every consumer.
    @MainActor
    struct Checker {
        let backend: TableViewBackend
        let recorder = MeasureRecorder()
        let rows: TestRows
        /// Section identities as the small integers `Mirror` uses.
        var sectionNumbers: [ItemID: Int] = [:]

        init(backend: TableViewBackend) {
            self.backend = backend
            rows = TestRows(recorder: recorder)
        }

        /// A view of `model` at a random size and offset, laid out.
        func makeView(_ model: TableModel, random: inout SeededRandom) -> TableView {
            let view = TableView(
                model: model, viewport: TableViewport(width: 320, height: Double(random.int(in: 40...500))),
                backend: backend, reuseCapacity: random.int(in: 1...6))
            view.prefetchDistance = random.chance(0.5) ? Double(random.int(in: 1...200)) : 0
            view.scroll(to: Double(random.int(in: 0...max(Int(view.contentHeight), 0))))
            return view
        }

        mutating func check(
            _ changes: Changeset, from old: TableModel, to new: TableModel, view: TableView, ledger: EventLedger,
            context: String
        ) throws {
            let comment = Comment(rawValue: "\(context)\nchangeset: \(changes)")
            #expect(throws: Never.self, comment) { try changes.validate() }

            // The whole changeset, on mirrors.
            let oldRows = Self.rowMirror(old)
            let newRows = Self.rowMirror(new)
            let newSectionIDs = new.sections.map(\.id)
            let replayed = try changes.replay(
                on: oldRows, newSection: { newRows[$0] }, insertedRow: { newRows[$0.section][$0.row] },
                reloadedRow: { path, row in
                    #expect(newRows[path.section][path.row].id == row.id, comment)
                    return newRows[path.section][path.row]
                })
            #expect(replayed == newRows, comment)
            let replayedSections = try changes.replaySections(
                on: old.sections.map(\.id), insertedSection: { newSectionIDs[$0] }, reloadedSection: { _, id in id })
            #expect(replayedSections == newSectionIDs, comment)
            let oldMirror = mirror(old)
            let newMirror = mirror(new)
            #expect(
                try DiffReplay.apply(changes, to: oldMirror, dataSource: newMirror, allowsMovedReloads: true)
                    == newMirror,
                comment)

            // The stages, in order.
            let stages = changes.stages()
            #expect(stages.first?.oldRowCounts ?? changes.newRowCounts == changes.oldRowCounts, comment)
            #expect(stages.last?.newRowCounts ?? changes.oldRowCounts == changes.newRowCounts, comment)
            var stagedRows = oldRows
            var stagedSectionIDs = old.sections.map(\.id)
            var stagedMirror = oldMirror
            var newRowsByID: [ItemID: RowState] = [:]
            var newRowsBySection: [ItemID: [RowState]] = [:]
            for (section, id) in newSectionIDs.enumerated() {
                newRowsBySection[id] = newRows[section]
                for row in newRows[section] { newRowsByID[row.id] = row }
            }
            for (number, stage) in stages.enumerated() {
                let stageComment = Comment(rawValue: "\(comment.rawValue)\nstage \(number): \(stage)")
                #expect(throws: Never.self, stageComment) { try stage.validate() }
                #expect(stage.oldRowCounts == stagedRows.map(\.count), stageComment)
                #expect(changes.reloadsEverything || TableDiffPropertyTests.isPure(stage), stageComment)
                let sectionIDs = try stage.replaySections(
                    on: stagedSectionIDs, insertedSection: { newSectionIDs[$0] }, reloadedSection: { _, id in id })
                stagedRows = try stage.replay(
                    on: stagedRows, newSection: { newRowsBySection[sectionIDs[$0]] ?? [] },
                    insertedRow: { newRows[$0.section][$0.row] },
                    reloadedRow: { _, row in newRowsByID[row.id] ?? row })
                stagedSectionIDs = sectionIDs
                stagedMirror = try DiffReplay.apply(
                    stage, to: stagedMirror, dataSource: newMirror, allowsMovedReloads: changes.reloadsEverything)
            }
            #expect(stagedRows == newRows, comment)
            #expect(stagedSectionIDs == newSectionIDs, comment)
            #expect(stagedMirror == newMirror, comment)

            // The view, following the changeset whole.
            _ = ledger.take()
            do {
                try view.apply(changes, to: new)
            } catch {
                Issue.record("the view refused the changeset: \(error)\n\(comment.rawValue)")
                return
            }
            try view.checkInvariants()
            #expect(view.rowCountsBySection == new.sections.map(\.rows.count), comment)
            expectMatchesNaiveLayout(view, recorder: recorder)
            for item in view.visibleItems {
                switch item.kind {
                case .row:
                    let path = RowPath(section: item.section, row: item.row ?? -1)
                    let shown = (view.cell(forRowAt: path) as? TestCell)?.row
                    #expect(
                        shown != nil && shown == new.row(at: path)?.as(TestRow.self), "row \(path): \(comment.rawValue)"
                    )
                case .header:
                    let shown = (view.headerView(inSection: item.section) as? TestHeaderView)?.model?.key
                    #expect(shown == TestRows.headerKey(new.sections[item.section].id), comment)
                case .footer:
                    break
                }
            }
            let events = ledger.take().filter(\.isDisplayEvent)
            let firstWill = events.firstIndex { $0.description.hasPrefix("willDisplay") } ?? events.count
            #expect(
                events[firstWill...].allSatisfy { $0.description.hasPrefix("willDisplay") },
                "\(events)\n\(comment.rawValue)")
            if !changes.reloadsEverything {
                let layoutOrder = view.visibleItems.map { TableViewDisplayEventTests.Shown($0).event(ending: false) }
                let displayed = Array(events[firstWill...])
                #expect(layoutOrder.filter { displayed.contains($0) } == displayed, "\(events)\n\(comment.rawValue)")
            }
            if let disagreement = ledger.disagreement(with: view) {
                Issue.record("\(disagreement)\nevents: \(events)\n\(comment.rawValue)")
            }
        }

        /// Rows as identity and version.
        static func rowMirror(_ model: TableModel) -> [[RowState]] {
            model.sections.map { $0.rows.map { RowState(id: $0.id, version: $0.as(TestRow.self)?.version ?? -1) } }
        }

        /// The model as a `Mirror`, for `DiffReplay`.
        mutating func mirror(_ model: TableModel) -> Mirror {
            Mirror(
                model.sections.map { section in
                    let number = sectionNumbers[section.id] ?? sectionNumbers.count
                    sectionNumbers[section.id] = number
                    return Mirror.Section(
                        id: number,
                        rows: section.rows.map {
                            Mirror.Row(id: $0.as(TestRow.self)?.id ?? -1, content: $0.as(TestRow.self)?.version ?? -1)
                        })
                })
        }
    }

    /// A row as the mirrors hold it.
    struct RowState: Hashable, CustomStringConvertible {
        var id: ItemID
        var version: Int
        var description: String { "\(id)v\(version)" }
    }

    /// Which kinds of change the changesets held, so the generators can be seen to cover them all.
    struct KindCoverage: CustomStringConvertible {
        var counts: [String: Int] = [:]

        mutating func record(_ changes: Changeset) {
            func seen(_ kind: String, _ condition: Bool) { if condition { counts[kind, default: 0] += 1 } }
            let moved = Set(changes.movedRows.map(\.from))
            let movedSections = Set(changes.movedSections.map(\.from))
            seen("rowInsert", !changes.insertedRows.isEmpty)
            seen("rowDelete", !changes.deletedRows.isEmpty)
            seen("rowReload", !changes.reloadedRows.isEmpty)
            seen("rowMoveAcross", changes.movedRows.contains { $0.from.section != $0.to.section })
            seen("rowMovedAndReloaded", changes.reloadedRows.contains { moved.contains($0.index) })
            seen("sectionInsert", !changes.insertedSections.isEmpty)
            seen("sectionDelete", !changes.deletedSections.isEmpty)
            seen("sectionMove", !changes.movedSections.isEmpty)
            seen("sectionReload", !changes.reloadedSections.isEmpty)
            seen(
                "sectionReloadCountChange",
                changes.stages().first.map { !$0.reloadedSections.isEmpty && $0.oldRowCounts != $0.newRowCounts }
                    ?? false)
            seen(
                "rowChangeInMovedSection",
                (changes.reloadedRows.map(\.index.section) + changes.deletedRows.map(\.index.section)).contains {
                    movedSections.contains($0)
                })
            seen("threeStages", changes.stages().count == 3)
            seen("reloadsEverything", changes.reloadsEverything)
        }

        /// Kinds the generators make more rarely: a batch's move plus reload is listed only when
        /// the move is more than a shift (a random move often lands where the row would be anyway).
        static let rarer = ["rowMovedAndReloaded": 10]

        func allSeen(atLeast minimum: Int, except absent: Set<String> = []) -> Bool {
            let expected: Set<String> = [
                "rowInsert", "rowDelete", "rowReload", "rowMoveAcross", "rowMovedAndReloaded", "sectionInsert",
                "sectionDelete", "sectionMove", "sectionReload", "sectionReloadCountChange", "rowChangeInMovedSection",
                "threeStages",
            ]
            return expected.subtracting(absent).allSatisfy {
                counts[$0, default: 0] >= min(minimum, Self.rarer[$0] ?? minimum)
            }
        }

        var description: String {
            counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }
}

/// Turns the rows of the random generators (`DefaultRow`s with integer identities and texts
/// `t<n>`, `Mirror` rows with integer contents) into `TestRow`s the view can lay out and check: the
/// identity picks fixed or automatic, the version (the text's number, or the content) changes the
/// heights, so reloads move the layout.
@MainActor
struct TestRows {
    let recorder: MeasureRecorder

    func row(id: Int, version: Int) -> TestRow {
        if id % 3 == 0 {
            return TestRow(
                id: id, fixed: [44, 0, 60, 88][(id / 3 + version) % 4], version: version, recorder: recorder)
        }
        return TestRow(
            id: id, fixed: nil, estimate: Double(20 + (id * 37) % 180), actual: Double((id * 13 + version * 29) % 140),
            version: version, recorder: recorder)
    }

    /// The `TestRow` for a generator's `DefaultRow`.
    func row(_ row: AnyRow) -> AnyRow {
        guard let id = row.id.base as? Int, let text = row.as(DefaultRow.self)?.content.text,
            let version = Int(text.dropFirst())
        else {
            Issue.record("not a generated row: \(row.id)")
            return row
        }
        return AnyRow(self.row(id: id, version: version))
    }

    static func headerKey(_ id: ItemID) -> String { "h\(id)" }

    /// A generator's section with `TestRow`s, a header on most sections and a footer on some.
    func section(_ section: Section) -> Section {
        let key = Self.headerKey(section.id)
        let hash = key.unicodeScalars.reduce(0) { $0 &* 31 &+ Int($1.value) } & 0xFFFF
        let header: HeaderFooter? =
            hash % 4 == 3
            ? nil
            : .custom(
                TestHeader(
                    key: key, fixed: hash % 2 == 0 ? 28 : nil, estimate: 30, actual: Double(18 + hash % 40),
                    recorder: recorder))
        let footer: HeaderFooter? =
            hash % 3 == 0 ? .custom(TestHeader(key: "f\(section.id)", fixed: 20, recorder: recorder)) : nil
        return Section(id: section.id, header: header, footer: footer, rows: section.rows.map(row))
    }

    func table(_ table: Table) -> Table { Table(style: .plain, sections: table.sections.map(section)) }

    func table(_ mirror: Mirror) -> Table {
        Table(
            style: .plain,
            sections: mirror.sections.map { section in
                self.section(
                    Section(
                        id: ItemID(section.id),
                        rows: section.rows.map { AnyRow(DefaultRow("t\($0.content)", id: $0.id)) }))
            })
    }

    /// `operation` with its rows and sections turned into test rows and sections.
    func operation(_ operation: TableBatch.Operation) -> TableBatch.Operation {
        switch operation {
        case .insertRow(let row, let path, let animation):
            return .insertRow(self.row(row), at: path, animation: animation)
        case .appendRow(let row, let target, let animation):
            return .appendRow(self.row(row), to: target, animation: animation)
        case .replaceRow(let target, let row, let animation):
            return .replaceRow(target, with: self.row(row), animation: animation)
        case .insertSection(let section, let index, let animation):
            return .insertSection(self.section(section), at: index, animation: animation)
        case .appendSection(let section, let animation):
            return .appendSection(self.section(section), animation: animation)
        case .replaceSection(let target, let section, let animation):
            return .replaceSection(target, with: self.section(section), animation: animation)
        case .deleteRow, .reloadRow, .moveRow, .deleteSection, .reloadSection, .moveSection, .removeAll:
            return operation
        }
    }
}
