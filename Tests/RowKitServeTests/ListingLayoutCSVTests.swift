import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Testing

@testable import RowKitServe

/// Reading only the CSV records a save changed (``ListingLayout/spliceCSV(_:into:digests:reader:)``)
/// must give what a full read of the new bytes gives, or decline.
@Suite struct ListingLayoutCSVTests {
    typealias Random = ListingLayoutTests.Random

    struct Row {
        var id: String?
        var text: String
        var detail: String?
        var body: String?
    }

    struct Section {
        var name: String
        var rows: [Row]
    }

    /// A cell as a spreadsheet writes it: quoted when it holds a comma, a quote or a line break.
    static func cell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func csv(_ sections: [Section], lineBreak: String = "\n") -> String {
        var out = "id,section,text,detail,body,foot" + lineBreak
        for section in sections {
            for row in section.rows {
                let cells = [
                    row.id ?? "", section.name, row.text, row.detail ?? "", row.body ?? "", "F " + section.name,
                ]
                out += cells.map(cell).joined(separator: ",") + lineBreak
            }
        }
        return out
    }

    static let path = "/tmp/rowkit-layout-test/listing.csv"

    static func read(
        _ text: String, options: CSVListingOptions, last: [LiveListings.LastRead]? = nil,
        previous: [String: UInt64]? = nil
    ) -> (
        outlines: [TableOutline], images: [String], problems: [ListingDiagnostic],
        changedRows: [[String: (row: ListingRow, slug: String?)]], inputs: [ListingExport],
        reads: [LiveListings.LastRead], spliced: [Bool]
    ) {
        LiveListings.readOutlines(
            [ListingExport(ListingReader(Data(text.utf8), path: path, csv: options))], previous: previous.map { [$0] },
            last: last)
    }

    /// One random change of the listing, as a model edit or as raw text.
    static func edit(_ sections: inout [Section], _ text: String, _ random: inout Random, counter: inout Int) -> String?
    {
        let s = random.below(sections.count)
        func newRow() -> Row {
            counter += 1
            let texts = ["New \(counter)", "New, \(counter)", "New \"\(counter)\"", "New\n\(counter)\nlines"]
            return Row(
                id: "n\(counter)", text: texts[random.below(texts.count)], detail: random.chance(50) ? "D" : nil,
                body: random.chance(10) ? "Body \(counter)" : nil)
        }
        switch random.below(23) {
        case 0, 1, 2:
            if !sections[s].rows.isEmpty {
                let r = random.below(sections[s].rows.count)
                sections[s].rows[r].text += random.chance(70) ? " edited" : ",\n edited"
            }
        case 3, 4:
            let count = 1 + random.below(random.chance(20) ? 40 : 3)
            let at = random.below(sections[s].rows.count + 1)
            sections[s].rows.insert(contentsOf: (0..<count).map { _ in newRow() }, at: at)
        case 5:
            if !sections[s].rows.isEmpty {
                // Sometimes a whole section goes.
                let r = random.below(sections[s].rows.count)
                let count = 1 + random.below(3)
                sections[s].rows.removeSubrange(r..<min(r + count, sections[s].rows.count))
                if sections[s].rows.isEmpty { sections.remove(at: s) }
                if sections.isEmpty { sections = [Section(name: "S", rows: [newRow()])] }
            }
        case 6:
            // A row moves, maybe to another section.
            let t = random.below(sections.count)
            if sections[s].rows.count > 1 {
                let row = sections[s].rows.remove(at: random.below(sections[s].rows.count))
                sections[t].rows.insert(row, at: random.below(sections[t].rows.count + 1))
            }
        case 7:
            sections[s].name += "!"
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
            // A new section, at a random place.
            counter += 1
            sections.insert(Section(name: "T\(counter)", rows: [newRow()]), at: random.below(sections.count + 1))
        case 11:
            // The sections' runs interleave: a record of one section within another's.
            let t = random.below(sections.count)
            if t != s, sections[s].rows.count > 2 {
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                guard lines.count > 3, !text.contains("\"") else { return nil }
                var record = newRow()
                record.text = "Stray \(counter)"
                let line = [record.id ?? "", sections[t].name, record.text, "", "", ""].joined(separator: ",")
                lines.insert(line, at: 1 + random.below(lines.count - 2))
                return lines.joined(separator: "\n")
            }
        case 16:
            // A whole section deleted.
            if sections.count > 1 { sections.remove(at: s) }
        case 17:
            // A section duplicated, under another name or (its runs then meet or interleave) not,
            // its rows' identities renamed or (a problem) not.
            var copy = sections[s]
            counter += 1
            if random.chance(80) {
                for r in copy.rows.indices { copy.rows[r].id = copy.rows[r].id.map { "\($0)c\(counter)" } }
            }
            if random.chance(70) { copy.name += "c\(counter)" }
            sections.insert(copy, at: random.below(sections.count + 1))
        case 18:
            // A section moved.
            let section = sections.remove(at: s)
            sections.insert(section, at: random.below(sections.count + 1))
        case 19:
            // Records cut from one section's to another's: the sections between go, and the
            // second one's last records are left.
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard lines.count > 3 else { return nil }
            let a = 1 + random.below(lines.count - 2)
            let b = a + 1 + random.below(lines.count - a - 1)
            lines.removeSubrange(a..<b)
            return lines.joined(separator: "\n")
        case 20:
            // A section takes another's name.
            sections[s].name = sections[random.below(sections.count)].name
        case 21:
            // A row with a detail page whose identity's base slug another row's has.
            let t = random.below(sections.count)
            if let id = sections[t].rows.first?.id {
                var row = newRow()
                row.id = random.chance(50) ? id.uppercased() : id.replacingOccurrences(of: "-", with: " ")
                row.body = "Body"
                sections[s].rows.insert(row, at: random.below(sections[s].rows.count + 1))
            }
        case 22:
            // The last rows of a section go to the start of the next.
            if s + 1 < sections.count, sections[s].rows.count > 1 {
                let count = 1 + random.below(sections[s].rows.count - 1)
                let moved = sections[s].rows.suffix(count)
                sections[s].rows.removeLast(count)
                sections[s + 1].rows.insert(contentsOf: moved, at: 0)
            }
        case 12, 13:
            // Bytes: a few removed, or some inserted, anywhere.
            var bytes = Array(text.utf8)
            let at = random.below(bytes.count)
            if random.chance(50) {
                bytes.removeSubrange(at..<min(at + 1 + random.below(12), bytes.count))
            } else {
                let pieces = [
                    ",", "\n", "\r", "\r\n", "\"", "x", "\n\n", "q1,S0,Q,,,\n", "q2,S0,\"Q\nR\",,,\n", "\"a\n", " ",
                ]
                bytes.insert(contentsOf: Array(pieces[random.below(pieces.count)].utf8), at: at)
            }
            return String(decoding: bytes, as: UTF8.self)
        case 14:
            // The last line break goes, or comes back.
            return text.hasSuffix("\n") ? String(text.dropLast()) : text + "\n"
        default:
            // A blank line somewhere.
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            lines.insert("", at: 1 + random.below(max(lines.count - 1, 1)))
            return lines.joined(separator: "\n")
        }
        return nil
    }

    @Test func whenRandomSavesOfACSVAreReadOnlyWhereTheyChanged_thenTheOutlineIsAFullReads() throws {
        var spliced = 0
        var declined = 0
        var crossed = 0  // spliced, with sections gone or come
        for seed in 1...200 {
            var random = Random(state: UInt64(seed))
            var counter = 0
            // Options: sectioned or not, sorted or not, a footer column now and then.
            var options = CSVListingOptions(sectionBy: random.chance(80) ? "section" : nil)
            options.sort = random.chance(20)
            options.indexInitials = random.chance(30)
            if random.chance(10) { options.footer = "foot" }
            if random.chance(20) { options.defaultStyle = .subtitle }
            let lineBreak = random.chance(20) ? "\r\n" : "\n"
            var sections = (0..<(1 + random.below(4))).map { s in
                Section(
                    name: "S\(s)",
                    rows: (0..<(1 + random.below(8))).map { r in
                        Row(
                            id: "r\(s)-\(r)", text: random.chance(10) ? "Row\n\(r)" : "Row \(r)",
                            detail: random.chance(30) ? "No. \(r)" : nil, body: random.chance(10) ? "Body \(r)" : nil)
                    })
            }
            var text = Self.csv(sections, lineBreak: lineBreak)
            var good = Self.read(text, options: options)
            try #require(good.problems.isEmpty, "seed \(seed): the first listing reads")
            for taken in good.reads { taken.commit() }
            for step in 0..<40 {
                var model = sections
                let raw = Self.edit(&model, text, &random, counter: &counter)
                let next = raw ?? Self.csv(model, lineBreak: lineBreak)
                let previous = good.reads[0].digests.current
                let full = Self.read(next, options: options, previous: previous)
                let fast = Self.read(next, options: options, last: good.reads)
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
                    #expect(a.isCSV && b.isCSV, "\(context): CSV layouts")
                    #expect(a.rowStarts == b.rowStarts, "\(context): row starts")
                    #expect(a.detailRows == b.detailRows, "\(context): detail rows")
                    #expect(a.sectionHeaders == b.sectionHeaders, "\(context): section headers")
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
        #expect(declined > 300, "and declined often (\(spliced) spliced, \(declined) read whole)")
        #expect(crossed > 200, "also when sections go or come (\(crossed) of \(spliced) spliced)")
    }

    static func big(rows: Int, sections: Int) -> String {
        var out = "id,section,text,detail\n"
        for row in 0..<rows { out += "r\(row),S\(row * sections / rows),Row \(row),D\n" }
        return out
    }

    @Test func whenOneRowOfAHundredThousandCSVRowsChanges_thenOnlyItIsReadAgain() throws {
        let options = CSVListingOptions(sectionBy: "section")
        let text = Self.big(rows: 100_000, sections: 26)
        let first = Self.read(text, options: options)
        for taken in first.reads { taken.commit() }
        var edited = text
        let row = try #require(edited.range(of: ",Row 51234,"))
        edited.replaceSubrange(row, with: ",\"Row 51234, edited\",")
        let fast = Self.read(edited, options: options, last: first.reads)
        #expect(fast.spliced == [true])
        #expect(Array(fast.changedRows[0].keys) == ["r51234"])
        #expect(fast.outlines == Self.read(edited, options: options).outlines)
    }

    @Test func whenACSVSectionOfAHundredThousandRowsGoesOrComes_thenOnlyTheSectionsAroundAreRead() throws {
        let options = CSVListingOptions(sectionBy: "section")
        let text = Self.big(rows: 100_000, sections: 26)
        let first = Self.read(text, options: options)
        for taken in first.reads { taken.commit() }
        let deleted = text.split(separator: "\n").filter { !$0.contains(",S1,") }.joined(separator: "\n") + "\n"
        let fast = Self.read(deleted, options: options, last: first.reads)
        #expect(fast.spliced == [true])
        #expect(fast.changedRows[0].isEmpty)
        #expect(fast.outlines == Self.read(deleted, options: options).outlines)
        for taken in fast.reads { taken.commit() }
        let inserted = deleted.replacingOccurrences(of: "r0,S0,", with: "new,New,New,D\nr0,S0,")
        let again = Self.read(inserted, options: options, last: fast.reads)
        #expect(again.spliced == [true])
        #expect(Array(again.changedRows[0].keys) == ["new"])
        #expect(again.outlines == Self.read(inserted, options: options).outlines)
    }

    @Test(arguments: [
        ("r5,S0,Row 5,D\n", "r5,S1,Row 5,D\n", "a row moved to the next section"),
        ("id,section,text,detail\n", "id,section,text,info\n", "the header"),
        ("r5,S0,Row 5,D\n", ",S0,Row 5,D\n", "a derived identity"),
        ("r5,S0,Row 5,D\n", "r5,S0,\"Row 5\nspans\",D\n", ""),
    ])
    func whenASaveIsUnsafeToSplice_thenTheListingIsReadWhole(old: String, new: String, why: String) throws {
        let options = CSVListingOptions(sectionBy: "section")
        let text = Self.big(rows: 20, sections: 2)
        let first = Self.read(text, options: options)
        for taken in first.reads { taken.commit() }
        let edited = text.replacingOccurrences(of: old, with: new)
        try #require(edited != text)
        let full = Self.read(edited, options: options)
        let fast = Self.read(edited, options: options, last: first.reads)
        // A quoted field spanning lines within one section is spliced; the others are read whole.
        #expect(fast.spliced == [why.isEmpty], "\(why)")
        #expect(fast.outlines == full.outlines, "\(why)")
    }

    @Test func whenTheSectionsInterleave_thenTheCSVListingHasNoLayout() throws {
        let text = "id,section,text\na,S0,A\nb,S1,B\nc,S0,C\n"
        let read = Self.read(text, options: CSVListingOptions(sectionBy: "section"))
        #expect(read.problems.isEmpty)
        #expect(read.reads[0].layout == nil)
        #expect(Self.read(text, options: CSVListingOptions()).reads[0].layout?.rowStarts == [16, 23, 30])
    }
}
