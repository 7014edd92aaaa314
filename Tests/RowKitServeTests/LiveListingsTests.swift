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
}
