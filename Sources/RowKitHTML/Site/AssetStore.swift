import Foundation
import RowKitListing

/// Copies row images into the site under content-addressed names (`assets/images/<hash>.<ext>`).
///
/// An image source is either an `http`/`https` URL, used as it is, or a path relative to the
/// base directory of the table being exported (its document's folder). A path is opened once,
/// inside that folder, and checked by ``ImageFile``: it must stay inside the folder (no absolute
/// path, no `..` or symbolic link leading out), name a regular file with an image extension of
/// at most ``ImageFile/maximumSize`` bytes, and start like a PNG, JPEG, GIF, WebP or AVIF image;
/// anything else is an error, never a copy. A source with any other scheme (`javascript:`,
/// `data:`, ...) is refused by ``SafeURL`` and the row is shown without an image.
struct AssetStore {
    /// The folder image paths of the table being exported are relative to.
    var baseDirectory: URL?
    /// The number of the table being exported, in the site.
    var table = 0
    private var folders: [String: ImageFile.Folder] = [:]
    /// The resolution of recent sources by folder and source, so rows sharing an icon resolve it
    /// once (at most 4,096 kept).
    private var recent: [String: String?] = [:]
    /// Site paths by file, so two sources naming one file copy it once.
    private var copied: [ImageFile.Identity: String] = [:]
    private var written: Set<String> = []
    /// The image files copied, for the manifest: `<table>/<path>` (the path relative to the
    /// table's folder), size and hash.
    private(set) var sources: [ManifestSource] = []

    init(baseDirectory: URL?) {
        self.baseDirectory = baseDirectory
    }

    /// The site-relative path (or remote URL) to use for `source`, copying the file (through
    /// `write`, with its site path) on first use; `nil` when the source is refused by the URL
    /// policy.
    mutating func resolve(_ source: String, row: String, write: (String, [UInt8]) throws -> Void) throws -> String? {
        let key = (baseDirectory?.path ?? "") + "\u{0}" + source
        if let known = recent[key] { return known }
        let resolved = try resolveUncached(source, row: row, write: write)
        if recent.count >= 4096 { recent.removeAll(keepingCapacity: true) }
        recent[key] = resolved
        return resolved
    }

    private mutating func resolveUncached(
        _ source: String, row: String, write: (String, [UInt8]) throws -> Void
    ) throws -> String? {
        let trimmed = source.trimmingASCIIWhitespace()
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            return SafeURL.sanitize(trimmed)
        }
        guard SafeURL.sanitize(trimmed) != nil, !trimmed.isEmpty else {
            if trimmed.hasPrefix("/") || trimmed.hasPrefix("\\") {
                throw ExportError.imageOutsideBaseDirectory(source: source, row: row)
            }
            return nil
        }
        guard let baseDirectory else { throw ExportError.noBaseDirectory(source: source, row: row) }
        let base = baseDirectory.path
        let image: ImageFile
        do throws(ImageFile.Problem) {
            let folder: ImageFile.Folder
            if let known = folders[base] {
                folder = known
            } else {
                folder = try ImageFile.Folder(path: base)
                folders[base] = folder
            }
            image = try ImageFile.read(trimmed, in: folder)
        } catch {
            throw Self.exportError(error, source: source, folder: base, row: row)
        }
        if let known = copied[image.identity] { return known }
        let name = "assets/images/\(ContentHash(image.bytes)).\(image.format.fileExtension)"
        if written.insert(name).inserted { try write(name, image.bytes) }
        copied[image.identity] = name
        let path = String(trimmed.prefix { $0 != "?" && $0 != "#" })
        sources.append(
            ManifestSource(
                path: "\(table)/" + path, size: image.bytes.count,
                hash: image.bytes.withUnsafeBytes { StableHash($0).value }))
        return name
    }

    private static func exportError(_ problem: ImageFile.Problem, source: String, folder: String, row: String)
        -> ExportError
    {
        switch problem {
        case .notRelative, .outsideFolder:
            return .imageOutsideBaseDirectory(source: source, row: row)
        case .notFound:
            let path = String(source.trimmingASCIIWhitespace().prefix { $0 != "?" && $0 != "#" })
            return .imageNotFound(source: source, path: (folder as NSString).appendingPathComponent(path), row: row)
        case .unsupportedExtension:
            return .unsupportedImageType(source: source, row: row)
        case .notAFile, .tooLarge, .notAnImage, .tooManyLinks, .unreadable:
            return .imageRefused(source: source, row: row, reason: problem.message)
        }
    }
}
