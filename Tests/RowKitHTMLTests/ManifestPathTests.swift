import Foundation
import RowKit
import Testing

@testable import RowKitHTML

/// The previous site's manifest says which files a re-export may remove: only paths inside the
/// site are ever acted on, and the summary names only files the export removed.
@Suite struct ManifestPathTests {
    let manager = FileManager.default

    /// Where a test puts an entry into the manifest: among the site-wide files (read when the
    /// export starts) or as the last entry (read as the export reaches it).
    enum Position: CaseIterable { case first, last }

    /// Adds the file entry `path` (with a made-up hash and size) to the manifest of `site`.
    static func addEntry(_ path: String, to site: URL, at position: Position = .first) throws {
        let url = site.appendingPathComponent(Manifest.fileName)
        var lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let line = "[\(ManifestEntry.jsonString(path)),\"0000000000000000\",9],"
        switch position {
        case .first:
            let files = try #require(lines.firstIndex(of: "\"files\":["))
            lines.insert(line, at: files + 1)
        case .last:
            let last = try #require(lines.lastIndex { !$0.isEmpty })
            lines.insert(line, at: last)
        }
        try lines.joined(separator: "\n").write(to: url, atomically: false, encoding: .utf8)
    }

    /// A site of 30 rows with detail pages, in pages of 10, in `folder`, and beside it `out/keep.txt`, a file of the
    /// user's outside the site.
    static func siteAndFileOutside(in folder: TemporaryFolder) throws -> (site: URL, outside: URL) {
        let site = folder.url.appendingPathComponent("site")
        try SiteWriterTests.pagesOfTen.export(SiteExporterTests.numbered(30, body: true), to: site)
        let outside = folder.url.appendingPathComponent("out/keep.txt")
        try SiteWriterTests.write("precious", outside)
        return (site, outside)
    }

    @Test func whenAPathIsChecked_thenOnlyRelativePathsWithoutDotEmptyOrControlPartsAreSitePaths() {
        for path in ["index.html", "rows/a.b.html", ".well-known/x", "...", "a/..b/c..", "caf\u{E9}/\u{A0}x"] {
            #expect(SitePath.problem(path) == nil, "\(path)")
        }
        let problems: [(String, String)] = [
            ("", "is empty"), ("/etc/passwd", "is absolute"), ("..", "has a '..' component"),
            ("a/..", "has a '..' component"), (".", "has a '.' component"), ("a/./b", "has a '.' component"),
            ("a//b", "has an empty component"), ("a/", "has an empty component"),
            ("a\u{7F}", "has a control character (U+007F)"), ("a\u{9F}", "has a control character (U+009F)"),
            ("a\nb", "has a control character (U+000A)"),
        ]
        for (path, problem) in problems {
            #expect(SitePath.problem(path) == problem, "\(SitePath.quoted(path))")
        }
        #expect(SitePath.quoted("a\"b\\c\u{0}\u{202E}") == #""a\"b\\c\u{0}\u{202E}""#)
    }

    @Test func whenTheManifestListsAPathThatIsNotInsideTheSite_thenTheExportIsRefusedAndNothingChanges() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let outside = folder.url.appendingPathComponent("out/keep.txt").path
        let cases: [(entry: String, reason: String)] = [
            ("../out/keep.txt", "has a '..' component"),
            (outside, "is absolute"),
            ("a/../../out/keep.txt", "has a '..' component"),
            ("rows/../../out/keep.txt", "has a '..' component"),
            ("./index.html", "has a '.' component"),
            ("rows//row-0-0.html", "has an empty component"),
            ("rows/", "has an empty component"),
            ("", "is empty"),
            ("x\u{0}y", "has a control character (U+0000)"),
            ("x\u{1B}[2Jy", "has a control character (U+001B)"),
            ("x\u{85}y", "has a control character (U+0085)"),
        ]
        for (entry, reason) in cases {
            for position in Position.allCases {
                let (site, outsideFile) = try Self.siteAndFileOutside(in: folder)
                try Self.addEntry(entry, to: site, at: position)
                let before = try StreamingExportTests.files(site)
                #expect(
                    throws: ExportError.manifestInvalid(path: site.path, entry: entry, reason: reason),
                    "\(SitePath.quoted(entry)) \(position)"
                ) {
                    // Fewer rows: the previous site's last page and ten detail pages are stale.
                    try SiteWriterTests.pagesOfTen.export(SiteExporterTests.numbered(20, body: true), to: site)
                }
                #expect(try StreamingExportTests.files(site) == before, "the site is as it was")
                #expect(SiteWriterTests.read(outsideFile) == "precious")
                #expect(try manager.contentsOfDirectory(atPath: folder.url.path).sorted() == ["out", "site"])
                try manager.removeItem(at: site)
            }
        }
    }

    @Test func whenTheManifestOfAnUnchangedSiteListsAPathOutsideIt_thenTheExportIsRefused() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let yaml = StreamingExportTests.listing(30)
        try StreamingExportTests.export(yaml, in: folder.url, jobs: 1)
        let site = folder.url.appendingPathComponent("site")
        try SiteWriterTests.write("precious", folder.url.appendingPathComponent("out/keep.txt"))
        try Self.addEntry("../out/keep.txt", to: site, at: .last)
        let before = try StreamingExportTests.files(site)
        // Same listing, same options: the export would keep the previous site whole.
        #expect(
            throws: ExportError.manifestInvalid(
                path: site.path, entry: "../out/keep.txt", reason: "has a '..' component")
        ) {
            try StreamingExportTests.export(yaml, in: folder.url, jobs: 1)
        }
        #expect(try StreamingExportTests.files(site) == before)
        #expect(SiteWriterTests.read(folder.url.appendingPathComponent("out/keep.txt")) == "precious")
    }

    @Test func whenAStaleEntryIsAFileOfTheSite_thenItIsRemovedAndOnlyWhatWasRemovedIsReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (site, _) = try Self.siteAndFileOutside(in: folder)
        // A stale page the user already deleted: the export does not remove it, so does not name it.
        try manager.removeItem(at: site.appendingPathComponent("page-3.html"))
        let before = Set(TemporaryFolder.files(in: site))
        let summary = try SiteWriterTests.pagesOfTen.export(SiteExporterTests.numbered(20, body: true), to: site)
        let after = Set(TemporaryFolder.files(in: site))
        #expect(summary.removedFiles == before.subtracting(after).sorted())
        #expect(summary.filesRemoved == 10)
        #expect(summary.removedFiles.allSatisfy { $0.hasPrefix("rows/") })
        #expect(!summary.removedFiles.contains("page-3.html"))
    }

    @Test func whenAListedFileIsASymbolicLinkToAFileOutsideTheSite_thenTheLinkIsKeptAndNothingOutsideIsRemoved() throws
    {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (site, outside) = try Self.siteAndFileOutside(in: folder)
        // page-3.html is stale once the listing has 20 rows; it is a link now, not RowKit's file.
        let page = site.appendingPathComponent("page-3.html")
        try manager.removeItem(at: page)
        try manager.createSymbolicLink(atPath: page.path, withDestinationPath: outside.path)
        let summary = try SiteWriterTests.pagesOfTen.export(SiteExporterTests.numbered(20, body: true), to: site)
        #expect(SiteWriterTests.read(outside) == "precious")
        #expect(try manager.destinationOfSymbolicLink(atPath: page.path) == outside.path, "the user's link is kept")
        #expect(!summary.removedFiles.contains("page-3.html"))
        #expect(summary.filesRemoved == 10)
    }

    @Test func whenAFolderOnAListedPathIsASymbolicLinkOutOfTheSite_thenNothingThroughItIsRemovedOrReported() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (site, outside) = try Self.siteAndFileOutside(in: folder)
        try manager.createSymbolicLink(
            atPath: site.appendingPathComponent("linked").path,
            withDestinationPath: outside.deletingLastPathComponent().path)
        try Self.addEntry("linked/keep.txt", to: site)
        let summary = try SiteWriterTests.pagesOfTen.export(SiteExporterTests.numbered(20, body: true), to: site)
        #expect(SiteWriterTests.read(outside) == "precious")
        #expect(SiteWriterTests.read(site.appendingPathComponent("linked/keep.txt")) == "precious", "the link is kept")
        #expect(!summary.removedFiles.contains("linked/keep.txt"))
        #expect(summary.filesRemoved == 11)
    }

    @Test func whenAnUnchangedSitesFolderIsASymbolicLinkOutOfIt_thenItIsNotKeptAsIntact() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let yaml = StreamingExportTests.listing(30)
        try StreamingExportTests.export(yaml, in: folder.url, jobs: 1)
        let site = folder.url.appendingPathComponent("site")
        // The detail pages moved out of the site, a link in their place: the site is not whole.
        let moved = folder.url.appendingPathComponent("out/rows")
        try manager.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try manager.moveItem(at: site.appendingPathComponent("rows"), to: moved)
        try manager.createSymbolicLink(
            atPath: site.appendingPathComponent("rows").path, withDestinationPath: moved.path)
        let outside = TemporaryFolder.files(in: moved)
        #expect(throws: ExportError.userFilesInTheWay(path: site.path, files: ["rows"])) {
            try StreamingExportTests.export(yaml, in: folder.url, jobs: 1)
        }
        #expect(TemporaryFolder.files(in: moved) == outside)
    }

    @Test func whenAListedPathIsAFolder_thenTheFilesInItThatTheSiteDidNotWriteAreKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (site, _) = try Self.siteAndFileOutside(in: folder)
        try SiteWriterTests.write("mine", site.appendingPathComponent("drafts/notes.txt"))
        try Self.addEntry("drafts", to: site)
        let summary = try SiteWriterTests.pagesOfTen.export(SiteExporterTests.numbered(20, body: true), to: site)
        #expect(SiteWriterTests.read(site.appendingPathComponent("drafts/notes.txt")) == "mine")
        #expect(!summary.removedFiles.contains { $0.hasPrefix("drafts") })
        #expect(summary.filesRemoved == 11)
    }

    /// A leftover beside the site whose manifest lists a path outside it is left as it is, as one
    /// cut short is: it does not say which of its files are RowKit's.
    @Test func whenALeftoversManifestListsAPathOutsideTheSite_thenTheLeftoverIsLeftAsItIs() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (site, leftover) = try SiteWriterTests.siteAndLeftover(in: folder)
        try SiteWriterTests.write("precious", folder.url.appendingPathComponent("out/keep.txt"))
        try Self.addEntry("../out/keep.txt", to: leftover)
        let before = try StreamingExportTests.files(site)
        let leftoverFiles = try StreamingExportTests.files(leftover)
        #expect(throws: ExportError.self) {
            try SiteWriterTests.pagesOfTen.export(SiteExporterTests.numbered(10), to: site)
        }
        #expect(try StreamingExportTests.files(site) == before)
        #expect(try StreamingExportTests.files(leftover) == leftoverFiles)
        #expect(SiteWriterTests.read(folder.url.appendingPathComponent("out/keep.txt")) == "precious")
    }
}
