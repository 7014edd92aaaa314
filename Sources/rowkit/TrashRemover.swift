import Foundation
import RowKitHTML

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts `rowkit remove-trash` (``RemoveTrashCommand``) on the trash beside a site, in a process
/// of its own that outlives this one: a stopped export, or the next one, hands over removing
/// gigabytes of files instead of waiting for it.
///
/// The remover runs in a session of its own (no terminal's Ctrl-C or hang-up reaches it), with the
/// default actions for SIGINT, SIGTERM and SIGHUP (this process ignores them while it handles
/// them) and its standard input and outputs on `/dev/null`. What it does not finish (it is killed with its
/// container, say) stays marked as RowKit's, and the next export hands it over again.
enum TrashRemover {
    /// Starts a remover for the trash beside the site `output` (absolute); returns the trash
    /// folders' paths, empty when there are none or no remover could be started.
    @discardableResult
    static func start(besideSite output: String) -> [String] {
        guard let (folder, names) = SiteTrash.leftovers(besideSite: output) else { return [] }
        guard start(folder: folder, names: names) else { return [] }
        return names.map { (folder == "/" ? "" : folder) + "/" + $0 }
    }

    /// Starts a remover for the trash folders at `paths` (absolute, each `<folder>/<name>`).
    @discardableResult
    static func start(paths: [String]) -> Bool {
        let byFolder = Dictionary(grouping: paths) { ($0 as NSString).deletingLastPathComponent }
        var started = true
        for (folder, paths) in byFolder {
            started = start(folder: folder, names: paths.map { ($0 as NSString).lastPathComponent }) && started
        }
        return started
    }

    /// Starts `rowkit remove-trash folder names...` detached; whether it started.
    private static func start(folder: String, names: [String]) -> Bool {
        guard !names.isEmpty, let executable = Bundle.main.executablePath else { return false }
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        guard posix_spawnattr_init(&attributes) == 0 else { return false }
        defer { posix_spawnattr_destroy(&attributes) }
        guard posix_spawn_file_actions_init(&actions) == 0 else { return false }
        defer { posix_spawn_file_actions_destroy(&actions) }
        var signals = sigset_t()
        sigemptyset(&signals)
        posix_spawnattr_setsigmask(&attributes, &signals)
        for signal in Interruption.signals { sigaddset(&signals, signal) }
        posix_spawnattr_setsigdefault(&attributes, &signals)
        _ = posix_spawnattr_setflags(
            &attributes, Int16(Self.newSession | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let arguments = [executable, "remove-trash", folder] + names
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var process = pid_t()
        return posix_spawn(&process, executable, &actions, &attributes, &argv, environ) == 0
    }

    /// `POSIX_SPAWN_SETSID`: the child starts a session of its own (Glibc declares it only for
    /// GNU sources, so its value is spelled here).
    #if os(Linux)
    private static let newSession: Int32 = 0x80
    #else
    private static let newSession = Int32(POSIX_SPAWN_SETSID)
    #endif
}
