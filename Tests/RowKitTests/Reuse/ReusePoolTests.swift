import RowKit
import Testing

/// The pool implementations every reuse test runs on.
enum ReusePoolImplementation: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case c
    case swift

    var testDescription: String { rawValue }

    func make(capacity: Int = 32) -> any ReusePool {
        switch self {
        case .c: CReusePool(defaultCapacity: capacity)
        case .swift: SwiftReusePool(defaultCapacity: capacity)
        }
    }
}

@Suite("Reuse pool")
struct ReusePoolTests {
    @Test(arguments: ReusePoolImplementation.allCases)
    func whenIdentifiersAreInterned_thenTheSameStringGivesTheSameKind(
        implementation: ReusePoolImplementation
    ) {
        let pool = implementation.make()
        let a = pool.intern("Value1Cell")
        let b = pool.intern("SubtitleCell")
        #expect(a != b)
        #expect(pool.intern("Value1Cell") == a)
        #expect(pool.intern(String("Value1" + "Cell")) == a)
        for i in 0..<500 { #expect(pool.intern("cell-\(i)").rawValue == i + 2) }
        #expect(pool.intern("SubtitleCell") == b)
    }

    @Test(arguments: ReusePoolImplementation.allCases)
    func whenHandlesArePut_thenTheyAreTakenBackNewestFirst(implementation: ReusePoolImplementation) {
        let pool = implementation.make()
        let kind = pool.intern("cell")
        let other = pool.intern("header")
        for h: UInt in 1...5 { #expect(pool.put(h, kind: kind) == nil) }
        #expect(pool.put(100, kind: other) == nil)
        #expect(pool.take(kind: kind) == 5)
        #expect(pool.take(kind: kind) == 4)
        #expect(pool.put(6, kind: kind) == nil)
        #expect(pool.take(kind: kind) == 6)
        #expect(pool.take(kind: other) == 100)
        #expect(pool.take(kind: other) == nil)
        #expect(pool.count(of: kind) == 3)
        #expect(pool.counters == ReuseCounters(hits: 4, misses: 1, evictions: 0))
    }

    @Test(arguments: ReusePoolImplementation.allCases)
    func whenAKindIsFull_thenPutEvictsAndHandsBackTheOldestHandle(
        implementation: ReusePoolImplementation
    ) {
        let pool = implementation.make(capacity: 3)
        let kind = pool.intern("cell")
        #expect(pool.capacity(of: kind) == 3)
        for h: UInt in 1...3 { #expect(pool.put(h, kind: kind) == nil) }
        #expect(pool.put(4, kind: kind) == 1)
        #expect(pool.put(5, kind: kind) == 2)
        #expect(pool.take(kind: kind) == 5)
        #expect(pool.setCapacity(1, of: kind) == [3])
        #expect(pool.take(kind: kind) == 4)
        #expect(pool.setCapacity(0, of: kind) == [])
        #expect(pool.put(9, kind: kind) == 9)  // capacity 0: nothing is kept
        #expect(pool.counters == ReuseCounters(hits: 2, misses: 0, evictions: 4))
    }

    @Test(arguments: ReusePoolImplementation.allCases)
    func whenThePoolIsDrained_thenEveryHandleIsHandedBackOnce(implementation: ReusePoolImplementation) {
        let pool = implementation.make(capacity: 8)
        let kinds = (0..<4).map { pool.intern("k\($0)") }
        var held: Set<UInt> = []
        for h: UInt in 1...20 {
            let kind = kinds[Int(h) % 4]
            _ = pool.put(h, kind: kind)
            held.insert(h)
        }
        let drained = pool.drain()
        #expect(Set(drained.map(\.handle)) == held)
        #expect(drained.count == held.count)
        #expect(drained.allSatisfy { kinds[Int($0.handle) % 4] == $0.kind })
        #expect(pool.drain().isEmpty)
    }

    @Test(arguments: ReusePoolImplementation.allCases)
    func whenRandomOperationsRun_thenThePoolMatchesANaiveModel(implementation: ReusePoolImplementation) throws {
        var rng = SeededRandom(seed: 77)
        let pool = implementation.make(capacity: 4)
        let kinds = (0..<6).map { pool.intern("kind-\($0)") }
        var model: [[UInt]] = Array(repeating: [], count: 6)
        var capacity = Array(repeating: 4, count: 6)
        var expected = ReuseCounters()
        var next: UInt = 1
        for step in 0..<20_000 {
            let k = rng.below(6)
            switch rng.below(10) {
            case 0..<5:
                let evicted = pool.put(next, kind: kinds[k])
                model[k].append(next)
                next += 1
                if model[k].count > capacity[k] {
                    #expect(evicted == model[k].removeFirst(), "step \(step)")
                    expected.evictions += 1
                } else {
                    #expect(evicted == nil, "step \(step)")
                }
            case 5..<9:
                let taken = pool.take(kind: kinds[k])
                #expect(taken == model[k].popLast(), "step \(step)")
                if taken == nil { expected.misses += 1 } else { expected.hits += 1 }
            default:
                capacity[k] = rng.below(12)
                let evicted = pool.setCapacity(capacity[k], of: kinds[k])
                let excess = max(0, model[k].count - capacity[k])
                #expect(evicted == Array(model[k].prefix(excess)), "step \(step)")
                model[k].removeFirst(excess)
                expected.evictions += UInt64(excess)
            }
            #expect(pool.count(of: kinds[k]) == model[k].count)
            #expect(pool.counters == expected)
            try pool.checkInvariants()
        }
    }
}

/// A cell that counts its deallocations.
private final class CountingCell {
    let id: Int
    let onDeinit: () -> Void
    init(id: Int, onDeinit: @escaping () -> Void) {
        self.id = id
        self.onDeinit = onDeinit
    }
    deinit { onDeinit() }
}

@Suite("Cell pool")
struct CellPoolTests {
    private static func exercise<Pool: ReusePool>(_: Pool.Type) {
        var released = 0
        do {
            let cells = CellPool<Pool, CountingCell>(capacity: 2)
            for i in 0..<3 { cells.enqueue(CountingCell(id: i) { released += 1 }, reuseIdentifier: "row") }
            #expect(released == 1)  // the oldest (id 0) was evicted and deallocated
            #expect(cells.dequeue(reuseIdentifier: "row")?.id == 2)
            #expect(released == 2)  // the dequeued cell died with its last reference
            #expect(cells.dequeue(reuseIdentifier: "header") == nil)
            cells.enqueue(CountingCell(id: 9) { released += 1 }, reuseIdentifier: "header")
            #expect(cells.count == 2)
            #expect(cells.counters == ReuseCounters(hits: 1, misses: 1, evictions: 1))
        }
        #expect(released == 4)  // teardown released the rest
    }

    @Test func whenTheCPoolEvictsOrIsTornDown_thenTheCellsAreReleased() {
        Self.exercise(CReusePool.self)
    }

    @Test func whenTheSwiftPoolEvictsOrIsTornDown_thenTheCellsAreReleased() {
        Self.exercise(SwiftReusePool.self)
    }
}
