import Foundation
import RowKit
import RowKitHTML
import Testing

@Suite struct SiteExporterTests {
    static func numbered(_ count: Int, sections: Int = 3, body: Bool = false) -> Table {
        let perSection = count / sections
        return Table(
            style: .plain,
            sections: (0..<sections).map { section in
                let rows = (0..<(section == sections - 1 ? count - perSection * (sections - 1) : perSection)).map {
                    index in
                    AnyRow(
                        Value1Row(
                            "Row \(section)-\(index)", detail: "\(index)",
                            accessory: body ? .disclosureIndicator : .none,
                            body: body ? "Body of **\(section)-\(index)**" : nil))
                }
                return Section(
                    id: ItemID("s\(section)"), header: .title("Section \(section)"), indexTitle: "\(section)",
                    rows: rows)
            })
    }

    static func inode(_ url: URL) throws -> UInt64 {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0
    }

    @Test func longTablesArePaginatedWithPageLinksAndIndexLinksToTheRightPage() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var reports: [Int] = []
        let summary = try SiteExporter(ExportOptions(pageSize: 500, search: false)).export(
            Self.numbered(1200), to: folder.url.appendingPathComponent("s")
        ) {
            done, total in
            #expect(total == 1200)
            reports.append(done)
        }
        #expect(summary.rows == 1200 && summary.pages == 3)
        #expect(reports == [500, 1000, 1200])
        let files = TemporaryFolder.files(in: folder.url.appendingPathComponent("s"))
        #expect(files == [".rowkit-manifest.json", "assets/rowkit.css", "index.html", "page-2.html", "page-3.html"])
        let second = try String(contentsOf: folder.url.appendingPathComponent("s/page-2.html"), encoding: .utf8)
        #expect(
            second.contains("<a rel=\"prev\" href=\"index.html\">")
                && second.contains("<a rel=\"next\" href=\"page-3.html\">"))
        #expect(second.contains("<span aria-current=\"page\"><span class=\"visually-hidden\">Page </span>2</span>"))
        // Section 1 (rows 400..799) starts on page 1; section 2 (800..1199) on page 2.
        #expect(second.contains("<a href=\"index.html#section-s1\">1</a>"))
        #expect(second.contains("<a href=\"#section-s2\">2</a>"))
        #expect(second.contains("id=\"section-s2\""))
        #expect(second.components(separatedBy: "<li class=\"row\"").count - 1 == 500)
    }

    @Test func reExportingAfterASmallChangeRewritesOnlyTheChangedPages() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        let exporter = SiteExporter(ExportOptions(pageSize: 100, search: false))
        let first = try exporter.export(Self.numbered(300, body: true), to: site)
        #expect(first.filesWritten == 304 && first.filesUnchanged == 0)
        let keptInode = try Self.inode(site.appendingPathComponent("page-3.html"))
        let changedInode = try Self.inode(site.appendingPathComponent("index.html"))
        var table = Self.numbered(300, body: true)
        table.sections[0].rows[5] = AnyRow(
            Value1Row("Row 0-5", detail: "changed", accessory: .disclosureIndicator, body: "Body of **0-5**"))
        let second = try exporter.export(table, to: site)
        // index.html and the row's detail page change; everything else is kept.
        #expect(second.filesWritten == 2 && second.filesUnchanged == 302 && second.filesRemoved == 0)
        #expect(try Self.inode(site.appendingPathComponent("page-3.html")) == keptInode)
        #expect(try Self.inode(site.appendingPathComponent("index.html")) != changedInode)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(siblings == ["site"], "no temporary or backup folder is left")
    }

    @Test func anInterruptedSwapIsRecoveredByRestoringThePreviousSite() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter(ExportOptions(search: false)).export(Self.numbered(10), to: site)
        // Simulate a crash between "rename site to backup" and "rename new to site".
        let backup = folder.url.appendingPathComponent(".site.rowkit-old")
        let unfinished = folder.url.appendingPathComponent(".site.rowkit-new")
        try FileManager.default.moveItem(at: site, to: backup)
        try FileManager.default.createDirectory(at: unfinished, withIntermediateDirectories: true)
        let summary = try SiteExporter(ExportOptions(search: false)).export(Self.numbered(10), to: site)
        #expect(summary.filesUnchanged == 2, "the restored previous site was used")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["site"])
    }

    @Test func aFolderThatIsNotARowKitSiteIsNeverReplaced() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try "keep me".write(to: folder.url.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        #expect(throws: ExportError.self) { try SiteExporter().export(Self.numbered(3), to: folder.url) }
        #expect(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("notes.txt").path))
    }

    @Test func aFailedExportLeavesThePreviousSiteWhole() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let site = folder.url.appendingPathComponent("site")
        try SiteExporter().export(Self.numbered(10), to: site)
        let before = TemporaryFolder.files(in: site)
        let broken = Table { Section { DefaultRow("x", image: CellImage("missing.png")) } }
        #expect(throws: ExportError.self) {
            try SiteExporter(ExportOptions(baseDirectory: folder.url)).export(broken, to: site)
        }
        #expect(TemporaryFolder.files(in: site) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["site"])
    }

    struct Swatch: HTMLRenderableRow, Equatable {
        typealias Cell = PlainCell
        var id: String
        var htmlRepresentation: HTMLRowRepresentation { .trustedHTML("<span class=\"swatch\">\(id)</span>") }
    }

    struct Opaque: Row, Equatable {
        typealias Cell = OpaqueCell
        var id: String
    }

    @Test func customRowsRenderTheirOwnHTMLAndUnknownRowsTheirIdentity() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let table = Table {
            Section {
                Swatch(id: "red"); Opaque(id: "<opaque>")
            }
        }
        try SiteExporter().export(table, to: folder.url.appendingPathComponent("s"))
        let html = try String(contentsOf: folder.url.appendingPathComponent("s/index.html"), encoding: .utf8)
        #expect(html.contains("<span class=\"swatch\">red</span>"))
        #expect(html.contains("<span class=\"text\" dir=\"auto\">&lt;opaque&gt;</span>"))
    }

    @Test func switchRowsShowAReadOnlySwitchWithTheirStateWhereTheAccessoryWouldBe() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let table = Table {
            Section {
                SwitchRow("Wi-Fi & Bluetooth", isOn: true)
                SwitchRow(id: "a", content: CellContent(text: "Off", accessory: .checkmark), isOn: false)
            }
        }
        try SiteExporter().export(table, to: folder.url.appendingPathComponent("s"))
        let html = try String(contentsOf: folder.url.appendingPathComponent("s/index.html"), encoding: .utf8)
        #expect(
            html.contains(
                #"<span class="accessory switch" role="switch" aria-checked="true" aria-readonly="true" "#
                    + #"aria-label="Wi-Fi &amp; Bluetooth"></span>"#))
        #expect(html.contains(#"role="switch" aria-checked="false" aria-readonly="true" aria-label="Off""#))
        #expect(!html.contains("checkmark"), "the switch stands where the accessory would be")
    }
}

@MainActor
final class PlainCell: TableCell, CellConfiguring {
    func configure(with row: SiteExporterTests.Swatch) {}
}

@MainActor
final class OpaqueCell: TableCell, CellConfiguring {
    func configure(with row: SiteExporterTests.Opaque) {}
}
