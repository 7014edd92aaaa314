import Foundation
import RowKitHTML

/// What a served page gets that the file on disk does not: the live script.
enum LivePage {
    /// The live script (`Templates/assets/live.js`, shipped with the templates), or `nil` when
    /// the templates have none.
    static let script: Data? = {
        guard let folder = try? TemplateSet.bundledDirectory() else { return nil }
        return try? Data(contentsOf: folder.appendingPathComponent("assets/live.js"))
    }()

    /// The one-page list's script (`Templates/assets/listing.js`), whose row markup the live
    /// script draws a one-page table's new rows with (a site of one-page tables has no copy).
    static let listingScript: Data? = {
        guard let folder = try? TemplateSet.bundledDirectory() else { return nil }
        return try? Data(contentsOf: folder.appendingPathComponent("assets/listing.js"))
    }()

    /// `page` with the live script's element added before its last `</body>` (or at its end).
    static func inject(into page: Data, table: String, revision: Int, kind: String, path: String) -> Data {
        let tag =
            "<script src=\"\(LiveRoutes.script)\" data-table=\"\(HTMLEscaping.escape(table))\" "
            + "data-revision=\"\(revision)\" data-kind=\"\(kind)\" data-path=\"\(HTMLEscaping.escape(path))\" defer></script>\n"
        var out = page
        if let range = page.range(of: Data("</body>".utf8), options: .backwards) {
            out.insert(contentsOf: Data(tag.utf8), at: range.lowerBound)
        } else {
            out.append(Data(tag.utf8))
        }
        return out
    }
}
