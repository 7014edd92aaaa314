/// Maps (section, row) to flat item indices and back in O(log n), on top of an ``OffsetTree``.
///
/// The flat layout gives each section one header item, its rows, and one footer item; header and
/// footer items exist even when a section has none (the engine gives them height 0). The index keeps
/// a second tree whose "heights" are the sections' item counts (rows + 2); counts are integers, exact
/// in doubles up to 2^53 items.
package final class SectionIndex<Tree: OffsetTree> {
    /// An item of a section in the flat layout.
    package enum Element: Hashable, Sendable {
        /// The section's header item.
        case header
        /// The row at this index within the section.
        case row(Int)
        /// The section's footer item.
        case footer
    }

    /// A section and an element of it.
    package struct Position: Hashable, Sendable {
        /// The section index.
        package var section: Int
        /// The element within the section.
        package var element: Element

        /// Creates a position.
        package init(section: Int, element: Element) {
            self.section = section
            self.element = element
        }
    }

    private let tree: Tree

    /// Creates an index for sections with the given row counts.
    /// - Precondition: every count is non-negative.
    /// - Throws: ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(n) for n sections.
    package init(rowCounts: [Int]) throws(OffsetTreeError) {
        tree = try Tree(heights: rowCounts.map(sectionItemCount))
    }

    /// The number of sections.
    /// - Complexity: O(1).
    package var sectionCount: Int { tree.count }

    /// The number of flat items (rows plus a header and a footer per section).
    /// - Complexity: O(1).
    package var itemCount: Int { Int(tree.totalHeight) }

    /// The number of rows in `section`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``.
    /// - Complexity: O(log n).
    package func rowCount(inSection section: Int) throws(OffsetTreeError) -> Int {
        Int(try tree.height(at: section)) - 2
    }

    /// The flat index of the header item of `section`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``.
    /// - Complexity: O(log n).
    package func flatIndexOfHeader(inSection section: Int) throws(OffsetTreeError) -> Int {
        guard section >= 0 && section < sectionCount else {
            throw .indexOutOfRange(index: section, count: sectionCount)
        }
        return Int(try tree.offset(of: section))
    }

    /// The flat index of the footer item of `section`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``.
    /// - Complexity: O(log n).
    package func flatIndexOfFooter(inSection section: Int) throws(OffsetTreeError) -> Int {
        try flatIndexOfHeader(inSection: section) + 1 + rowCount(inSection: section)
    }

    /// The flat index of `row` in `section`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)`` for a bad section (index is the
    ///   section) or row (index is the row, count the section's row count).
    /// - Complexity: O(log n).
    package func flatIndex(ofRow row: Int, inSection section: Int) throws(OffsetTreeError) -> Int {
        let header = try flatIndexOfHeader(inSection: section)
        let rows = try rowCount(inSection: section)
        guard row >= 0 && row < rows else { throw .indexOutOfRange(index: row, count: rows) }
        return header + 1 + row
    }

    /// The section and element at flat index `index`, or `nil` outside `0..<itemCount`.
    /// - Complexity: O(log n).
    package func position(ofFlatIndex index: Int) -> Position? {
        guard index >= 0, let section = tree.item(at: Double(index)),
            let start = try? tree.offset(of: section),
            let rows = try? rowCount(inSection: section)
        else { return nil }
        let local = index - Int(start)
        let element: Element = local == 0 ? .header : (local <= rows ? .row(local - 1) : .footer)
        return Position(section: section, element: element)
    }

    /// Inserts sections with the given row counts so the first becomes section `section`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``, ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(k + log n).
    package func insertSections(rowCounts: [Int], at section: Int) throws(OffsetTreeError) {
        try tree.insert(contentsOf: rowCounts.map(sectionItemCount), at: section)
    }

    /// Removes the sections in `range`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``, ``OffsetTreeError/outOfMemory``.
    /// - Complexity: O(k + log n).
    package func removeSections(_ range: Range<Int>) throws(OffsetTreeError) {
        try tree.removeSubrange(range)
    }

    /// Sets the row count of `section`.
    /// - Throws: ``OffsetTreeError/indexOutOfRange(index:count:)``.
    /// - Complexity: O(log n).
    package func setRowCount(_ rows: Int, ofSection section: Int) throws(OffsetTreeError) {
        try tree.setHeight(sectionItemCount(rows), at: section)
    }

    /// Checks the underlying tree's invariants.
    /// - Complexity: O(n).
    package func checkInvariants() throws(OffsetTreeError) {
        try tree.checkInvariants()
    }
}

/// A section's flat item count as a tree "height": its rows plus a header and a footer.
private func sectionItemCount(_ rows: Int) -> Double {
    precondition(rows >= 0, "a section cannot have a negative row count")
    return Double(rows + 2)
}
