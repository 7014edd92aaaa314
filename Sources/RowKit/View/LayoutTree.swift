/// The view's handle on a row-offset tree: one `OffsetTree` of the chosen backend, behind the few
/// calls the view makes, so the view never depends on one implementation.
///
/// The tree holds one item per header, row and footer, in table order. The view only passes
/// indices it derived from its own counts and heights it made finite and non-negative, so a tree
/// error here is a bug in RowKit and traps.
///
/// The tree refuses a total height of ``OffsetTree/maximumTotalHeight`` (2^37 points) or more; a
/// table's heights (estimates, say) may add up to more than that. So every height that goes in is
/// first cut to what is left below the limit, in table order: the total stays at most one
/// ``OffsetTree/heightQuantum`` below the limit, items past the point where it was reached get
/// smaller heights (down to 0), and offsets stay non-decreasing. A cut height stays cut until the
/// item's height is set again (a measurement, a reload, a rebuild); ``hasClampedHeights`` says
/// whether any height was cut since the last rebuild.
struct LayoutTree {
    private(set) var base: any OffsetTree
    /// Whether a height was cut to keep the total below the limit since the last full rebuild.
    private(set) var hasClampedHeights = false

    /// The largest total the view lets the tree reach: one quantum below the tree's limit, so that
    /// every total is a whole number of quanta the tree accepts.
    static let heightBudget = COffsetTree.maximumTotalHeight - COffsetTree.heightQuantum

    /// A tree of `backend` holding `heights` (cut to the limit). - Complexity: O(n).
    init(backend: TableViewBackend, heights: [Double]) {
        let fitted = Self.fitted(heights, within: Self.heightBudget)
        hasClampedHeights = fitted.clamped
        do {
            switch backend {
            case .c: base = try COffsetTree(heights: fitted.heights)
            case .swift: base = try SwiftOffsetTree(heights: fitted.heights)
            }
        } catch {
            preconditionFailure("cannot build the offset tree: \(error)")
        }
    }

    /// Replaces every height (cut to the limit), reusing the tree's memory. - Complexity: O(n).
    mutating func replaceAll(with heights: [Double]) {
        let fitted = Self.fitted(heights, within: Self.heightBudget)
        hasClampedHeights = fitted.clamped
        do { try base.replaceAll(with: fitted.heights) } catch { preconditionFailure("offset tree: \(error)") }
    }

    var count: Int { base.count }
    var totalHeight: Double { base.totalHeight }
    func item(at y: Double) -> Int? { base.item(at: y) }
    func items(intersecting band: Range<Double>) -> Range<Int> { base.items(intersecting: band) }

    func height(at index: Int) -> Double {
        do { return try base.height(at: index) } catch { preconditionFailure("offset tree: \(error)") }
    }

    func offset(of index: Int) -> Double {
        do { return try base.offset(of: index) } catch { preconditionFailure("offset tree: \(error)") }
    }

    /// The heights of the items in `range`. - Complexity: O(log n + k).
    func heights(in range: Range<Int>) -> [Double] {
        do { return try base.heights(in: range) } catch { preconditionFailure("offset tree: \(error)") }
    }

    /// The offsets (exactly `offset(of:)`'s) and heights of the items in `range`.
    /// - Complexity: O(log n + k).
    func offsetsAndHeights(in range: Range<Int>) -> (offsets: [Double], heights: [Double]) {
        do { return try base.offsetsAndHeights(in: range) } catch { preconditionFailure("offset tree: \(error)") }
    }

    /// Sets the heights of the items from `index` on (cut to the limit). - Complexity: O(log n + k).
    mutating func setHeights(_ heights: [Double], startingAt index: Int) {
        var heights = heights
        if !Self.fits(heights, besides: totalHeight) {
            let old = self.heights(in: index..<index + heights.count).reduce(0, +)  // exact: quanta
            let fitted = Self.fitted(heights, within: Self.heightBudget - (totalHeight - old))
            heights = fitted.heights
            hasClampedHeights = hasClampedHeights || fitted.clamped
        }
        do { try base.setHeights(heights, startingAt: index) } catch { preconditionFailure("offset tree: \(error)") }
    }

    /// Sets the height of the item at `index` (cut to the limit). - Complexity: O(log n).
    mutating func setHeight(_ height: Double, at index: Int) {
        var height = height
        if totalHeight + height + 1 > Self.heightBudget {  // may not fit (1 point covers any rounding)
            let left = Self.heightBudget - (totalHeight - self.height(at: index))
            if height > left {
                height = left
                hasClampedHeights = true
            }
        }
        do { try base.setHeight(height, at: index) } catch { preconditionFailure("offset tree: \(error)") }
    }

    /// Inserts `heights` (cut to the limit) at `index`. - Complexity: O(k + log n).
    mutating func insert(contentsOf heights: [Double], at index: Int) {
        var heights = heights
        if !Self.fits(heights, besides: totalHeight) {
            let fitted = Self.fitted(heights, within: Self.heightBudget - totalHeight)
            heights = fitted.heights
            hasClampedHeights = hasClampedHeights || fitted.clamped
        }
        do { try base.insert(contentsOf: heights, at: index) } catch { preconditionFailure("offset tree: \(error)") }
    }

    func removeSubrange(_ range: Range<Int>) {
        do { try base.removeSubrange(range) } catch { preconditionFailure("offset tree: \(error)") }
    }

    func checkInvariants() throws(TableViewError) {
        do { try base.checkInvariants() } catch { throw .inconsistent("offset tree: \(error)") }
        if totalHeight > Self.heightBudget { throw .inconsistent("total height \(totalHeight) past the limit") }
    }

    // MARK: The height limit

    /// Whether `heights` (finite, non-negative), rounded by the tree, surely fit beside `total`
    /// without reaching the limit: a quick test on their plain sum with room for its rounding
    /// error (relative, below 10^-6 for any count an array holds), for each height rounding up by
    /// half a quantum, and a point for the rounding of the test's own additions (at most a
    /// quantum below 2^37). - Complexity: O(k).
    private static func fits(_ heights: [Double], besides total: Double) -> Bool {
        var sum = 0.0
        for height in heights { sum += height }
        return total + sum * (1 + 0x1p-20) + Double(heights.count) * COffsetTree.heightQuantum + 1 <= heightBudget
    }

    /// `heights` (finite, non-negative) with each cut, in order, to what `budget` (a whole number
    /// of quanta) has left after the heights before it as the tree rounds them, and whether any
    /// was cut. A cut height is the budget left (a whole number of quanta), so the tree stores it
    /// as is and the rounded sum never passes `budget`. - Complexity: O(k).
    private static func fitted(_ heights: [Double], within budget: Double) -> (heights: [Double], clamped: Bool) {
        guard !fits(heights, besides: heightBudget - budget) else { return (heights, false) }
        var left = max(budget, 0)
        var clamped = false
        var result = heights
        for i in result.indices {
            if result[i] > left {
                result[i] = left
                clamped = true
            }
            left -= COffsetTree.quantized(result[i])
        }
        return (result, clamped)
    }
}
