#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One shard of a ``HashSet64``: a table of 7-byte slots, each a value's low 56 bits (all zero:
/// empty). Only a set that holds it unshared changes it.
final class HashSet64Table: @unchecked Sendable {
    /// The slots.
    let capacity: Int
    /// The values stored.
    var count = 0
    private let bytes: UnsafeMutableRawPointer
    /// Whether `bytes` is a mapping of its own rather than from `malloc`.
    private let mapped: Bool

    /// Tables of more than this many bytes are mappings of their own.
    private static let mappingThreshold = 16 << 10

    /// An empty table of `capacity` slots.
    init(capacity: Int) {
        self.capacity = capacity
        let size = capacity * 7
        if size > Self.mappingThreshold,
            let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
            Int(bitPattern: mapping) != -1
        {
            bytes = mapping
            mapped = true
        } else {
            // `calloc` so the slots start empty (a fresh mapping is zero already).
            guard let memory = calloc(size, 1) else { fatalError("out of memory for a table of \(size) bytes") }
            bytes = memory
            mapped = false
        }
    }

    /// A table of `capacity` slots holding `other`'s values (none when `other` is `nil`).
    convenience init(copying other: HashSet64Table?, capacity: Int, mask: UInt64) {
        self.init(capacity: capacity)
        guard let other else { return }
        for index in 0..<other.capacity {
            let stored = other.load(index)
            if stored != 0 { place(stored, mask: mask) }
        }
    }

    deinit {
        if mapped {
            munmap(bytes, capacity * 7)
        } else {
            free(bytes)
        }
    }

    /// Where `rest` (the compared bits of a value's low 56) is, or the free slot where it would go.
    @inline(__always)
    func probe(_ rest: UInt64, mask: UInt64) -> (found: Int?, free: Int) {
        var index = slot(of: rest)
        while true {
            let stored = load(index)
            if stored == 0 { return (nil, index) }
            if stored & mask == rest { return (index, index) }
            index += 1
            if index == capacity { index = 0 }
        }
    }

    /// Puts `stored` (not in the table) into the first free slot of its run, and counts it.
    func place(_ stored: UInt64, mask: UInt64) {
        var index = slot(of: stored & mask)
        while load(index) != 0 {
            index += 1
            if index == capacity { index = 0 }
        }
        save(stored, at: index)
        count += 1
    }

    /// The low 56 bits stored at `index` (0: empty).
    @inline(__always)
    func load(_ index: Int) -> UInt64 {
        let at = bytes + 7 * index
        let low = UInt64(at.loadUnaligned(as: UInt32.self))
        let high =
            UInt64((at + 4).loadUnaligned(as: UInt16.self)) | UInt64(at.load(fromByteOffset: 6, as: UInt8.self)) << 16
        return low | high << 32
    }

    /// Stores the low 56 bits of `stored` at `index`.
    @inline(__always)
    func save(_ stored: UInt64, at index: Int) {
        let at = bytes + 7 * index
        at.storeBytes(of: UInt32(truncatingIfNeeded: stored), as: UInt32.self)
        (at + 4).storeBytes(of: UInt16(truncatingIfNeeded: stored >> 32), as: UInt16.self)
        (at + 6).storeBytes(of: UInt8(truncatingIfNeeded: stored >> 48), as: UInt8.self)
    }

    /// Where `rest` belongs: its 56 bits scaled to the capacity (a multiply and a shift; any
    /// capacity works, not only powers of two).
    @inline(__always)
    private func slot(of rest: UInt64) -> Int {
        Int(truncatingIfNeeded: (rest << 8).multipliedFullWidth(by: UInt64(capacity)).high)
    }
}
