import Foundation
import Synchronization

/// Tells when watched files change: written in place, replaced by a rename (as most editors
/// save), deleted or created again. A folder given with a trailing `/` is watched for any change
/// of the files in it.
///
/// On Linux it asks inotify about the folders that hold the files, so a file replaced by a rename
/// or deleted and created again is still seen; elsewhere it compares each file's size, times and
/// inode four times a second. Changes in quick succession come as one: after the first, the
/// watcher waits until nothing has changed for ``quietPeriod`` (the last state wins), or only for
/// ``settlePeriod`` when inotify says that every file changed was written whole (closed after
/// writing, or renamed into place, as editors save).
final class FileWatcher: Sendable {
    /// The paths that changed, as given to ``watch(_:)`` (a watched folder's files by their full
    /// paths).
    let changes: AsyncStream<Set<String>>
    private let continuation: AsyncStream<Set<String>>.Continuation
    private let state = Mutex(State())
    /// How long nothing must change before the changes are reported.
    static let quietPeriod: Duration = .milliseconds(100)
    /// How long nothing must change before the changes are reported when every change is a
    /// finished write.
    static let settlePeriod: Duration = .milliseconds(5)

    private struct State {
        /// Absolute path of each watched file (or folder, ending in `/`) -> the path as given.
        var watched: [String: String] = [:]
        var stopped = false
        var signatures: [String: [Int]] = [:]
    }

    init() {
        (changes, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        let thread = Thread { [self] in self.loop() }
        thread.name = "rowkit file watcher"
        thread.start()
    }

    /// Watches `paths` from now on (instead of the paths watched before); a path watched for the
    /// first time is compared with its state now.
    func watch(_ paths: [String]) {
        state.withLock { state in
            state.watched = [:]
            for path in paths {
                let folder = path.hasSuffix("/")
                var absolute = URL(fileURLWithPath: path).standardizedFileURL.path
                if folder { absolute += "/" }
                state.watched[absolute] = path
                // A path watched already keeps the signature it was last reported with, so a
                // change made since then (during the export that followed) is still reported.
                if state.signatures[absolute] == nil { state.signatures[absolute] = Self.signature(absolute) }
            }
        }
    }

    /// Stops watching; the stream of changes ends.
    func stop() {
        state.withLock { $0.stopped = true }
        continuation.finish()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// The watched paths that changed since they were last looked at, by their size, times and
    /// inode (a folder: those of its files).
    private func changedPaths() -> Set<String> {
        state.withLock { state in
            var changed: Set<String> = []
            for (absolute, given) in state.watched {
                let signature = Self.signature(absolute)
                if signature != state.signatures[absolute] {
                    state.signatures[absolute] = signature
                    changed.insert(absolute.hasSuffix("/") ? absolute : given)
                }
            }
            return changed
        }
    }

    /// A file's identity and version: inode, size, modification and change times (ns); a
    /// folder's: those of its files; empty when it is missing.
    static func signature(_ path: String) -> [Int] {
        if path.hasSuffix("/") {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
            return names.flatMap { signature(path + $0) }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        #if canImport(Darwin)
        let times = [
            info.st_mtimespec.tv_sec, info.st_mtimespec.tv_nsec, info.st_ctimespec.tv_sec, info.st_ctimespec.tv_nsec,
        ]
        #else
        let times = [info.st_mtim.tv_sec, info.st_mtim.tv_nsec, info.st_ctim.tv_sec, info.st_ctim.tv_nsec]
        #endif
        return [Int(info.st_ino), Int(info.st_size)] + times.map { Int($0) }
    }

    private func loop() {
        #if os(Linux)
        let descriptor = inotify_init1(Int32(O_NONBLOCK | O_CLOEXEC))
        if descriptor >= 0 {
            inotifyLoop(descriptor)
            close(descriptor)
            return
        }
        #endif
        pollingLoop()
    }

    /// Compares signatures four times a second.
    private func pollingLoop() {
        while !isStopped {
            Thread.sleep(forTimeInterval: 0.25)
            report(changedPaths(), finished: { false }, wait: Self.sleep)
        }
    }

    private static func sleep(_ duration: Duration) -> Bool {
        Thread.sleep(forTimeInterval: seconds(duration))
        return false
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Sends `changed` once nothing has changed for the quiet period (the settle period while
    /// `finished()` says every change so far is a finished write), with whatever else changed
    /// meanwhile. `wait(duration)` waits that long, or less when it says that more events came.
    private func report(_ changed: Set<String>, finished: () -> Bool, wait: (Duration) -> Bool) {
        guard !changed.isEmpty else { return }
        var all = changed
        while true {
            let settled = finished()
            let interrupted = wait(settled ? Self.settlePeriod : Self.quietPeriod)
            let more = changedPaths()
            all.formUnion(more)
            if more.isEmpty && !interrupted && (!settled || finished()) { break }
        }
        continuation.yield(all)
    }

    #if os(Linux)
    /// Watches the folders that hold the watched files; any event in one of them leads to a
    /// comparison of the signatures, which decides what changed. The events also tell whether
    /// each watched file was last closed after writing or renamed into place (a finished write).
    private func inotifyLoop(_ descriptor: Int32) {
        var folders: [String: Int32] = [:]
        let mask = UInt32(
            IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
                | IN_DELETE_SELF | IN_MOVE_SELF)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        // Each watched file with events since the last report -> whether its last one finished a
        // write; `unfinished`: an event that is no finished write of a watched file.
        var writes: [String: Bool] = [:]
        var unfinished = false
        func drain() {
            let names = Dictionary(folders.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            let watched = state.withLock { Set($0.watched.keys) }
            while true {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                Self.events(buffer, count: count) { descriptor, eventMask, name in
                    guard let folder = names[descriptor] else { return }
                    let path = name.isEmpty ? folder : folder + "/" + name
                    if watched.contains(path) {
                        writes[path] =
                            eventMask & UInt32(IN_CLOSE_WRITE | IN_MOVED_TO) != 0
                            || (writes[path] == true && eventMask & UInt32(IN_MODIFY | IN_CREATE) == 0)
                    } else if watched.contains(folder + "/") || eventMask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        unfinished = true
                    }
                }
            }
        }
        func finished() -> Bool {
            drain()
            return !unfinished && !writes.isEmpty && writes.values.allSatisfy { $0 }
        }
        while !isStopped {
            // The folders to watch may change with the watched paths.
            let wanted = Set(
                state.withLock { $0.watched.keys }.map { path in
                    path.hasSuffix("/") ? String(path.dropLast()) : (path as NSString).deletingLastPathComponent
                })
            for folder in wanted where folders[folder] == nil || folders[folder]! < 0 {
                folders[folder] = inotify_add_watch(descriptor, folder, mask)
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            writes = [:]
            unfinished = false
            guard poll(&poller, 1, 250) > 0 else {
                // A folder that did not exist may exist now; a missed event is found here.
                report(changedPaths(), finished: { false }, wait: Self.sleep)
                continue
            }
            drain()
            // Waits, but no longer than until the next events (read by `finished`).
            let wait = { (duration: Duration) -> Bool in
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                return poll(&poller, 1, Int32(Self.seconds(duration) * 1000)) > 0
            }
            report(changedPaths(), finished: finished, wait: wait)
        }
    }

    /// Calls `body` with each event of the first `count` bytes of `buffer` (inotify's records):
    /// its watch descriptor, mask and name (empty for the watched folder itself).
    private static func events(_ buffer: [UInt8], count: Int, _ body: (Int32, UInt32, String) -> Void) {
        buffer.withUnsafeBytes { bytes in
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let descriptor = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let eventMask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let start = offset + header
                guard start + length <= count else { break }
                let nameBytes = bytes[start..<start + length].prefix { $0 != 0 }
                body(descriptor, eventMask, String(decoding: nameBytes, as: UTF8.self))
                offset = start + length
            }
        }
    }
    #endif
}
