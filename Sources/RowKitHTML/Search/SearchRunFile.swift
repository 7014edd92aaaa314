import Foundation
import RowKitListing

/// The one file every run of ``SearchPostingRuns`` is spilled to, one after the other, and the
/// descriptor they are written and read through (`deinit` closes it).
///
/// A merge reads every run at once, on two threads: with one file of runs, each read by
/// `pread(2)` at its own offset (``SearchRunReader``), it holds one descriptor however many runs
/// there are (about 100 for 10,000,000 rows), where a file a run held one for each run on each
/// thread (about 200), beyond what the export's check of the open-file limit counts.
final class SearchRunFile: Sendable {
    /// The file's path, for errors.
    let path: String
    let descriptor: Int32

    /// Creates the file at `path` (replacing one there), for writing runs and reading them back.
    init(creating path: String) throws {
        self.path = path
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ExportError.posix("create", path) }
    }

    deinit { close(descriptor) }

    /// Writes `bytes` at `offset`.
    func write(_ bytes: [UInt8], at offset: UInt64) throws {
        guard bytes.withUnsafeBytes({ DescriptorIO.write(descriptor, $0, at: Int(offset)) }) else {
            throw ExportError.posix("write", path)
        }
    }
}
