import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A temporary folder of RowKit's that is no longer wanted, renamed beside the site to
/// `.<dir>.rowkit-trash-<id>` (``SiteLocation/trashName(id:)``) so that it can be removed without
/// holding the lock, and by another process: the new site of an export that was stopped, or the
/// unfinished one a killed export left.
///
/// Moving a folder to the trash is one rename, so it is the temporary folder or trash, never part
/// of each; before it, the folder gets its ``ExportMark`` back if its manifest had replaced it.
/// Trash is removed only when it carries a mark whose name and text agree, and ``remove(_:in:)``
/// removes the marks last: a removal cut short (the process killed, the machine stopped) leaves
/// trash that still proves it is RowKit's, for the next removal. Removers of the same trash take
/// turns through `flock` on the folder, so a second one skips what the first is removing.
package enum SiteTrash {
    /// What a trash folder's name has before its id.
    package static let infix = ".rowkit-trash-"

    /// A new id for trash: 8 random hexadecimal digits (the mark inside, not the name, is the proof).
    static func newID() -> String {
        let value = UInt32.random(in: 0...UInt32.max)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// Whether `name` has the form of a trash folder's name.
    package static func isTrashName(_ name: String) -> Bool {
        guard let range = name.range(of: infix, options: .backwards) else { return false }
        let id = name[range.upperBound...]
        return id.utf8.count == 8 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Renames RowKit's temporary folder `name` in `parent`, open as `folder` and marked by `mark`,
    /// to a trash name of `location`; returns that name, or `nil` when it could not be renamed
    /// (then it is where it was).
    static func move(
        _ name: String, in parent: Int32, folder: Int32, mark: ExportMark, location: SiteLocation
    ) -> String? {
        // A whole manifest replaces the mark: the mark comes back, since trash must carry one.
        if !ExportMark.isMarked(folder) {
            guard (try? mark.write(in: folder)) != nil else { return nil }
        }
        for _ in 0..<4 {
            let trash = location.trashName(id: newID())
            guard FileTree.status(of: trash, in: parent) == nil else { continue }
            if renameat(parent, name, parent, trash) == 0 { return trash }
            return nil
        }
        return nil
    }

    /// The trash folders in the folder open as `parent`: folders with a trash name that carry a mark.
    package static func leftovers(in parent: Int32) -> [String] {
        FileTree.names(in: parent).filter { name in
            guard isTrashName(name), let info = FileTree.status(of: name, in: parent), FileTree.isFolder(info)
            else { return false }
            let folder = FileTree.openFolder(name, in: parent)
            guard folder >= 0 else { return false }
            defer { close(folder) }
            return ExportMark.isMarked(folder)
        }
    }

    /// The folder the trash of the site `output` goes in (its real path, symbolic links resolved),
    /// and the trash folders there; `nil` when the output cannot be resolved or has none.
    package static func leftovers(besideSite output: String) -> (folder: String, names: [String])? {
        guard let location = try? SiteLocation(output: output) else { return nil }
        let parent = open(location.parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else { return nil }
        defer { close(parent) }
        let names = leftovers(in: parent)
        return names.isEmpty ? nil : (location.parent, names)
    }

    /// For a process about to exit while exports run: moves each one's temporary folder to the
    /// trash, unless its swap has begun, and removes its lock file (``SiteWriter/handOffForExit()``).
    /// Returns the trash folders, as paths.
    package static func handOffRunningExports() -> [String] { SiteWriter.handOffForExit() }

    /// Removes the trash folder `name` in the folder open as `parent`, with everything in it, when
    /// it is one (a folder with a trash name that carries a mark) and no other remover holds it.
    package static func remove(_ name: String, in parent: Int32) {
        guard isTrashName(name), let info = FileTree.status(of: name, in: parent), FileTree.isFolder(info) else {
            return
        }
        let folder = FileTree.openFolder(name, in: parent)
        guard folder >= 0 else { return }
        defer { close(folder) }
        guard ExportMark.isMarked(folder), flock(folder, LOCK_EX | LOCK_NB) == 0 else { return }
        ExportMark.removeMarkedFolder(name, in: parent, open: folder)
    }
}
