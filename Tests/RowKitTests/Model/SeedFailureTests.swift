import RowKit
import Testing

/// Each failure of the seed projects, and what RowKit does instead.
struct SeedFailureTests {
    static func settings() throws -> TableModel {
        try TableModel(
            Table {
                Section("Network") {
                    DefaultRow("Wi-Fi")
                    DefaultRow("Bluetooth")
                    DefaultRow("Cellular")
                }
                Section("Display") {
                    DefaultRow("Brightness")
                }
            })
    }

    // lpd-mvvm-kit fails silently on duplicates.
    @Test func whenARowWithAnExistingIdentityIsInserted_thenItThrowsNamingTheIdentityAndWhereItIs() throws {
        var model = try Self.settings()
        let before = model.dump
        #expect {
            try model.performBatch { $0.append(DefaultRow("Wi-Fi"), to: .index(1)) }
        } throws: { error in
            let error = try #require(error as? TableUpdateError)
            return error.problem == .duplicateRowID("Wi-Fi", existing: RowPath(section: 0, row: 0))
                && error.description
                    == #"operation 0 (append row "Wi-Fi" to section 1): duplicate row identity "Wi-Fi": already at [0, 0]"#
        }
        #expect(model.dump == before)
    }

    @Test func whenATableDeclaresTheSameRowTwice_thenTheModelRefusesItNamingBothPaths() {
        let table = Table {
            Section("A") { DefaultRow("Same") }
            Section("B") {
                DefaultRow("Other"); DefaultRow("Same")
            }
        }
        #expect(
            throws: TableModelError.duplicateRowID(
                "Same", first: RowPath(section: 0, row: 0), second: RowPath(section: 1, row: 1))
        ) {
            try TableModel(table)
        }
        #expect(throws: TableModelError.duplicateSectionID("A", first: 0, second: 1)) {
            try TableModel(
                Table {
                    Section("A"); Section("A")
                })
        }
    }

    // lpd-mvvm-kit crashes on an out-of-range section.
    @Test func whenASectionIsOutOfRange_thenTheUpdateThrowsInsteadOfCrashing() throws {
        var model = try Self.settings()
        #expect(throws: TableUpdateError.self) {
            try model.performBatch { $0.append(DefaultRow("VPN"), to: .index(2)) }
        }
        #expect(throws: TableUpdateError.self) {
            try model.performBatch { $0.insert(DefaultRow("VPN"), at: RowPath(section: -1, row: 0)) }
        }
        #expect(throws: TableUpdateError.self) { try model.performBatch { $0.deleteSection(.index(5)) } }
        #expect(throws: TableUpdateError.self) { try model.performBatch { $0.insertSection(Section("Late"), at: 3) } }
        #expect(throws: TableUpdateError.self) { try model.performBatch { $0.moveSection(.index(0), to: 2) } }
        do {
            try model.performBatch { $0.reloadSection(.index(9)) }
            Issue.record("reloading section 9 of 2 succeeded")
        } catch {
            #expect(error.problem == .sectionOutOfRange(9, valid: 0..<2))
            #expect(
                error.description == "operation 0 (reload section 9): section 9 is out of range: valid here is 0...1")
        }
        #expect(model.numberOfRows(inSection: 9) == nil)
        #expect(model.numberOfSections == 2)
    }

    // lpd-mvvm-kit applies each call alone.
    @Test func whenSeveralOperationsArePerformedInOneBatch_thenTheyApplyAsOneChangesetAndOneRevision() throws {
        var model = try Self.settings()
        let start = model.revision
        let changes = try model.performBatch { batch in
            batch.delete(.id("Bluetooth"))
            batch.append(DefaultRow("VPN"), to: .index(0))
            batch.insertSection(Section("General") { DefaultRow("About") }, at: 0)
            batch.reload(.id("Brightness"))
        }
        #expect(changes.fromRevision == start)
        #expect(changes.toRevision == model.revision)
        #expect(changes.deletedRows == [.init(RowPath(section: 0, row: 1))])
        #expect(changes.insertedRows == [.init(RowPath(section: 1, row: 2))])
        #expect(changes.insertedSections == [.init(0)])
        #expect(changes.reloadedRows == [.init(RowPath(section: 1, row: 0))])
        #expect(model.sectionIDs == ["General", "Network", "Display"])
    }

    // MDTable's mutations do not reach the view.
    @Test func whenTheModelChanges_thenTheChangesetLetsAViewFollowIt() throws {
        var model = try Self.settings()
        var view = model.mirror  // what a view shows
        let changes = try model.performBatch { batch in
            batch.move(.id("Cellular"), to: RowPath(section: 0, row: 0))
            batch.replace(.id("Wi-Fi"), with: DefaultRow("Wi-Fi (off)", id: "Wi-Fi"))
            batch.insert(DefaultRow("Night Shift"), at: RowPath(section: 1, row: 0))
        }
        let new = model.mirror
        view = try changes.replay(
            on: view, newSection: { new[$0] }, insertedRow: { new[$0.section][$0.row] },
            reloadedRow: { path, _ in new[path.section][path.row] })
        #expect(view == new)
        #expect(view[0].map(\.text) == ["Cellular", "Wi-Fi (off)", "Bluetooth"])
    }

    // MDTable loses a row moved to the end.
    @Test func whenARowIsMovedToTheEndOfASection_thenTheRowIsKept() throws {
        var model = try Self.settings()
        var changes = try model.performBatch {
            $0.move(.path(RowPath(section: 0, row: 0)), to: RowPath(section: 0, row: 2))
        }
        #expect(model.sections[0].rows.map(\.id) == ["Bluetooth", "Cellular", "Wi-Fi"])
        #expect(changes.movedRows == [.init(from: RowPath(section: 0, row: 0), to: RowPath(section: 0, row: 2))])

        changes = try model.performBatch { $0.move(.id("Bluetooth"), to: RowPath(section: 1, row: 1)) }
        #expect(model.sections[1].rows.map(\.id) == ["Brightness", "Bluetooth"])
        #expect(model.path(of: "Bluetooth") == RowPath(section: 1, row: 1))
        #expect(changes.movedRows == [.init(from: RowPath(section: 0, row: 0), to: RowPath(section: 1, row: 1))])
        #expect(model.rowCount == 4)

        #expect(throws: TableUpdateError.self) {
            try model.performBatch { $0.move(.id("Wi-Fi"), to: RowPath(section: 0, row: 2)) }
        }
    }

    // MDTable's bad index path is a fatalError.
    @Test func whenAnIndexPathIsBad_thenLookupsReturnNilAndUpdatesThrow() throws {
        var model = try Self.settings()
        let bad = RowPath(section: 0, row: 3)
        #expect(model.row(at: bad) == nil)
        #expect(model.row(at: RowPath(section: 4, row: 0)) == nil)
        #expect(model.row(at: RowPath(section: -1, row: -1)) == nil)
        #expect(throws: TableModelError.rowOutOfRange(bad, rowCount: 3)) { try model.requireRow(at: bad) }
        #expect(throws: TableModelError.sectionOutOfRange(4, sectionCount: 2)) {
            try model.requireRow(at: RowPath(section: 4, row: 0))
        }
        #expect(throws: TableModelError.unknownRowID("Nope")) { try model.requirePath(of: "Nope") }
        for attempt: () throws -> Void in [
            { try model.performBatch { $0.delete(.path(bad)) } }, { try model.performBatch { $0.reload(.path(bad)) } },
            { try model.performBatch { $0.replace(.path(bad), with: DefaultRow("X")) } },
            { try model.performBatch { $0.move(.path(bad), to: RowPath(section: 0, row: 0)) } },
            { try model.performBatch { $0.insert(DefaultRow("X"), at: RowPath(section: 0, row: 4)) } },
        ] {
            #expect(throws: TableUpdateError.self) { try attempt() }
        }
    }

    // CBTableViewSecret and FDD have no mutations: every kind is one call here.
    @Test func whenEachSingleCallMutationIsUsed_thenEachAppliesAndReturnsItsChangeset() throws {
        var model = try Self.settings()
        let row0 = RowPath(section: 0, row: 0)
        #expect(
            try model.performBatch { $0.insert(DefaultRow("VPN"), at: row0, animation: .fade) }.insertedRows == [
                .init(row0, animation: .fade)
            ])
        #expect(
            try model.performBatch { $0.append(DefaultRow("Hotspot"), to: .index(0)) }.insertedRows == [
                .init(RowPath(section: 0, row: 4))
            ])
        #expect(
            try model.performBatch { $0.append(DefaultRow("Night"), to: .id("Display")) }.insertedRows == [
                .init(RowPath(section: 1, row: 1))
            ])
        #expect(try model.performBatch { $0.delete(.path(row0)) }.deletedRows == [.init(row0)])
        #expect(
            try model.performBatch { $0.delete(.id("Hotspot")) }.deletedRows == [.init(RowPath(section: 0, row: 3))])
        #expect(try model.performBatch { $0.reload(.path(row0)) }.reloadedRows == [.init(row0)])
        #expect(
            try model.performBatch { $0.reload(.id("Night"), animation: .none) }.reloadedRows == [
                .init(RowPath(section: 1, row: 1), animation: .none)
            ])
        #expect(
            try model.performBatch { $0.replace(.path(row0), with: DefaultRow("Wi-Fi 6", id: "Wi-Fi")) }.reloadedRows
                == [.init(row0)])
        let replaced = try model.performBatch { $0.replace(.id("Night"), with: DefaultRow("Night Shift")) }
        #expect(
            replaced.deletedRows == [.init(RowPath(section: 1, row: 1))]
                && replaced.insertedRows == [.init(RowPath(section: 1, row: 1))])
        #expect(try model.performBatch { $0.move(.path(row0), to: RowPath(section: 1, row: 0)) }.movedRows.count == 1)
        #expect(try model.performBatch { $0.move(.id("Wi-Fi"), to: row0) }.movedRows.count == 1)
        #expect(try model.performBatch { $0.insertSection(Section("General"), at: 0) }.insertedSections == [.init(0)])
        #expect(try model.performBatch { $0.appendSection(Section("Privacy")) }.insertedSections == [.init(3)])
        #expect(try model.performBatch { $0.reloadSection(.index(1)) }.reloadedSections == [.init(1)])
        #expect(try model.performBatch { $0.reloadSection(.id("Display")) }.reloadedSections == [.init(2)])
        #expect(
            try model.performBatch { $0.replaceSection(.index(3), with: Section("Privacy", footer: "Changed")) }
                .reloadedSections == [.init(3)])
        let replacedSection = try model.performBatch { $0.replaceSection(.id("General"), with: Section("About")) }
        #expect(replacedSection.deletedSections == [.init(0)] && replacedSection.insertedSections == [.init(0)])
        #expect(try model.performBatch { $0.moveSection(.index(0), to: 3) }.movedSections == [.init(from: 0, to: 3)])
        #expect(try model.performBatch { $0.moveSection(.id("About"), to: 0) }.movedSections == [.init(from: 3, to: 0)])
        #expect(try model.performBatch { $0.deleteSection(.index(0)) }.deletedSections == [.init(0)])
        #expect(try model.performBatch { $0.deleteSection(.id("Privacy")) }.deletedSections == [.init(2)])
        #expect(
            try model.performBatch { $0.removeAll(animation: .top) }.deletedSections == [
                .init(0, animation: .top), .init(1, animation: .top),
            ])
        #expect(model.numberOfSections == 0 && model.rowCount == 0)
    }
}
