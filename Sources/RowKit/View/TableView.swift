/// A headless table view: lays out a table model for a viewport, keeps the cells of the visible
/// rows (from a reuse pool), and reports what happens as `TableEvent` values.
///
/// The view keeps one height per header, row and footer in a row-offset tree (the C core by
/// default, the pure-Swift baseline with `backend: .swift`), so positions, visible rows and updates
/// cost O(log n) per item, whatever the table's size.
///
/// ```swift
/// let view = TableView(model: try TableModel(settings), viewport: .phone)
/// view.onEvent = { print($0) }
/// view.layoutIfNeeded()             // willDisplay events for the first screen
/// view.scroll(to: 400)              // didEndDisplaying / willDisplay / prefetch
/// try view.tapRow(at: RowPath(section: 0, row: 2))
/// ```
///
/// Nothing is laid out in `init`: the first screen is displayed by `layoutIfNeeded()`, which every
/// operation and query calls first, so `onEvent` can be set before any event exists.
@MainActor
public final class TableView {
    /// The model the view shows; only the view's own operations change it (`performBatch(_:)`,
    /// `update(to:options:)`, `apply(_:)`, `reload(_:)`).
    // Set through `show(_:)`, which keeps the view's copies of the sections in step. A `didSet`
    // would too, but it makes the symbol graph, and so api/RowKit.txt, list a public setter.
    public internal(set) var model: TableModel
    /// The model's table.
    public var table: Table { model.table }
    /// The size of the visible area.
    @exclusivity(unchecked) public internal(set) var viewport: TableViewport
    /// The y coordinate of the content at the top of the viewport; always in
    /// `0...max(0, contentHeight - viewport.height)` after an operation.
    @exclusivity(unchecked) public internal(set) var contentOffset: Double = 0
    /// The metrics of the table's style.
    @exclusivity(unchecked) public internal(set) var metrics: TableMetrics
    /// The implementation of the offset tree and reuse pool.
    public let backend: TableViewBackend
    /// How many rows the user can select. Default: `.single`.
    public var selectionMode: SelectionMode = .single
    /// How far ahead of the viewport, in points in the scroll direction, rows are prefetched;
    /// 0 (the default) turns prefetching off.
    public var prefetchDistance: Double = 0
    /// Called with every event, in order, before the event goes to `events`.
    public var onEvent: (@MainActor (TableEvent) -> Void)? {
        didSet { hasListeners = onEvent != nil || continuation != nil }
    }
    /// Whether the table is in editing mode (cells show their editing controls).
    public internal(set) var isEditing = false

    // The view's own state below (and `viewport`, `contentOffset`, `metrics` above) is read and
    // written on every frame, so it opts out of Swift's dynamic exclusivity checks, which cost
    // about a tenth of a scroll frame. That is sound because no access to these properties spans a
    // call out of the view: cells, rows and event handlers are only called between accesses (an
    // array is copied out before its entries' cells are called), and the view is main-actor
    // isolated, so nothing else touches them. Keep it so when editing: never pass one of them
    // `inout` to, or hold it across, a call that can reach user code.

    @exclusivity(unchecked) var tree: LayoutTree
    let reuse: ReuseStore
    /// The model's sections (kept here so hot paths do not go through `model.table`).
    @exclusivity(unchecked) var sections: [Section] = []
    /// The rows of each section (an array copy is one retain; a `Section` copy is many).
    @exclusivity(unchecked) var sectionRows: [RowList] = []
    /// Whether each section has a header, and a footer.
    @exclusivity(unchecked) var hasHeader: [Bool] = []
    @exclusivity(unchecked) var hasFooter: [Bool] = []
    /// The flat index of each section's header item, and the item count at the end.
    @exclusivity(unchecked) var sectionStarts: [Int] = [0]
    /// Rows per section, as the view lays them out.
    @exclusivity(unchecked) var rowCounts: [Int] = []
    /// Measured heights of automatic rows, headers and footers, by identity and width.
    @exclusivity(unchecked) var measuredHeights = MeasurementCache()
    /// Measurements to redo when the item is next displayed (its content was reloaded).
    @exclusivity(unchecked) var staleMeasurements: Set<HeightKey> = []
    /// The displayed (or being displayed) items, ascending by flat index.
    @exclusivity(unchecked) var visible: [VisibleEntry] = []
    /// The selected rows and their current paths.
    @exclusivity(unchecked) var selected: [ItemID: RowPath] = [:]
    /// The flat indices of prefetched rows, in the order they were prefetched.
    @exclusivity(unchecked) var prefetched: [Int] = []
    /// +1 when the last scroll went down, -1 when it went up.
    @exclusivity(unchecked) var scrollDirection = 1
    /// The row in swipe editing, if any.
    var swipeEditing: RowReference?
    @exclusivity(unchecked) var needsLayout = true
    @exclusivity(unchecked) var outbox: [Delivery] = []
    var continuation: AsyncStream<TableEvent>.Continuation? {
        didSet { hasListeners = onEvent != nil || continuation != nil }
    }
    /// Whether anyone receives events; when nobody does, events are not even built.
    @exclusivity(unchecked) var hasListeners = false
    var stream: AsyncStream<TableEvent>?

    /// A view showing `model` in `viewport`, on the C core (`.c`) or the Swift baseline (`.swift`);
    /// the reuse pool keeps at most `reuseCapacity` idle views per reuse identifier.
    ///
    /// - Complexity: O(n) for n rows (every height is computed once).
    public init(model: TableModel, viewport: TableViewport, backend: TableViewBackend = .c, reuseCapacity: Int = 32) {
        self.model = model
        self.viewport = viewport
        self.backend = backend
        self.metrics = TableMetrics(style: model.style)
        self.reuse = ReuseStore(backend: backend, capacityPerKind: max(reuseCapacity, 1))
        self.tree = LayoutTree(backend: backend, heights: [])
        syncModel()
        rebuildLayout()
    }

    isolated deinit {
        continuation?.finish()
    }

    /// Every event, in order, as an asynchronous sequence (after `onEvent` has seen it).
    ///
    /// The stream is created on first access and buffers without limit until read; read it from one
    /// task. Events before the first access are not in it.
    public var events: AsyncStream<TableEvent> {
        if let stream { return stream }
        let (stream, continuation) = AsyncStream.makeStream(of: TableEvent.self)
        self.stream = stream
        self.continuation = continuation
        return stream
    }

    /// The reuse pool's counters.
    public var reusePoolStatistics: ReusePoolStatistics { reuse.statistics }

    /// The number of sections the view lays out.
    public var numberOfSections: Int { rowCounts.count }

    /// The number of rows in `section`. - Complexity: O(1).
    public func numberOfRows(inSection section: Int) throws(TableViewError) -> Int {
        try checkSection(section)
        return rowCounts[section]
    }

    /// Rows per section, as the view lays them out (always equal to the model's).
    public var rowCountsBySection: [Int] { rowCounts }

    /// Displays the rows for the current offset if anything changed since the last layout:
    /// binds cells, measures automatic heights, emits display events and prefetches ahead (in the
    /// direction of the last scroll; downwards before the first).
    ///
    /// - Complexity: O(log n + v) for v items displayed or prefetched.
    public func layoutIfNeeded() {
        guard needsLayout else { return }
        needsLayout = false
        layoutVisible()
        updatePrefetch()
        deliver()
    }

    /// Changes the viewport. A new width recomputes every height (O(n)); a new height only the
    /// visible rows.
    public func setViewport(_ newViewport: TableViewport) {
        layoutIfNeeded()
        let widthChanged = newViewport.width != viewport.width
        viewport = newViewport
        if widthChanged {
            releaseAll()
            rebuildLayout()
            contentOffset = clampedOffset(contentOffset)
            needsLayout = false
            layoutVisible()
        } else {
            contentOffset = clampedOffset(contentOffset)
            layoutVisible()
        }
        updatePrefetch()
        deliver()
    }

    /// Turns editing mode on or off; visible cells follow at once.
    public func setEditing(_ editing: Bool) {
        layoutIfNeeded()
        isEditing = editing
        for entry in visible where entry.kind == .row {
            reuse.cell(entry.handle)?.isEditing = editing || swipeEditing?.id == entry.id
        }
    }

    // MARK: Building

    /// Makes `newModel` the model the view shows and takes its sections.
    func show(_ newModel: TableModel) {
        model = newModel
        syncModel()
    }

    /// Copies what hot paths read from the model. - Complexity: O(s) for s sections.
    func syncModel() {
        sections = model.table.sections
        sectionRows = sections.map(\.rows)
        hasHeader = sections.map { $0.header != nil }
        hasFooter = sections.map { $0.footer != nil }
    }

    /// Hands a model the view no longer needs to a background task to be freed, so dropping the
    /// last reference to a large snapshot never costs the main actor O(n).
    static func retire(_ model: consuming TableModel) {
        let retired = model
        Task.detached(priority: .background) { withExtendedLifetime(retired) {} }
    }

    /// Recomputes section starts and every height, and rebuilds the tree. - Complexity: O(n).
    func rebuildLayout() {
        metrics = TableMetrics(style: table.style)
        rowCounts = sections.map(\.rows.count)
        sectionStarts = Self.starts(for: rowCounts)
        var heights: [Double] = []
        heights.reserveCapacity(sectionStarts[rowCounts.count])
        for section in sections {
            appendHeights(of: section, to: &heights)
        }
        tree.replaceAll(with: heights)
        needsLayout = true
    }

    /// The header, row and footer heights of `section`, in tree order.
    func appendHeights(of section: Section, to heights: inout [Double]) {
        heights.append(headerSlotHeight(section))
        for row in section.rows { heights.append(rowHeight(row)) }
        heights.append(footerHeight(section))
    }

    /// The flat index of each section's header, plus the total item count.
    static func starts(for rowCounts: [Int]) -> [Int] {
        var starts = [0]
        starts.reserveCapacity(rowCounts.count + 1)
        var next = 0
        for count in rowCounts {
            next += count + 2
            starts.append(next)
        }
        return starts
    }

    // MARK: Heights

    /// The width rows, headers and footers are laid out and measured at.
    public var contentWidth: Double { max(viewport.width - 2 * metrics.horizontalInset, 0) }

    /// The height of `row` for the current width: fixed, computed, measured, or its estimate.
    func rowHeight(_ row: AnyRow) -> Double {
        height(of: row.height, key: HeightKey(id: row.id, kind: .row, width: contentWidth))
    }

    /// The height of the item whose policy is `policy` and whose measurement is cached as `key`.
    func height(of policy: HeightPolicy, key: HeightKey) -> Double {
        if case .automatic = policy, let measured = measuredHeights[key] { return measured }
        return policy.initialHeight(width: key.width)
    }

    /// The tree height of a section's header item: the section spacing plus the header's height.
    func headerSlotHeight(_ section: Section) -> Double {
        metrics.sectionSpacing + (section.header.map { height(of: $0.height, key: headerKey(section)) } ?? 0)
    }

    /// The tree height of a section's footer item.
    func footerHeight(_ section: Section) -> Double {
        section.footer.map { height(of: $0.height, key: footerKey(section)) } ?? 0
    }

    func headerKey(_ section: Section) -> HeightKey { HeightKey(id: section.id, kind: .header, width: contentWidth) }
    func footerKey(_ section: Section) -> HeightKey { HeightKey(id: section.id, kind: .footer, width: contentWidth) }

    // MARK: Flat indices

    /// The section whose items include flat index `flat`. - Complexity: O(log s) for s sections.
    func section(containing flat: Int) -> Int {
        var low = 0
        var high = rowCounts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sectionStarts[mid] <= flat { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The flat index of the row at `path` (unchecked).
    func flatIndex(of path: RowPath) -> Int { sectionStarts[path.section] + 1 + path.row }

    func checkSection(_ section: Int) throws(TableViewError) {
        guard section >= 0, section < rowCounts.count else {
            throw .sectionOutOfRange(section: section, sectionCount: rowCounts.count)
        }
    }

    func checkPath(_ path: RowPath) throws(TableViewError) {
        try checkSection(path.section)
        guard path.row >= 0, path.row < rowCounts[path.section] else {
            throw .rowOutOfRange(path: path, rowCount: rowCounts[path.section])
        }
    }

    /// The model's row at `path` (unchecked).
    func row(at path: RowPath) -> AnyRow { sectionRows[path.section][path.row] }

    /// The identity and path of the row at `path` (unchecked).
    func reference(_ path: RowPath) -> RowReference { RowReference(id: row(at: path).id, path: path) }

    // MARK: Delivery

    /// An event or a row action waiting to be delivered.
    enum Delivery {
        case event(TableEvent)
        case action(@MainActor () -> Void)
    }

    func post(_ event: @autoclosure () -> TableEvent) {
        if hasListeners { outbox.append(.event(event())) }
    }

    func postAction(_ action: @escaping @MainActor () -> Void) { outbox.append(.action(action)) }

    /// Delivers the outbox in order: each event to `onEvent`, then to `events`; actions are called.
    func deliver() {
        while !outbox.isEmpty {
            let items = outbox
            outbox.removeAll(keepingCapacity: true)
            for item in items {
                switch item {
                case .event(let event):
                    onEvent?(event)
                    continuation?.yield(event)
                case .action(let action):
                    action()
                }
            }
        }
    }
}

/// The cache key of a measured height: the item's identity, which kind of item, and the width.
struct HeightKey: Hashable {
    enum Kind: UInt8 { case row, header, footer }
    let id: ItemID
    let kind: Kind
    let width: Double

}

/// One displayed item: a row's cell or a section's header or footer view.
struct VisibleEntry {
    enum Kind: UInt8 { case header, row, footer }
    /// The item's index in the offset tree.
    var flat: Int
    var kind: Kind
    var section: Int
    /// The row within the section (rows only; -1 otherwise).
    var row: Int
    /// The row's identity, or the section's for headers and footers.
    var id: ItemID
    /// The handle (`ReusableViewID` value) of the view bound to it.
    var handle: Int
    /// Whether `willDisplay…` has been posted for it.
    var announced: Bool
}
