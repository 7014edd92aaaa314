import Foundation
import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file the tool writes at a path the user named (`generate-example -o`): written through the
/// path as given, the way a shell's `>` writes, so a symbolic link stays a link (its target is
/// written) and a hard link stays linked to its twins. Anything that is not a regular file (a
/// folder, a device, a pipe, a socket) is refused before it is opened for writing, and never
/// truncated or replaced.
struct OutputFile: ~Copyable {
    /// Why a path cannot be written, in words for a message.
    struct Refusal: Error {
        let reason: String
    }

    private let descriptor: Int32

    /// Opens `path` for writing, creating it (mode 0666 less the umask) when missing and emptying
    /// it when it is a regular file.
    init(path: String) throws(Refusal) {
        var info = stat()
        if stat(path, &info) == 0, let kind = Self.kind(info.st_mode) {
            throw Refusal(reason: "it is \(kind), not a regular file; name a file to write")
        }
        // O_NONBLOCK: a pipe or device put there since the check is not waited on; it is refused
        // below by what the descriptor is.
        let opened = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o666)
        guard opened >= 0 else { throw Refusal(reason: String(cString: strerror(errno))) }
        guard fstat(opened, &info) == 0, Self.kind(info.st_mode) == nil else {
            close(opened)
            throw Refusal(reason: "it is \(Self.kind(info.st_mode) ?? "not a regular file"), not a regular file")
        }
        let flags = fcntl(opened, F_GETFL)
        guard flags >= 0, fcntl(opened, F_SETFL, flags & ~O_NONBLOCK) == 0, ftruncate(opened, 0) == 0 else {
            let reason = String(cString: strerror(errno))
            close(opened)
            throw Refusal(reason: reason)
        }
        descriptor = opened
    }

    /// Standard output, as it is (a file, a pipe, a terminal).
    init(standardOutput: Void) throws(Refusal) {
        descriptor = dup(1)
        guard descriptor >= 0 else { throw Refusal(reason: String(cString: strerror(errno))) }
    }

    deinit { close(descriptor) }

    /// Writes all of `text`.
    func append(_ text: String) throws(Refusal) {
        var text = text
        let written = text.withUTF8 { DescriptorIO.write(descriptor, UnsafeRawBufferPointer($0)) }
        guard written else { throw Refusal(reason: String(cString: strerror(errno))) }
    }

    /// Flushes the file to the device and closes it; a failure (a full disk) is reported here.
    consuming func finish() throws(Refusal) {
        guard fsync(descriptor) == 0 || errno == EINVAL || errno == EROFS || errno == ENOTSUP else {
            throw Refusal(reason: String(cString: strerror(errno)))
        }
    }

    /// "a folder", "a device", ...; `nil` for a regular file.
    private static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "a folder"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFIFO: return "a pipe"
        case S_IFSOCK: return "a socket"
        default: return "not a regular file"
        }
    }
}
