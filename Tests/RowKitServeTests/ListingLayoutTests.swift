import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Testing

@testable import RowKitServe

/// Reading only the rows a save changed (``ListingLayout/splice(_:into:digests:reader:)``) must
/// give what a full read of the new bytes gives, or decline.
@Suite struct ListingLayoutTests {
    /// A seeded generator (SplitMix64), so a failure names its seed.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
    }

    struct Row {
        var id: String?
        var text: String
        var detail: String?
        var body: String?
        var comment = false
    }

    struct Section {
        var header: String
        var footer: String?
        var rows: [Row]
        var hasHeader = true
    }

    static func yaml(_ sections: [Section]) -> String {
        var out = "version: 1\ntitle: \"Random\"\nstyle: plain\nsections:\n"
        for section in sections {
            out += section.hasHeader ? "  - header: \"\(section.header)\"\n    rows:\n" : "  - rows:\n"
            for row in section.rows {
                if row.comment { out += "      # a comment\n" }
                out +=
                    row.id.map { "      - id: \"\($0)\"\n        text: \"\(row.text)\"\n" }
                    ?? "      - text: \"\(row.text)\"\n"
                if let detail = row.detail { out += "        detail: \"\(detail)\"\n" }
                if let body = row.body {
                    out +=
                        "        accessory: disclosureIndicator\n        body: |\n          \(body)\n\n          More.\n"
                }
            }
            if let footer = section.footer { out += "    footer: \"\(footer)\"\n" }
        }
        return out
    }

    static let path = "/tmp/rowkit-layout-test/listing.yaml"

    static func read(_ text: String, last: [LiveListings.LastRead]? = nil, previous: [String: UInt64]? = nil)
        -> (
            outlines: [TableOutline], images: [String], problems: [ListingDiagnostic],
            changedRows: [[String: (row: ListingRow, slug: String?)]], inputs: [ListingExport],
            reads: [LiveListings.LastRead], spliced: [Bool]
        )
    {
        LiveListings.readOutlines(
            [ListingExport(ListingReader(Data(text.utf8), path: path))], previous: previous.map { [$0] }, last: last)
    }

    /// One random change of the listing, as a model edit or as raw text.
    static func edit(_ sections: inout [Section], _ text: String, _ random: inout Random, counter: inout Int) -> String?
    {
        let s = random.below(sections.count)
        func newRow() -> Row {
            counter += 1
            return Row(
                id: "n\(counter)", text: "New \(counter)", detail: random.chance(50) ? "D" : nil,
                body: random.chance(10) ? "Body \(counter)" : nil)
        }
        switch random.below(22) {
        case 0, 1, 2:
            if !sections[s].rows.isEmpty {
                let r = random.below(sections[s].rows.count)
                sections[s].rows[r].text += " edited"
            }
        case 3, 4:
            let count = 1 + random.below(random.chance(20) ? 40 : 3)
            let at = random.below(sections[s].rows.count + 1)
            sections[s].rows.insert(contentsOf: (0..<count).map { _ in newRow() }, at: at)
        case 5:
            if sections[s].rows.count > 1 {
                let r = random.below(sections[s].rows.count)
                let count = min(1 + random.below(3), sections[s].rows.count - 1)
                sections[s].rows.removeSubrange(r..<min(r + count, sections[s].rows.count))
            }
        case 6:
            let t = random.below(sections.count)
            if sections[s].rows.count > 1 {
                let row = sections[s].rows.remove(at: random.below(sections[s].rows.count))
                sections[t].rows.insert(row, at: random.below(sections[t].rows.count + 1))
            }
        case 7:
            sections[s].header += "!"
        case 8:
            // A row without an identity, or one that repeats another's.
            var row = newRow()
            row.id = random.chance(50) ? nil : sections[random.below(sections.count)].rows.first?.id
            sections[s].rows.insert(row, at: random.below(sections[s].rows.count + 1))
        case 9:
            if !sections[s].rows.isEmpty {
                let r = random.below(sections[s].rows.count)
                sections[s].rows[r].body = sections[s].rows[r].body == nil ? "Body" : nil
            }
        case 10:
            if !sections[s].rows.isEmpty { sections[s].rows[random.below(sections[s].rows.count)].comment.toggle() }
        case 11:
            sections[s].footer = sections[s].footer == nil ? "Foot" : nil
        case 14:
            // A whole section deleted.
            if sections.count > 1 { sections.remove(at: s) }
        case 15:
            // A new section, at any place.
            counter += 1
            let section = Section(
                header: "T\(counter)", footer: random.chance(30) ? "G" : nil,
                rows: (0..<(1 + random.below(5))).map { _ in newRow() })
            sections.insert(section, at: random.below(sections.count + 1))
        case 16:
            // A section duplicated, its rows' identities renamed or (a problem) not.
            var copy = sections[s]
            counter += 1
            if random.chance(80) {
                for r in copy.rows.indices { copy.rows[r].id = copy.rows[r].id.map { "\($0)c\(counter)" } }
            }
            if random.chance(50) { copy.header += "c\(counter)" }
            sections.insert(copy, at: random.below(sections.count + 1))
        case 17:
            // A section moved.
            let section = sections.remove(at: s)
            sections.insert(section, at: random.below(sections.count + 1))
        case 18:
            // Lines cut from a row of one section to a row of another: the sections between go,
            // and the second one's last rows join the first.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let starts = lines.indices.filter { lines[$0].hasPrefix("      - ") || lines[$0].hasPrefix("  - ") }
            guard starts.count > 2 else { return nil }
            let a = random.below(starts.count - 1)
            let b = a + 1 + random.below(starts.count - a - 1)
            var changed = lines.map(String.init)
            changed.removeSubrange(starts[a]..<starts[b])
            return changed.joined(separator: "\n")
        case 19:
            // A header another section has, or none.
            if random.chance(50) {
                sections[s].header = sections[random.below(sections.count)].header
            } else {
                sections[s].hasHeader.toggle()
            }
        case 20:
            // A row with a detail page whose identity's base slug another row's has.
            let t = random.below(sections.count)
            if let id = sections[t].rows.first?.id {
                var row = newRow()
                row.id = random.chance(50) ? id.uppercased() : id.replacingOccurrences(of: "-", with: " ")
                row.body = "Body"
                sections[s].rows.insert(row, at: random.below(sections[s].rows.count + 1))
            }
        case 21:
            // The last rows of a section go to the start of the next.
            if s + 1 < sections.count, sections[s].rows.count > 1 {
                let count = 1 + random.below(sections[s].rows.count - 1)
                let moved = sections[s].rows.suffix(count)
                sections[s].rows.removeLast(count)
                sections[s + 1].rows.insert(contentsOf: moved, at: 0)
            }
        case 12:
            // Bytes: a few removed, or some inserted, anywhere.
            var bytes = Array(text.utf8)
            let at = random.below(bytes.count)
            if random.chance(50) {
                bytes.removeSubrange(at..<min(at + 1 + random.below(12), bytes.count))
            } else {
                let pieces = ["  ", "\n", "- ", ": ", "\"", "x", "      - id: \"q\"\n        text: \"Q\"\n", "#"]
                bytes.insert(contentsOf: Array(pieces[random.below(pieces.count)].utf8), at: at)
            }
            return String(decoding: bytes, as: UTF8.self)
        default:
            // A row's indentation changes.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let starts = lines.indices.filter { lines[$0].hasPrefix("      - ") }
            guard !starts.isEmpty else { return nil }
            var changed = lines.map(String.init)
            let line = starts[random.below(starts.count)]
            changed[line] = random.chance(50) ? "  " + changed[line] : String(changed[line].dropFirst(2))
            return changed.joined(separator: "\n")
        }
        return nil
    }

    @Test func whenRandomSavesAreReadOnlyWhereTheyChanged_thenTheOutlineIsAFullReads() throws {
        var spliced = 0
        var declined = 0
        var crossed = 0  // spliced, with sections gone or come
        for seed in 1...200 {
            var random = Random(state: UInt64(seed))
            var counter = 0
            var sections = (0..<(1 + random.below(6))).map { s in
                Section(
                    header: "S\(s)", footer: random.chance(30) ? "F\(s)" : nil,
                    rows: (0..<(2 + random.below(8))).map { r in
                        Row(
                            id: "r\(s)-\(r)", text: "Row \(r)", detail: random.chance(30) ? "No. \(r)" : nil,
                            body: random.chance(10) ? "Body \(r)" : nil)
                    })
            }
            var text = Self.yaml(sections)
            var good = Self.read(text)
            try #require(good.problems.isEmpty, "seed \(seed): the first listing reads")
            for taken in good.reads { taken.commit() }
            for step in 0..<40 {
                var model = sections
                let raw = Self.edit(&model, text, &random, counter: &counter)
                let next = raw ?? Self.yaml(model)
                let previous = good.reads[0].digests.current
                let full = Self.read(next, previous: previous)
                let fast = Self.read(next, last: good.reads)
                let context = "seed \(seed), step \(step)"
                if !full.problems.isEmpty {
                    #expect(fast.spliced == [false], "\(context): a listing with problems is read whole")
                    #expect(fast.problems.count == full.problems.count, "\(context)")
                    continue
                }
                if fast.spliced[0] { spliced += 1 } else { declined += 1 }
                if fast.spliced[0], full.outlines[0].sections.count != good.outlines[0].sections.count { crossed += 1 }
                #expect(fast.outlines == full.outlines, "\(context): the outlines")
                #expect(fast.images == full.images, "\(context): the images")
                #expect(
                    Set(fast.changedRows[0].keys) == Set(full.changedRows[0].keys), "\(context): the rows changed")
                for (id, entry) in fast.changedRows[0] {
                    #expect(
                        full.changedRows[0][id].map { OutlineVisitor.digest(of: $0.row) }
                            == OutlineVisitor.digest(of: entry.row), "\(context): changed row \(id)")
                    #expect(full.changedRows[0][id]?.slug == entry.slug, "\(context): slug of \(id)")
                }
                let a = fast.reads[0].layout
                let b = full.reads[0].layout
                #expect((a == nil) == (b == nil), "\(context): a layout on both sides")
                if let a, let b {
                    #expect(a.rowStarts == b.rowStarts, "\(context): row starts")
                    #expect(a.sectionStarts == b.sectionStarts, "\(context): section starts")
                    #expect(a.sectionColumns == b.sectionColumns, "\(context): columns")
                    #expect(a.detailRows == b.detailRows, "\(context): detail rows")
                    #expect(a.sectionHeaders == b.sectionHeaders, "\(context): section headers")
                    #expect(a.sectionColumn == b.sectionColumn, "\(context): section column")
                    #expect(a.slugHashes == b.slugHashes, "\(context): slugs")
                    #expect(a.title == b.title && a.style == b.style && a.bytes == b.bytes, "\(context): header")
                }
                for taken in fast.reads { taken.commit() }
                #expect(fast.reads[0].digests.current == full.outlines[0].digestsByID, "\(context): the digests")
                // Go on from the fast read, as the server does.
                good = fast
                text = next
                if raw == nil { sections = model }
            }
        }
        #expect(spliced > 1000, "the splice is taken often (\(spliced) spliced, \(declined) read whole)")
        #expect(crossed > 300, "also when sections go or come (\(crossed) of \(spliced) spliced)")
    }

    @Test func whenASectionOfAHundredThousandRowsGoesOrComes_thenOnlyTheSectionsAroundAreRead() throws {
        var sections = (0..<26).map { s in
            Section(
                header: "S\(s)",
                rows: (0..<4000).map { r in
                    Row(id: "r\(s)-\(r)", text: "Row \(r)", detail: "D", body: r % 100 == 0 ? "Body \(r)" : nil)
                })
        }
        let first = Self.read(Self.yaml(sections))
        for taken in first.reads { taken.commit() }
        // The second section deleted, its detail pages with it.
        sections.remove(at: 1)
        let deleted = Self.yaml(sections)
        let fast = Self.read(deleted, last: first.reads)
        #expect(fast.spliced == [true])
        #expect(fast.changedRows[0].isEmpty)
        #expect(fast.outlines == Self.read(deleted).outlines)
        // A new section at the top, with a detail page.
        for taken in fast.reads { taken.commit() }
        sections.insert(Section(header: "New", rows: [Row(id: "new", text: "New", body: "Body")]), at: 0)
        let inserted = Self.yaml(sections)
        let again = Self.read(inserted, last: fast.reads)
        #expect(again.spliced == [true])
        #expect(again.changedRows[0]["new"]?.slug == "new")
        #expect(again.outlines == Self.read(inserted).outlines)
    }

    @Test func whenOneRowOfAHundredThousandChanges_thenOnlyItIsReadAgain() throws {
        let sections = (0..<26).map { s in
            Section(
                header: "S\(s)", rows: (0..<4000).map { r in Row(id: "r\(s)-\(r)", text: "Row \(r)", detail: "D") })
        }
        let text = Self.yaml(sections)
        let first = Self.read(text)
        for taken in first.reads { taken.commit() }
        var edited = text
        let row = try #require(edited.range(of: "text: \"Row 1234\"\n"))
        edited.replaceSubrange(row, with: "text: \"Row 1234 edited\"\n")
        let fast = Self.read(edited, last: first.reads)
        #expect(fast.spliced == [true])
        #expect(Array(fast.changedRows[0].keys) == ["r0-1234"])
        #expect(fast.outlines == Self.read(edited).outlines)
    }
}
