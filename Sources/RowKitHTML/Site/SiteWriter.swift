import CFileSwap
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a site into a temporary folder next to the output and swaps it into place.
///
/// The protocol, for output folder `site` in folder `parent` (one file system, so renames are
/// atomic):
///
/// 1. Recover from an earlier crash: if `parent/.site.rowkit-old` exists (only the fallback of
///    step 4 makes it) and `site` does not, rename the backup back to `site`; if both exist, remove
///    the backup. A leftover `.site.rowkit-new` (an unfinished export, or the previous site after a
///    crash right after the exchange) is removed.
/// 2. Write every file into `parent/.site.rowkit-new`. A file whose content hash matches the
///    previous site's manifest is hard-linked from the previous site (same inode and mtime; copied
///    with its mtime when linking fails); others are written.
/// 3. Write the manifest last, then (with `durable`) flush files and folders to disk.
/// 4. Swap: with a previous site, exchange `.site.rowkit-new` and `site` in one atomic step
///    (`renameat2(RENAME_EXCHANGE)` on Linux, `renamex_np(RENAME_SWAP)` on macOS), then remove
///    `.site.rowkit-new`, which now holds the previous site. Without a previous site, rename
///    `.site.rowkit-new` to `site`.
///
/// A crash during 1–3 leaves the previous site untouched; step 4 is atomic, so `site` is always
/// the previous site or the new one, whole, and never missing. Where the file system cannot
/// exchange (`EINVAL`, `ENOSYS`, `ENOTSUP`), step 4 falls back to two renames: `site` to
/// `.site.rowkit-old`, then `.site.rowkit-new` to `site`, then remove the backup; a crash between
/// the two renames leaves the previous site whole under the backup name, restored by step 1 of the
/// next export. One export at a time per output folder.
final class SiteWriter {
    let output: URL
    let temporary: URL
    let backup: URL
    private let durable: Bool
    private let previous: Manifest
    private var manifest = Manifest()
    private var createdFolders: Set<String> = [""]
    private(set) var filesWritten = 0
    private(set) var filesUnchanged = 0
    private(set) var bytes = 0

    init(output: URL, durable: Bool) throws {
        self.output = output.standardizedFileURL
        let parent = self.output.deletingLastPathComponent()
        let name = self.output.lastPathComponent
        temporary = parent.appendingPathComponent(".\(name).rowkit-new")
        backup = parent.appendingPathComponent(".\(name).rowkit-old")
        self.durable = durable
        let manager = FileManager.default
        try Self.check(mkdirParents: parent)
        // Step 1: recovery.
        if manager.fileExists(atPath: backup.path) {
            if manager.fileExists(atPath: self.output.path) {
                try Self.remove(backup)
            } else if rename(backup.path, self.output.path) != 0 {
                throw ExportError.posix("restore previous site", backup.path)
            }
        }
        if manager.fileExists(atPath: temporary.path) { try Self.remove(temporary) }
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: self.output.path, isDirectory: &isFolder) {
            let contents = (try? manager.contentsOfDirectory(atPath: self.output.path)) ?? []
            let isSite = manager.fileExists(atPath: self.output.appendingPathComponent(Manifest.fileName).path)
            guard isFolder.boolValue, isSite || contents.isEmpty else {
                throw ExportError.fileSystem(
                    operation: "replace", path: self.output.path,
                    message: "exists and is not a RowKit site (no \(Manifest.fileName)); refusing to replace it")
            }
            previous = Manifest.load(from: self.output)
        } else {
            previous = Manifest()
        }
        if mkdir(temporary.path, 0o755) != 0 { throw ExportError.posix("create folder", temporary.path) }
    }

    private static func check(mkdirParents url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw ExportError.fileSystem(operation: "create folder", path: url.path, message: "\(error)")
        }
    }

    private static func remove(_ url: URL) throws {
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            throw ExportError.fileSystem(operation: "remove", path: url.path, message: "\(error)")
        }
    }

    /// Writes `bytes` at `path` (relative, made by the exporter from slugs and fixed names).
    func write(_ path: String, _ contents: [UInt8]) throws {
        precondition(!path.hasPrefix("/") && !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }),
                     "site paths are relative and stay inside the site")
        precondition(manifest.files[path] == nil, "\(path) written twice")
        let hash = ContentHash(contents)
        let entry = Manifest.entry(hash: hash, size: contents.count)
        manifest.files[path] = entry
        bytes += contents.count
        try createFolders(for: path)
        let target = temporary.path + "/" + path
        if previous.files[path] == entry, keep(path, at: target, size: contents.count) {
            filesUnchanged += 1
            return
        }
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw ExportError.posix("create", target) }
        defer { close(descriptor) }
        var offset = 0
        try contents.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw ExportError.posix("write", target)
                }
                offset += written
            }
        }
        if durable && fsync(descriptor) != 0 { throw ExportError.posix("flush", target) }
        filesWritten += 1
    }

    /// Keeps the previous site's file: a hard link, or a copy with the same mtime.
    private func keep(_ path: String, at target: String, size: Int) -> Bool {
        let source = output.path + "/" + path
        var info = stat()
        guard lstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == size else { return false }
        if link(source, target) == 0 { return true }
        guard let data = FileManager.default.contents(atPath: source),
              FileManager.default.createFile(atPath: target, contents: data)
        else { return false }
        var times = [info.st_atim, info.st_mtim]
        _ = utimensat(AT_FDCWD, target, &times, 0)
        return true
    }

    private func createFolders(for path: String) throws {
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += (folder.isEmpty ? "" : "/") + component
            if createdFolders.insert(folder).inserted {
                let full = temporary.path + "/" + folder
                if mkdir(full, 0o755) != 0 && errno != EEXIST { throw ExportError.posix("create folder", full) }
            }
        }
    }

    /// Files of the previous site not in the new one.
    var filesRemoved: Int { previous.files.keys.filter { manifest.files[$0] == nil }.count }

    /// Steps 3 to 6: writes the manifest and swaps the new site into place.
    func commit() throws {
        let encoded = manifest.encoded()
        let manifestPath = temporary.path + "/" + Manifest.fileName
        guard FileManager.default.createFile(atPath: manifestPath, contents: Data(encoded)) else {
            throw ExportError.posix("write", manifestPath)
        }
        if durable { syncTree() }
        let hadPrevious = FileManager.default.fileExists(atPath: output.path)
        if hadPrevious {
            if rk_exchange_paths(temporary.path, output.path) == 0 {
                if durable { syncFolder(output.deletingLastPathComponent().path) }
                try Self.remove(temporary)
                return
            }
            let reason = errno
            guard reason == EINVAL || reason == ENOSYS || reason == ENOTSUP else {
                throw ExportError.posix("swap the new site into", output.path)
            }
        }
        if hadPrevious && rename(output.path, backup.path) != 0 { throw ExportError.posix("move previous site to", backup.path) }
        if rename(temporary.path, output.path) != 0 {
            let failure = ExportError.posix("move new site to", output.path)
            if hadPrevious { _ = rename(backup.path, output.path) }
            throw failure
        }
        if durable { syncFolder(output.deletingLastPathComponent().path) }
        if hadPrevious { try Self.remove(backup) }
    }

    /// Removes the temporary folder after a failed export; the previous site is untouched.
    func abandon() {
        try? FileManager.default.removeItem(at: temporary)
    }

    private func syncTree() {
        for folder in createdFolders { syncFolder(temporary.path + (folder.isEmpty ? "" : "/" + folder)) }
    }

    private func syncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY)
        if descriptor >= 0 {
            _ = fsync(descriptor)
            close(descriptor)
        }
    }
}

/// `write(2)`; the writer's own `write` method hides the system call's name.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(descriptor, bytes, count)
    #else
    return Darwin.write(descriptor, bytes, count)
    #endif
}
