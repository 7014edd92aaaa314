import Foundation
import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Copies row images into the site under content-addressed names (`assets/images/<hash>.<ext>`).
///
/// An image source is either an `http`/`https` URL, used as it is, or a path relative to the
/// base directory. A path must name an existing PNG, JPEG, GIF, WebP or AVIF file that, after
/// resolving symbolic links, lies inside the base directory; absolute paths, `..` escapes and
/// links pointing out are errors, never copies. A source with any other scheme (`javascript:`,
/// `data:`, ...) is refused by ``SafeURL`` and the row is shown without an image.
struct AssetStore {
    static let imageExtensions: Set<String> = ["png", "jpg", "jpeg", "gif", "webp", "avif"]

    private let base: String?
    /// Each image file copied: its site path, by real path.
    private var copied: [String: String] = [:]
    private var written: Set<String> = []
    /// The resolution of recent sources, so rows sharing an icon resolve it once.
    private var recent: [String: String?] = [:]
    /// The image files copied, for the manifest, with paths relative to the base folder.
    private(set) var sources: [ManifestSource] = []

    init(baseDirectory: URL?) {
        base = baseDirectory.flatMap { Self.realPath($0.path) }
    }

    /// The site-relative path (or remote URL) to use for `source`, copying the file (through
    /// `write`, with its site path) on first use; `nil` when the source is refused by the URL
    /// policy.
    mutating func resolve(
        _ source: String, row: String, write: (String, [UInt8]) throws -> Void
    ) throws -> String? {
        if let known = recent[source] { return known }
        let resolved = try resolveUncached(source, row: row, write: write)
        if recent.count >= 4096 { recent.removeAll(keepingCapacity: true) }
        recent[source] = resolved
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
        if trimmed.hasPrefix("/") || trimmed.hasPrefix("~") || trimmed.contains("\\") {
            throw ExportError.imageOutsideBaseDirectory(source: source, row: row)
        }
        let path = String(trimmed.prefix { $0 != "?" && $0 != "#" })
        guard let base else { throw ExportError.noBaseDirectory(source: source, row: row) }
        let joined = base + "/" + path
        guard let resolved = Self.realPath(joined) else {
            throw ExportError.imageNotFound(source: source, path: joined, row: row)
        }
        guard resolved.hasPrefix(base == "/" ? "/" : base + "/") else {
            throw ExportError.imageOutsideBaseDirectory(source: source, row: row)
        }
        let fileExtension = (resolved as NSString).pathExtension.lowercased()
        guard Self.imageExtensions.contains(fileExtension) else {
            throw ExportError.unsupportedImageType(source: source, row: row)
        }
        if let known = copied[resolved] { return known }
        guard let data = FileManager.default.contents(atPath: resolved) else {
            throw ExportError.imageNotFound(source: source, path: resolved, row: row)
        }
        let bytes = [UInt8](data)
        let name = "assets/images/\(ContentHash(bytes)).\(fileExtension == "jpeg" ? "jpg" : fileExtension)"
        if written.insert(name).inserted { try write(name, bytes) }
        copied[resolved] = name
        // Recorded relative to the base folder (every image file is inside it).
        let relative = String(resolved.dropFirst(base == "/" ? 1 : base.count + 1))
        sources.append(ManifestSource(path: relative, size: bytes.count, hash: bytes.withUnsafeBytes { StableHash($0).value }))
        return name
    }

    /// The canonical path of an existing regular file or folder, symbolic links resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
