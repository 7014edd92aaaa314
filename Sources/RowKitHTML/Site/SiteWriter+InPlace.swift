#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing a site in place (``SiteLocation/inPlace``): the output is a mount point, or its folder
/// cannot be written, so it cannot be replaced whole.
///
/// The new site is staged in `site/.rowkit-new` (with the lock in `site/.rowkit-lock`), exactly
/// as it is beside the site otherwise, and then moved into the site a file at a time, each by a
/// rename (atomic per file), folders made as needed; the manifest is moved last, then RowKit's old
/// files that the new site lacks are removed. A user's file where the new site has one of its own
/// stops the export before anything moved. A crash while files move leaves the staging folder
/// with its whole manifest; the next export finishes the move before it starts (see
/// ``recoverInPlace(in:_:output:)``), so the site is the previous one, the new one, or the new
/// one's files over the previous one's until then.
extension SiteWriter {
    /// Steps 5 to 7 in place.
    func commitInPlace(manifest: ManifestBuilder, site: Int32) throws {
        var inTheWay: [String] = []
        Self.findInTheWay(from: temporary, in: site, relative: "", own: previousPaths, inTheWay: &inTheWay)
        guard inTheWay.isEmpty else {
            throw ExportError.userFilesInTheWay(path: output.path, files: inTheWay.sorted())
        }
        try writeManifest(manifest)
        try checkStop()
        try Self.move(from: temporary, into: site, relative: "", output: output.path)
        var removed: [String] = []
        Self.removeOld(
            in: site, relative: "", own: previousPaths, new: newPaths,
            skip: [location.temporaryName, location.lockName],
            removed: &removed)
        removedFiles = removed.sorted()
        if durable { _ = fsync(site) }
        stampManifest(in: site)
        ExportMark.removeMarkedFolder(location.temporaryName, in: parent, open: temporary)
        finish()
    }

    /// Step 2 in place: a staging folder left by a crash is removed when it carries an
    /// ``ExportMark`` (nothing had moved yet), and moved into the site when it has a whole
    /// manifest (the move was under way); anything else is the user's and stays.
    static func recoverInPlace(in site: Int32, _ location: SiteLocation, output: String) throws {
        guard let info = FileTree.status(of: location.temporaryName, in: site), FileTree.isFolder(info) else { return }
        let leftover = FileTree.openFolder(location.temporaryName, in: site)
        guard leftover >= 0 else { return }
        defer { close(leftover) }
        if ExportMark.isMarked(leftover) {
            ExportMark.removeMarkedFolder(location.temporaryName, in: site, open: leftover)
            return
        }
        guard let own = SitePaths(wholeManifestIn: leftover) else { return }
        let previous = (try? SitePaths(manifestIn: site, output: output)) ?? SitePaths()
        try move(from: leftover, into: site, relative: "", output: output)
        var removed: [String] = []
        removeOld(
            in: site, relative: "", own: previous, new: own, skip: [location.temporaryName, location.lockName],
            removed: &removed)
        FileTree.remove(location.temporaryName, in: site)
    }

    /// Adds to `inTheWay` the paths (relative to the site) where the staged tree `staged` has an
    /// entry and the site `site` has one of the user's in its way: not a folder where the new site
    /// has a folder, and not a regular file RowKit wrote (`own`) or the same file where it has a
    /// file.
    private static func findInTheWay(
        from staged: Int32, in site: Int32, relative: String, own: SitePaths, inTheWay: inout [String]
    ) {
        for name in FileTree.names(in: staged) {
            if relative.isEmpty && (name == Manifest.fileName || name == Manifest.partialName) { continue }
            if relative.isEmpty && name.hasPrefix(ExportMark.prefix) { continue }
            let path = relative + name
            guard let new = FileTree.status(of: name, in: staged), let old = FileTree.status(of: name, in: site) else {
                continue
            }
            if FileTree.isFolder(new) {
                guard FileTree.isFolder(old) else {
                    inTheWay.append(path)
                    continue
                }
                let inner = FileTree.openFolder(name, in: staged)
                let target = FileTree.openFolder(name, in: site)
                if inner >= 0 && target >= 0 {
                    findInTheWay(from: inner, in: target, relative: path + "/", own: own, inTheWay: &inTheWay)
                }
                if inner >= 0 { close(inner) }
                if target >= 0 { close(target) }
            } else if !(FileTree.isFile(old) && (own.contains(path) || FileTree.isSameFile(old, new))) {
                inTheWay.append(FileTree.isFolder(old) ? path + "/" : path)
            }
        }
    }

    /// Moves every file of the staged tree `staged` into the site `site` at the same path (a
    /// rename each, over RowKit's previous file), making folders as needed; the manifest last.
    private static func move(from staged: Int32, into site: Int32, relative: String, output: String) throws {
        for name in FileTree.names(in: staged) {
            if relative.isEmpty && (name == Manifest.fileName || name.hasPrefix(ExportMark.prefix)) { continue }
            guard let info = FileTree.status(of: name, in: staged) else { continue }
            if FileTree.isFolder(info) {
                if mkdirat(site, name, 0o755) != 0 && errno != EEXIST {
                    throw ExportError.posix("create folder", output + "/" + relative + name)
                }
                let inner = FileTree.openFolder(name, in: staged)
                let target = FileTree.openFolder(name, in: site)
                defer {
                    if inner >= 0 { close(inner) }
                    if target >= 0 { close(target) }
                }
                guard inner >= 0, target >= 0 else {
                    throw ExportError.posix("open folder", output + "/" + relative + name)
                }
                try move(from: inner, into: target, relative: relative + name + "/", output: output)
            } else if renameat(staged, name, site, name) != 0 {
                throw ExportError.posix("move into place", output + "/" + relative + name)
            }
        }
        if relative.isEmpty, FileTree.status(of: Manifest.fileName, in: staged) != nil,
            renameat(staged, Manifest.fileName, site, Manifest.fileName) != 0
        {
            throw ExportError.posix("move into place", output + "/" + Manifest.fileName)
        }
    }

    /// Removes from the site `site` the regular files RowKit wrote (`own`) that the new site
    /// (`new`) lacks, adding their paths to `removed`, and then the folders RowKit made that are
    /// left empty; walks only the site's own folders (a symbolic link is never followed) and
    /// skips the names `skip` at its top.
    private static func removeOld(
        in site: Int32, relative: String, own: SitePaths, new: SitePaths, skip: [String], removed: inout [String]
    ) {
        for name in FileTree.names(in: site) where !(relative.isEmpty && skip.contains(name)) {
            guard let info = FileTree.status(of: name, in: site) else { continue }
            let path = relative + name
            if FileTree.isFolder(info) {
                let inner = FileTree.openFolder(name, in: site)
                guard inner >= 0 else { continue }
                removeOld(in: inner, relative: path + "/", own: own, new: new, skip: [], removed: &removed)
                let isEmpty = FileTree.names(in: inner).isEmpty
                close(inner)
                if isEmpty && own.folders.contains(path) && !new.folders.contains(path) {
                    unlinkat(site, name, AT_REMOVEDIR)
                }
            } else if FileTree.isFile(info), own.contains(path), !new.contains(path) {
                if unlinkat(site, name, 0) == 0 { removed.append(path) }
            }
        }
    }
}
