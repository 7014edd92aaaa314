#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The user's files in the output folder: carried into the new site before the swap, and
/// anything left behind moved into it after.
extension SiteWriter {
    /// A folder of the tree being filled, made only when something is put in it.
    final class LazyFolder {
        private let parent: LazyFolder?
        private let name: String
        private let mode: mode_t
        private let sync: Bool
        private var descriptor: Int32
        private var made = false

        /// The tree itself, open as `descriptor` (which stays the caller's); `sync` flushes every
        /// folder made in it to disk.
        init(root descriptor: Int32, sync: Bool = false) {
            parent = nil
            name = ""
            mode = 0
            self.sync = sync
            self.descriptor = descriptor
        }

        /// The folder `name` in `parent`, given `mode` if it has to be made.
        init(_ name: String, in parent: LazyFolder, mode: mode_t) {
            self.parent = parent
            self.name = name
            self.mode = mode
            sync = parent.sync
            descriptor = -1
        }

        /// The folder, if it exists; never makes it.
        func existing() -> Int32? {
            if descriptor >= 0 { return descriptor }
            guard let folder = parent?.existing() else { return nil }
            let opened = FileTree.openFolder(name, in: folder)
            guard opened >= 0 else { return nil }
            descriptor = opened
            return opened
        }

        /// The folder, made (with its parents) when missing; -1 and `errno` when it cannot be.
        func make() -> Int32 {
            if let existing = existing() { return existing }
            guard let parent else { return -1 }
            let folder = parent.make()
            guard folder >= 0 else { return -1 }
            if mkdirat(folder, name, 0o700) == 0 {
                made = true
            } else if errno != EEXIST {
                return -1
            }
            descriptor = FileTree.openFolder(name, in: folder)
            return descriptor
        }

        /// Gives a folder this made the mode and times of `original`, and closes it.
        func finish(copying original: stat) {
            guard parent != nil, descriptor >= 0 else { return }
            if made {
                _ = fchmod(descriptor, mode)
                FileTree.copyTimes(from: original, to: descriptor)
                if sync { _ = fsync(descriptor) }
            }
            close(descriptor)
            descriptor = -1
        }
    }

    /// Step 5: puts into the new tree, at the same path, every entry of the previous site that is
    /// not a file RowKit wrote there: a hard link (the same file, not a copy), or for a folder a
    /// new folder with the same mode and times holding the same. Throws
    /// ``ExportError/userFilesInTheWay(path:files:)`` when any is where the new site has an entry of
    /// its own; the previous site is untouched either way.
    func carryUserFiles() throws {
        guard let site else { return }
        var inTheWay: [String] = []
        try carry(
            from: site, into: LazyFolder(root: temporary, sync: durable), relative: "",
            previousFolders: previousPaths.folders, inTheWay: &inTheWay)
        guard inTheWay.isEmpty else {
            // With a manifest that cannot be read, the site's own files look like the user's.
            if let manifest = FileTree.status(of: Manifest.fileName, in: site), manifest.st_size > 0,
                SitePaths(wholeManifestIn: site) == nil
            {
                throw ExportError.manifestDamaged(path: output.path, files: inTheWay.sorted())
            }
            throw ExportError.userFilesInTheWay(path: output.path, files: inTheWay.sorted())
        }
    }

    private func carry(
        from source: Int32, into target: LazyFolder, relative: String, previousFolders: Set<String>,
        inTheWay: inout [String]
    ) throws {
        for name in FileTree.names(in: source) {
            let path = relative + name
            if relative.isEmpty && name == Manifest.fileName { continue }
            // RowKit writes its manifest under this name, in the new tree only: here it is the user's.
            if relative.isEmpty && name == Manifest.partialName {
                inTheWay.append(path)
                continue
            }
            guard let info = FileTree.status(of: name, in: source) else { continue }
            if FileTree.isFolder(info) {
                if newPaths.contains(path) {
                    inTheWay.append(path + "/")
                    continue
                }
                let inner = FileTree.openFolder(name, in: source)
                guard inner >= 0 else { throw Self.cannotKeep(path, String(cString: strerror(errno))) }
                defer { close(inner) }
                let child = LazyFolder(name, in: target, mode: info.st_mode & 0o7777)
                defer { child.finish(copying: info) }
                // A folder RowKit did not make is kept even when empty.
                if !previousFolders.contains(path) && child.make() < 0 {
                    throw Self.cannotKeep(path, String(cString: strerror(errno)))
                }
                try carry(
                    from: inner, into: child, relative: path + "/", previousFolders: previousFolders,
                    inTheWay: &inTheWay)
                continue
            }
            if FileTree.isFile(info) && previousPaths.contains(path) { continue }  // RowKit's own
            if newPaths.contains(path) || createdFolders.contains(path) {
                inTheWay.append(path)
                continue
            }
            let folder = target.make()
            guard folder >= 0 else { throw Self.cannotKeep(path, String(cString: strerror(errno))) }
            if linkat(source, name, folder, name, 0) == 0 { continue }
            if errno == EEXIST {
                inTheWay.append(path)
                continue
            }
            try Self.copy(name, from: source, to: folder, info, path: path)
        }
    }

    /// Copies the entry `name` of `source` (which could not be hard-linked) into `folder`: a
    /// regular file with its mode and times, a symbolic link as a link, a named pipe as a pipe.
    private static func copy(_ name: String, from source: Int32, to folder: Int32, _ info: stat, path: String) throws {
        let mode = info.st_mode & 0o7777
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            let input = openat(source, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard input >= 0 else { throw cannotKeep(path, String(cString: strerror(errno))) }
            defer { close(input) }
            let output = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            guard output >= 0 else { throw cannotKeep(path, String(cString: strerror(errno))) }
            defer { close(output) }
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw cannotKeep(path, String(cString: strerror(errno))) }
                if count == 0 { break }
                guard
                    buffer.withUnsafeBytes({
                        FileTree.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: output)
                    })
                else {
                    throw cannotKeep(path, String(cString: strerror(errno)))
                }
            }
            _ = fchmod(output, mode)
            FileTree.copyTimes(from: info, to: output)
        case S_IFLNK:
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlinkat(source, name, &target, target.count - 1)
            guard count >= 0, symlinkat(target, folder, name) == 0 else {
                throw cannotKeep(path, String(cString: strerror(errno)))
            }
        case S_IFIFO:
            guard mkfifoat(folder, name, mode) == 0 else { throw cannotKeep(path, String(cString: strerror(errno))) }
        default:
            throw cannotKeep(path, "a device or socket can be neither linked nor copied")
        }
    }

    private static func cannotKeep(_ path: String, _ reason: String) -> ExportError {
        .fileSystem(
            operation: "keep", path: path, message: "\(reason); move it out of the site folder and export again")
    }

    /// Step 7 (and step 2): empties the old site `old` into the site `target`, leaving `old`'s
    /// own manifest for the caller to remove last. Returns whether nothing else is left in `old`.
    ///
    /// RowKit's files (regular files at paths `own` lists; with `newFiles`, those it lacks are
    /// added to `removed`) are removed; an entry of the user's that `target` has as the same file
    /// (the link step 5 made) is removed; one that `target` lacks is moved into it. Only `old`'s
    /// own folders are walked (opened without following a symbolic link): a path `own` lists that
    /// is a folder or a symbolic link in `old` is the user's, and nothing outside `old` is touched.
    /// When `target` has another file there, `old`'s is newer (replaced during the export) and is
    /// moved over it with `preferOld` (step 7), or removed without (step 2), except where the new
    /// site (`newFiles`, `newFolders`) has its own file, which stays: `old`'s is then removed and
    /// listed in `lost`. An entry that cannot be moved stays, and `false` is returned.
    static func empty(
        _ old: Int32, into target: LazyFolder, relative: String, own: SitePaths, newFiles: SitePaths?,
        newFolders: Set<String>?,
        preferOld: Bool, lost: inout [String], removed: inout [String]
    ) -> Bool {
        emptyFolder(
            old, into: target, relative: relative, own: own, ownFolders: own.folders, newFiles: newFiles,
            newFolders: newFolders, preferOld: preferOld, lost: &lost, removed: &removed)
    }

    private static func emptyFolder(
        _ old: Int32, into target: LazyFolder, relative: String, own: SitePaths, ownFolders: Set<String>,
        newFiles: SitePaths?,
        newFolders: Set<String>?, preferOld: Bool, lost: inout [String], removed: inout [String]
    ) -> Bool {
        var isEmpty = true
        // `old` goes once it is empty: a read-only folder of the user's is opened up for that
        // (the new site has its own copy, with the same mode), and closed again if it stays.
        let mode = FileTree.allowRemovals(in: old)
        defer { if !isEmpty, let mode { _ = fchmod(old, mode) } }
        for name in FileTree.names(in: old) {
            let path = relative + name
            if relative.isEmpty && name == Manifest.fileName { continue }
            guard let info = FileTree.status(of: name, in: old) else { continue }
            if FileTree.isFile(info) && own.contains(path) {
                unlinkat(old, name, 0)
                // Gone from the site either way: a file that cannot be unlinked stays beside it,
                // for the next export's step 2.
                if let newFiles, !newFiles.contains(path) { removed.append(path) }
                continue
            }
            let existing = target.existing().flatMap { FileTree.status(of: name, in: $0) }
            if FileTree.isFolder(info) {
                if existing == nil && !ownFolders.contains(path) {
                    // A folder of the user's that the site lacks: moved whole.
                    let folder = target.make()
                    if folder >= 0 && renameat(old, name, folder, name) == 0 { continue }
                }
                if let existing, !FileTree.isFolder(existing) {
                    isEmpty = false
                    continue
                }
                let inner = FileTree.openFolder(name, in: old)
                guard inner >= 0 else {
                    isEmpty = false
                    continue
                }
                let child = LazyFolder(name, in: target, mode: info.st_mode & 0o7777)
                let innerIsEmpty = emptyFolder(
                    inner, into: child, relative: path + "/", own: own, ownFolders: ownFolders, newFiles: newFiles,
                    newFolders: newFolders, preferOld: preferOld, lost: &lost, removed: &removed)
                child.finish(copying: info)
                close(inner)
                if !(innerIsEmpty && unlinkat(old, name, AT_REMOVEDIR) == 0) { isEmpty = false }
                continue
            }
            guard let existing else {
                let folder = target.make()
                if !(folder >= 0 && renameat(old, name, folder, name) == 0) { isEmpty = false }
                continue
            }
            if FileTree.isSameFile(existing, info) {
                unlinkat(old, name, 0)
                continue
            }
            let isTheSites = newFiles?.contains(path) == true || newFolders?.contains(path) == true
            if preferOld && !isTheSites && !FileTree.isFolder(existing), let folder = target.existing(),
                renameat(old, name, folder, name) == 0
            {
                continue
            }
            if isTheSites { lost.append(path) }
            unlinkat(old, name, 0)
        }
        return isEmpty
    }
}
