extension TableView {
    /// The height of all content: every section's spacing, header, rows and footer.
    ///
    /// - Complexity: O(1).
    public var contentHeight: Double { tree.totalHeight }

    /// The rectangle of the row at `path`, in content coordinates.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange` or `.rowOutOfRange`.
    /// - Complexity: O(log n).
    public func rect(forRowAt path: RowPath) throws(TableViewError) -> TableRect {
        try checkPath(path)
        return itemRect(flat: flatIndex(of: path))
    }

    /// The rectangle of the header of `section` where it scrolls to (a floating header's own
    /// place, not its pinned place); zero height when the section has no header.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange`.
    /// - Complexity: O(log n).
    public func rectForHeader(inSection section: Int) throws(TableViewError) -> TableRect {
        try checkSection(section)
        return headerRect(section)
    }

    /// The rectangle of the footer of `section`; zero height when the section has no footer.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange`.
    /// - Complexity: O(log n).
    public func rectForFooter(inSection section: Int) throws(TableViewError) -> TableRect {
        try checkSection(section)
        return itemRect(flat: sectionStarts[section + 1] - 1)
    }

    /// The rectangle of all of `section`: its spacing, header, rows and footer.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange`.
    /// - Complexity: O(log n).
    public func rect(forSection section: Int) throws(TableViewError) -> TableRect {
        try checkSection(section)
        let y = tree.offset(of: sectionStarts[section])
        let end = tree.offset(of: sectionStarts[section + 1])
        return TableRect(x: metrics.horizontalInset, y: y, width: contentWidth, height: end - y)
    }

    /// Where the header of `section` is drawn now: pinned to the viewport's top while its section
    /// scrolls under it in plain style, its own rectangle otherwise.
    ///
    /// - Throws: `TableViewError.sectionOutOfRange`.
    /// - Complexity: O(log n).
    public func displayedRectForHeader(inSection section: Int) throws(TableViewError) -> TableRect {
        try checkSection(section)
        return pinnedHeaderRect(section).rect
    }

    /// The path of the row at `y` in content coordinates, or `nil` when `y` is on a header, a
    /// footer, spacing, or outside the content.
    ///
    /// - Complexity: O(log n).
    public func rowPath(at y: Double) -> RowPath? {
        guard let flat = tree.item(at: y) else { return nil }
        let s = section(containing: flat)
        let local = flat - sectionStarts[s]
        guard local > 0, local <= rowCounts[s] else { return nil }
        return RowPath(section: s, row: local - 1)
    }

    /// The paths of the rows with a positive height intersecting `band`, ascending.
    ///
    /// - Complexity: O(log n + k) for k items in the band.
    public func rowPaths(in band: Range<Double>) -> [RowPath] {
        let range = tree.items(intersecting: band)
        guard !range.isEmpty else { return [] }
        let heights = tree.heights(in: range)
        var paths: [RowPath] = []
        var s = section(containing: range.lowerBound)
        for (offset, height) in heights.enumerated() {
            let flat = range.lowerBound + offset
            while flat >= sectionStarts[s + 1] { s += 1 }
            let local = flat - sectionStarts[s]
            if local > 0, local <= rowCounts[s], height > 0 {
                paths.append(RowPath(section: s, row: local - 1))
            }
        }
        return paths
    }

    /// The displayed items, in layout order (a pinned header first).
    ///
    /// - Complexity: O(log n + v) for v displayed items (their rectangles come from one read of
    ///   the tree).
    public var visibleItems: [VisibleItem] {
        layoutIfNeeded()
        guard let first = visible.first?.flat, let last = visible.last?.flat else { return [] }
        // The displayed items are contiguous in the tree but for a pinned header before them and
        // the zero-height items between them; one read gives every height and (exact) offset.
        let (offsets, heights) = tree.offsetsAndHeights(in: first..<last + 1)
        return visible.map { entry in
            let rect: TableRect
            var pinned = false
            switch entry.kind {
            case .header:
                (rect, pinned) = pinnedHeaderRect(entry.section)
            case .row, .footer:
                let local = entry.flat - first
                rect = TableRect(
                    x: metrics.horizontalInset, y: offsets[local], width: contentWidth, height: heights[local])
            }
            return VisibleItem(
                kind: VisibleItem.Kind(entry.kind), section: entry.section, row: entry.kind == .row ? entry.row : nil,
                id: entry.id, rect: rect, isPinned: pinned, view: ReusableViewID(entry.handle))
        }
    }

    /// The paths of the displayed rows, ascending.
    public var visibleRowPaths: [RowPath] {
        layoutIfNeeded()
        return visible.filter { $0.kind == .row }.map { RowPath(section: $0.section, row: $0.row) }
    }

    /// The cell showing the row at `path`, when the row is displayed. - Complexity: O(log v).
    public func cell(forRowAt path: RowPath) -> TableCell? {
        layoutIfNeeded()
        guard path.section >= 0, path.section < rowCounts.count, path.row >= 0, path.row < rowCounts[path.section]
        else { return nil }
        let flat = flatIndex(of: path)
        guard let entry = visible.first(where: { $0.flat == flat }) else { return nil }
        return reuse.cell(entry.handle)
    }

    /// The view showing the header of `section`, when displayed.
    public func headerView(inSection section: Int) -> HeaderFooterView? {
        layoutIfNeeded()
        guard let entry = visible.first(where: { $0.kind == .header && $0.section == section }) else { return nil }
        return reuse.headerFooterView(entry.handle)
    }

    /// The view showing the footer of `section`, when displayed.
    public func footerView(inSection section: Int) -> HeaderFooterView? {
        layoutIfNeeded()
        guard let entry = visible.first(where: { $0.kind == .footer && $0.section == section }) else { return nil }
        return reuse.headerFooterView(entry.handle)
    }

    /// The rectangle of tree item `flat` at full content width.
    func itemRect(flat: Int) -> TableRect {
        TableRect(
            x: metrics.horizontalInset, y: tree.offset(of: flat), width: contentWidth, height: tree.height(at: flat))
    }

    /// The header's own rectangle: its item without the section spacing above it.
    func headerRect(_ section: Int) -> TableRect {
        let flat = sectionStarts[section]
        let slot = tree.height(at: flat)
        return TableRect(
            x: metrics.horizontalInset, y: tree.offset(of: flat) + metrics.sectionSpacing, width: contentWidth,
            height: max(slot - metrics.sectionSpacing, 0))
    }

    /// The header's drawn rectangle and whether it is pinned: in plain style the header floats at
    /// `max(own y, min(offset, end of section − header height))`.
    func pinnedHeaderRect(_ section: Int) -> (rect: TableRect, pinned: Bool) {
        var rect = headerRect(section)
        guard metrics.floatsHeaders, rect.height > 0 else { return (rect, false) }
        let sectionEnd = tree.offset(of: sectionStarts[section + 1])
        let y = max(rect.y, min(contentOffset, sectionEnd - rect.height))
        let pinned = y != rect.y
        rect.y = y
        return (rect, pinned)
    }
}

extension VisibleItem.Kind {
    init(_ kind: VisibleEntry.Kind) {
        switch kind {
        case .header: self = .header
        case .row: self = .row
        case .footer: self = .footer
        }
    }
}
