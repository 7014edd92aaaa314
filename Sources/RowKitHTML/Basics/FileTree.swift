import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system steps on entries of folders held open as descriptors, never following a symbolic
/// link: what the site writer does to the site, its temporary folder and the files it carries.
enum FileTree {
    /// The names in the folder `folder` (without `.` and `..`); empty when it cannot be read.
    static func names(in folder: Int32) -> [String] {
        let copy = dup(folder)
        guard copy >= 0 else { return [] }
        guard let stream = fdopendir(copy) else {
            close(copy)
            return []
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The status of `name` in `folder` (a symbolic link itself, not its target); `nil` when it
    /// does not exist.
    static func status(of name: String, in folder: Int32) -> stat? {
        var info = stat()
        return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// Opens the folder `name` in `folder` (not through a symbolic link); -1 and `errno` on failure.
    static func openFolder(_ name: String, in folder: Int32) -> Int32 {
        openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
    }

    /// Removes `name` in `folder` and, for a folder, everything in it, read-only folders included.
    /// Best effort: what cannot be removed stays.
    static func remove(_ name: String, in folder: Int32) {
        guard let info = status(of: name, in: folder) else { return }
        if isFolder(info) {
            let inner = openFolder(name, in: folder)
            if inner >= 0 {
                _ = allowRemovals(in: inner)
                for entry in names(in: inner) { remove(entry, in: inner) }
                close(inner)
            }
            unlinkat(folder, name, AT_REMOVEDIR)
        } else {
            unlinkat(folder, name, 0)
        }
    }

    /// Gives the owner of the folder `folder` (open) the right to remove entries from it when it
    /// lacks it (a copy of a read-only folder of the user's, or the previous site's own after the
    /// swap), since only a folder that is being emptied to be removed is passed here. Returns the
    /// mode to put back if it cannot be emptied after all; `nil` when nothing was changed.
    static func allowRemovals(in folder: Int32) -> mode_t? {
        var info = stat()
        guard fstat(folder, &info) == 0 else { return nil }
        let mode = info.st_mode & 0o7777
        let needed = S_IWUSR | S_IXUSR
        guard mode & needed != needed, fchmod(folder, mode | needed) == 0 else { return nil }
        return mode
    }

    static func isFolder(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFDIR }
    static func isFile(_ info: stat) -> Bool { (info.st_mode & S_IFMT) == S_IFREG }
    static func isSameFile(_ a: stat, _ b: stat) -> Bool { a.st_dev == b.st_dev && a.st_ino == b.st_ino }

    /// When the entry `info` describes last changed (its content, links or attributes).
    static func changeTime(_ info: stat) -> timespec {
        #if canImport(Darwin)
        return info.st_ctimespec
        #else
        return info.st_ctim
        #endif
    }

    /// Whether `a` is later than `b`.
    static func isLater(_ a: timespec, than b: timespec) -> Bool {
        a.tv_sec != b.tv_sec ? a.tv_sec > b.tv_sec : a.tv_nsec > b.tv_nsec
    }

    /// Reads the whole file `path` in `folder` (not through a final symbolic link); `nil` when it
    /// cannot, or when it is not a regular file of `size` bytes (when given).
    static func contents(of path: String, in folder: Int32, size: Int? = nil) -> (bytes: [UInt8], info: stat)? {
        let descriptor = openat(folder, path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, isFile(info), size.map({ $0 == Int(info.st_size) }) ?? true else {
            return nil
        }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        guard bytes.withUnsafeMutableBytes({ read(descriptor, into: $0, at: 0) }) else { return nil }
        return (bytes, info)
    }

    /// Fills `buffer` with the bytes of `descriptor` from `offset` on (`pread(2)` until it is
    /// full); `false` (with `errno`, or 0 at the end of the file) when it cannot.
    static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        DescriptorIO.read(descriptor, into: buffer, at: offset) == buffer.count
    }

    /// Writes `bytes` to `descriptor` whole; `false` (with `errno`) on failure.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        DescriptorIO.write(descriptor, bytes)
    }

    /// Sets the access and modification times of `descriptor` to those of `info`.
    static func copyTimes(from info: stat, to descriptor: Int32) {
        #if canImport(Darwin)
        var times = [info.st_atimespec, info.st_mtimespec]
        #else
        var times = [info.st_atim, info.st_mtim]
        #endif
        _ = futimens(descriptor, &times)
    }
}
