import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bump allocator for libcmark: every allocation of one document (parser, nodes, buffers, the
/// rendered HTML) comes from a few large chunks, and all of it is released at once by ``reset()``.
///
/// cmark allocates and frees dozens of small blocks per document; through `malloc` that is a
/// fifth of its time. Here an allocation is a pointer bump, `free` is nothing (or a roll-back of
/// the last block) and a document's memory is reused by the next one.
///
/// Memory: what the largest document needs at once (a block that grows is copied, so up to twice
/// its final size), kept between documents up to ``keptBytes``; beyond that, chunks are returned
/// to the system on reset.
///
/// Not thread-safe: an arena belongs to one renderer, and is installed as the current arena only
/// while a document is parsed and rendered (see ``withCurrent(_:_:)``).
struct MarkdownArena {
    /// Each block is preceded by a header holding its size, so `realloc` knows what to copy.
    private static let header = 16
    private static let chunkSize = 64 * 1024
    /// Chunk bytes kept across ``reset()``.
    static let keptBytes = 1024 * 1024

    private struct Chunk {
        var base: UnsafeMutableRawPointer
        var size: Int
    }

    private var chunks: [Chunk] = []
    /// The index of the chunk being filled (-1: none yet).
    private var current = -1
    /// The first free byte and the end of the chunk being filled (equal when there is none).
    private var cursor = UnsafeMutableRawPointer(bitPattern: 16)!
    private var end = UnsafeMutableRawPointer(bitPattern: 16)!
    /// The last block handed out in the chunk being filled, for in-place growth.
    private var last: UnsafeMutableRawPointer?

    /// Frees every chunk; the arena must not be in use.
    mutating func releaseAll() {
        for chunk in chunks { free(chunk.base) }
        chunks = []
        current = -1
        end = cursor
        last = nil
    }

    /// Forgets every block (they must no longer be used) and keeps at most ``keptBytes`` of chunks.
    mutating func reset() {
        var kept = 0
        chunks.removeAll { chunk in
            if chunk.size == Self.chunkSize && kept + Self.chunkSize <= Self.keptBytes {
                kept += Self.chunkSize
                return false
            }
            free(chunk.base)
            return true
        }
        current = -1
        end = cursor
        last = nil
    }

    /// A block of `size` bytes, 16-byte aligned; zero-filled when `zeroed`. Traps when the system
    /// has no memory left (as cmark's own allocator does).
    @inline(__always)
    mutating func allocate(_ size: Int, zeroed: Bool) -> UnsafeMutableRawPointer {
        let needed = (Self.header + size + 15) & ~15
        if needed > cursor.distance(to: end) { nextChunk(fitting: needed) }
        cursor.storeBytes(of: size, as: Int.self)
        let block = cursor + Self.header
        if zeroed { memset(block, 0, size) }
        last = block
        cursor += needed
        return block
    }

    /// `block` resized to `size` bytes, its contents kept up to the smaller size.
    mutating func reallocate(_ block: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer {
        guard let block else { return allocate(size, zeroed: false) }
        if block == last {
            let needed = (Self.header + size + 15) & ~15
            let start = block - Self.header
            if needed <= start.distance(to: end) {
                // The last block grows (or shrinks) in place.
                start.storeBytes(of: size, as: Int.self)
                cursor = start + needed
                return block
            }
        }
        let oldSize = block.load(fromByteOffset: -Self.header, as: Int.self)
        let moved = allocate(size, zeroed: false)
        moved.copyMemory(from: block, byteCount: min(oldSize, size))
        return moved
    }

    /// Gives back `block` when it is the last one handed out; otherwise its memory waits for
    /// ``reset()``.
    @inline(__always)
    mutating func deallocate(_ block: UnsafeMutableRawPointer?) {
        guard let block, block == last else { return }
        cursor = block - Self.header
        last = nil
    }

    /// Whether `pointer` lies in one of the arena's chunks.
    func owns(_ pointer: UnsafeRawPointer) -> Bool {
        chunks.contains { pointer >= UnsafeRawPointer($0.base) && pointer < UnsafeRawPointer($0.base + $0.size) }
    }

    private mutating func nextChunk(fitting needed: Int) {
        // The next kept chunk, if it is big enough; otherwise a new one.
        if current + 1 < chunks.count && chunks[current + 1].size >= needed {
            current += 1
        } else {
            let size = max(Self.chunkSize, needed)
            guard let base = malloc(size) else { fatalError("[RowKitHTML] out of memory rendering Markdown") }
            current += 1
            chunks.insert(Chunk(base: base, size: size), at: current)
        }
        cursor = chunks[current].base
        end = cursor + chunks[current].size
        last = nil
    }

    /// Runs `body` with `arena` as the current arena (the one ``current`` returns) and returns
    /// its result; returns `nil` without running `body` when another thread's arena is current.
    ///
    /// cmark's allocator callbacks have no context argument, so they find the arena in a global.
    /// Only one thread at a time may install an arena (claimed with an atomic compare-and-swap);
    /// the callbacks run only in parsers made with the arena's allocator, so only on that thread.
    static func withCurrent<Result>(_ arena: UnsafeMutablePointer<MarkdownArena>, _ body: () -> Result) -> Result? {
        guard claim.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else { return nil }
        installed = arena
        defer {
            installed = nil
            claim.store(false, ordering: .releasing)
        }
        return body()
    }

    /// The current arena; only valid inside ``withCurrent(_:_:)``, on its thread.
    @inline(__always)
    static var current: UnsafeMutablePointer<MarkdownArena> {
        guard let installed else { preconditionFailure("cmark allocated outside MarkdownArena.withCurrent") }
        return installed
    }

    /// Whether a thread has installed its arena.
    private static let claim = Atomic<Bool>(false)
    /// The installed arena. Written only by the thread holding `claim` (set after acquiring it,
    /// cleared before releasing it) and read only by that thread's cmark callbacks.
    nonisolated(unsafe) private static var installed: UnsafeMutablePointer<MarkdownArena>?
}
