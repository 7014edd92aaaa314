import CFileSwap
import RowKitListing
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
///
/// ``write(_:_:previous:)`` and ``keep(_:previous:)`` may be called from several threads at once.
final class SiteWriter: @unchecked Sendable {
    let output: URL
    let temporary: URL
    let backup: URL
    private let durable: Bool
    /// The previous site's manifest, read as the export goes.
    let previous: ManifestReader?
    /// Guards the folder set and the counters.
    private let lock = NSLock()
    private var createdFolders: Set<String> = [""]
    private var written = 0
    private var unchanged = 0
    private var byteCount = 0

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
            previous = ManifestReader(site: self.output)
        } else {
            previous = nil
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

    /// Files written with new content so far.
    var filesWritten: Int { lock.withLock { written } }
    /// Files kept from the previous site so far.
    var filesUnchanged: Int { lock.withLock { unchanged } }
    /// Bytes of all files in the new site so far.
    var bytes: Int { lock.withLock { byteCount } }

    /// Writes `contents` at `path` (relative, made by the exporter from slugs and fixed names), or
    /// keeps the previous site's file when `previous` (its entry in the previous manifest) says it
    /// has the same content. Returns the file's entry for the new manifest.
    @discardableResult
    func write(_ path: String, _ contents: [UInt8], previous: ManifestEntry? = nil) throws -> ManifestEntry {
        precondition(Self.isSitePath(path), "site paths are relative and stay inside the site")
        let hash = contents.withUnsafeBytes { StableHash($0).value }
        let entry = ManifestEntry(path: path, hash: hash, size: contents.count)
        try createFolders(for: path)
        let target = temporary.path + "/" + path
        if let previous, previous.hash == hash, previous.size == contents.count, keep(path, at: target, size: contents.count) {
            count(bytes: contents.count, written: false)
            return entry
        }
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
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
        count(bytes: contents.count, written: true)
        return entry
    }

    /// Keeps the previous site's file at `path`, unread, as `previous` describes it; `false` when
    /// it is not there as described (then the caller writes it).
    func keep(_ path: String, previous: ManifestEntry) throws -> Bool {
        try createFolders(for: path)
        guard keep(path, at: temporary.path + "/" + path, size: previous.size) else { return false }
        count(bytes: previous.size, written: false)
        return true
    }

    /// The bytes of the previous site's file at `path`, if it is there as `previous` describes it.
    func previousContents(_ path: String, _ previous: ManifestEntry) -> [UInt8]? {
        guard let data = FileManager.default.contents(atPath: output.path + "/" + path), data.count == previous.size else { return nil }
        let bytes = [UInt8](data)
        guard bytes.withUnsafeBytes({ StableHash($0).value }) == previous.hash else { return nil }
        return bytes
    }

    private func count(bytes size: Int, written wrote: Bool) {
        lock.withLock {
            byteCount += size
            if wrote { written += 1 } else { unchanged += 1 }
        }
    }

    /// Removes the folder `path` (relative) of the new site with everything in it, and takes
    /// back its counts: what was written there is to be written again.
    func removeFolder(_ path: String) throws {
        let full = temporary.path + "/" + path
        var files = 0
        var kept = 0
        var size = 0
        for name in (try? FileManager.default.contentsOfDirectory(atPath: full)) ?? [] {
            var info = stat()
            guard lstat(full + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            // A kept file is a hard link to the previous site's.
            if info.st_nlink > 1 { kept += 1 } else { files += 1 }
            size += Int(info.st_size)
        }
        if FileManager.default.fileExists(atPath: full) { try Self.remove(URL(fileURLWithPath: full)) }
        lock.withLock {
            createdFolders = createdFolders.filter { $0 != path && !$0.hasPrefix(path + "/") }
            written -= files
            unchanged -= kept
            byteCount -= size
        }
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

    /// Whether `path` is relative, without empty, `.` or `..` components.
    private static func isSitePath(_ path: String) -> Bool {
        var start = true
        var dots = 0
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if start || dots == 1 || dots == 2 { return false }
                start = true
                dots = 0
            } else if start || dots > 0, byte == UInt8(ascii: "."), dots < 2 {
                start = false
                dots += 1
            } else {
                start = false
                dots = 3
            }
        }
        return !start && dots != 1 && dots != 2
    }

    /// Creates the folders `path` is in, each once.
    private func createFolders(for path: String) throws {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return }
        let parent = String(path[..<slash])
        if lock.withLock({ createdFolders.contains(parent) }) { return }
        var folder = ""
        for component in parent.split(separator: "/") {
            folder += (folder.isEmpty ? "" : "/") + component
            let isNew = lock.withLock { createdFolders.insert(folder).inserted }
            if isNew {
                let full = temporary.path + "/" + folder
                if mkdir(full, 0o755) != 0 && errno != EEXIST { throw ExportError.posix("create folder", full) }
            }
        }
    }

    /// Steps 3 to 6: writes the manifest and swaps the new site into place.
    func commit(manifest: ManifestBuilder) throws {
        let manifestPath = temporary.path + "/" + Manifest.fileName
        let descriptor = open(manifestPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ExportError.posix("write", manifestPath) }
        do {
            try manifest.write(to: descriptor)
            if durable && fsync(descriptor) != 0 { throw ExportError.posix("flush", manifestPath) }
            close(descriptor)
        } catch {
            close(descriptor)
            throw error
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

    /// Ends an export whose site would be the previous one unchanged: the temporary folder is
    /// removed and the previous site stays as it is.
    func keepPreviousSite() {
        abandon()
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
