/// The view's handle on a row-offset tree: one `OffsetTree` of the chosen backend, behind the few
/// calls the view makes, so the view never depends on one implementation.
///
/// The tree holds one item per header, row and footer, in table order; the view keeps every height
/// it passes finite and non-negative.
struct LayoutTree {
    private(set) var base: any OffsetTree

    /// A tree of `backend` holding `heights`. - Complexity: O(n).
    init(backend: TableViewBackend, heights: [Double]) {
        switch backend {
        case .c: base = COffsetTree(heights: heights)
        case .swift: base = SwiftOffsetTree(heights: heights)
        }
    }

    var count: Int { base.count }
    var totalHeight: Double { base.totalHeight }
    func height(at index: Int) -> Double { base.height(at: index) }
    func offset(of index: Int) -> Double { base.offset(of: index) }
    func item(at y: Double) -> Int? { base.item(at: y) }
    func items(intersecting band: Range<Double>) -> Range<Int> { base.items(intersecting: band) }
    func setHeight(_ height: Double, at index: Int) { base.setHeight(height, at: index) }
    func insert(contentsOf heights: [Double], at index: Int) { base.insert(contentsOf: heights, at: index) }
    func removeSubrange(_ range: Range<Int>) { base.removeSubrange(range) }
    func checkInvariants() throws(TableViewError) { base.checkInvariants() }
}
