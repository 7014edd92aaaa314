import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a site goes: the real folder that holds it, the site's name in that folder, and the
/// names of the exporter's own entries beside it.
///
/// The output path is resolved before anything is written: every existing folder on the way has
/// its symbolic links resolved, and an output that is itself a symbolic link is followed (to a
/// folder that may not exist yet), so the site is written where the link points and the link
/// stays. Folders on the way that do not exist yet are listed in ``missingFolders``; the writer
/// creates them, and removes them again when the export fails.
struct SiteLocation {
    /// The real path of the folder that holds the site.
    let parent: String
    /// The site folder's name in ``parent``.
    let name: String
    /// The folders between the deepest existing one and the site, outermost first.
    let missingFolders: [String]

    /// The longest file name the file systems RowKit runs on accept, in bytes (`NAME_MAX`).
    static let nameLimit = 255

    /// Resolves `output` (absolute, or relative to the current folder).
    init(output: String) throws(ExportError) {
        guard !output.isEmpty else { throw .outputUnusable(path: output, reason: "the output path is empty") }
        let absolute = output.hasPrefix("/") ? output : Self.currentFolder() + "/" + output
        if let long = absolute.split(separator: "/").first(where: { $0.utf8.count > Self.nameLimit }) {
            throw .outputUnusable(
                path: output,
                reason:
                    "the name '\(long.prefix(40))…' is \(long.utf8.count) bytes long; names may be at most \(Self.nameLimit) bytes"
            )
        }
        let resolved = try Self.resolve(absolute, output: output)
        let (parent, name) = Self.split(resolved)
        guard !name.isEmpty else { throw .outputUnusable(path: output, reason: "it is the root folder") }
        guard name.utf8.count <= Self.nameLimit else {
            throw .outputUnusable(
                path: output,
                reason: "the folder name is \(name.utf8.count) bytes long; names may be at most \(Self.nameLimit) bytes"
            )
        }
        self.parent = parent
        self.name = name
        var missing: [String] = []
        var folder = parent
        while !Self.exists(folder) {
            missing.insert(folder, at: 0)
            folder = Self.split(folder).parent
        }
        missingFolders = missing
        let site = parent == "/" ? "/" + name : parent + "/" + name
        inPlace =
            missing.isEmpty && Self.isFolder(site)
            && (Self.isMountPoint(site, in: parent) || (access(parent, W_OK) != 0 && access(site, W_OK) == 0))
    }

    /// Whether the folder `path` (a real path) is where a file system is mounted: on another
    /// device than `parent`, or (a bind mount of a folder of the same file system) listed as a
    /// mount point in `/proc/self/mountinfo`.
    static func isMountPoint(_ path: String, in parent: String) -> Bool {
        var site = stat()
        var holder = stat()
        guard stat(path, &site) == 0, stat(parent, &holder) == 0 else { return false }
        if site.st_dev != holder.st_dev { return true }
        #if os(Linux)
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 4 else { continue }
            if unescapedMountPath(fields[4]) == path { return true }
        }
        #endif
        return false
    }

    /// A mount point as `/proc/self/mountinfo` writes it, with `\040`-style octal escapes undone.
    private static func unescapedMountPath(_ field: Substring) -> String {
        var bytes: [UInt8] = []
        let raw = Array(field.utf8)
        var index = 0
        while index < raw.count {
            if raw[index] == UInt8(ascii: "\\"), index + 3 < raw.count,
                let value = UInt8(String(decoding: raw[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(raw[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether the site is written in place: staged inside the output folder and moved into it a
    /// file at a time, because the folder cannot be replaced whole. That is so when it is a mount
    /// point (a container's volume, a tmpfs: renaming it fails) or when its folder cannot be
    /// written but it can (`/var/www/html` of the user's in `/var/www` of root's).
    let inPlace: Bool

    /// The folder the temporary folder and the lock are in: the site's folder, or the site itself
    /// when it is written in place.
    var stagingFolder: String { inPlace ? path : parent }
    /// The name of the temporary folder the new site is written to, in ``stagingFolder``.
    var temporaryName: String { inPlace ? ".rowkit-new" : hiddenName(".rowkit-new") }
    /// The name of the previous site while the fallback swap (two renames) moves it aside.
    var backupName: String { hiddenName(".rowkit-old") }
    /// The name of the lock file that keeps a second export out while one runs, in
    /// ``stagingFolder``.
    var lockName: String { inPlace ? ".rowkit-lock" : hiddenName(".rowkit-lock") }
    /// The name a temporary folder of RowKit's takes once it is no longer wanted (``SiteTrash``),
    /// in ``parent``: `.<name>.rowkit-trash-<id>`.
    func trashName(id: String) -> String { hiddenName(SiteTrash.infix + id) }
    /// The site's full path.
    var path: String { parent == "/" ? "/" + name : parent + "/" + name }

    /// `.<name><suffix>`; for a name too long to take the suffix within ``nameLimit``, a prefix
    /// of the name and its hash stand for it.
    private func hiddenName(_ suffix: String) -> String {
        let plain = "." + name + suffix
        if plain.utf8.count <= Self.nameLimit { return plain }
        var prefix = ""
        for scalar in name.unicodeScalars {
            if prefix.utf8.count + String(scalar).utf8.count > 200 { break }
            prefix.unicodeScalars.append(scalar)
        }
        return "." + prefix + "-" + ContentHash(name).description + suffix
    }

    /// Creates ``missingFolders``; returns the ones it made (outermost first). When one cannot be
    /// made, removes those it made and throws.
    func createMissingFolders(output: String) throws(ExportError) -> [String] {
        var made: [String] = []
        for folder in missingFolders {
            if mkdir(folder, 0o777) == 0 {
                made.append(folder)
                continue
            }
            let reason = errno
            if reason == EEXIST, Self.isFolder(folder) { continue }
            Self.removeFolders(made)
            let problem =
                reason == EEXIST || reason == ENOTDIR
                ? "'\(folder)' is a file, not a folder"
                : "cannot create the folder '\(folder)': \(String(cString: strerror(reason)))"
            throw .outputUnusable(path: output, reason: problem)
        }
        return made
    }

    /// Removes `folders` (made by ``createMissingFolders(output:)``), innermost first, as far as
    /// they are empty.
    static func removeFolders(_ folders: [String]) {
        for folder in folders.reversed() { _ = rmdir(folder) }
    }

    /// The real path of `path` (absolute), resolved component by component as the kernel resolves
    /// it: a symbolic link (the final one too, even when it leads to a folder yet to be made) is
    /// followed, and `..` goes to the parent of the folder reached so far, so `link/..` is the
    /// folder holding the link's target, as in every other tool. Components after the deepest
    /// existing folder are kept as they are; a `..` after one of them is refused, since it names a
    /// folder that does not exist.
    private static func resolve(_ path: String, output: String) throws(ExportError) -> String {
        var pending = path.split(separator: "/").map(String.init)
        var resolved = ""
        var links = 0
        var missing: String?
        while !pending.isEmpty {
            let component = pending.removeFirst()
            if component == "." { continue }
            if component == ".." {
                if let missing {
                    throw .outputUnusable(
                        path: output, reason: "'\(missing)' does not exist, so the '..' after it leads nowhere")
                }
                resolved = split(resolved.isEmpty ? "/" : resolved).parent
                if resolved == "/" { resolved = "" }
                continue
            }
            let candidate = resolved + "/" + component
            if missing != nil {
                resolved = candidate
                continue
            }
            var info = stat()
            guard lstat(candidate, &info) == 0 else {
                let reason = errno
                guard reason == ENOENT else {
                    throw .outputUnusable(path: output, reason: String(cString: strerror(reason)))
                }
                missing = candidate
                resolved = candidate
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFLNK {
                links += 1
                guard links <= 40, let target = readLink(candidate) else {
                    throw .outputUnusable(path: output, reason: "it goes through too many symbolic links")
                }
                pending = target.split(separator: "/").map(String.init) + pending
                if target.hasPrefix("/") { resolved = "" }
                continue
            }
            if (info.st_mode & S_IFMT) != S_IFDIR, pending.contains(where: { $0 != "." }) {
                throw .outputUnusable(path: output, reason: "'\(candidate)' is a file, not a folder")
            }
            resolved = candidate
        }
        return resolved.isEmpty ? "/" : resolved
    }

    /// The folder and the last component of an absolute, lexical path ("/" and "" for "/").
    private static func split(_ path: String) -> (parent: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let parent = String(path[..<slash])
        return (parent.isEmpty ? "/" : parent, String(path[path.index(after: slash)...]))
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func currentFolder() -> String {
        guard let folder = getcwd(nil, 0) else { return "." }
        defer { free(folder) }
        return String(cString: folder)
    }
}
