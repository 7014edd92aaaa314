import Foundation
import RowKitListing

/// The files of a site as its manifest lists them, in bounded memory: each file path as a 64-bit
/// hash (``StableHash``, about 8 bytes a file), and the folders that hold them by name.
///
/// Two paths share a hash with a chance of about one in 2^64 for each pair; a site of a million
/// files and a thousand files of the user's gives such a pair about once in 10^7 years of daily
/// exports.
struct SitePaths {
    private var files = HashSet64()
    /// The folders that hold the files, relative to the site ("rows", "assets/images").
    private(set) var folders: Set<String> = []
    private(set) var count = 0

    init() {}

    /// The files listed by the manifest in the site open as `folder`: none when it has none or it
    /// cannot be read (then every file in the site counts as the user's, so none is removed). A
    /// manifest of the first format (`"version":1`) is read too, so a site made by an earlier
    /// RowKit keeps its files apart from the user's. Throws
    /// ``ExportError/manifestInvalid(path:entry:reason:)`` (for the site `output`, as shown) when
    /// the manifest lists a path that is not a ``SitePath``.
    init(manifestIn folder: Int32, output: String) throws {
        let read = Self.read(folder)
        if let invalid = read.invalid {
            throw ExportError.manifestInvalid(path: output, entry: invalid.path, reason: invalid.problem)
        }
        self = read.paths
    }

    /// The files listed by the manifest in the folder `folder`, or `nil` when it has none, or one
    /// cut short or unreadable, or one that lists a path that is not a ``SitePath``.
    init?(wholeManifestIn folder: Int32) {
        let read = Self.read(folder)
        guard read.isWhole, read.invalid == nil else { return nil }
        self = read.paths
    }

    /// The files the manifest in `folder` lists, whether it was read whole to its end, and its
    /// first entry that is not a ``SitePath`` (then `paths` holds none of the entries after it).
    private static func read(_ folder: Int32) -> (
        paths: SitePaths, isWhole: Bool, invalid: (path: String, problem: String)?
    ) {
        var paths = SitePaths()
        if let reader = ManifestReader(in: folder) {
            reader.forEachEntry { paths.insert($0.path) }
            return (paths, reader.isComplete, reader.invalidEntry)
        }
        if let file = FileTree.contents(of: Manifest.fileName, in: folder),
            let object = try? JSONSerialization.jsonObject(with: Data(file.bytes)) as? [String: Any],
            object["version"] as? Int == 1, let listed = object["files"] as? [String: String]
        {
            // The first invalid path in sorted order, so the error is the same every time.
            for path in listed.keys.sorted() {
                if let problem = SitePath.problem(path) { return (SitePaths(), false, (path, problem)) }
                paths.insert(path)
            }
            return (paths, true, nil)
        }
        return (paths, false, nil)
    }

    /// Adds the file `path` (relative to the site).
    mutating func insert(_ path: String) {
        guard files.insert(StableHash.of(path)) else { return }
        count += 1
        var end = path.utf8.endIndex
        while let slash = path.utf8[..<end].lastIndex(of: UInt8(ascii: "/")) {
            guard folders.insert(String(path[..<slash])).inserted else { return }
            end = slash
        }
    }

    /// Whether `path` is one of the files.
    func contains(_ path: String) -> Bool { files.contains(StableHash.of(path)) }
}
