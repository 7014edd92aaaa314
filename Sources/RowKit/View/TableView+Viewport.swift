extension TableView {
    /// What binding reads from the view, read once per layout pass.
    struct BindContext {
        var width: Double
        var hasSelection: Bool
        var isEditing: Bool
        var swipedRowID: ItemID?
    }

    /// An item the current offset shows, with where it was when the pass began.
    struct Candidate {
        var flat: Int
        var kind: VisibleEntry.Kind
        var section: Int
        var row: Int
        /// The item's offset in the tree (for a header, of its slot: the section spacing first).
        var y: Double
        /// The item's tree height.
        var height: Double
    }

    /// What one layout pass shows: the candidates, and the tree heights of the band of items the
    /// viewport intersects (read in one call), which the pass updates and writes back in one call.
    struct LayoutPass {
        var candidates: [Candidate] = []
        /// The first item of the band.
        var first = 0
        /// The band's heights, in tree order.
        var heights: [Double] = []
    }

    /// The largest valid content offset for the current content and viewport.
    public var maximumContentOffset: Double { max(0, tree.totalHeight - viewport.height) }

    /// `offset` clamped to `0...maximumContentOffset` (NaN becomes 0).
    func clampedOffset(_ offset: Double) -> Double {
        guard offset.isFinite else { return offset == .infinity ? maximumContentOffset : 0 }
        return min(max(offset, 0), maximumContentOffset)
    }

    /// Scrolls so that `offset` (clamped) is at the top of the viewport, then displays the rows
    /// there and prefetches ahead.
    ///
    /// - Complexity: O(log n + v) for v items displayed or prefetched.
    public func scroll(to offset: Double) {
        layoutIfNeeded()
        let target = clampedOffset(offset)
        if target != contentOffset { scrollDirection = target > contentOffset ? 1 : -1 }
        contentOffset = target
        layoutVisible()
        updatePrefetch()
        deliver()
    }

    /// Scrolls by `delta` points (positive scrolls down). - Complexity: as `scroll(to:)`.
    public func scroll(by delta: Double) {
        layoutIfNeeded()
        scroll(to: contentOffset + delta)
    }

    /// Brings the displayed items in line with the current offset, in two phases.
    ///
    /// 1. Settle: binds a cell to every item that came into the viewport and has an automatic
    ///    height not measured yet, measures it, writes the new heights to the tree (moving the
    ///    offset by the change of items above the viewport's top), and repeats until measurements
    ///    stop moving items. With `retarget`, a scroll to a target that measurements can move (a
    ///    row, a section), the offset then goes to `retarget()` (clamped) and settles again, up
    ///    to `maxRetargets` times, until the target holds. Displayed items stay displayed
    ///    meanwhile, so an item that a first estimate pushed out and the measurement brought back
    ///    never leaves, and items passed on the way to a target are never displayed.
    /// 2. Display: releases the cells of displayed items the settled layout does not show (posting
    ///    `didEndDisplaying…` in layout order) and of items measured on the way that it does not
    ///    show (silently: they were never displayed), then binds cells to the other items that
    ///    came (reusing the released cells, LIFO), and posts `willDisplay…` for every item that
    ///    came, in layout order.
    ///
    /// So the events are exactly the difference between the items displayed before and after,
    /// each once, however many passes the measurements take.
    ///
    /// Each pass reads the band's heights in one tree call and writes the measured ones back in
    /// one, so a pass costs O(log n + v) tree work. Deciding which measurements move the offset by
    /// the positions at the start of the pass is exact: a change above the top moves both the
    /// items below it and the offset, and an item at or below the top has only such items after it.
    func layoutVisible(retarget: (() -> Double)? = nil, maxRetargets: Int = 0) {
        needsLayout = false
        var retargets = 0
        contentOffset = clampedOffset(contentOffset)
        let context = BindContext(
            width: contentWidth, hasSelection: !selected.isEmpty, isEditing: isEditing, swipedRowID: swipeEditing?.id)
        let displayed = visible
        // Items bound and measured while settling, ascending by flat index.
        var measuredItems: [VisibleEntry] = []
        var candidates: [Candidate]
        while true {
            var pass = layoutPass()
            candidates = pass.candidates
            let top = contentOffset
            var shift = 0.0
            var changed = false
            var measuredNow: [VisibleEntry] = []
            var i = 0
            var k = 0
            for candidate in candidates {
                while i < displayed.count && displayed[i].flat < candidate.flat { i += 1 }
                if i < displayed.count && displayed[i].flat == candidate.flat { continue }
                while k < measuredItems.count && measuredItems[k].flat < candidate.flat { k += 1 }
                if k < measuredItems.count && measuredItems[k].flat == candidate.flat { continue }
                guard needsMeasurement(candidate, width: context.width) else { continue }
                let (entry, measured) = bind(candidate, context)
                measuredNow.append(entry)
                if let measured, measured != candidate.height {
                    changed = true
                    if candidate.y < top { shift += measured - candidate.height }
                    let local = candidate.flat - pass.first
                    if local >= 0 && local < pass.heights.count {
                        pass.heights[local] = measured
                    } else {
                        tree.setHeight(measured, at: candidate.flat)  // a pinned header above the band
                    }
                }
            }
            if !measuredNow.isEmpty { measuredItems = Self.merged(measuredItems, measuredNow) }
            if changed {
                tree.setHeights(pass.heights, startingAt: pass.first)
                contentOffset = clampedOffset(top + shift)
                continue
            }
            guard let retarget, retargets < maxRetargets else { break }
            let target = clampedOffset(retarget())
            guard target != contentOffset else { break }
            contentOffset = target
            retargets += 1
        }

        // Releases first, so that the items that came reuse the cells of the items that left.
        var shown = [Bool](repeating: false, count: displayed.count)
        var stays = [Bool](repeating: false, count: measuredItems.count)
        var i = 0
        var k = 0
        for candidate in candidates {
            while i < displayed.count && displayed[i].flat < candidate.flat { i += 1 }
            if i < displayed.count && displayed[i].flat == candidate.flat { shown[i] = true }
            while k < measuredItems.count && measuredItems[k].flat < candidate.flat { k += 1 }
            if k < measuredItems.count && measuredItems[k].flat == candidate.flat { stays[k] = true }
        }
        for index in displayed.indices where !shown[index] { release(displayed[index]) }
        for index in measuredItems.indices where !stays[index] { reuse.recycle(measuredItems[index].handle) }

        var next: [VisibleEntry] = []
        next.reserveCapacity(candidates.count)
        i = 0
        k = 0
        for candidate in candidates {
            while i < displayed.count && displayed[i].flat < candidate.flat { i += 1 }
            if i < displayed.count && displayed[i].flat == candidate.flat {
                next.append(displayed[i])
                continue
            }
            while k < measuredItems.count && measuredItems[k].flat < candidate.flat { k += 1 }
            if k < measuredItems.count && measuredItems[k].flat == candidate.flat {
                next.append(measuredItems[k])
                continue
            }
            next.append(bind(candidate, context).entry)
        }
        visible = next
        for index in visible.indices where !visible[index].announced {
            visible[index].announced = true
            post(displayEvent(visible[index], ending: false))
        }
    }

    /// Whether binding `candidate` would measure it: its height is automatic and not measured at
    /// `width` yet, or its content was reloaded since.
    func needsMeasurement(_ candidate: Candidate, width: Double) -> Bool {
        let key: HeightKey
        switch candidate.kind {
        case .row:
            let row = sectionRows[candidate.section][candidate.row]
            guard case .automatic = row.height else { return false }
            key = HeightKey(id: row.id, kind: .row, width: width)
        case .header, .footer:
            let section = sections[candidate.section]
            let isHeader = candidate.kind == .header
            guard let item = isHeader ? section.header : section.footer, case .automatic = item.height else {
                return false
            }
            key = isHeader ? headerKey(section) : footerKey(section)
        }
        return measuredHeights[key] == nil || (!staleMeasurements.isEmpty && staleMeasurements.contains(key))
    }

    /// Two lists of entries ascending by flat index (no index in both), merged into one.
    static func merged(_ a: [VisibleEntry], _ b: [VisibleEntry]) -> [VisibleEntry] {
        if a.isEmpty { return b }
        var result: [VisibleEntry] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if j == b.count || (i < a.count && a[i].flat < b[j].flat) {
                result.append(a[i])
                i += 1
            } else {
                result.append(b[j])
                j += 1
            }
        }
        return result
    }

    /// The items that intersect the viewport, ascending by flat index, plus the floating header of
    /// the section at the top in plain style; and the band's heights.
    ///
    /// - Complexity: O(log n + v) for v items in the band.
    func layoutPass() -> LayoutPass {
        // Hot path: read the view's properties once (each access is checked for exclusivity).
        let tree = self.tree
        let height = viewport.height
        guard height > 0, tree.count > 0 else { return LayoutPass() }
        let top = contentOffset
        let band = top..<(top + height)
        let range = tree.items(intersecting: band)
        guard !range.isEmpty else { return LayoutPass() }
        let starts = sectionStarts
        let counts = rowCounts
        let headers = hasHeader
        let footers = hasFooter
        let spacing = metrics.sectionSpacing
        var pass = LayoutPass()
        let offsets: [Double]
        (offsets, pass.heights) = tree.offsetsAndHeights(in: range)
        pass.first = range.lowerBound
        pass.candidates.reserveCapacity(range.count + 1)
        var s = section(containing: range.lowerBound)
        if metrics.floatsHeaders, range.lowerBound != starts[s], headers[s] {
            let (headerY, slot) = tree.offsetsAndHeights(in: starts[s]..<starts[s] + 1)
            if slot[0] > 0 {
                pass.candidates.append(
                    Candidate(flat: starts[s], kind: .header, section: s, row: -1, y: headerY[0], height: slot[0]))
            }
        }
        for (index, height) in pass.heights.enumerated() {
            let flat = range.lowerBound + index
            let y = offsets[index]
            while flat >= starts[s + 1] { s += 1 }
            let local = flat - starts[s]
            if local == 0 {
                guard headers[s] else { continue }
                let headerHeight = height - spacing
                guard headerHeight > 0 else { continue }
                if spacing > 0 {
                    let headerY = y + spacing
                    guard headerY < band.upperBound, headerY + headerHeight > band.lowerBound else { continue }
                }
                pass.candidates.append(Candidate(flat: flat, kind: .header, section: s, row: -1, y: y, height: height))
            } else if local == counts[s] + 1 {
                guard height > 0, footers[s] else { continue }
                pass.candidates.append(Candidate(flat: flat, kind: .footer, section: s, row: -1, y: y, height: height))
            } else {
                guard height > 0 else { continue }
                pass.candidates.append(
                    Candidate(flat: flat, kind: .row, section: s, row: local - 1, y: y, height: height))
            }
        }
        return pass
    }

    /// Binds a view to `candidate` and configures it; measures it if its height is automatic and
    /// not measured yet. Returns the entry and, when it was measured, its new tree height.
    func bind(_ candidate: Candidate, _ context: BindContext) -> (entry: VisibleEntry, measured: Double?) {
        switch candidate.kind {
        case .row:
            let row = sectionRows[candidate.section][candidate.row]
            let (handle, cell) = reuse.takeCell(for: row)
            precondition(cell.boundRowID == nil, "cell \(handle) is already bound to another row")
            cell.boundRowID = row.id
            let configured = row.configure(cell)
            precondition(configured, "cell \(handle) cannot show row \(row.id)")
            cell.isSelected = context.hasSelection && selected[row.id] != nil
            cell.isEditing = context.isEditing || (context.swipedRowID != nil && context.swipedRowID == row.id)
            var measured: Double?
            if case .automatic = row.height {
                measured = measureIfNeeded(HeightKey(id: row.id, kind: .row, width: context.width), cell.measureHeight)
            }
            let entry = VisibleEntry(
                flat: candidate.flat, kind: .row, section: candidate.section, row: candidate.row,
                id: row.id, handle: handle, announced: false)
            return (entry, measured)
        case .header, .footer:
            let section = sections[candidate.section]
            let isHeader = candidate.kind == .header
            guard let item = isHeader ? section.header : section.footer else {
                preconditionFailure("section \(candidate.section) has no \(isHeader ? "header" : "footer")")
            }
            let (handle, view) = reuse.takeView(for: item)
            let configured = item.configure(view)
            precondition(configured, "view \(handle) cannot show section \(section.id)")
            var slot: Double?
            if case .automatic = item.height,
                let measured = measureIfNeeded(isHeader ? headerKey(section) : footerKey(section), view.measureHeight)
            {
                slot = isHeader ? metrics.sectionSpacing + measured : measured
            }
            let entry = VisibleEntry(
                flat: candidate.flat, kind: candidate.kind, section: candidate.section, row: -1,
                id: section.id, handle: handle, announced: false)
            return (entry, slot)
        }
    }

    /// Measures with `measure` unless `key` has a current measurement; returns the new
    /// measurement (cached), or `nil` when the cached one stands.
    func measureIfNeeded(_ key: HeightKey, _ measure: (Double) -> Double) -> Double? {
        let stale = !staleMeasurements.isEmpty && staleMeasurements.remove(key) != nil
        if !stale, measuredHeights[key] != nil { return nil }
        let height = Self.sanitized(measure(key.width))
        measuredHeights.set(height, for: key)
        return height
    }

    /// Posts `didEndDisplaying…` (when `willDisplay…` was posted) and recycles the entry's view.
    func release(_ entry: VisibleEntry) {
        if entry.announced { post(displayEvent(entry, ending: true)) }
        reuse.recycle(entry.handle)
    }

    /// Releases every displayed item, in layout order.
    func releaseAll() {
        for entry in visible { release(entry) }
        visible.removeAll()
    }

    /// The display event of `entry` at its current position.
    func displayEvent(_ entry: VisibleEntry, ending: Bool) -> TableEvent {
        let view = ReusableViewID(entry.handle)
        switch entry.kind {
        case .row:
            let row = RowReference(id: entry.id, path: RowPath(section: entry.section, row: entry.row))
            return ending ? .didEndDisplayingCell(row, cell: view) : .willDisplayCell(row, cell: view)
        case .header:
            let section = SectionReference(id: entry.id, section: entry.section)
            return ending ? .didEndDisplayingHeader(section, view: view) : .willDisplayHeader(section, view: view)
        case .footer:
            let section = SectionReference(id: entry.id, section: entry.section)
            return ending ? .didEndDisplayingFooter(section, view: view) : .willDisplayFooter(section, view: view)
        }
    }

    /// Recomputes the prefetched rows: the rows within `prefetchDistance` beyond the viewport in
    /// the scroll direction that are not displayed. Posts `cancelPrefetch` for rows that left that
    /// band undisplayed, then `prefetch` for new rows, nearest first.
    ///
    /// - Complexity: O(log n + p log v) for p prefetched rows and v displayed items.
    func updatePrefetch() {
        guard prefetchDistance > 0, viewport.height > 0 else {
            cancelAllPrefetches()
            return
        }
        let top = contentOffset
        let bottom = top + viewport.height
        let band = scrollDirection > 0 ? bottom..<(bottom + prefetchDistance) : max(top - prefetchDistance, 0)..<top
        var wanted: [Int] = []
        let range = band.isEmpty ? 0..<0 : tree.items(intersecting: band)
        if !range.isEmpty {
            let heights = tree.heights(in: range)
            var s = section(containing: range.lowerBound)
            for (offset, height) in heights.enumerated() {
                let flat = range.lowerBound + offset
                while flat >= sectionStarts[s + 1] { s += 1 }
                let local = flat - sectionStarts[s]
                guard local > 0, local <= rowCounts[s], height > 0, !isVisible(flat) else { continue }
                wanted.append(flat)
            }
        }
        if scrollDirection < 0 { wanted.reverse() }
        let wantedSet = Set(wanted)
        let previous = Set(prefetched)
        let cancelled = prefetched.filter { !wantedSet.contains($0) && !isVisible($0) }.sorted()
        let added = wanted.filter { !previous.contains($0) }
        if !cancelled.isEmpty { post(.cancelPrefetch(cancelled.map(rowReference(flat:)))) }
        if !added.isEmpty { post(.prefetch(added.map(rowReference(flat:)))) }
        prefetched = wanted
    }

    /// Posts `cancelPrefetch` for every outstanding prefetch and forgets them.
    func cancelAllPrefetches() {
        guard !prefetched.isEmpty else { return }
        let cancelled = prefetched.filter { !isVisible($0) }.sorted()
        if !cancelled.isEmpty { post(.cancelPrefetch(cancelled.map(rowReference(flat:)))) }
        prefetched.removeAll()
    }

    /// Whether item `flat` is displayed. - Complexity: O(log v).
    func isVisible(_ flat: Int) -> Bool {
        var low = 0
        var high = visible.count
        while low < high {
            let mid = (low + high) / 2
            if visible[mid].flat < flat { low = mid + 1 } else { high = mid }
        }
        return low < visible.count && visible[low].flat == flat
    }

    /// The reference of the row at flat index `flat` (unchecked).
    func rowReference(flat: Int) -> RowReference {
        let s = section(containing: flat)
        return reference(RowPath(section: s, row: flat - sectionStarts[s] - 1))
    }

    /// `value` if it is a valid height, else 0.
    static func sanitized(_ value: Double) -> Double { value.isFinite && value >= 0 ? value : 0 }
}
