import CFileSwap
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a site into a temporary folder next to the output and swaps it into place, keeping
/// every file in the output that RowKit did not write.
///
/// The protocol, for output folder `site` in folder `parent` (one file system, so renames are
/// atomic; every step works on folders held open, not on paths looked up again):
///
/// 0. Resolve the output: an output that is a symbolic link is followed, so the site goes where
///    it points and the link stays (``SiteLocation``). Missing folders on the way are created, and
///    removed again if the export fails.
/// 1. Lock: `flock` on `parent/.site.rowkit-lock` (``SiteLock``). A second export waits, or
///    fails at once, and never touches the first one's temporary folder.
/// 2. Recover from an earlier crash, under the lock: a leftover `.site.rowkit-old` (only the
///    fallback of step 6 makes it) is renamed back to `site` if `site` is missing, else emptied
///    into `site` as in step 7; a leftover `.site.rowkit-new` that has a manifest (a finished new
///    site, or the previous site after a crash right after the exchange) is emptied into `site`
///    the same way, and one without (an unfinished export, which holds only RowKit's new files
///    and second links to files that are still in `site`) is removed.
/// 3. Refuse an output that is a non-empty folder without `.rowkit-manifest.json`: RowKit did not
///    write it.
/// 4. Write every file into `parent/.site.rowkit-new`. A file whose content is unchanged since the
///    previous export, per its manifest and the bytes on disk, is hard-linked from the previous
///    site (same inode and mtime); others are written.
/// 5. Carry the user's files: every entry of `site` that is not a file RowKit wrote there (per
///    the previous manifest) is hard-linked into the new tree at the same path (folders are made
///    anew; a file that cannot be linked is copied with its mode and times). A user's file where
///    the new site has a file of its own stops the export, naming it, before anything changed.
///    Then write the manifest last and, with `durable`, flush files and folders to disk.
/// 6. Swap: with a previous site, exchange `.site.rowkit-new` and `site` in one atomic step
///    (`renameat2(RENAME_EXCHANGE)` on Linux, `renameatx_np(RENAME_SWAP)` on macOS); without
///    one, rename `.site.rowkit-new` to `site`.
/// 7. Empty the previous site (now `.site.rowkit-new`) into the new one: RowKit's old files are
///    removed, second links to the user's files are removed, and anything of the user's that the
///    new site lacks (made during the export) is moved into it; then the empty folder is removed.
///
/// At every instant `site` is the previous site or the new one, whole, with the user's files in
/// it; a crash leaves at most the temporary folder, which step 2 of the next export resolves
/// without losing a file of the user's. Only files the previous manifest lists are ever removed.
/// Where the file system cannot exchange (`EINVAL`, `ENOSYS`, `ENOTSUP`), step 6 falls back to two
/// renames through `.site.rowkit-old`; a crash between them leaves the previous site whole under
/// that name, which step 2 restores.
final class SiteWriter {
    /// The output as given.
    let output: URL
    let location: SiteLocation
    /// The folder holding the site.
    let parent: Int32
    /// The temporary folder the new site is written into (the new site itself after the swap).
    let temporary: Int32
    /// The previous site, if there is one (the previous site's files after the swap).
    let site: Int32?
    let previous: Manifest
    var manifest = Manifest()
    /// Folders made in the new tree, relative to it ("" is the tree itself).
    var createdFolders: Set<String> = [""]
    private let lock: SiteLock
    let durable: Bool
    private let shouldStop: (@Sendable () -> Bool)?
    private var madeParents: [String]
    private var finished = false
    private(set) var filesWritten = 0
    private(set) var filesUnchanged = 0
    private(set) var bytes = 0
    /// Files removed by the swap, relative to the site, sorted (set by ``commit()``).
    private(set) var removedFiles: [String] = []

    /// Steps 0 to 3, and the temporary folder of step 4.
    init(output: URL, durable: Bool, waitForOtherExport: Bool = true, shouldStop: (@Sendable () -> Bool)? = nil) throws {
        self.output = output
        self.durable = durable
        self.shouldStop = shouldStop
        let shown = output.path
        let location = try SiteLocation(output: shown)
        self.location = location
        if shouldStop?() == true { throw ExportError.interrupted }
        let made = try location.createMissingFolders(output: shown)
        var parent: Int32 = -1
        var lock: SiteLock?
        var site: Int32 = -1
        var madeTemporary = false
        do {
            parent = open(location.parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard parent >= 0 else {
                throw ExportError.outputUnusable(path: shown, reason: "cannot open '\(location.parent)': \(String(cString: strerror(errno)))")
            }
            lock = try SiteLock(in: parent, at: location.parent, name: location.lockName, site: shown, wait: waitForOtherExport, shouldStop: shouldStop)
            Self.recover(in: parent, location)
            if let info = FileTree.status(of: location.name, in: parent) {
                guard FileTree.isFolder(info) else {
                    throw ExportError.outputUnusable(path: shown, reason: "it is a file, not a folder")
                }
                site = FileTree.openFolder(location.name, in: parent)
                guard site >= 0 else { throw ExportError.outputUnusable(path: shown, reason: String(cString: strerror(errno))) }
                let names = FileTree.names(in: site)
                guard names.isEmpty || names.contains(Manifest.fileName) else { throw ExportError.outputNotASite(path: shown) }
            }
            if mkdirat(parent, location.temporaryName, 0o755) != 0 {
                let reason = errno
                if reason == EEXIST {
                    throw ExportError.outputUnusable(
                        path: shown,
                        reason: "'\(location.parent == "/" ? "" : location.parent)/\(location.temporaryName)' beside it holds files of yours from an interrupted export that "
                            + "could not be put back into the site; move what you need out of it, remove it, and export again")
                }
                throw ExportError.outputUnusable(path: shown, reason: "cannot create folders in '\(location.parent)': \(String(cString: strerror(reason)))")
            }
            madeTemporary = true
            temporary = FileTree.openFolder(location.temporaryName, in: parent)
            guard temporary >= 0 else {
                throw ExportError.outputUnusable(path: shown, reason: "cannot open folders in '\(location.parent)': \(String(cString: strerror(errno)))")
            }
        } catch {
            if site >= 0 { close(site) }
            if parent >= 0 {
                // Only ever this export's own temporary folder, made under the lock.
                if madeTemporary { FileTree.remove(location.temporaryName, in: parent) }
                close(parent)
            }
            lock?.release()
            SiteLocation.removeFolders(made)
            throw error
        }
        self.parent = parent
        self.lock = lock!
        self.site = site >= 0 ? site : nil
        madeParents = made
        previous = site >= 0 ? Manifest.load(in: site) : Manifest()
    }

    deinit {
        if !finished { abandon() }
        close(temporary)
        if let site { close(site) }
        close(parent)
    }

    /// Throws ``ExportError/interrupted`` when the options' `shouldStop` says so.
    private func checkStop() throws {
        if shouldStop?() == true { throw ExportError.interrupted }
    }

    /// Writes `bytes` at `path` (relative, made by the exporter from slugs and fixed names).
    func write(_ path: String, _ contents: [UInt8]) throws {
        precondition(!path.hasPrefix("/") && !path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }),
                     "site paths are relative and stay inside the site")
        precondition(manifest.files[path] == nil, "\(path) written twice")
        try checkStop()
        let hash = ContentHash(contents)
        let entry = Manifest.entry(hash: hash, size: contents.count)
        manifest.files[path] = entry
        bytes += contents.count
        try createFolders(for: path)
        if previous.files[path] == entry, keep(path, contents) {
            filesUnchanged += 1
            return
        }
        try create(path, contents)
        filesWritten += 1
    }

    /// Creates `path` in the new tree with `contents`; copies `times` onto it when given.
    private func create(_ path: String, _ contents: [UInt8], times: stat? = nil) throws {
        let descriptor = openat(temporary, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ExportError.posix("create", path) }
        defer { close(descriptor) }
        guard contents.withUnsafeBytes({ FileTree.writeAll($0, to: descriptor) }) else { throw ExportError.posix("write", path) }
        if let times { FileTree.copyTimes(from: times, to: descriptor) }
        if durable && fsync(descriptor) != 0 { throw ExportError.posix("flush", path) }
    }

    /// Keeps the previous site's file when its bytes on disk are still `contents` (so a page
    /// edited in place, even to the same size, is written again): a hard link, or a copy with the
    /// same mtime.
    private func keep(_ path: String, _ contents: [UInt8]) -> Bool {
        guard let site, let old = FileTree.contents(of: path, in: site, size: contents.count), old.bytes == contents else {
            return false
        }
        if linkat(site, path, temporary, path, 0) == 0 { return true }
        return (try? create(path, contents, times: old.info)) != nil
    }

    private func createFolders(for path: String) throws {
        var folder = ""
        for component in path.split(separator: "/").dropLast() {
            folder += (folder.isEmpty ? "" : "/") + component
            if createdFolders.insert(folder).inserted {
                if mkdirat(temporary, folder, 0o755) != 0 && errno != EEXIST { throw ExportError.posix("create folder", folder) }
            }
        }
    }

    /// Files of the previous site not in the new one.
    var filesRemoved: Int { removedFiles.count }

    /// Steps 5 to 7: carries the user's files, writes the manifest, swaps the new site into place
    /// and empties the previous one into it.
    func commit() throws {
        try checkStop()
        try carryUserFiles()
        let manifestFile = openat(temporary, Manifest.fileName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard manifestFile >= 0 else { throw ExportError.posix("create", Manifest.fileName) }
        let written = manifest.encoded().withUnsafeBytes { FileTree.writeAll($0, to: manifestFile) }
        close(manifestFile)
        guard written else { throw ExportError.posix("write", Manifest.fileName) }
        if durable { syncTree() }
        if let site, let info = FileTree.status(of: ".", in: site) {
            // The site folder keeps its permissions (and its group, where the user may set it).
            _ = fchmod(temporary, info.st_mode & 0o7777)
            _ = fchown(temporary, uid_t.max, info.st_gid)
        }
        try checkStop()
        removedFiles = previous.files.keys.filter { manifest.files[$0] == nil }.sorted()
        guard let site else {
            guard renameat(parent, location.temporaryName, parent, location.name) == 0 else {
                throw ExportError.posix("move the new site to", output.path)
            }
            finish()
            return
        }
        let oldName: String
        if rk_exchange_at(parent, location.temporaryName, location.name) == 0 {
            oldName = location.temporaryName
        } else {
            let reason = errno
            guard reason == EINVAL || reason == ENOSYS || reason == ENOTSUP else {
                throw ExportError.posix("swap the new site into", output.path)
            }
            guard renameat(parent, location.name, parent, location.backupName) == 0 else {
                throw ExportError.posix("move the previous site aside from", output.path)
            }
            guard renameat(parent, location.temporaryName, parent, location.name) == 0 else {
                let failure = ExportError.posix("move the new site to", output.path)
                _ = renameat(parent, location.backupName, parent, location.name)
                throw failure
            }
            oldName = location.backupName
        }
        if durable { _ = fsync(parent) }
        // From here on the new site is in place: what follows only tidies up, and never fails
        // the export. Anything it cannot finish stays for the next export's step 2.
        var lost: [String] = []
        let isEmpty = Self.empty(
            site, into: LazyFolder(root: temporary), relative: "", own: previous, newFiles: manifest,
            newFolders: createdFolders, preferOld: true, lost: &lost)
        if isEmpty {
            unlinkat(site, Manifest.fileName, 0)
            unlinkat(parent, oldName, AT_REMOVEDIR)
        }
        removedFiles = (removedFiles + lost).sorted()
        finish()
    }

    /// Releases the lock; the export is over.
    private func finish() {
        finished = true
        lock.release()
    }

    /// Removes the temporary folder after a failed export, releases the lock and removes the
    /// parent folders the export made; the previous site is untouched.
    func abandon() {
        guard !finished else { return }
        finished = true
        FileTree.remove(location.temporaryName, in: parent)
        lock.release()
        SiteLocation.removeFolders(madeParents)
    }

    /// Step 2: resolves what a crashed export left beside the site, under the lock.
    private static func recover(in parent: Int32, _ location: SiteLocation) {
        for name in [location.backupName, location.temporaryName] {
            guard let info = FileTree.status(of: name, in: parent) else { continue }
            guard FileTree.isFolder(info) else {
                unlinkat(parent, name, 0)
                continue
            }
            let leftover = FileTree.openFolder(name, in: parent)
            guard leftover >= 0 else { continue }
            defer { close(leftover) }
            let isBackup = name == location.backupName
            let hasManifest = FileTree.status(of: Manifest.fileName, in: leftover) != nil
            guard isBackup || hasManifest else {
                // An unfinished export: RowKit's new files, and second links or copies of files
                // that are still in the site.
                FileTree.remove(name, in: parent)
                continue
            }
            guard FileTree.status(of: location.name, in: parent) != nil else {
                // No site: this is the only whole site there is.
                _ = renameat(parent, name, parent, location.name)
                continue
            }
            let site = FileTree.openFolder(location.name, in: parent)
            guard site >= 0 else { continue }
            defer { close(site) }
            var lost: [String] = []
            let own = Manifest.load(in: leftover)
            if empty(leftover, into: LazyFolder(root: site), relative: "", own: own, newFiles: nil, newFolders: nil,
                     preferOld: false, lost: &lost)
            {
                unlinkat(leftover, Manifest.fileName, 0)
                unlinkat(parent, name, AT_REMOVEDIR)
            }
        }
    }

    private func syncTree() {
        for folder in createdFolders {
            let descriptor = folder.isEmpty ? dup(temporary) : FileTree.openFolder(folder, in: temporary)
            if descriptor >= 0 {
                _ = fsync(descriptor)
                close(descriptor)
            }
        }
    }
}
