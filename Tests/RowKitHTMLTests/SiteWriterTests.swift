import Foundation
import RowKit
import Testing

@testable import RowKitHTML

/// The site writer and the user's files: what it keeps, what it removes, how it recovers, and one
/// writer at a time.
@Suite struct SiteWriterTests {
    let manager = FileManager.default
    static var manager: FileManager { .default }

    static func write(_ text: String, _ path: URL) throws {
        try manager.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: path, atomically: false, encoding: .utf8)
    }

    static func read(_ path: URL) -> String? { try? String(contentsOf: path, encoding: .utf8) }

    static func inode(_ path: URL) throws -> UInt64 {
        (try manager.attributesOfItem(atPath: path.path)[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    @Test func filesTheUserAddedSurviveAReExportAndOnlyRowKitsOwnFilesAreRemoved() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter(ExportOptions(pageSize: 10)).export(SiteExporterTests.numbered(30, body: true), to: site)
        try Self.write("example.org\n", site.appendingPathComponent("CNAME"))
        try Self.write("ref: refs/heads/main\n", site.appendingPathComponent(".git/HEAD"))
        try Self.write("x", site.appendingPathComponent(".git/objects/ab/cdef"))
        try Self.write("mine", site.appendingPathComponent("rows/notes.txt"))
        try manager.createDirectory(at: site.appendingPathComponent("drafts"), withIntermediateDirectories: true)
        try manager.createSymbolicLink(
            atPath: site.appendingPathComponent("latest").path, withDestinationPath: "index.html")
        let cname = try Self.inode(site.appendingPathComponent("CNAME"))

        // Fewer rows: page-3.html and ten detail pages are no longer written.
        let summary = try SiteExporter(ExportOptions(pageSize: 10)).export(
            SiteExporterTests.numbered(20, body: true), to: site)
        #expect(Self.read(site.appendingPathComponent("CNAME")) == "example.org\n")
        #expect(try Self.inode(site.appendingPathComponent("CNAME")) == cname, "the same file, not a copy")
        #expect(Self.read(site.appendingPathComponent(".git/HEAD")) == "ref: refs/heads/main\n")
        #expect(Self.read(site.appendingPathComponent(".git/objects/ab/cdef")) == "x")
        #expect(Self.read(site.appendingPathComponent("rows/notes.txt")) == "mine")
        #expect(manager.fileExists(atPath: site.appendingPathComponent("drafts").path))
        #expect(
            try manager.destinationOfSymbolicLink(atPath: site.appendingPathComponent("latest").path) == "index.html")
        #expect(summary.filesRemoved == 11)
        #expect(summary.removedFiles.contains("page-3.html"))
        #expect(summary.removedFiles.allSatisfy { $0 == "page-3.html" || $0.hasPrefix("rows/row-") })
        #expect(summary.removedFiles == summary.removedFiles.sorted())
        #expect(!manager.fileExists(atPath: site.appendingPathComponent("page-3.html").path))
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path) == ["site"], "nothing is left beside the site")
    }

    @Test func aFileOfTheUsersWhereTheExportWritesStopsItAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        let exporter = SiteExporter(ExportOptions(pageSize: 10))
        try exporter.export(SiteExporterTests.numbered(10), to: site)
        try Self.write("my own second page", site.appendingPathComponent("page-2.html"))
        let before = TemporaryFolder.files(in: site)
        #expect(throws: ExportError.userFilesInTheWay(path: site.path, files: ["page-2.html"])) {
            try exporter.export(SiteExporterTests.numbered(20), to: site)
        }
        #expect(TemporaryFolder.files(in: site) == before)
        #expect(Self.read(site.appendingPathComponent("page-2.html")) == "my own second page")
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path) == ["site"])
    }

    @Test func aPageEditedInPlaceAtTheSameSizeIsWrittenAgain() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        // Without the search index, the site is the page and the stylesheet: one edited, one kept.
        let exporter = SiteExporter(ExportOptions(search: false))
        try exporter.export(SiteExporterTests.numbered(5), to: site)
        let index = site.appendingPathComponent("index.html")
        let original = try #require(Self.read(index))
        let edited = original.replacingOccurrences(of: "Section 0", with: "Sektion 0")
        #expect(edited.utf8.count == original.utf8.count && edited != original)
        try edited.write(to: index, atomically: false, encoding: .utf8)
        let summary = try exporter.export(SiteExporterTests.numbered(5), to: site)
        #expect(Self.read(index) == original)
        #expect(summary.filesWritten == 1 && summary.filesUnchanged == 1)
    }

    @Test func aFolderMarkedWithAnEmptyManifestIsAdoptedAndItsFilesKept() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.write("keep me", folder.url.appendingPathComponent("docs/notes.txt"))
        let docs = folder.url.appendingPathComponent("docs")
        #expect(throws: ExportError.outputNotASite(path: docs.path)) {
            try SiteExporter().export(SiteExporterTests.numbered(3), to: docs)
        }
        _ = manager.createFile(atPath: docs.appendingPathComponent(".rowkit-manifest.json").path, contents: nil)
        try SiteExporter().export(SiteExporterTests.numbered(3), to: docs)
        #expect(Self.read(docs.appendingPathComponent("notes.txt")) == "keep me")
        #expect(manager.fileExists(atPath: docs.appendingPathComponent("index.html").path))
    }

    @Test func anOutputThatIsASymbolicLinkStaysOneAndItsTargetGetsTheSite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let link = folder.url.appendingPathComponent("link")
        try manager.createSymbolicLink(atPath: link.path, withDestinationPath: "real/site")
        try SiteExporter().export(SiteExporterTests.numbered(3), to: link)
        try SiteExporter().export(SiteExporterTests.numbered(4), to: link)
        #expect(try manager.destinationOfSymbolicLink(atPath: link.path) == "real/site")
        #expect(manager.fileExists(atPath: folder.url.appendingPathComponent("real/site/index.html").path))
        #expect(try manager.contentsOfDirectory(atPath: folder.url.appendingPathComponent("real").path) == ["site"])
    }

    @Test func aCrashRightAfterTheSwapLosesNoFileOfTheUsers() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter().export(SiteExporterTests.numbered(3), to: site)
        // What a crash between the exchange and the clean-up leaves: the previous site, with its
        // manifest, RowKit's files and a file the user made during the export.
        let old = folder.url.appendingPathComponent(".site.rowkit-new")
        try manager.copyItem(at: site, to: old)
        try Self.write("written during the export", old.appendingPathComponent("late.txt"))
        try SiteExporter().export(SiteExporterTests.numbered(3), to: site)
        #expect(Self.read(site.appendingPathComponent("late.txt")) == "written during the export")
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path) == ["site"])
    }

    static let pagesOfTen = SiteExporter(ExportOptions(pageSize: 10))

    /// A site of 10 rows in `folder`, and beside it, as a crashed export leaves it, a whole site of
    /// 30 rows (pages the first lacks among them) under the temporary folder's name.
    static func siteAndLeftover(in folder: TemporaryFolder) throws -> (site: URL, leftover: URL) {
        let site = folder.url.appendingPathComponent("site")
        try pagesOfTen.export(SiteExporterTests.numbered(10), to: site)
        let leftover = folder.url.appendingPathComponent(".site.rowkit-new")
        try pagesOfTen.export(SiteExporterTests.numbered(30), to: leftover)
        return (site, leftover)
    }

    /// What a crash while the manifest is written leaves beside the site: an unfinished new site
    /// (pages the previous site lacks among them, and the export's mark) whose manifest is still
    /// under its temporary name. The next export removes it, and none of its pages reach the site.
    @Test func aCrashWhileTheManifestIsWrittenLeavesNoPageOfTheUnfinishedSite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (site, unfinished) = try Self.siteAndLeftover(in: folder)
        let expected = try StreamingExportTests.files(site)
        let leftover = open(unfinished.path, O_RDONLY | O_DIRECTORY)
        try ExportMark().write(in: leftover)
        close(leftover)
        let manifest = unfinished.appendingPathComponent(Manifest.fileName)
        let partial = try Data(contentsOf: manifest)
        try partial.prefix(partial.count / 2).write(to: unfinished.appendingPathComponent(Manifest.partialName))
        try manager.removeItem(at: manifest)
        #expect(manager.fileExists(atPath: unfinished.appendingPathComponent("page-3.html").path))

        try Self.pagesOfTen.export(SiteExporterTests.numbered(10), to: site)
        #expect(try StreamingExportTests.files(site) == expected)
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path) == ["site"])
    }

    /// An export killed while it wrote its mark (its temporary folder's first file) leaves the
    /// folder with an empty or partial mark: the next export removes it and exports. A file of the
    /// same name whose text is not the start of a mark, or anything beside the mark, is not
    /// rowkit's: the export stops and leaves it.
    @Test(arguments: [0, 1, 13, 20])
    func aTemporaryFolderWithAMarkCutShortIsRemovedByTheNextExport(written: Int) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try Self.pagesOfTen.export(SiteExporterTests.numbered(10), to: site)
        let expected = try StreamingExportTests.files(site)
        let temporary = folder.url.appendingPathComponent(".site.rowkit-new")
        try manager.createDirectory(at: temporary, withIntermediateDirectories: false)
        let id = UUID().uuidString.lowercased()
        let mark = temporary.appendingPathComponent(ExportMark.prefix + id)
        try Data("rowkit export \(id)\n".utf8.prefix(written)).write(to: mark)

        try Self.pagesOfTen.export(SiteExporterTests.numbered(10), to: site)
        #expect(try StreamingExportTests.files(site) == expected)
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path) == ["site"])

        // Not the start of a mark's text, or not alone: the user's, left as it is.
        try manager.createDirectory(at: temporary, withIntermediateDirectories: false)
        try Data("my notes".utf8).write(to: mark)
        #expect(throws: ExportError.self) { try Self.pagesOfTen.export(SiteExporterTests.numbered(10), to: site) }
        try Data("rowkit export \(id)\n".utf8.prefix(written)).write(to: mark)
        try Data("x".utf8).write(to: temporary.appendingPathComponent("thesis.txt"))
        #expect(throws: ExportError.self) { try Self.pagesOfTen.export(SiteExporterTests.numbered(10), to: site) }
        #expect(manager.fileExists(atPath: temporary.appendingPathComponent("thesis.txt").path))
        #expect(try StreamingExportTests.files(site) == expected)
    }

    /// A leftover folder whose manifest is cut short (only a file system that lost data makes
    /// one: RowKit renames its manifests into place whole) does not say which of its files are
    /// RowKit's. None of them is moved into the site or removed: the export stops and says so.
    @Test func aLeftoverWithAManifestCutShortIsLeftForTheUserAndTheSiteUntouched() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (site, leftover) = try Self.siteAndLeftover(in: folder)
        let before = try StreamingExportTests.files(site)
        let manifest = leftover.appendingPathComponent(Manifest.fileName)
        let whole = try Data(contentsOf: manifest)
        try whole.prefix(whole.count / 2).write(to: manifest)
        let leftoverFiles = try StreamingExportTests.files(leftover)

        #expect(throws: ExportError.self) { try Self.pagesOfTen.export(SiteExporterTests.numbered(10), to: site) }
        #expect(try StreamingExportTests.files(site) == before)
        #expect(try StreamingExportTests.files(leftover) == leftoverFiles)
    }

    @Test func aSecondExportFailsAtOnceOrWaitsWhileTheLockIsHeld() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter().export(SiteExporterTests.numbered(3), to: site)
        let first = try SiteWriter(output: site, durable: false)
        let before = try manager.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(throws: ExportError.outputInUse(path: site.path, process: getpid())) {
            try SiteExporter(ExportOptions(waitForOtherExport: false)).export(SiteExporterTests.numbered(4), to: site)
        }
        #expect(
            try manager.contentsOfDirectory(atPath: folder.url.path).sorted() == before,
            "the first one's folder is untouched")
        // A waiting export that is asked to stop stops.
        let deadline = Date().addingTimeInterval(0.3)
        #expect(throws: ExportError.interrupted) {
            try SiteExporter(ExportOptions(shouldStop: { Date() > deadline })).export(
                SiteExporterTests.numbered(4), to: site)
        }
        first.abandon()
        try SiteExporter(ExportOptions(waitForOtherExport: false)).export(SiteExporterTests.numbered(4), to: site)
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path) == ["site"])
    }

    @Test func aFailedExportRemovesTheParentFoldersItMade() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let broken = Table { Section { DefaultRow("x", image: CellImage("missing.png")) } }
        #expect(throws: ExportError.self) {
            try SiteExporter(ExportOptions(baseDirectory: folder.url)).export(
                broken, to: folder.url.appendingPathComponent("a/b/site"))
        }
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func theOutputPathIsCheckedBeforeAnythingIsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try Self.write("x", folder.url.appendingPathComponent("file"))
        let cases: [(String, String)] = [
            (
                folder.url.appendingPathComponent("file/site").path,
                "'\(folder.url.appendingPathComponent("file").path)' is a file, not a folder"
            ),
            (
                folder.url.appendingPathComponent(String(repeating: "n", count: 256)).path,
                "bytes long; names may be at most 255 bytes"
            ),
            ("/", "it is the root folder"),
        ]
        for (output, reason) in cases {
            do {
                try SiteExporter().export(SiteExporterTests.numbered(1), to: URL(fileURLWithPath: output))
                Issue.record("\(output) was accepted")
            } catch let ExportError.outputUnusable(_, message) {
                #expect(message.contains(reason), "\(message)")
            }
        }
        // A name just short enough still works: the temporary name is shortened, not the site's.
        let long = folder.url.appendingPathComponent(String(repeating: "l", count: 255))
        try SiteExporter().export(SiteExporterTests.numbered(1), to: long)
        #expect(try manager.contentsOfDirectory(atPath: folder.url.path).sorted() == ["file", long.lastPathComponent])
    }

    @Test func markdownBodiesHaveTheirC1ControlsReplacedAsTextFieldsDo() {
        #expect(Markdown.render("next\u{85}line \u{9F} and \u{A0}") == "<p>next\u{FFFD}line \u{FFFD} and \u{A0}</p>\n")
        #expect(Markdown.render("é ü \u{80}") == "<p>é ü \u{FFFD}</p>\n")
    }

    @Test func aLinkOfOnlySpacesMakesNoLink() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let table = Table {
            Section {
                DefaultRow("Spaces", link: "   ")
                DefaultRow("Tab", accessory: .disclosureIndicator, body: "Body", link: "\t")
            }
        }
        try SiteExporter().export(table, to: folder.url.appendingPathComponent("s"))
        for page in TemporaryFolder.files(in: folder.url.appendingPathComponent("s")) where page.hasSuffix(".html") {
            let html = try #require(Self.read(folder.url.appendingPathComponent("s/" + page)))
            #expect(!html.contains("href=\"\""), "\(page)")
        }
    }
}
