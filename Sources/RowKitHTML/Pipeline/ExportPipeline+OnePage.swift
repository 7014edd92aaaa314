import Foundation
import RowKitListing

/// The one-page list: a table of more than one list page, exported with its search index (whose
/// row shards it draws from), becomes one scrolling page when JavaScript runs (`assets/listing.js`,
/// over the C core compiled to WebAssembly). Its pages stay as they are for a browser without
/// JavaScript.
extension ExportPipeline {
    /// The bundled files the one page loads, copied into the site's `assets/` as they are.
    static let onePageAssets = ["rowkit-core.wasm.js", "rowkit-core.js", "listing.js"]

    /// A hash of the bundled page scripts, part of every export's settings key (as the templates'
    /// hash is), so a re-export does not keep a site written with other scripts; computed once per
    /// process. A file that cannot be read adds nothing here: copying it fails and says so.
    static let bundledAssetsHash: UInt64 = {
        var hash = StableHash()
        let folder = try? TemplateSet.bundledDirectory().appendingPathComponent("assets")
        for name in onePageAssets + ["search.js"] {
            hash.update(name)
            guard let file = folder?.appendingPathComponent(name),
                let data = FileManager.default.contents(atPath: file.path)
            else { continue }
            data.withUnsafeBytes { hash.update($0) }
        }
        return hash.value
    }()

    /// Writes the one-page list's script and the C core's module and wrapper, once per export and
    /// only when a table needs them.
    func writeOnePageAssets() throws {
        guard !wroteOnePageAssets else { return }
        wroteOnePageAssets = true
        for name in Self.onePageAssets { try writeBundledAsset(name) }
    }

    /// Copies `Templates/assets/<name>` of the bundle into the site's `assets/` as it is, through
    /// the site writer, so it is in the manifest like every other file. The page scripts are not
    /// templates: a `--templates` folder does not replace them.
    func writeBundledAsset(_ name: String) throws {
        let file = try TemplateSet.bundledDirectory().appendingPathComponent("assets").appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ExportError.fileSystem(operation: "read", path: file.path, message: "bundled asset missing")
        }
        try writeSiteFile("assets/" + name, Array(data))
    }
}
