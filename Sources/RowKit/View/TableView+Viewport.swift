extension TableView {
    /// What binding reads from the view, read once per layout pass.
    struct BindContext {
        var width: Double
        var hasSelection: Bool
        var isEditing: Bool
        var swipedRowID: ItemID?
    }

    /// An item the current offset shows.
    struct Candidate {
        var flat: Int
        var kind: VisibleEntry.Kind
        var section: Int
        var row: Int
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
    /// - Complexity: O(log n + v log n) for v items displayed or prefetched.
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

    /// Brings the displayed items in line with the current offset: releases the cells of items
    /// that left, binds cells to items that came, measures automatic heights (moving the offset by
    /// the change of items above the viewport's top), and repeats until nothing changes; then posts
    /// `willDisplay…` for the new items in layout order.
    func layoutVisible() {
        needsLayout = false
        contentOffset = clampedOffset(contentOffset)
        while true {
            let candidates = visibleCandidates()
            let context = BindContext(
                width: contentWidth, hasSelection: !selected.isEmpty, isEditing: isEditing, swipedRowID: swipeEditing?.id)
            let old = visible
            var changed = false
            var next: [VisibleEntry] = []
            next.reserveCapacity(candidates.count)
            var i = 0
            var j = 0
            while i < old.count || j < candidates.count {
                if j == candidates.count || (i < old.count && old[i].flat < candidates[j].flat) {
                    release(old[i])
                    i += 1
                } else if i == old.count || candidates[j].flat < old[i].flat {
                    next.append(bind(candidates[j], context, changed: &changed))
                    j += 1
                } else {
                    next.append(old[i])
                    i += 1
                    j += 1
                }
            }
            visible = next
            guard changed else { break }
            contentOffset = clampedOffset(contentOffset)
        }
        for index in visible.indices where !visible[index].announced {
            visible[index].announced = true
            post(displayEvent(visible[index], ending: false))
        }
    }

    /// The items that intersect the viewport, ascending by flat index, plus the floating header of
    /// the section at the top in plain style.
    ///
    /// - Complexity: O(log n + v log n).
    func visibleCandidates() -> [Candidate] {
        // Hot path: read the view's properties once (each access is checked for exclusivity).
        let tree = self.tree
        let height = viewport.height
        guard height > 0, tree.count > 0 else { return [] }
        let top = contentOffset
        let band = top..<(top + height)
        let range = tree.items(intersecting: band)
        let starts = sectionStarts
        let counts = rowCounts
        let headers = hasHeader
        let footers = hasFooter
        let spacing = metrics.sectionSpacing
        var result: [Candidate] = []
        result.reserveCapacity(range.count + 1)
        if metrics.floatsHeaders, let first = tree.item(at: top) {
            let s = section(containing: first)
            if first != starts[s], headers[s], tree.height(at: starts[s]) > 0 {
                result.append(Candidate(flat: starts[s], kind: .header, section: s, row: -1))
            }
        }
        guard !range.isEmpty else { return result }
        var s = section(containing: range.lowerBound)
        for flat in range {
            while flat >= starts[s + 1] { s += 1 }
            let local = flat - starts[s]
            let height = tree.height(at: flat)
            if local == 0 {
                guard headers[s] else { continue }
                let headerHeight = height - spacing
                guard headerHeight > 0 else { continue }
                if spacing > 0 {
                    let y = tree.offset(of: flat) + spacing
                    guard y < band.upperBound, y + headerHeight > band.lowerBound else { continue }
                }
                if result.last?.flat != flat {
                    result.append(Candidate(flat: flat, kind: .header, section: s, row: -1))
                }
            } else if local == counts[s] + 1 {
                guard height > 0, footers[s] else { continue }
                result.append(Candidate(flat: flat, kind: .footer, section: s, row: -1))
            } else {
                guard height > 0 else { continue }
                result.append(Candidate(flat: flat, kind: .row, section: s, row: local - 1))
            }
        }
        return result
    }

    /// Binds a view to `candidate`, configures it and measures it if its height is automatic and
    /// not measured yet; sets `changed` when the measurement changed the layout.
    func bind(_ candidate: Candidate, _ context: BindContext, changed: inout Bool) -> VisibleEntry {
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
            if case .automatic = row.height,
                let measured = measureIfNeeded(HeightKey(id: row.id, kind: .row, width: context.width), cell.measureHeight)
            {
                if applyHeight(measured, at: candidate.flat) { changed = true }
            }
            return VisibleEntry(
                flat: candidate.flat, kind: .row, section: candidate.section, row: candidate.row,
                id: row.id, handle: handle, announced: false)
        case .header, .footer:
            let section = sections[candidate.section]
            let isHeader = candidate.kind == .header
            guard let item = isHeader ? section.header : section.footer else {
                preconditionFailure("section \(candidate.section) has no \(isHeader ? "header" : "footer")")
            }
            let (handle, view) = reuse.takeView(for: item)
            let configured = item.configure(view)
            precondition(configured, "view \(handle) cannot show section \(section.id)")
            if case .automatic = item.height,
                let measured = measureIfNeeded(isHeader ? headerKey(section) : footerKey(section), view.measureHeight)
            {
                let slot = isHeader ? metrics.sectionSpacing + measured : measured
                if applyHeight(slot, at: candidate.flat) { changed = true }
            }
            return VisibleEntry(
                flat: candidate.flat, kind: candidate.kind, section: candidate.section, row: -1,
                id: section.id, handle: handle, announced: false)
        }
    }

    /// Measures with `measure` unless `key` has a current measurement; returns the new
    /// measurement (cached), or `nil` when the cached one stands.
    func measureIfNeeded(_ key: HeightKey, _ measure: (Double) -> Double) -> Double? {
        var stale = false
        if staleMeasurements.count > 0, staleMeasurements[key] != nil {
            staleMeasurements[key] = nil
            stale = true
        }
        if !stale, measuredHeights[key] != nil { return nil }
        let height = Self.sanitized(measure(key.width))
        measuredHeights[key] = height
        return height
    }

    /// Sets the height of item `flat`; when the item starts above the viewport's top, moves the
    /// offset by the change so the visible content stays put. Returns whether the height changed.
    func applyHeight(_ height: Double, at flat: Int) -> Bool {
        let old = tree.height(at: flat)
        guard old != height else { return false }
        let y = tree.offset(of: flat)
        tree.setHeight(height, at: flat)
        if y < contentOffset { contentOffset += height - old }
        return true
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
    /// - Complexity: O(log n + p log n) for p prefetched rows.
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
            var s = section(containing: range.lowerBound)
            for flat in range {
                while flat >= sectionStarts[s + 1] { s += 1 }
                let local = flat - sectionStarts[s]
                guard local > 0, local <= rowCounts[s], tree.height(at: flat) > 0, !isVisible(flat) else { continue }
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
