#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// 64-bit values (hashes) kept on disk rather than in memory, to find the ones that occur more
/// than once among millions: appended in any order into a buffer that, when full, is sorted and
/// written as a run to a temporary file; ``repeated()`` merges the runs.
///
/// Memory: the buffer (`runLength` values of 8 bytes) and, while merging, a block of 8 KiB per
/// run. The file is in `TMPDIR` (else `/var/tmp`, else `/tmp`) and unlinked as soon as it is made,
/// so nothing is left behind whatever happens to the process; its space is freed with the value.
/// Used from one thread at a time.
package final class HashRuns: @unchecked Sendable {
    /// The values appended, runs and buffer.
    package private(set) var count = 0
    private let descriptor: Int32
    private let runLength: Int
    /// The values not yet written, in the order appended.
    private var buffer: [UInt64] = []
    /// Where each run of sorted values is in the file, in values.
    private var runs: [Range<Int>] = []
    /// Values written to the file.
    private var written = 0
    /// Why the file could not be read back, after a read that failed.
    package private(set) var readError: String?

    /// Values read at a time from one run while merging (8 KiB).
    private static let blockLength = 1024

    /// An empty set of runs of `runLength` values, or `nil` when no temporary file can be made.
    package init?(runLength: Int, folder: String? = nil) {
        self.runLength = max(1, runLength)
        var descriptor: Int32 = -1
        for candidate in Self.folders(folder) {
            var template = Array("\(candidate)/.rowkit-ids-XXXXXX".utf8CString)
            descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
            guard descriptor >= 0 else { continue }
            _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
            break
        }
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Where the temporary file may go, in order of preference.
    private static func folders(_ folder: String?) -> [String] {
        if let folder { return [folder] }
        var folders: [String] = []
        if let tmp = getenv("TMPDIR"), tmp.pointee != 0 { folders.append(String(cString: tmp)) }
        return folders + ["/var/tmp", "/tmp"]
    }

    /// Adds `value`. Returns `false` when a full buffer could not be written to the file (the disk
    /// is full): every value appended can still be read by ``readBack(_:)``.
    package func append(_ value: UInt64) -> Bool {
        buffer.append(value)
        count += 1
        return buffer.count < runLength || writeRun()
    }

    /// Sorts the buffer and writes it as a run; keeps it when the write fails.
    private func writeRun() -> Bool {
        buffer.sort()
        let done = buffer.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let result = pwrite(
                    descriptor, bytes.baseAddress! + offset, bytes.count - offset, off_t(written * 8 + offset))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return false }
                offset += result
            }
            return true
        }
        guard done else { return false }
        runs.append(written..<(written + buffer.count))
        written += buffer.count
        buffer.removeAll(keepingCapacity: true)
        return true
    }

    /// Reads the values `range` (a part of a run) of the file into `block`; `false` on failure.
    private func read(_ range: Range<Int>, into block: inout [UInt64]) -> Bool {
        block.removeAll(keepingCapacity: true)
        guard !range.isEmpty else { return true }
        block = [UInt64](unsafeUninitializedCapacity: range.count) { values, initialized in
            let bytes = UnsafeMutableRawBufferPointer(values)
            var offset = 0
            while offset < bytes.count {
                let result = pread(
                    descriptor, bytes.baseAddress! + offset, bytes.count - offset, off_t(range.lowerBound * 8 + offset))
                if result < 0, errno == EINTR { continue }
                guard result > 0 else {
                    readError = result == 0 ? "the file was cut short" : String(cString: strerror(errno))
                    break
                }
                offset += result
            }
            initialized = offset == bytes.count ? range.count : 0
        }
        return block.count == range.count
    }

    /// Calls `body` with every value appended (runs first, then the buffer); `false` when the file
    /// could not be read back whole.
    package func readBack(_ body: (UInt64) -> Void) -> Bool {
        var block: [UInt64] = []
        for run in runs {
            var start = run.lowerBound
            while start < run.upperBound {
                let end = min(run.upperBound, start + Self.blockLength)
                guard read(start..<end, into: &block) else { return false }
                block.forEach(body)
                start = end
            }
        }
        buffer.forEach(body)
        return true
    }

    /// The values appended more than once, or `nil` when the file could not be read back.
    ///
    /// - Complexity: O(*n* log *k*) for *n* values in *k* runs.
    package func repeated() -> Set<UInt64>? {
        buffer.sort()
        var cursors = runs.map { Cursor(rest: $0) }
        cursors.append(Cursor(rest: 0..<0, block: buffer))
        var heap = MinHeap()
        for index in cursors.indices {
            guard cursors[index].refill(from: self) else { return nil }
            if let value = cursors[index].head { heap.push(value, index) }
        }
        var found: Set<UInt64> = []
        var previous: UInt64?
        while let (value, index) = heap.pop() {
            if value == previous { found.insert(value) }
            previous = value
            cursors[index].next += 1
            guard cursors[index].refill(from: self) else { return nil }
            if let head = cursors[index].head { heap.push(head, index) }
        }
        return found
    }

    /// One run being merged: a block of its values in memory and the rest on disk.
    private struct Cursor {
        var rest: Range<Int>
        var block: [UInt64] = []
        var next = 0

        var head: UInt64? { next < block.count ? block[next] : nil }

        /// Reads the run's next block once this one is used up; `false` on a failed read.
        mutating func refill(from runs: HashRuns) -> Bool {
            guard next == block.count, !rest.isEmpty else { return true }
            let end = min(rest.upperBound, rest.lowerBound + HashRuns.blockLength)
            next = 0
            guard runs.read(rest.lowerBound..<end, into: &block) else { return false }
            rest = end..<rest.upperBound
            return true
        }
    }

    /// A binary min-heap of (value, run) pairs.
    private struct MinHeap {
        private var items: [(value: UInt64, run: Int)] = []

        mutating func push(_ value: UInt64, _ run: Int) {
            items.append((value, run))
            var child = items.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard items[child].value < items[parent].value else { break }
                items.swapAt(child, parent)
                child = parent
            }
        }

        mutating func pop() -> (UInt64, Int)? {
            guard let top = items.first else { return nil }
            let last = items.removeLast()
            if !items.isEmpty {
                items[0] = last
                var parent = 0
                while true {
                    let left = 2 * parent + 1
                    guard left < items.count else { break }
                    var smallest = left
                    if left + 1 < items.count, items[left + 1].value < items[left].value { smallest = left + 1 }
                    guard items[smallest].value < items[parent].value else { break }
                    items.swapAt(smallest, parent)
                    parent = smallest
                }
            }
            return (top.value, top.run)
        }
    }
}
