// TEMPORARY: stand-ins for the protocols branch `ccore` is writing (OffsetTree, ReusePool and
// their implementations), so the view builds before that branch lands. Deleted on merge.

/// Stand-in for `ccore`'s row-offset tree protocol.
protocol OffsetTree: AnyObject {
    init(heights: [Double]) throws(OffsetTreeError)
    var count: Int { get }
    var totalHeight: Double { get }
    func height(at index: Int) throws(OffsetTreeError) -> Double
    func offset(of index: Int) throws(OffsetTreeError) -> Double
    func item(at y: Double) -> Int?
    func items(intersecting range: Range<Double>) -> Range<Int>
    func setHeight(_ height: Double, at index: Int) throws(OffsetTreeError)
    func insert(contentsOf heights: [Double], at index: Int) throws(OffsetTreeError)
    func removeSubrange(_ range: Range<Int>) throws(OffsetTreeError)
    func checkInvariants() throws(OffsetTreeError)
}

/// Stand-in.
enum OffsetTreeError: Error { case corrupted(String) }

/// Stand-in: heights and lazily rebuilt prefix sums.
final class SwiftOffsetTree: OffsetTree {
    private var heights: [Double]
    private var prefix: [Double] = [0]
    private var dirty = true
    init(heights: [Double]) throws(OffsetTreeError) { self.heights = heights }
    private func refresh() {
        guard dirty else { return }
        prefix = [0]
        prefix.reserveCapacity(heights.count + 1)
        var sum = 0.0
        for h in heights { sum += h; prefix.append(sum) }
        dirty = false
    }
    var count: Int { heights.count }
    var totalHeight: Double { refresh(); return prefix[heights.count] }
    func height(at index: Int) -> Double { heights[index] }
    func offset(of index: Int) -> Double { refresh(); return prefix[index] }
    func item(at y: Double) -> Int? {
        refresh()
        guard y >= 0, y < prefix[heights.count] else { return nil }
        var lo = 0, hi = heights.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if prefix[mid + 1] <= y { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
    func items(intersecting range: Range<Double>) -> Range<Int> {
        refresh()
        guard let first = item(at: max(range.lowerBound, 0)), range.upperBound > 0 else { return 0..<0 }
        var last = first
        var index = first + 1
        while index < heights.count, prefix[index] < range.upperBound {
            if heights[index] > 0 { last = index }
            index += 1
        }
        return first..<(last + 1)
    }
    func setHeight(_ height: Double, at index: Int) { heights[index] = height; dirty = true }
    func insert(contentsOf new: [Double], at index: Int) { heights.insert(contentsOf: new, at: index); dirty = true }
    func removeSubrange(_ range: Range<Int>) { heights.removeSubrange(range); dirty = true }
    func checkInvariants() {}
}

/// Stand-in.
typealias COffsetTree = SwiftOffsetTree

/// Stand-in for `ccore`'s reuse pool protocol.
protocol ReusePool: AnyObject {
    init(capacityPerKind: Int)
    func kind(for identifier: String) -> Int
    func put(_ handle: Int, kind: Int) -> Int?
    func take(kind: Int) -> Int?
    var hits: Int { get }
    var misses: Int { get }
    var evictions: Int { get }
}

/// Stand-in.
final class SwiftReusePool: ReusePool {
    private var kinds: [String: Int] = [:]
    private var stacks: [[Int]] = []
    private let capacity: Int
    private(set) var hits = 0
    private(set) var misses = 0
    private(set) var evictions = 0
    init(capacityPerKind: Int) { capacity = capacityPerKind }
    func kind(for identifier: String) -> Int {
        if let kind = kinds[identifier] { return kind }
        kinds[identifier] = stacks.count
        stacks.append([])
        return stacks.count - 1
    }
    func put(_ handle: Int, kind: Int) -> Int? {
        stacks[kind].append(handle)
        guard stacks[kind].count > capacity else { return nil }
        evictions += 1
        return stacks[kind].removeFirst()
    }
    func take(kind: Int) -> Int? {
        if let handle = stacks[kind].popLast() { hits += 1; return handle }
        misses += 1
        return nil
    }
}

/// Stand-in.
typealias CReusePool = SwiftReusePool
