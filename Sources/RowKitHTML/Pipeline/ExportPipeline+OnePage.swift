import Foundation

/// The one-page list: a table of more than one list page, exported with its search index (whose
/// row shards it draws from), becomes one scrolling page when JavaScript runs (`listing.js`, over
/// the C core compiled to WebAssembly). Its pages stay as they are for a browser without
/// JavaScript.
extension ExportPipeline {
    /// The bundled files the one page loads, copied into the site's `assets/` as they are.
    static let onePageCoreAssets = ["rowkit-core.wasm.js", "rowkit-core.js"]

    /// Writes `assets/listing.js` (from the `listing.js` template) and the C core's module and
    /// wrapper, once per export and only when a table needs them; through the site writer, so
    /// they are in the manifest like every other file.
    func writeOnePageAssets() throws {
        guard !wroteOnePageAssets else { return }
        wroteOnePageAssets = true
        let folder = try TemplateSet.bundledDirectory().appendingPathComponent("assets")
        for name in Self.onePageCoreAssets {
            let file = folder.appendingPathComponent(name)
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw ExportError.fileSystem(operation: "read", path: file.path, message: "bundled asset missing")
            }
            try writeSiteFile("assets/" + name, Array(data))
        }
        try writeSiteFile("assets/listing.js", Array(templates.render("listing.js", [:]).utf8))
    }
}
