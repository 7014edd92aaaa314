#if canImport(Glibc)
import Glibc
#endif

/// Memory for a large table read at random, such as the identity table of a model with a million
/// rows: aligned to a cache line, and on Linux, from ``hugePage`` bytes on, a mapping of its own
/// aligned to a huge page and advised `MADV_HUGEPAGE`, so that the kernel backs it with
/// transparent huge pages wherever it allows them (`/sys/kernel/mm/transparent_hugepage/enabled`
/// set to `madvise` or `always`). A lookup in a table larger than the cache then waits for one
/// memory access, not also for a page-table walk: on the Intel machine of docs/benchmarks.md (a
/// virtual machine), `TableModel.path(of:)` on a section of a million rows took 9-17% less in
/// four pairs of runs with the kernel's setting `never` and `madvise`. Elsewhere, and if the
/// mapping fails, the allocator's memory.
struct LargeAllocation {
    /// The size of a transparent huge page on x86-64 and most arm64 kernels.
    static let hugePage = 2 << 20

    /// The memory, aligned to at least 64.
    let base: UnsafeMutableRawPointer
    /// The whole mapping when the memory is one (`nil` when it came from the allocator).
    private let mapping: UnsafeMutableRawBufferPointer?

    /// Whether every byte is zero already (a fresh mapping's are, and its pages are only touched,
    /// and so only take memory, when written); the allocator's memory is not.
    var isZeroed: Bool { mapping != nil }

    /// `byteCount` bytes of uninitialized memory.
    init(byteCount: Int) {
        #if canImport(Glibc)
        if byteCount >= Self.hugePage, let (base, mapping) = Self.map(byteCount) {
            self.base = base
            self.mapping = mapping
            return
        }
        #endif
        base = .allocate(byteCount: byteCount, alignment: 64)
        mapping = nil
    }

    /// Frees the memory; it must not be used afterwards.
    func deallocate() { Self.free(base, mapping: mapping) }

    /// Frees memory that is `mapping` when that is not `nil`, else the allocator's at `base`.
    static func free(_ base: UnsafeMutableRawPointer, mapping: UnsafeMutableRawBufferPointer?) {
        #if canImport(Glibc)
        if let mapping {
            munmap(mapping.baseAddress, mapping.count)
            return
        }
        #endif
        base.deallocate()
    }

    #if canImport(Glibc)
    /// A mapping of `byteCount` bytes rounded up to whole huge pages, plus one huge page so that a
    /// boundary falls inside it; the memory starts at that boundary.
    private static func map(_ byteCount: Int) -> (UnsafeMutableRawPointer, UnsafeMutableRawBufferPointer)? {
        let (pages, partial) = byteCount.quotientAndRemainder(dividingBy: hugePage)
        let length = (pages + (partial > 0 ? 1 : 0) + 1) * hugePage
        guard let mapping = anonymousMapping(length, flags: 0), let start = mapping.baseAddress else { return nil }
        let address = UInt(bitPattern: start)
        let aligned = (address + UInt(hugePage) - 1) & ~(UInt(hugePage) - 1)
        let base = UnsafeMutableRawPointer(bitPattern: aligned)!
        // Advice only: where the kernel has no transparent huge pages, the mapping works as it is.
        _ = madvise(base, length - Int(aligned - address), MADV_HUGEPAGE)
        return (base, mapping)
    }

    /// A private anonymous read-write mapping of `length` bytes (whole pages) with the extra mmap
    /// `flags`, or `nil` when the system refuses it.
    static func anonymousMapping(_ length: Int, flags: Int32) -> UnsafeMutableRawBufferPointer? {
        guard let start = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0),
            start != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        return UnsafeMutableRawBufferPointer(start: start, count: length)
    }
    #endif
}

/// Memory for a buffer that doubles when it fills, such as a section's row storage: when the
/// caller asks for room (on Linux), a mapping with address space reserved for ``reserve`` times
/// the bytes (no memory: pages are only taken when written), so that growing within the
/// reservation moves nothing; otherwise, or if the mapping fails, the allocator's, which moves. A
/// row storage of 1,000,000 rows that doubled by moving took 26 ms for the one insert that made
/// it grow.
struct GrowableMemory {
    /// How many times the first size a mapping reserves: three doublings in place.
    static let reserve = 8

    /// The memory, aligned to 64.
    let base: UnsafeMutableRawPointer
    /// The whole reservation when the memory is a mapping.
    private let mapping: UnsafeMutableRawBufferPointer?

    /// `byteCount` bytes, uninitialized unless `isZeroed`; with room to grow in place when
    /// `reserving` (callers reserve for large buffers only: each mapping takes whole pages).
    init(byteCount: Int, reserving: Bool) {
        #if canImport(Glibc)
        if reserving, let mapping = Self.map(byteCount * Self.reserve) {
            self.mapping = mapping
            base = mapping.baseAddress!
            return
        }
        #endif
        mapping = nil
        base = .allocate(byteCount: max(byteCount, 1), alignment: 64)
    }

    /// Whether every byte is zero already (a fresh mapping's are, up to the reservation's end).
    var isZeroed: Bool { mapping != nil }

    /// Whether the memory can be used up to `newByteCount` bytes where it is, its contents kept
    /// (the reservation holds them; the bytes past those in use are zero).
    func canGrow(inPlaceTo newByteCount: Int) -> Bool {
        mapping.map { newByteCount <= $0.count } ?? false
    }

    /// Frees the memory; it must not be used afterwards.
    func deallocate() { LargeAllocation.free(base, mapping: mapping) }

    #if canImport(Glibc)
    /// A mapping of `byteCount` bytes (rounded up to whole pages) that reserves address space but
    /// no memory.
    private static func map(_ byteCount: Int) -> UnsafeMutableRawBufferPointer? {
        let page = 4_096
        return LargeAllocation.anonymousMapping((byteCount + page - 1) / page * page, flags: MAP_NORESERVE)
    }
    #endif
}
