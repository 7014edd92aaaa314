/// The naive baseline: an array of heights; offset-of sums linearly, item-at scans linearly,
/// insert and remove shift the array.
struct NaiveOffsetArray {
    var heights: [Double]

    func offset(of index: Int) -> Double {
        heights.withUnsafeBufferPointer { h in
            var acc = 0.0
            for i in 0..<index { acc += h[i] }
            return acc
        }
    }

    func item(at y: Double) -> Int? {
        guard y >= 0 else { return nil }
        return heights.withUnsafeBufferPointer { h -> Int? in
            var acc = 0.0
            for i in 0..<h.count {
                acc += h[i]
                if y < acc && h[i] > 0 { return i }
            }
            return nil
        }
    }

    func items(intersecting range: Range<Double>) -> Range<Int> {
        guard let first = item(at: max(range.lowerBound, 0)) else { return 0..<0 }
        return heights.withUnsafeBufferPointer { h in
            var acc = offset(of: first)
            var end = first
            while end < h.count && acc < range.upperBound {
                acc += h[end]
                end += 1
            }
            return first..<end
        }
    }
}
