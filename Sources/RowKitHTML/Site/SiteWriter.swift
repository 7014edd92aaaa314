import CFileSwap
import Foundation
import RowKitListing
import Synchronization

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
///    and second links to files that are still in `site`) is removed. A leftover whose manifest is
///    cut short (only a file system that lost data makes one, see step 5) is left as it is, and
///    the export stops, naming it: it does not say which of its files are RowKit's.
/// 3. Refuse an output that is a non-empty folder without `.rowkit-manifest.json`: RowKit did not
///    write it; and one where `.rowkit-manifest.json` is a folder: it is the user's, in the way.
///    Refuse a site whose manifest lists a path that is not a ``SitePath`` (absolute, with an
///    empty, `.` or `..` component, or a control character), with
///    ``ExportError/manifestInvalid(path:entry:reason:)``: RowKit never lists one, so the folder
///    is not as RowKit left it. The manifest is read as the export goes, so this refusal comes when
///    the reading reaches the entry: here for the site-wide files, otherwise with the page it
///    belongs to, the check of an unchanged site, or at the latest in step 5; always before the
///    swap, so nothing in the site has changed. Such an entry is never looked up in the site.
/// 4. Write every file into `parent/.site.rowkit-new`. A file whose content is unchanged since the
///    previous export, per its manifest and the bytes on disk, is hard-linked from the previous
///    site (same inode and mtime); others are written. A page whose sources are unchanged is
///    kept unread when its bytes on disk still hash to the manifest's hash.
/// 5. Carry the user's files: every entry of `site` that is not a file RowKit wrote there (per
///    the previous manifest) is hard-linked into the new tree at the same path (folders are made
///    anew; a file that cannot be linked is copied with its mode and times). A user's file where
///    the new site has a file of its own stops the export, naming it, before anything changed.
///    Then write the manifest last, under a temporary name renamed into place once it is whole
///    (so a manifest in the temporary folder always lists all of RowKit's files there) and, with
///    `durable`, flush files and folders to disk.
/// 6. Swap: with a previous site, exchange `.site.rowkit-new` and `site` in one atomic step
///    (`renameat2(RENAME_EXCHANGE)` on Linux, `renameatx_np(RENAME_SWAP)` on macOS); without
///    one, rename `.site.rowkit-new` to `site`.
/// 7. Empty the previous site (now `.site.rowkit-new`) into the new one: RowKit's old files are
///    removed, second links to the user's files are removed, and anything of the user's that the
///    new site lacks (made during the export) is moved into it; then the empty folder is removed.
///
/// An export that does not finish (stopped, or failed) renames its temporary folder to trash
/// (``SiteTrash``) in one step, releases the lock, and then removes the trash, or leaves it to a
/// remover of the caller's (`trashRemovedLater`); a leftover temporary folder that step 2 finds
/// unfinished goes the same way. ``handOffForExit()`` does the rename and the lock's removal for
/// a process that is about to exit before its export comes back.
///
/// At every instant `site` is the previous site or the new one, whole, with the user's files in
/// it; a crash leaves at most the temporary folder, which step 2 of the next export resolves
/// without losing a file of the user's. Only files the previous manifest lists are ever removed,
/// and only as steps 5 and 7 find them: walking the site's own folders (opened without following
/// a symbolic link), a regular file at a listed path is RowKit's; a listed path that is a folder
/// or a symbolic link now is the user's and kept as it is (a link is never followed, so nothing
/// outside the site is touched), and a listed file that is missing is not reported as removed.
/// Where the file system cannot exchange (`EINVAL`, `ENOSYS`, `ENOTSUP`), step 6 falls back to two
/// renames through `.site.rowkit-old`; a crash between them leaves the previous site whole under
/// that name, which step 2 restores.
///
/// Which files are RowKit's is read from the manifests as 64-bit hashes of their paths (about
/// 8 bytes a file, see ``SitePaths``), so a site of millions of files is handled in bounded
/// memory. ``write(_:_:previous:)``, ``keep(_:previous:)`` and ``previousContents(_:_:)`` may be
/// called from several threads at once.
final class SiteWriter: @unchecked Sendable {
    /// The output as given.
    let output: URL
    let location: SiteLocation
    /// The folder holding the site.
    let parent: Int32
    /// The temporary folder the new site is written into (the new site itself after the swap).
    let temporary: Int32
    /// The previous site, if there is one (the previous site's files after the swap).
    let site: Int32?
    /// The previous site's manifest, read as the export goes; `nil` without one this version reads.
    let previous: ManifestReader?
    /// When the previous site's manifest last changed: a file of the site changed after it is not
    /// as the manifest describes it (see ``previousSiteIsIntact()``).
    private let previousStamp: timespec?
    /// The files of the previous site that RowKit wrote, per its manifest (read by
    /// ``commit(manifest:)``).
    private(set) var previousPaths = SitePaths()
    /// The files of the new site (set by ``commit(manifest:)``).
    private(set) var newPaths = SitePaths()
    /// Folders made in the new tree, relative to it ("" is the tree itself).
    var createdFolders: Set<String> = [""]
    /// Guards the folder set and the counters, for writes from several threads.
    private let mutex = NSLock()
    private let lock: SiteLock
    let durable: Bool
    /// The mark that proves the temporary folder is this export's (see ``ExportMark``).
    let mark = ExportMark()
    private let shouldStop: (@Sendable () -> Bool)?
    /// Whether trash is left for a remover of the caller's rather than removed by the writer.
    private let trashRemovedLater: Bool
    private var madeParents: [String]
    /// Whether the export is over (finished, abandoned or handed off); guarded by `mutex`, so
    /// ``handOffForExit()`` and the export never both act on the temporary folder.
    private var finished = false
    /// Whether the swap has begun: from then on the temporary folder's name may hold the
    /// previous site (guarded by `mutex`).
    private var swapping = false
    /// The writers whose exports are running, for ``handOffForExit()``.
    private static let running = Mutex<[ObjectIdentifier: RunningWriter]>([:])

    /// A running export's writer, not kept alive by the list of them.
    private struct RunningWriter: Sendable {
        weak var writer: SiteWriter?
    }
    private var written = 0
    private var unchanged = 0
    private var byteCount = 0
    /// Files removed by the swap, relative to the site, sorted (set by ``commit(manifest:)``):
    /// the regular files at paths the previous manifest lists and the new one lacks that emptying
    /// the previous site removed, and files of the user's replaced by the site's (``empty``'s
    /// `lost`).
    var removedFiles: [String] = []

    /// Steps 0 to 3, and the temporary folder of step 4. `trashRemovedLater`: leave trash (of this
    /// export or found by step 2) for the caller to remove, instead of removing it here.
    init(
        output: URL, durable: Bool, waitForOtherExport: Bool = true, trashRemovedLater: Bool = false,
        shouldStop: (@Sendable () -> Bool)? = nil
    ) throws {
        self.output = output
        self.durable = durable
        self.shouldStop = shouldStop
        self.trashRemovedLater = trashRemovedLater
        let shown = output.path
        let location = try SiteLocation(output: shown)
        self.location = location
        if shouldStop?() == true { throw ExportError.interrupted }
        let made = try location.createMissingFolders(output: shown)
        var parent: Int32 = -1
        var lock: SiteLock?
        var site: Int32 = -1
        var previous: ManifestReader?
        var madeTemporary = false
        do {
            parent = open(location.stagingFolder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard parent >= 0 else {
                throw ExportError.outputUnusable(
                    path: shown, reason: "cannot open '\(location.stagingFolder)': \(String(cString: strerror(errno)))")
            }
            lock = try SiteLock(
                in: parent, at: location.stagingFolder, name: location.lockName, site: shown, wait: waitForOtherExport,
                shouldStop: shouldStop)
            if location.inPlace {
                try Self.recoverInPlace(in: parent, location, output: shown)
            } else {
                Self.recover(in: parent, location, trashRemovedLater: trashRemovedLater)
            }
            try Self.checkNamesAreFree(in: parent, location, output: shown)
            if let info = location.inPlace
                ? FileTree.status(of: ".", in: parent) : FileTree.status(of: location.name, in: parent)
            {
                guard FileTree.isFolder(info) else {
                    throw ExportError.outputUnusable(path: shown, reason: "it is a file, not a folder")
                }
                site = location.inPlace ? dup(parent) : FileTree.openFolder(location.name, in: parent)
                guard site >= 0 else {
                    throw ExportError.outputUnusable(path: shown, reason: String(cString: strerror(errno)))
                }
                let own = location.inPlace ? [location.lockName, location.temporaryName] : []
                let names = FileTree.names(in: site).filter { !own.contains($0) }
                guard names.isEmpty || names.contains(Manifest.fileName) else {
                    throw ExportError.outputNotASite(path: shown)
                }
                // A folder of the user's where the manifest goes: RowKit would move it out of
                // the site with the previous manifest.
                if let manifest = FileTree.status(of: Manifest.fileName, in: site), FileTree.isFolder(manifest) {
                    throw ExportError.userFilesInTheWay(path: shown, files: [Manifest.fileName + "/"])
                }
                // The header and the site-wide files now; the units as the export reaches them.
                if let reader = ManifestReader(in: site) {
                    try Self.check(reader, output: shown)
                    previous = reader
                }
            }
            if mkdirat(parent, location.temporaryName, 0o755) != 0 {
                let reason = errno
                throw ExportError.outputUnusable(
                    path: shown,
                    reason: "cannot create folders in '\(location.parent)': \(String(cString: strerror(reason)))")
            }
            madeTemporary = true
            temporary = FileTree.openFolder(location.temporaryName, in: parent)
            guard temporary >= 0 else {
                throw ExportError.outputUnusable(
                    path: shown,
                    reason: "cannot open folders in '\(location.parent)': \(String(cString: strerror(errno)))")
            }
            try mark.write(in: temporary)
        } catch {
            if site >= 0 { close(site) }
            if parent >= 0 {
                // Only ever this export's own temporary folder, made under the lock.
                if madeTemporary { ExportMark.removeMarkedFolder(location.temporaryName, in: parent) }
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
        self.previous = previous
        previousStamp = site >= 0 ? FileTree.status(of: Manifest.fileName, in: site).map(FileTree.changeTime) : nil
        Self.running.withLock { $0[ObjectIdentifier(self)] = RunningWriter(writer: self) }
    }

    deinit {
        abandon()
        close(temporary)
        if let site { close(site) }
        close(parent)
    }

    /// Throws ``ExportError/interrupted`` when the options' `shouldStop` says so.
    func checkStop() throws {
        if shouldStop?() == true { throw ExportError.interrupted }
    }

    /// Files written with new content so far.
    var filesWritten: Int { mutex.withLock { written } }
    /// Files kept from the previous site so far.
    var filesUnchanged: Int { mutex.withLock { unchanged } }
    /// Bytes of all files in the new site so far.
    var bytes: Int { mutex.withLock { byteCount } }

    /// Writes `contents` at `path` (relative, made by the exporter from slugs and fixed names), or
    /// keeps the previous site's file when `previous` (its entry in the previous manifest) says it
    /// has the same content and its bytes on disk are still that content. Returns the file's
    /// entry for the new manifest.
    @discardableResult
    func write(_ path: String, _ contents: [UInt8], previous: ManifestEntry? = nil) throws -> ManifestEntry {
        precondition(SitePath.isValid(path), "site paths are relative and stay inside the site")
        try checkStop()
        let hash = contents.withUnsafeBytes { StableHash($0).value }
        let entry = ManifestEntry(path: path, hash: hash, size: contents.count)
        try createFolders(for: path)
        if let previous, previous.hash == hash, previous.size == contents.count, keep(path, contents) {
            count(bytes: contents.count, written: false)
            return entry
        }
        try create(path, contents)
        count(bytes: contents.count, written: true)
        return entry
    }

    /// Writes the bytes at `ranges` of `scratch`, one after the other, at `path`, as
    /// ``write(_:_:previous:)`` writes an array: for a file too large to hold in memory. Reads a
    /// MiB at a time.
    @discardableResult
    func write(_ path: String, from scratch: ScratchFile, _ ranges: [Range<Int>], previous: ManifestEntry? = nil)
        throws -> ManifestEntry
    {
        precondition(SitePath.isValid(path), "site paths are relative and stay inside the site")
        try checkStop()
        var hash = StableHash()
        let size = ranges.reduce(0) { $0 + $1.count }
        try scratch.forEachChunk(of: ranges) { chunk in chunk.withUnsafeBytes { hash.update($0) } }
        let entry = ManifestEntry(path: path, hash: hash.value, size: size)
        try createFolders(for: path)
        if let previous, previous.hash == entry.hash, previous.size == size, try keep(path, previous: previous) {
            return entry
        }
        let descriptor = openat(temporary, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ExportError.posix("create", path) }
        defer { close(descriptor) }
        for range in ranges { try scratch.copy(range, to: descriptor) }
        if durable && fsync(descriptor) != 0 { throw ExportError.posix("flush", path) }
        count(bytes: size, written: true)
        return entry
    }

    /// Keeps the previous site's file at `path` without rendering it again, when its bytes on
    /// disk still hash to what `previous` (its entry in the previous manifest) records; `false`
    /// when they do not (then the caller writes it).
    func keep(_ path: String, previous: ManifestEntry) throws -> Bool {
        try checkStop()
        guard let site, let old = FileTree.contents(of: path, in: site, size: previous.size),
            old.bytes.withUnsafeBytes({ StableHash($0).value }) == previous.hash
        else { return false }
        try createFolders(for: path)
        if linkat(site, path, temporary, path, 0) != 0 { try create(path, old.bytes, times: old.info) }
        count(bytes: previous.size, written: false)
        return true
    }

    /// The bytes of the previous site's file at `path`, if it is there as `previous` describes it.
    func previousContents(_ path: String, _ previous: ManifestEntry) -> [UInt8]? {
        guard let site, let old = FileTree.contents(of: path, in: site, size: previous.size),
            old.bytes.withUnsafeBytes({ StableHash($0).value }) == previous.hash
        else { return nil }
        return old.bytes
    }

    private func count(bytes size: Int, written wrote: Bool) {
        mutex.withLock {
            byteCount += size
            if wrote { written += 1 } else { unchanged += 1 }
        }
    }

    /// Creates `path` in the new tree with `contents`; copies `times` onto it when given.
    private func create(_ path: String, _ contents: [UInt8], times: stat? = nil) throws {
        let descriptor = openat(temporary, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ExportError.posix("create", path) }
        defer { close(descriptor) }
        guard contents.withUnsafeBytes({ FileTree.writeAll($0, to: descriptor) }) else {
            throw ExportError.posix("write", path)
        }
        if let times { FileTree.copyTimes(from: times, to: descriptor) }
        if durable && fsync(descriptor) != 0 { throw ExportError.posix("flush", path) }
    }

    /// Keeps the previous site's file when its bytes on disk are still `contents` (so a page
    /// edited in place, even to the same size, is written again): a hard link, or a copy with the
    /// same mtime.
    private func keep(_ path: String, _ contents: [UInt8]) -> Bool {
        guard let site, let old = FileTree.contents(of: path, in: site, size: contents.count), old.bytes == contents
        else {
            return false
        }
        if linkat(site, path, temporary, path, 0) == 0 { return true }
        return (try? create(path, contents, times: old.info)) != nil
    }

    /// Removes the folder `path` (relative) of the new site with everything in it, and takes
    /// back its counts: what was written there is to be written again.
    func removeFolder(_ path: String) throws {
        var files = 0
        var kept = 0
        var size = 0
        let folder = FileTree.openFolder(path, in: temporary)
        if folder >= 0 {
            for name in FileTree.names(in: folder) {
                guard let info = FileTree.status(of: name, in: folder), FileTree.isFile(info) else { continue }
                // A kept file is a hard link to the previous site's.
                if info.st_nlink > 1 { kept += 1 } else { files += 1 }
                size += Int(info.st_size)
            }
            close(folder)
            FileTree.remove(path, in: temporary)
        }
        mutex.withLock {
            createdFolders = createdFolders.filter { $0 != path && !$0.hasPrefix(path + "/") }
            written -= files
            unchanged -= kept
            byteCount -= size
        }
    }

    /// Throws ``ExportError/manifestInvalid(path:entry:reason:)`` for the site `output` (as shown)
    /// when `reader` has met an entry that is not a ``SitePath``.
    private static func check(_ reader: ManifestReader, output: String) throws {
        guard let invalid = reader.invalidEntry else { return }
        throw ExportError.manifestInvalid(path: output, entry: invalid.path, reason: invalid.problem)
    }

    /// Throws ``ExportError/manifestInvalid(path:entry:reason:)`` when the previous manifest, as
    /// far as the export has read it, lists a path that is not a ``SitePath``.
    func checkPreviousManifest() throws {
        if let previous { try Self.check(previous, output: output.path) }
    }

    /// Creates the folders `path` is in, each once; a folder is in the set only once it exists
    /// (another thread may write into it at once).
    private func createFolders(for path: String) throws {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return }
        let parent = String(path[..<slash])
        mutex.lock()
        defer { mutex.unlock() }
        if createdFolders.contains(parent) { return }
        var folder = ""
        for component in parent.split(separator: "/") {
            folder += (folder.isEmpty ? "" : "/") + component
            guard !createdFolders.contains(folder) else { continue }
            if mkdirat(temporary, folder, 0o755) != 0 && errno != EEXIST {
                throw ExportError.posix("create folder", folder)
            }
            createdFolders.insert(folder)
        }
    }

    /// Files of the previous site not in the new one.
    var filesRemoved: Int { removedFiles.count }

    /// Whether the previous site is as its manifest describes it: every file it lists is there,
    /// a regular file of the recorded size in folders that are folders (not symbolic links),
    /// unchanged (by its change time) since the manifest was last stamped (``commit(manifest:)``
    /// stamps it once the site is whole). Throws ``ExportError/manifestInvalid(path:entry:reason:)``
    /// when the manifest lists a path that is not a ``SitePath``.
    func previousSiteIsIntact() throws -> Bool {
        guard let site, let stamp = previousStamp, let reader = ManifestReader(in: site) else { return false }
        var intact = true
        var folders: Set<String> = [""]
        reader.forEachEntry { entry in
            guard intact else { return }
            guard Self.foldersAreFolders(entry.path, in: site, checked: &folders),
                let info = FileTree.status(of: entry.path, in: site), FileTree.isFile(info),
                Int(info.st_size) == entry.size,
                !FileTree.isLater(FileTree.changeTime(info), than: stamp)
            else {
                intact = false
                return
            }
        }
        try Self.check(reader, output: output.path)
        return intact && reader.isComplete
    }

    /// Whether every folder on the way to the site path `path` in `site` is a folder, not a
    /// symbolic link (a lookup of `path` would follow one); `checked` holds the folders found so.
    private static func foldersAreFolders(_ path: String, in site: Int32, checked: inout Set<String>) -> Bool {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return true }
        let parent = String(path[..<slash])
        if checked.contains(parent) { return true }
        var folder = ""
        for component in parent.split(separator: "/") {
            folder += (folder.isEmpty ? "" : "/") + component
            if checked.contains(folder) { continue }
            // Each folder above was found to be one, so this lookup follows no link.
            guard let info = FileTree.status(of: folder, in: site), FileTree.isFolder(info) else { return false }
            checked.insert(folder)
        }
        return true
    }

    /// Steps 5 to 7: carries the user's files, writes the manifest, swaps the new site into place
    /// and empties the previous one into it.
    func commit(manifest: ManifestBuilder) throws {
        try checkStop()
        newPaths = try manifest.paths()
        if let site { previousPaths = try SitePaths(manifestIn: site, output: output.path) }
        if location.inPlace, let site {
            try commitInPlace(manifest: manifest, site: site)
            return
        }
        try carryUserFiles()
        try writeManifest(manifest)
        if let site, let info = FileTree.status(of: ".", in: site) {
            // The site folder keeps its permissions (and its group, where the user may set it).
            _ = fchmod(temporary, info.st_mode & 0o7777)
            _ = fchown(temporary, uid_t.max, info.st_gid)
        }
        try checkStop()
        try beginSwap()
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
        var removed: [String] = []
        let isEmpty = Self.empty(
            site, into: LazyFolder(root: temporary), relative: "", own: previousPaths, newFiles: newPaths,
            newFolders: createdFolders, preferOld: true, lost: &lost, removed: &removed)
        if isEmpty {
            unlinkat(site, Manifest.fileName, 0)
            unlinkat(parent, oldName, AT_REMOVEDIR)
        }
        removedFiles = (removed + lost).sorted()
        // The stamp ``previousSiteIsIntact()`` compares the site's files with: emptying the
        // previous site changed the kept files' link counts, and so their change times.
        stampManifest(in: temporary)
        finish()
    }

    /// Writes the new manifest into the temporary folder, whole, and removes the mark (the
    /// manifest proves the folder RowKit's from then on); with `durable`, flushes the new tree.
    func writeManifest(_ manifest: ManifestBuilder) throws {
        // The manifest is written under another name and renamed into place whole: a manifest
        // in the temporary folder tells step 2 that the folder is a finished site whose files it
        // lists, so one cut short by a crash would make the files it misses look like the user's.
        let manifestFile = openat(
            temporary, Manifest.partialName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard manifestFile >= 0 else { throw ExportError.posix("create", Manifest.fileName) }
        do {
            try manifest.write(to: manifestFile)
            if durable && fsync(manifestFile) != 0 { throw ExportError.posix("flush", Manifest.fileName) }
            close(manifestFile)
        } catch {
            close(manifestFile)
            throw error
        }
        guard renameat(temporary, Manifest.partialName, temporary, Manifest.fileName) == 0 else {
            throw ExportError.posix("create", Manifest.fileName)
        }
        // The whole manifest proves the folder RowKit's from here on; the mark must not reach the site.
        mark.remove(in: temporary)
        if durable { syncTree() }
    }

    /// Sets the new manifest's times to now.
    func stampManifest(in folder: Int32) {
        let descriptor = openat(folder, Manifest.fileName, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = futimens(descriptor, nil)
        close(descriptor)
    }

    /// Ends an export whose site would be the previous one unchanged: the temporary folder is
    /// removed and the previous site stays as it is.
    func keepPreviousSite() {
        abandon()
    }

    /// Releases the lock; the export is over.
    func finish() {
        mutex.withLock { finished = true }
        Self.running.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        lock.release()
    }

    /// The swap begins (``commit(manifest:)``): throws ``ExportError/interrupted`` when
    /// ``handOffForExit()`` came first.
    func beginSwap() throws {
        try mutex.withLock {
            guard !finished else { throw ExportError.interrupted }
            swapping = true
        }
    }

    /// Ends an export that did not finish, leaving the previous site untouched, releases the lock
    /// and removes the parent folders the export made. The temporary folder of an export that was
    /// stopped (`shouldStop`) is moved to the trash before the lock is released, and the trash is
    /// then removed (unless `trashRemovedLater`: then the caller removes it); any other is removed
    /// at once, as is the staging folder of a site written in place.
    func abandon() {
        let first = mutex.withLock {
            defer { finished = true }
            return !finished
        }
        guard first else { return }
        Self.running.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        let trash =
            location.inPlace || shouldStop?() != true
            ? nil
            : SiteTrash.move(location.temporaryName, in: parent, folder: temporary, mark: mark, location: location)
        guard let trash else {
            // Through the descriptor the export holds: one more may not be available.
            ExportMark.removeMarkedFolder(location.temporaryName, in: parent, open: temporary)
            lock.release()
            SiteLocation.removeFolders(madeParents)
            return
        }
        lock.release()
        guard !trashRemovedLater else { return }
        SiteTrash.remove(trash, in: parent)
        SiteLocation.removeFolders(madeParents)
    }

    /// For a process about to exit while exports run: each one whose swap has not begun has its
    /// temporary folder moved to the trash and its lock file removed (the lock itself ends with
    /// the process), and is over. Returns the trash folders, as paths. The exports' own threads
    /// may go on writing into the trash until the process ends; a site written in place is left
    /// for the next export's recovery.
    static func handOffForExit() -> [String] {
        let writers = running.withLock { $0.values.compactMap(\.writer) }
        var trash: [String] = []
        for writer in writers {
            writer.mutex.lock()
            defer { writer.mutex.unlock() }
            guard !writer.finished, !writer.swapping, !writer.location.inPlace else { continue }
            writer.finished = true
            guard
                let name = SiteTrash.move(
                    writer.location.temporaryName, in: writer.parent, folder: writer.temporary, mark: writer.mark,
                    location: writer.location)
            else { continue }
            writer.lock.removeFile()
            trash.append((writer.location.parent == "/" ? "" : writer.location.parent) + "/" + name)
        }
        return trash
    }

    /// Step 2: resolves what a crashed export left beside the site, under the lock. Only a folder
    /// that proves it is RowKit's is touched: one with an ``ExportMark`` (an unfinished export,
    /// removed) or a whole manifest (a finished site or the previous one, emptied into the site); an
    /// empty folder is removed, and so is a temporary folder holding only a mark cut short (an
    /// export killed as it wrote it, ``ExportMark/holdsOnlyAnUnfinishedMark(_:)``). Anything else with those names is the user's and stays as it is
    /// (``checkNamesAreFree(in:_:output:)`` then stops the export, naming it).
    private static func recover(in parent: Int32, _ location: SiteLocation, trashRemovedLater: Bool) {
        if !trashRemovedLater {
            for name in SiteTrash.leftovers(in: parent) { SiteTrash.remove(name, in: parent) }
        }
        for name in [location.backupName, location.temporaryName] {
            guard let info = FileTree.status(of: name, in: parent), FileTree.isFolder(info) else { continue }
            let leftover = FileTree.openFolder(name, in: parent)
            guard leftover >= 0 else { continue }
            defer { close(leftover) }
            if FileTree.names(in: leftover).isEmpty {
                unlinkat(parent, name, AT_REMOVEDIR)
                continue
            }
            if name == location.temporaryName, ExportMark.holdsOnlyAnUnfinishedMark(leftover) {
                // An export killed while it wrote its mark, the folder's first file.
                for entry in FileTree.names(in: leftover) { unlinkat(leftover, entry, 0) }
                unlinkat(parent, name, AT_REMOVEDIR)
                continue
            }
            let hasManifest = FileTree.status(of: Manifest.fileName, in: leftover) != nil
            guard hasManifest || name != location.backupName else { continue }
            guard hasManifest || ExportMark.isMarked(leftover) else { continue }
            guard hasManifest else {
                // An unfinished export: RowKit's new files, and second links or copies of files
                // that are still in the site. Trash, for the caller's remover or removed here.
                let trash = SiteTrash.move(name, in: parent, folder: leftover, mark: ExportMark(), location: location)
                if let trash, !trashRemovedLater {
                    SiteTrash.remove(trash, in: parent)
                } else if trash == nil {
                    ExportMark.removeMarkedFolder(name, in: parent)
                }
                continue
            }
            guard FileTree.status(of: location.name, in: parent) != nil else {
                // No site: this is the only whole site there is.
                _ = renameat(parent, name, parent, location.name)
                continue
            }
            // A manifest cut short (RowKit renames its manifests into place whole, so only a
            // file system that lost data makes one) does not say which files are RowKit's: the
            // folder is left for the user, and the export says so.
            guard let own = SitePaths(wholeManifestIn: leftover) else { continue }
            let site = FileTree.openFolder(location.name, in: parent)
            guard site >= 0 else { continue }
            defer { close(site) }
            var lost: [String] = []
            var removed: [String] = []
            if empty(
                leftover, into: LazyFolder(root: site), relative: "", own: own, newFiles: nil, newFolders: nil,
                preferOld: false, lost: &lost, removed: &removed)
            {
                unlinkat(leftover, Manifest.fileName, 0)
                unlinkat(parent, name, AT_REMOVEDIR)
            }
        }
    }

    /// Throws when something is left under the temporary or backup name after step 2: a file or
    /// folder of the user's (it does not prove it is RowKit's), or a leftover of RowKit's that
    /// could not be put back into the site. Both are left as they are, and the message says what to
    /// do.
    private static func checkNamesAreFree(in parent: Int32, _ location: SiteLocation, output: String)
        throws(ExportError)
    {
        for name in location.inPlace ? [location.temporaryName] : [location.temporaryName, location.backupName] {
            guard let info = FileTree.status(of: name, in: parent) else { continue }
            let folder = location.stagingFolder
            let shown = "'\(folder == "/" ? "" : folder)/\(ListingText.escaped(name))'"
            var isRowKits = false
            if FileTree.isFolder(info) {
                let folder = FileTree.openFolder(name, in: parent)
                if folder >= 0 {
                    isRowKits =
                        ExportMark.isMarked(folder) || FileTree.status(of: Manifest.fileName, in: folder) != nil
                    close(folder)
                }
            }
            guard isRowKits else {
                throw ExportError.outputUnusable(
                    path: output,
                    reason:
                        "\(shown) \(location.inPlace ? "in" : "beside") it is not rowkit's, and rowkit needs that name while it exports; "
                        + "rename or move it, and export again")
            }
            throw ExportError.outputUnusable(
                path: output,
                reason:
                    "\(shown) \(location.inPlace ? "in" : "beside") it holds files of yours from an interrupted export that could not be put back "
                    + "into the site; move what you need out of it, remove it, and export again")
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
