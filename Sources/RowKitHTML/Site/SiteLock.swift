#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock that lets one export at a time write to a site: `flock(2)` on a lock file beside the
/// site (`.site.rowkit-lock`).
///
/// The kernel releases a `flock` when its process ends, however it ends, so the lock cannot go
/// stale: a lock file left by a killed export is simply locked again by the next one. The file
/// holds the process ID of the export that holds it, for messages. ``release()`` removes the file
/// while still holding the lock; an export that was waiting on the removed file sees that the name
/// now names another file (or none) and locks again, so two exports never both hold the lock.
final class SiteLock {
    /// The folder the lock file is in (a descriptor of its own).
    private let folder: Int32
    private let name: String
    private var descriptor: Int32
    /// Whether ``removeFile()`` removed the lock file (its name may name another's since).
    private var fileRemoved = false

    /// Takes the lock on `name` in the folder `folder` (at `folderPath`, for messages; `site` is the
    /// output as given).
    ///
    /// When another export holds it: throws ``ExportError/outputInUse(path:process:)`` unless
    /// `wait`, else waits for it (checking `shouldStop` ten times a second; when that returns
    /// `true`, throws ``ExportError/interrupted``).
    init(in folder: Int32, at folderPath: String, name: String, site: String, wait: Bool, shouldStop: (() -> Bool)?)
        throws(ExportError)
    {
        let own = dup(folder)
        guard own >= 0 else { throw ExportError.posix("open the folder of", site) }
        self.folder = own
        self.name = name
        descriptor = -1
        while true {
            var created = true
            var opened = openat(own, name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            if opened < 0 && errno == EEXIST {
                created = false
                opened = openat(own, name, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
                // Removed by the export that held it: create it again.
                if opened < 0 && errno == ENOENT { continue }
            }
            guard opened >= 0 else {
                let reason = errno
                close(own)
                if reason == ELOOP || reason == ENXIO || reason == EISDIR {
                    throw Self.notALock(name, in: folderPath, site: site)
                }
                throw .outputUnusable(
                    path: site, reason: "cannot create files in '\(folderPath)': \(String(cString: strerror(reason)))")
            }
            var held = stat()
            guard created || (fstat(opened, &held) == 0 && FileTree.isFile(held)) else {
                close(opened)
                close(own)
                throw Self.notALock(name, in: folderPath, site: site)
            }
            while flock(opened, LOCK_EX | LOCK_NB) != 0 {
                let reason = errno
                guard reason == EWOULDBLOCK || reason == EINTR else {
                    close(opened)
                    close(own)
                    throw .outputUnusable(path: site, reason: "cannot lock it: \(String(cString: strerror(reason)))")
                }
                guard wait else {
                    let process = Self.process(in: opened)
                    close(opened)
                    close(own)
                    throw .outputInUse(path: site, process: process)
                }
                if shouldStop?() == true {
                    close(opened)
                    close(own)
                    throw .interrupted
                }
                usleep(100_000)
            }
            // Locked; but if the holder before us removed the file, this is a file no one else
            // will ever look at: start again with whatever the name names now.
            var named = stat()
            if fstat(opened, &held) == 0, fstatat(own, name, &named, AT_SYMLINK_NOFOLLOW) == 0,
                held.st_dev == named.st_dev, held.st_ino == named.st_ino
            {
                // A file that was there before is a lock file only if it says so (a killed
                // export's, or one whose holder had not written it yet): a file of the user's
                // with this name is never emptied or removed.
                guard created || Self.isLockFile(opened) else {
                    close(opened)
                    close(own)
                    throw Self.notALock(name, in: folderPath, site: site)
                }
                descriptor = opened
                break
            }
            close(opened)
        }
        let text = Array(Self.text(process: getpid()).utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    /// What a lock file holds: "<process ID> rowkit lock".
    private static func text(process: Int32) -> String { "\(process) rowkit lock\n" }

    /// Whether the file `descriptor` is one an export wrote: empty (its holder had not written it
    /// yet when it was killed), or "<process ID> rowkit lock" (or just the process ID, as earlier
    /// versions wrote it).
    private static func isLockFile(_ descriptor: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0, count < buffer.count else { return false }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        if text.isEmpty { return true }
        var words = text.split(separator: " ", omittingEmptySubsequences: false)
        guard text.hasSuffix("\n"), let first = words.first, Int32(String(first).trimmingASCIIWhitespace()) != nil
        else {
            return false
        }
        words.removeFirst()
        return words.isEmpty || words.joined(separator: " ") == "rowkit lock\n"
    }

    /// The refusal of a lock name taken by something of the user's.
    private static func notALock(_ name: String, in folder: String, site: String) -> ExportError {
        .outputUnusable(
            path: site,
            reason:
                "'\(folder == "/" ? "" : folder)/\(name)' beside it is not rowkit's lock file, and rowkit needs that "
                + "name while it exports; rename or move it, and export again")
    }

    /// Removes the lock file and releases the lock. Safe to call more than once.
    func release() {
        guard descriptor >= 0 else { return }
        if !fileRemoved { unlinkat(folder, name, 0) }
        close(descriptor)
        close(folder)
        descriptor = -1
    }

    /// Removes the lock file and keeps the lock, for a process about to exit (the kernel releases
    /// it then); ``release()`` afterwards only releases it.
    func removeFile() {
        guard descriptor >= 0, !fileRemoved else { return }
        fileRemoved = true
        unlinkat(folder, name, 0)
    }

    deinit { release() }

    /// The process ID written in the lock file `descriptor`, if it holds one. The holder writes it
    /// just after taking the lock, so an empty file is read again for up to 50 ms.
    private static func process(in descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        for _ in 0..<10 {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                let text = String(decoding: buffer[..<count], as: UTF8.self)
                return text.split(separator: " ").first.flatMap { Int32(String($0).trimmingASCIIWhitespace()) }
            }
            usleep(5_000)
        }
        return nil
    }
}
