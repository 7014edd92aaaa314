import Foundation
import RowKitHTML
import RowKitListing

/// The export half of the listing fuzz target: a listing that read cleanly must export (streaming,
/// on two threads) to a whole site, or fail with a typed error, and nothing may appear outside the
/// work folder's `site` folder but the input and the exporter's own temporary siblings of `site`.
enum FuzzExport {
    static func check(_ reader: ListingReader, title: String, in folder: URL) {
        let site = folder.appendingPathComponent("site")
        let exporter = SiteExporter(ExportOptions(pageSize: 7, baseDirectory: folder, title: title, jobs: 2))
        do {
            try exporter.export(listings: [ListingExport(reader)], to: site)
        } catch is ExportError {
            return
        } catch is ListingExportError {
            return
        } catch {
            fatalError("export failed with an untyped error: \(error)")
        }
        guard FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path) else {
            fatalError("export reported success without writing index.html")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for entry in entries where entry != "site" && !entry.hasPrefix("input.") {
            fatalError("the export left \(entry) beside the site")
        }
    }
}
