import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The proof that a temporary folder beside a site is RowKit's: a file named
/// `.rowkit-export-<id>` at its top, holding `rowkit export <id>`, where `<id>` is random for each
/// export.
///
/// An export writes it into its temporary folder as soon as it has made the folder, and removes it
/// once the folder holds a whole manifest (which proves the rest from then on). The next export's
/// recovery removes a leftover folder only when it carries a mark whose name and text agree: a
/// folder of the user's that happens to have the same name as RowKit's temporary folder has no such
/// file (the name holds 128 random bits) and is left alone.
struct ExportMark {
    /// The start of a mark's file name.
    static let prefix = ".rowkit-export-"

    /// The mark's file name.
    let name: String

    /// A new mark with a random id.
    init() {
        name = Self.prefix + UUID().uuidString.lowercased()
    }

    /// The mark's text.
    private static func text(of name: String) -> String {
        "rowkit export \(name.dropFirst(prefix.count))\n"
    }

    /// Writes the mark into the folder open as `folder`.
    func write(in folder: Int32) throws(ExportError) {
        let descriptor = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ExportError.posix("create", name) }
        defer { close(descriptor) }
        let bytes = Array(Self.text(of: name).utf8)
        guard bytes.withUnsafeBytes({ FileTree.writeAll($0, to: descriptor) }) else {
            throw ExportError.posix("write", name)
        }
    }

    /// Removes the mark from the folder open as `folder`.
    func remove(in folder: Int32) {
        unlinkat(folder, name, 0)
    }

    /// Whether the folder open as `folder` carries a mark: a regular file at its top whose name and
    /// text agree.
    static func isMarked(_ folder: Int32) -> Bool {
        for name in FileTree.names(in: folder) where name.hasPrefix(prefix) && name.utf8.count < 100 {
            guard let info = FileTree.status(of: name, in: folder), FileTree.isFile(info), info.st_size < 100,
                let contents = FileTree.contents(of: name, in: folder)
            else { continue }
            if contents.bytes == Array(text(of: name).utf8) { return true }
        }
        return false
    }

    /// Whether the folder open as `folder` holds nothing but a mark whose writing was cut short:
    /// one regular file named as a mark (the prefix and a lowercase UUID) whose text is a proper
    /// start of the mark's text, empty included. That is what an export killed between making its
    /// temporary folder and finishing its mark leaves (the mark is the folder's first file), and it
    /// holds nothing of anyone's.
    static func holdsOnlyAnUnfinishedMark(_ folder: Int32) -> Bool {
        let names = FileTree.names(in: folder)
        guard names.count == 1, let name = names.first, name.hasPrefix(prefix) else { return false }
        let id = name.dropFirst(prefix.count)
        guard id.utf8.count == 36, UUID(uuidString: String(id)) != nil, id == id.lowercased(),
            let info = FileTree.status(of: name, in: folder), FileTree.isFile(info), info.st_size < 100,
            let contents = FileTree.contents(of: name, in: folder)
        else { return false }
        let text = Array(text(of: name).utf8)
        return contents.bytes.count < text.count && Array(text.prefix(contents.bytes.count)) == contents.bytes
    }

    /// Removes the marked folder `name` in `parent` with everything in it, the marks last: when
    /// it cannot all be removed (no descriptors left, say), what stays still carries the mark, so
    /// the next export knows it for RowKit's and removes it.
    /// `open`: a descriptor of the folder already open, if there is one.
    static func removeMarkedFolder(_ name: String, in parent: Int32, open: Int32? = nil) {
        let folder = open.map { dup($0) } ?? FileTree.openFolder(name, in: parent)
        guard folder >= 0 else {
            // Without a descriptor for it, nothing in it can be removed; an empty one can.
            unlinkat(parent, name, AT_REMOVEDIR)
            return
        }
        let names = FileTree.names(in: folder)
        for entry in names where !entry.hasPrefix(prefix) { FileTree.remove(entry, in: folder) }
        if FileTree.names(in: folder).allSatisfy({ $0.hasPrefix(prefix) }) {
            for entry in names where entry.hasPrefix(prefix) { unlinkat(folder, entry, 0) }
        }
        close(folder)
        unlinkat(parent, name, AT_REMOVEDIR)
    }
}
