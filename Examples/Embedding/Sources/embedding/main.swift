// An app that embeds RowKit: it declares a table with the DSL, changes it in a batch, drives the
// headless table view through a scroll (printing what the view displays), and exports the table
// as a static site with RowKitHTML. It checks every result and exits with status 1 when one is
// wrong, so CI can run it (scripts/test-embedding.sh).
//
//   swift run embedding [SITE-FOLDER]     the site goes to SITE-FOLDER, else to a temporary folder
import Foundation
import RowKit
import RowKitHTML

/// What the app expected and did not get; printed at the end.
var failures: [String] = []

@MainActor func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { failures.append(message()) }
}

// MARK: - A table, declared with the DSL

let letters = ["A", "B", "C", "D", "E", "F"]
let contacts = Table(style: .plain) {
    Section("Favourites", footer: "Shown first.") {
        Value1Row("Ada Lovelace", detail: "mobile", accessory: .detailButton)
        Value1Row("Tom & Jerry", detail: "home")
        Value1Row("<script>alert(1)</script>", detail: "work", id: "hostile")
    }
    for letter in letters {
        Section(letter, index: letter) {
            for number in 1...30 {
                SubtitleRow(
                    "\(letter) Contact \(number)", detail: "+1 555 01\(number)",
                    accessory: number == 1 ? .disclosureIndicator : .none,
                    body: number == 1 ? "The first contact under **\(letter)**." : nil)
            }
        }
    }
}

var model = try TableModel(contacts)
check(model.numberOfSections == 7, "sections: \(model.numberOfSections), expected 7")
check(model.rowCount == 183, "rows: \(model.rowCount), expected 183")

// MARK: - A batch: validated whole, applied whole

let before = model
let changes = try model.performBatch { batch in
    batch.delete(id: "Tom & Jerry", animation: .fade)
    batch.insert(Value1Row("Grace Hopper", detail: "mobile"), at: RowPath(section: 0, row: 0))
    batch.move(id: "A Contact 2", to: RowPath(section: 0, row: 1))
}
let (deleted, inserted, moved) = (changes.deletedRows.count, changes.insertedRows.count, changes.movedRows.count)
print("batch: \(deleted) deleted, \(inserted) inserted, \(moved) moved")
check(changes.deletedRows.map(\.index) == [RowPath(section: 0, row: 1)], "deleted rows: \(changes.deletedRows)")
check(changes.insertedRows.map(\.index) == [RowPath(section: 0, row: 0)], "inserted rows: \(changes.insertedRows)")
check(
    changes.movedRows.map { [$0.from, $0.to] } == [[RowPath(section: 1, row: 1), RowPath(section: 0, row: 1)]],
    "moved rows: \(changes.movedRows)")
check(
    model.path(of: "A Contact 2") == RowPath(section: 0, row: 1),
    "A Contact 2 is at \(String(describing: model.path(of: "A Contact 2")))")
check(changes.newRowCounts == [4, 29, 30, 30, 30, 30, 30], "row counts after the batch: \(changes.newRowCounts)")

// A batch that names a row that does not exist throws and leaves the model as it was.
let unchanged = model
do {
    _ = try model.performBatch { batch in
        batch.delete(id: "Ada Lovelace")
        batch.delete(id: "Nobody")
    }
    check(false, "a batch deleting a missing row did not throw")
} catch {
    print("refused: \(error)")
    check(
        model.path(of: "Ada Lovelace") != nil && model.rowCount == unchanged.rowCount,
        "the failed batch changed the model")
}

// MARK: - The headless view: first screen, the batch, a scroll

/// Rows the view displays now, according to its events alone.
var displayed: Set<ItemID> = []
var events: [TableEvent] = []

let view = TableView(model: before, viewport: TableViewport(width: 390, height: 844))
view.onEvent = { event in
    events.append(event)
    switch event {
    case .willDisplayCell(let row, _): displayed.insert(row.id)
    case .didEndDisplayingCell(let row, _): displayed.remove(row.id)
    default: break
    }
}

view.layoutIfNeeded()
print("first screen: \(events.count) events")
check(displayed.contains("Tom & Jerry") && displayed.contains("A Contact 1"), "first screen: \(displayed.count) rows")

try view.apply(changes, to: model)
check(!displayed.contains("Tom & Jerry"), "the deleted row is still displayed")
check(displayed.contains("Grace Hopper"), "the inserted row is not displayed")

events.removeAll()
print("scroll by 2000 points:")
view.scroll(by: 2000)
for event in events { print("  \(event)") }
// Rows measured taller than their estimate above the viewport move the offset with them
// (anchoring), so the content on screen does not jump: the offset is 2000 or a little more.
let top = view.contentOffset
check(top >= 2000 && top < 2100, "content offset: \(top), expected 2000 plus the measured rows above")
check(!displayed.contains("Ada Lovelace"), "a row scrolled off the top is still displayed")

let visibleRows = view.visibleItems.filter { $0.kind == .row }
check(Set(visibleRows.map(\.id)) == displayed, "the events and the visible rows disagree")
check(
    visibleRows.allSatisfy { $0.rect.y + $0.rect.height > top && $0.rect.y < top + 844 },
    "a visible row lies outside the viewport")
check(
    view.numberOfSections == model.numberOfSections,
    "the view has \(view.numberOfSections) sections, the model \(model.numberOfSections)")

// MARK: - A static site with RowKitHTML

let site: URL
if CommandLine.arguments.count > 1 {
    site = URL(fileURLWithPath: CommandLine.arguments[1])
} else {
    site = FileManager.default.temporaryDirectory.appendingPathComponent("rowkit-embedding-\(getpid())")
}
let exporter = SiteExporter(ExportOptions(pageSize: 50, title: "Contacts"))
let first = try exporter.export(model.table, to: site)
print("site: \(site.path) (\(first.pages) pages, \(first.rows) rows, \(first.filesWritten) files)")
check(first.rows == model.rowCount, "exported \(first.rows) rows of \(model.rowCount)")
// 183 rows at 50 a page: 4 list pages, and a detail page for each row with a chevron and a body.
check(first.pages == 4 + letters.count, "exported \(first.pages) pages, expected \(4 + letters.count)")

let index = try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)
check(index.contains("Grace Hopper"), "index.html lacks the inserted row")
check(!index.contains("<script>alert"), "index.html contains the row text as markup")
check(index.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "index.html lacks the escaped row text")
let details = try FileManager.default.contentsOfDirectory(atPath: site.appendingPathComponent("rows").path)
check(details.count == letters.count, "detail pages: \(details.sorted()), expected one per letter")

// Exporting the same table again rewrites nothing.
let again = try exporter.export(model.table, to: site)
check(again.filesWritten == 0, "re-export wrote \(again.filesWritten) files")
check(
    again.filesUnchanged == first.filesWritten, "re-export kept \(again.filesUnchanged) of \(first.filesWritten) files")

if CommandLine.arguments.count <= 1 { try? FileManager.default.removeItem(at: site) }

if failures.isEmpty {
    print("embedding: all checks passed")
} else {
    for failure in failures { FileHandle.standardError.write(Data("embedding: \(failure)\n".utf8)) }
    exit(1)
}
