import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resolves a row's `image` path against the document's folder and refuses anything that escapes it.
///
/// The path must be relative (no `/` or `~` start, no `scheme:` prefix, no NUL byte). It is joined
/// to the folder, `.` and `..` are removed, and the result must stay inside the folder; then every
/// symlink is resolved (`realpath`) and the real path must still be inside the folder's real path
/// and name an existing regular file.
enum ListingImagePath {
    /// A document's folder with its real path looked up once, for resolving many image paths.
    struct Folder: Sendable {
        /// The folder's real path (`realpath(3)`), or `nil` if it does not exist.
        let realPath: String?

        /// Looks up the real path of `directory`.
        init(_ directory: String) {
            realPath = ListingImagePath.realPath(directory)
        }
    }

    /// The resolved file URL, or the reason the path is refused.
    static func resolve(_ path: String, relativeTo directory: String) -> Result<URL, ImagePathError> {
        resolve(path, in: { Folder(directory) })
    }

    /// The resolved file URL, or the reason the path is refused; `folder` is asked for the
    /// document's folder only once the path passes the lexical checks.
    static func resolve(_ path: String, in folder: () -> Folder) -> Result<URL, ImagePathError> {
        if path.isEmpty { return .failure(.init("'image' is empty")) }
        if path.utf8.contains(0) { return .failure(.init("image path contains a NUL byte")) }
        if let scheme = urlScheme(of: path) {
            return .failure(.init("image '\(shown(path))' must be a relative file path, not a '\(scheme):' URL"))
        }
        if path.hasPrefix("/") || path.hasPrefix("~") {
            return .failure(.init("image '\(shown(path))' must be relative to the document's folder, not absolute"))
        }
        // Lexical check first: `..` must not climb above the folder.
        var components: [Substring] = []
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch component {
            case ".": continue
            case "..":
                guard components.popLast() != nil else {
                    return .failure(.init("image '\(shown(path))' is outside the document's folder"))
                }
            default: components.append(component)
            }
        }
        guard !components.isEmpty else {
            return .failure(.init("image '\(shown(path))' is not a regular file"))
        }
        guard let realDirectory = folder().realPath else {
            return .failure(.init("image '\(shown(path))' cannot be found: the document's folder does not exist"))
        }
        let joined = realDirectory + (realDirectory.hasSuffix("/") ? "" : "/") + components.joined(separator: "/")
        guard let real = realPath(joined) else {
            return .failure(.init("image '\(shown(path))' does not exist"))
        }
        let prefix = realDirectory.hasSuffix("/") ? realDirectory : realDirectory + "/"
        guard real.hasPrefix(prefix) else {
            return .failure(.init("image '\(shown(path))' resolves outside the document's folder (through a symlink)"))
        }
        var status = stat()
        guard stat(real, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            return .failure(.init("image '\(shown(path))' is not a regular file"))
        }
        // A regular file: saying so spares URL a stat to find out whether it is a directory.
        return .success(URL(fileURLWithPath: real, isDirectory: false))
    }

    /// Why an image path was refused.
    struct ImagePathError: Error, Sendable {
        /// The diagnostic message.
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// The `scheme` of `scheme:rest` (RFC 3986 letters), or `nil` when the path has none.
    private static func urlScheme(of path: String) -> String? {
        guard let colon = path.firstIndex(of: ":") else { return nil }
        let scheme = path[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return nil }
        let valid = scheme.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
        return valid ? String(scheme) : nil
    }

    /// `realpath(3)`: the absolute path with every symlink, `.` and `..` resolved, or `nil` if it
    /// does not exist.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func shown(_ path: String) -> String { ListingText.shown(path) }
}
