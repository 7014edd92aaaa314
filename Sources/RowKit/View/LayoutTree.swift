/// The view's handle on a row-offset tree: one `OffsetTree` of the chosen backend, behind the few
/// calls the view makes, so the view never depends on one implementation.
///
/// The tree holds one item per header, row and footer, in table order. The view only passes
/// indices it derived from its own counts and heights it made finite and non-negative, so a tree
/// error here is a bug in RowKit and traps.
struct LayoutTree {
    private(set) var base: any OffsetTree

    /// A tree of `backend` holding `heights`. - Complexity: O(n).
    init(backend: TableViewBackend, heights: [Double]) {
        do {
            switch backend {
            case .c: base = try COffsetTree(heights: heights)
            case .swift: base = try SwiftOffsetTree(heights: heights)
            }
        } catch {
            preconditionFailure("cannot build the offset tree: \(error)")
        }
    }

    /// Replaces every height, reusing the tree's memory. - Complexity: O(n).
    func replaceAll(with heights: [Double]) {
        do { try base.replaceAll(with: heights) } catch { preconditionFailure("offset tree: \(error)") }
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

    /// Sets the heights of the items from `index` on. - Complexity: O(log n + k).
    func setHeights(_ heights: [Double], startingAt index: Int) {
        do { try base.setHeights(heights, startingAt: index) } catch { preconditionFailure("offset tree: \(error)") }
    }

    func setHeight(_ height: Double, at index: Int) {
        do { try base.setHeight(height, at: index) } catch { preconditionFailure("offset tree: \(error)") }
    }

    func insert(contentsOf heights: [Double], at index: Int) {
        do { try base.insert(contentsOf: heights, at: index) } catch { preconditionFailure("offset tree: \(error)") }
    }

    func removeSubrange(_ range: Range<Int>) {
        do { try base.removeSubrange(range) } catch { preconditionFailure("offset tree: \(error)") }
    }

    func checkInvariants() throws(TableViewError) {
        do { try base.checkInvariants() } catch { throw .inconsistent("offset tree: \(error)") }
    }
}
