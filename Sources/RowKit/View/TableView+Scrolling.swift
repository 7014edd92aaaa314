extension TableView {
    /// Scrolls so the row at `path` is at `position` in the viewport (clamped to the content), then
    /// displays the rows there. Rows measured on the way can move the target; the view scrolls
    /// again until it holds (at most four times), and displays only where it ends: the events are
    /// those of one scroll.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange` or `.rowOutOfRange`.
    /// - Complexity: O(log n + v).
    public func scrollToRow(at path: RowPath, position: ScrollPosition) throws(TableViewError) {
        layoutIfNeeded()
        try checkPath(path)
        scroll(toTarget: { self.targetOffset(forRowAt: path, position: position) })
    }

    /// Scrolls to `target()` (clamped), then to the target again while measurements on the way
    /// move it (at most four scrolls in all), and displays the rows there: one layout change, whose
    /// events are the difference between the rows displayed before and after.
    func scroll(toTarget target: @escaping () -> Double) {
        let start = contentOffset
        let first = clampedOffset(target())
        guard first != start else { return }
        contentOffset = first
        layoutVisible(retarget: target, maxRetargets: 3)
        if contentOffset != start { scrollDirection = contentOffset > start ? 1 : -1 }
        updatePrefetch()
        deliver()
    }

    /// Scrolls to the selected row nearest to the viewport (the first one when several are
    /// visible) at `position`. Returns `false`, without scrolling, when nothing is selected.
    ///
    /// - Complexity: O(s log n + v) for s selected rows.
    @discardableResult
    public func scrollToNearestSelectedRow(position: ScrollPosition) -> Bool {
        layoutIfNeeded()
        let top = contentOffset
        let bottom = top + viewport.height
        var best: (distance: Double, path: RowPath)?
        for path in selected.values.sorted() {
            let rect = itemRect(flat: flatIndex(of: path))
            let distance = rect.maxY <= top ? top - rect.maxY : rect.y >= bottom ? rect.y - bottom : 0
            if let current = best, current.distance <= distance { continue }
            best = (distance, path)
        }
        guard let best else { return false }
        try? scrollToRow(at: best.path, position: position)
        return true
    }

    /// The index titles of the sections that have one, in order (the A–Z bar).
    public var sectionIndexTitles: [String] { table.sections.compactMap(\.indexTitle) }

    /// Scrolls so the first section whose index title is `title` starts at the top of the
    /// viewport (as far as the content allows).
    ///
    /// - Throws: `TableViewError.unknownIndexTitle`.
    /// - Complexity: O(s + log n + v) for s sections.
    public func scrollToSection(indexTitle title: String) throws(TableViewError) {
        layoutIfNeeded()
        guard let section = table.sections.firstIndex(where: { $0.indexTitle == title }) else {
            throw .unknownIndexTitle(title)
        }
        scroll(toTarget: { self.tree.offset(of: self.sectionStarts[section]) })
    }

    /// The offset that puts the row at `path` at `position` (unclamped).
    func targetOffset(forRowAt path: RowPath, position: ScrollPosition) -> Double {
        let rect = itemRect(flat: flatIndex(of: path))
        // In plain style the section's floating header covers the top of the viewport.
        let cover = metrics.floatsHeaders ? headerRect(path.section).height : 0
        let top = rect.y - cover
        let bottom = rect.maxY - viewport.height
        switch position {
        case .top: return top
        case .middle: return rect.y + rect.height / 2 - viewport.height / 2
        case .bottom: return bottom
        case .nearest:
            if contentOffset > top { return top }
            if contentOffset < bottom { return min(bottom, top) }
            return contentOffset
        }
    }
}
