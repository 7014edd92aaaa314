import Foundation

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
    private var copied: [String: String] = [:]
    private var written: Set<String> = []

    init(baseDirectory: URL?) {
        base = baseDirectory.flatMap { Self.realPath($0.path) }
    }

    /// The site-relative path (or remote URL) to use for `source`, copying the file on first use;
    /// `nil` when the source is refused by the URL policy.
    mutating func resolve(_ source: String, row: String, writer: SiteWriter) throws -> String? {
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
        if written.insert(name).inserted { try writer.write(name, bytes) }
        copied[resolved] = name
        return name
    }

    /// The canonical path of an existing regular file or folder, symbolic links resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
