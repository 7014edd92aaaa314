/// Where the renderer's detail pages go: rendering produces the bytes, and the site
/// (``SiteWriter``) writes them, so the renderer knows nothing of files.
protocol PageSink {
    /// Writes `contents` at the site path `path`, or keeps the previous site's file when
    /// `previous` says it has the same content; returns the file's manifest entry.
    func write(_ path: String, _ contents: [UInt8], previous: ManifestEntry?) throws -> ManifestEntry
    /// Keeps the previous site's file at `path` without rendering it again, when its bytes still
    /// match `previous`; `false` when they do not (then the caller renders and writes it).
    func keep(_ path: String, previous: ManifestEntry) throws -> Bool
}
