import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Testing

@testable import RowKitServe

/// What `rowkit serve` reads is what it exports: a save that lands after the read (during the
/// export that follows) cannot put another version of the listing on disk under the revision
/// that the pages were sent.
@Suite struct LiveListingsTests {
    @Test func whenTheListingIsSavedAfterItsRead_thenTheExportIsOfTheBytesRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-live-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let listing = folder.appendingPathComponent("listing.yaml")
        let read = "title: Read\nsections:\n  - rows:\n      - id: a\n        text: Read\n"
        try read.write(to: listing, atomically: true, encoding: .utf8)
        let outlines = LiveListings.readOutlines([ListingExport(ListingReader(contentsOfFile: listing.path))])
        #expect(outlines.problems.isEmpty)
        #expect(outlines.inputs.first?.reader.data == Data(read.utf8))
        #expect(outlines.inputs.first?.reader.path == listing.path)

        // Half a save: a shorter listing, as a file being written in place reads.
        try "title: Read\nsections:\n  - rows:\n".write(to: listing, atomically: false, encoding: .utf8)
        let site = folder.appendingPathComponent("site")
        let summary = try SiteExporter(ExportOptions()).export(listings: outlines.inputs, to: site)
        #expect(summary.rows == 1)
        let page = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(page.contains(">Read<"))
    }

    /// An outline of `sections` sections of `rows` rows each (identities `s-r`).
    static func outline(sections: Int, rows: Int, extra: Int = 0) -> TableOutline {
        var outline = TableOutline()
        for section in 0..<sections {
            outline.appendSection(id: "h:S\(section)", TableOutline.SectionInfo(header: "S\(section)"))
            for row in 0..<(rows + (section == 0 ? extra : 0)) { outline.appendRow(id: "\(section)-\(row)", digest: 1) }
        }
        return outline
    }

    @Test func whenASectionOfFifteenThousandRowsIsDeleted_thenThePagesApplyItInPlace() throws {
        let old = Self.outline(sections: 3, rows: 15_000)
        var new = old
        new.sectionIDs.remove(at: 1)
        new.sections.remove(at: 1)
        new.rowIDs.removeSubrange(15_000..<30_000)
        new.rowDigests.removeSubrange(15_000..<30_000)
        new.sectionStarts = [0, 15_000, 30_000]
        let changeset = try TableDiff.changeset(
            from: old.snapshot(), to: new.snapshot(), options: LiveListings.diffOptions)
        #expect(!changeset.reloadsEverything)
        let payload = try #require(ChangePayload(changeset, from: old, to: new))
        #expect(payload.deletedRows.count == 15_000 && !payload.needsTooManyRecords)

        // 15,000 rows inserted need as many records: the pages reload instead.
        let grown = Self.outline(sections: 3, rows: 15_000, extra: 15_000)
        let inserted = try TableDiff.changeset(
            from: old.snapshot(), to: grown.snapshot(), options: LiveListings.diffOptions)
        #expect(try #require(ChangePayload(inserted, from: old, to: grown)).needsTooManyRecords)
    }
}
