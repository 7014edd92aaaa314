import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files (`ulimit -n`), and how many an export needs: a few for the
/// process, the output and the lock, one per input while it is read, and two per render job (the
/// file a job writes and its folder).
///
/// An export raises the soft limit to the hard one, runs fewer jobs than asked when the limit
/// cannot hold them, and stops before writing anything, naming the limit, when it cannot hold one.
enum OpenFileLimit {
    /// Descriptors an export holds whatever its size: standard streams, the runtime's, the output's
    /// folders, the lock, the scratch file, the manifest, a read-ahead thread's, the search index's
    /// file of spilled runs (one however many runs its merge reads).
    static let base = 16
    /// Descriptors a render job may hold at once.
    static let perJob = 2

    #if os(Linux)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// The limit after raising the soft limit as far as the hard one allows.
    static func raised() -> Int {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return Int.max }
        if limits.rlim_cur < limits.rlim_max {
            var wanted = limits
            // macOS refuses a soft limit above OPEN_MAX however high the hard one is.
            wanted.rlim_cur = min(limits.rlim_max, rlim_t(1 << 20))
            if setrlimit(resource, &wanted) == 0 { limits = wanted }
        }
        return Int(clamping: limits.rlim_cur)
    }

    /// The jobs an export of `inputs` inputs can run within `limit` open files, at most `wanted`;
    /// 0 when not even one fits.
    static func jobs(_ wanted: Int, inputs: Int, limit: Int) -> Int {
        let spare = limit - base - inputs
        return max(0, min(wanted, spare / perJob))
    }

    /// The least limit an export of `inputs` inputs runs with.
    static func minimum(inputs: Int) -> Int { base + inputs + perJob }
}
