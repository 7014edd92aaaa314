import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Testing

@testable import RowKitServe

/// The records the server makes from a listing before its export must be the export's own.
@Suite struct EarlyRecordsTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

    /// Exports `yaml` (in a folder holding the examples' icons) and returns its outline and site.
    func export(_ yaml: String, in folder: URL, pageSize: Int) throws -> (TableOutline, URL) {
        let listing = folder.appendingPathComponent("listing.yaml")
        try yaml.write(to: listing, atomically: true, encoding: .utf8)
        let site = folder.appendingPathComponent("site")
        try SiteExporter(ExportOptions(pageSize: pageSize)).export(
            listings: [ListingExport(ListingReader(contentsOfFile: listing.path))], to: site)
        let read = LiveListings.readOutlines([ListingExport(ListingReader(contentsOfFile: listing.path))])
        #expect(read.problems.isEmpty)
        return (read.outlines[0], site)
    }

    @Test(arguments: [3, 500])
    func whenTheSettingsExampleChanges_thenEveryEarlyRecordIsTheExportsRecord(pageSize: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-early-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: Self.examples.appendingPathComponent("icons"), to: folder.appendingPathComponent("icons"))
        let original = try String(contentsOf: Self.examples.appendingPathComponent("settings.yaml"), encoding: .utf8)
        let (old, site) = try export(original, in: folder, pageSize: pageSize)
        var oldRecords = RowRecords(folder: site)
        let oldTexts = (0..<old.rowCount).map { oldRecords.record($0).map(String.init) }

        // Text, detail and body edits, a row moved to the top, a new row with a body and a link.
        var edited = original.replacingOccurrences(of: "text: Wi-Fi", with: "text: Wi-Fi Network")
        edited = edited.replacingOccurrences(of: "detail: HomeNet", with: "detail: Office")
        let moved =
            "      - id: early-new\n        text: New *row*\n        link: https://example.org\n"
            + "      - id: early-switch\n        text: Airplane Mode\n        switch: true\n"
        let at = try #require(edited.range(of: "rows:\n"))
        edited.insert(contentsOf: moved, at: at.upperBound)
        let listing = folder.appendingPathComponent("listing.yaml")
        try edited.write(to: listing, atomically: true, encoding: .utf8)
        let read = LiveListings.readOutlines(
            [ListingExport(ListingReader(contentsOfFile: listing.path))], previous: [old.digestsByID])
        let new = read.outlines[0]
        let changeset = try TableDiff.changeset(from: old.snapshot(), to: new.snapshot())
        let payload = try #require(ChangePayload(changeset, from: old, to: new))
        #expect(!payload.insertedRows.isEmpty && !payload.reloadedRows.isEmpty)
        var early = EarlyRecords(
            pageSize: pageSize, markdown: .default, changedRows: read.changedRows[0], old: old, new: new, oldSite: site)
        let made = early.records(for: payload)
        let records = try #require(made)

        try SiteExporter(ExportOptions(pageSize: pageSize)).export(
            listings: [ListingExport(ListingReader(contentsOfFile: listing.path))], to: site)
        var exported = RowRecords(folder: site)
        for (row, record) in records {
            #expect(exported.record(row).map(String.init) == record, "row \(row)")
        }
        #expect(records.count == payload.insertedRows.count + payload.reloadedRows.count)
        // The switch row's record carries its switch, on (code 64 + 128, default layout).
        let switchRecord = try #require(records.first { $0.1.contains("\"Airplane Mode\"") })
        #expect(switchRecord.1.hasPrefix("[192,"), "\(switchRecord.1)")
        #expect(oldTexts.compactMap { $0 }.count == old.rowCount)
    }
}
