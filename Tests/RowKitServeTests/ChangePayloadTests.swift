import RowKit
import Testing

@testable import RowKitServe

@Suite struct ChangePayloadTests {
    /// An outline of sections (identity, row identities with their digests).
    func outline(_ sections: [(String, [(String, UInt64)])]) -> TableOutline {
        var outline = TableOutline()
        for (id, rows) in sections {
            outline.appendSection(id: id, TableOutline.SectionInfo(header: id))
            for (row, digest) in rows { outline.appendRow(id: row, digest: digest) }
        }
        return outline
    }

    func payload(_ old: TableOutline, _ new: TableOutline) throws -> ChangePayload {
        let changes = try TableDiff.changeset(from: old.snapshot(), to: new.snapshot())
        return try #require(ChangePayload(changes, from: old, to: new))
    }

    /// The new row identities, from the old ones and the payload, as the page applies it.
    func apply(_ payload: ChangePayload, _ old: TableOutline, _ new: TableOutline) -> [String] {
        var rows = old.rowIDs
        for index in payload.deletedRows.reversed() { rows.remove(at: index) }
        for index in payload.insertedRows { rows.insert(new.rowIDs[index], at: index) }
        return rows
    }

    @Test func whenOneRowChanges_thenItIsOneReloadAtItsFlatIndex() throws {
        let old = outline([("a", [("1", 0), ("2", 0)]), ("b", [("3", 0), ("4", 0)])])
        let new = outline([("a", [("1", 0), ("2", 0)]), ("b", [("3", 9), ("4", 0)])])
        let change = try payload(old, new)
        #expect(change.reloadedRows == [2] && change.deletedRows.isEmpty && change.insertedRows.isEmpty)
    }

    @Test func whenRowsAreInsertedAtTheTop_thenOnlyTheyAreListed() throws {
        let old = outline([("a", [("1", 0), ("2", 0)])])
        let new = outline([("a", [("x", 0), ("y", 0), ("1", 0), ("2", 0)])])
        let change = try payload(old, new)
        #expect(change.insertedRows == [0, 1] && change.deletedRows.isEmpty && change.reloadedRows.isEmpty)
    }

    @Test func whenARowMovesToAnotherSection_thenItIsADeleteAndAnInsertPaired() throws {
        let old = outline([("a", [("1", 0), ("2", 0)]), ("b", [("3", 0)])])
        let new = outline([("a", [("2", 0)]), ("b", [("3", 0), ("1", 0)])])
        let change = try payload(old, new)
        #expect(change.deletedRows == [0] && change.insertedRows == [2])
        #expect(change.movedRows.map { [$0.from, $0.to] } == [[0, 2]])
        #expect(apply(change, old, new) == new.rowIDs)
    }

    @Test func whenRowsAreInsertedAtASectionsEdge_thenEachSaysTheSectionItJoins() throws {
        // Rows at the end of a, at the start of c, and into an empty section b: by the flat index
        // alone each could belong to the section before or after it.
        let old = outline([("a", [("1", 0)]), ("b", []), ("c", [("2", 0)])])
        let new = outline([("a", [("1", 0), ("x", 0)]), ("b", [("y", 0)]), ("c", [("z", 0), ("2", 0)])])
        let change = try payload(old, new)
        let json = try #require(
            change.json(table: "", revision: 2, base: 1, pages: 1, outline: new, anchors: []) { _ in "[0,\"R\"]" })
        #expect(json.contains("\"insert\":[[1,[0,\"R\"],0],[2,[0,\"R\"],1],[3,[0,\"R\"],2]]"))
    }

    @Test func whenASectionIsDeleted_thenItsRowsAreDeletedToo() throws {
        let old = outline([("a", [("1", 0)]), ("b", [("2", 0), ("3", 0)]), ("c", [("4", 0)])])
        let new = outline([("a", [("1", 0)]), ("c", [("4", 0)])])
        let change = try payload(old, new)
        #expect(change.deletedSections == [1] && change.deletedRows == [1, 2])
        #expect(apply(change, old, new) == new.rowIDs)
    }

    @Test func whenAHeaderChangesInPlace_thenTheSectionIsReloaded() throws {
        let old = outline([("a", [("1", 0)])])
        var new = old
        new.sections[0].footer = "New footer"
        let change = try payload(old, new)
        #expect(change.reloadedSections == [0] && change.deletedRows.isEmpty)
    }

    @Test func whenTablesChangeAtRandom_thenApplyingThePayloadGivesTheNewRowsAndReloadsTheChangedOnes() throws {
        var random = SystemRandomNumberGenerator()
        var seed = UInt64.random(in: 0...UInt64.max, using: &random)
        for round in 0..<300 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var generator = Generator(state: seed)
            let old = randomOutline(&generator, rowLimit: 30)
            var new = randomOutline(&generator, rowLimit: 30)
            // Keep some identities and contents of the old table so moves and reloads happen.
            new = mix(old, new, &generator)
            let change = try payload(old, new)
            #expect(apply(change, old, new) == new.rowIDs, "round \(round), seed \(seed)")
            var stayingOld = old.rowIDs.indices.filter { !change.deletedRows.contains($0) }.makeIterator()
            for index in new.rowIDs.indices where !change.insertedRows.contains(index) {
                guard let was = stayingOld.next() else {
                    Issue.record("round \(round): more staying rows on the new side")
                    break
                }
                let changed = old.rowDigests[was] != new.rowDigests[index]
                #expect(changed == change.reloadedRows.contains(index), "round \(round), seed \(seed)")
            }
        }
    }

    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    func randomOutline(_ generator: inout Generator, rowLimit: Int) -> TableOutline {
        var sections: [(String, [(String, UInt64)])] = []
        var used = Set<String>()
        for section in 0..<Int.random(in: 0...4, using: &generator) {
            var rows: [(String, UInt64)] = []
            for _ in 0..<Int.random(in: 0...(rowLimit / 4), using: &generator) {
                let id = "r\(Int.random(in: 0..<rowLimit, using: &generator))"
                if used.insert(id).inserted { rows.append((id, UInt64.random(in: 0...2, using: &generator))) }
            }
            sections.append(("s\(section + Int.random(in: 0...1, using: &generator))", rows))
        }
        var seen = Set<String>()
        return outline(sections.filter { seen.insert($0.0).inserted })
    }

    func mix(_ old: TableOutline, _ new: TableOutline, _ generator: inout Generator) -> TableOutline {
        guard Bool.random(using: &generator) else { return new }
        var sections: [(String, [(String, UInt64)])] = []
        for (index, id) in old.sectionIDs.enumerated() {
            var rows = (old.sectionStarts[index]..<old.sectionStarts[index + 1]).map {
                (old.rowIDs[$0], old.rowDigests[$0])
            }
            rows = rows.filter { _ in Int.random(in: 0..<5, using: &generator) > 0 }
            rows = rows.map { Int.random(in: 0..<6, using: &generator) == 0 ? ($0.0, $0.1 + 1) : $0 }
            if Int.random(in: 0..<4, using: &generator) == 0 { rows.shuffle(using: &generator) }
            sections.append((id, rows))
        }
        if Int.random(in: 0..<3, using: &generator) == 0 { sections.shuffle(using: &generator) }
        return outline(sections)
    }
}
