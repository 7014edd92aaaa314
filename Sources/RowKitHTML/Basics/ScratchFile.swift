import Foundation
import RowKitListing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An append-only file for work that would not fit in memory (rendered rows waiting for their
/// list page, manifest entries), unlinked as soon as it is created: it has no name, so nothing is
/// left behind whatever happens to the process, and the space is freed when it is closed.
///
/// Appends and reads may come from several threads.
final class ScratchFile: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var size = 0

    /// Creates the file in the folder open as `folder` (on the site's file system) and unlinks it.
    init(in folder: Int32) throws {
        let name = ".rowkit-scratch-\(UUID().uuidString)"
        descriptor = openat(folder, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ExportError.posix("create", name) }
        unlinkat(folder, name, 0)
    }

    deinit { close(descriptor) }

    /// Appends `bytes`; returns where they are.
    func append(_ bytes: [UInt8]) throws -> Range<Int> {
        lock.lock()
        let offset = size
        size += bytes.count
        lock.unlock()
        guard bytes.withUnsafeBytes({ DescriptorIO.write(descriptor, $0, at: offset) }) else {
            throw ExportError.posix("write", "a scratch file")
        }
        return offset..<(offset + bytes.count)
    }

    /// Appends the bytes at `range` to `output`.
    func read(_ range: Range<Int>, appendingTo output: inout [UInt8]) throws {
        // Read into a new array's uninitialized storage, then append it (one memcpy): growing
        // `output` first by appending zeros costs a generic loop per byte in unoptimized builds
        // (three quarters of a debug export's time) and a pass of zeros in any build.
        let count = range.count
        guard count > 0 else { return }
        let bytes = try [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            guard FileTree.read(descriptor, into: UnsafeMutableRawBufferPointer(buffer), at: range.lowerBound) else {
                throw ExportError.posix("read", "a scratch file")
            }
            initialized = count
        }
        output.append(contentsOf: bytes)
    }

    /// Copies the bytes at `range` to the end of `target`.
    func copy(_ range: Range<Int>, to target: Int32) throws {
        var offset = range.lowerBound
        var chunk: [UInt8] = []
        while offset < range.upperBound {
            chunk.removeAll(keepingCapacity: true)
            let end = min(range.upperBound, offset + (1 << 20))
            try read(offset..<end, appendingTo: &chunk)
            try Self.writeAll(target, chunk)
            offset = end
        }
    }

    /// `write(2)` until every byte is written.
    static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ FileTree.writeAll($0, to: descriptor) }) else {
            throw ExportError.posix("write", "the manifest")
        }
    }
}
