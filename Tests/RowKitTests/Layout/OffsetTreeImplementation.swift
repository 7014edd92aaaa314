import RowKit
import Testing

/// The implementations every offset-tree test runs on.
enum OffsetTreeImplementation: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case c
    case swift

    var testDescription: String { rawValue }

    func make(_ heights: [Double] = []) throws(OffsetTreeError) -> any OffsetTree {
        switch self {
        case .c: try COffsetTree(heights: heights)
        case .swift: try SwiftOffsetTree(heights: heights)
        }
    }
}

/// The naive reference: an array of heights with linear prefix sums and linear scans.
struct NaiveOffsets {
    var heights: [Double]

    var total: Double { offset(of: heights.count) }

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
                if h[i] > 0 && y < acc + h[i] { return i }
                acc += h[i]
            }
            return nil
        }
    }

    func items(intersecting range: Range<Double>) -> Range<Int> {
        if range.isEmpty { return 0..<0 }
        var first: Int?
        var last = 0
        var acc = 0.0
        for (i, h) in heights.enumerated() {
            if h > 0 && acc < range.upperBound && acc + h > range.lowerBound {
                if first == nil { first = i }
                last = i
            }
            acc += h
        }
        guard let first else { return 0..<0 }
        return first..<last + 1
    }
}

/// Expects the tree to hold exactly `heights`: count, total, every height, offset and lookup.
/// Compares in a plain loop and records only the first mismatch, to stay fast in debug builds.
func expectSameContents(
    _ tree: any OffsetTree, _ heights: [Double], tolerance: Double = 0,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    func firstMismatch() -> String? {
        if tree.count != heights.count { return "count \(tree.count) vs \(heights.count)" }
        var acc = 0.0
        for (i, h) in heights.enumerated() {
            let stored = try? tree.height(at: i)
            if stored != h { return "height(at: \(i)) \(String(describing: stored)) vs \(h)" }
            let offset = (try? tree.offset(of: i)) ?? -1
            if abs(offset - acc) > tolerance * max(1, acc) {
                return "offset(of: \(i)) \(offset) vs \(acc)"
            }
            if h > 0 && tolerance == 0 {
                if tree.item(at: acc) != i { return "item(at: start of \(i))" }
                if tree.item(at: acc + h / 2) != i { return "item(at: middle of \(i))" }
            }
            acc += h
        }
        if abs(tree.totalHeight - acc) > tolerance * max(1, acc) {
            return "total \(tree.totalHeight) vs \(acc)"
        }
        if (try? tree.offset(of: heights.count)) != tree.totalHeight { return "offset(of: count)" }
        if tree.item(at: tree.totalHeight) != nil { return "item(at: total) is not nil" }
        do {
            try tree.checkInvariants()
        } catch {
            return "invariants: \(error)"
        }
        return nil
    }
    let mismatch = firstMismatch()
    #expect(mismatch == nil, sourceLocation: sourceLocation)
}
