#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// 64-bit values (hashes) kept on disk rather than in memory: sorted runs written to a temporary
/// file, each looked up through a sparse index in memory, and merged in order at the end.
///
/// Memory: 8 bytes per 512 values (the first value of each block of a run) and, while merging, a
/// block of 8 KiB per run. The file is in `TMPDIR` (else `/var/tmp`, else `/tmp`) and unlinked as
/// soon as it is made, so nothing is left behind whatever happens to the process; its space is
/// freed with the value. Used from one thread at a time.
package final class HashRuns: @unchecked Sendable {
    /// The values written, in every run.
    package private(set) var count = 0
    /// Why the file could not be read back, after a read that failed.
    package private(set) var readError: String?
    private let descriptor: Int32
    private var runs: [Run] = []

    /// A run: where its values are in the file (in values), and the first value of each block.
    private struct Run {
        var range: Range<Int>
        var firsts: [UInt64]
    }

    /// Values looked at at a time by a lookup (4 KiB), the blocks of the sparse index.
    private static let blockLength = 512

    /// No runs yet, or `nil` when no temporary file can be made.
    package init?(folder: String? = nil) {
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

    /// Writes `sorted` (ascending) as a run; `false` when it could not be written (the disk is
    /// full), and then the runs are as they were.
    package func append(run sorted: [UInt64]) -> Bool {
        guard !sorted.isEmpty else { return true }
        let start = runs.last?.range.upperBound ?? 0
        guard sorted.withUnsafeBytes({ DescriptorIO.write(descriptor, $0, at: start * 8) }) else { return false }
        let firsts = stride(from: 0, to: sorted.count, by: Self.blockLength).map { sorted[$0] }
        runs.append(Run(range: start..<(start + sorted.count), firsts: firsts))
        count += sorted.count
        return true
    }

    /// Reads the values `range` of the file into `block`; `false` on failure.
    private func read(_ range: Range<Int>, into block: inout [UInt64]) -> Bool {
        block.removeAll(keepingCapacity: true)
        guard !range.isEmpty else { return true }
        block = [UInt64](unsafeUninitializedCapacity: range.count) { values, initialized in
            let bytes = UnsafeMutableRawBufferPointer(values)
            let got = DescriptorIO.read(descriptor, into: bytes, at: range.lowerBound * 8)
            if got == nil { readError = String(cString: strerror(errno)) }
            if let got, got < bytes.count { readError = "the file was cut short" }
            initialized = got == bytes.count ? range.count : 0
        }
        return block.count == range.count
    }

    /// A value written that equals `value` in the bits of `mask`, or `nil` when there is none (or
    /// the file could not be read: then ``readError`` says why). `value & mask` must be the
    /// smallest value with those bits (the bits outside `mask` are the low ones).
    ///
    /// - Complexity: a read of 4 KiB per run at most.
    package func find(_ value: UInt64, mask: UInt64) -> UInt64? {
        let key = value & mask
        var block: [UInt64] = []
        for run in runs {
            // The last block whose first value is at most `key`; the match, if any, is in it or
            // is the next block's first value.
            var low = 0
            var high = run.firsts.count
            while low < high {
                let middle = (low + high) / 2
                if run.firsts[middle] <= key { low = middle + 1 } else { high = middle }
            }
            if low < run.firsts.count, run.firsts[low] & mask == key { return run.firsts[low] }
            guard low > 0 else { continue }
            let start = run.range.lowerBound + (low - 1) * Self.blockLength
            guard read(start..<min(run.range.upperBound, start + Self.blockLength), into: &block) else { return nil }
            if let found = block.first(where: { $0 & mask == key }) { return found }
        }
        return nil
    }

    /// Calls `body` with every value written, run after run; `false` when the file could not be
    /// read back whole.
    package func readBack(_ body: (UInt64) -> Void) -> Bool {
        var block: [UInt64] = []
        for run in runs {
            var start = run.range.lowerBound
            while start < run.range.upperBound {
                let end = min(run.range.upperBound, start + Self.blockLength)
                guard read(start..<end, into: &block) else { return false }
                for value in block { body(value) }
                start = end
            }
        }
        return true
    }

    /// Calls `body` with every value written and every value of `sorted` (ascending), all in
    /// ascending order; `false` when the file could not be read back whole.
    ///
    /// - Complexity: O(*n* log *k*) for *n* values in *k* runs.
    package func merge(with sorted: [UInt64], _ body: (UInt64) -> Void) -> Bool {
        var cursors = runs.map { Cursor(rest: $0.range) }
        cursors.append(Cursor(rest: 0..<0, block: sorted))
        // (value, run) pairs, least value on top.
        var heap = MergeHeap<(value: UInt64, run: Int)> { $0.value < $1.value }
        for index in cursors.indices {
            guard cursors[index].refill(from: self) else { return false }
            if let value = cursors[index].head { heap.push((value, index)) }
        }
        while let (value, index) = heap.first {
            body(value)
            cursors[index].next += 1
            guard cursors[index].refill(from: self) else { return false }
            if let head = cursors[index].head {
                heap.replaceFirst(with: (head, index))
            } else {
                _ = heap.popFirst()
            }
        }
        return true
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
            let end = min(rest.upperBound, rest.lowerBound + 2 * HashRuns.blockLength)
            next = 0
            guard runs.read(rest.lowerBound..<end, into: &block) else { return false }
            rest = end..<rest.upperBound
            return true
        }
    }
}
