/// A reusable view a `TableView` owns: a cell, or a header/footer view.
@MainActor
enum ReusableView {
    case cell(TableCell)
    case headerFooter(HeaderFooterView)
}

/// The views a `TableView` created, by handle, and the reuse pool the idle ones wait in.
///
/// Handles are the views' `ReusableViewID` values: numbered from 1 in creation order and never
/// reused. The pool (`CReusePool` or `SwiftReusePool`) stores handles LIFO per kind; a kind is an
/// interned reuse identifier (cells and header/footer views are interned under distinct
/// prefixes). When the pool evicts a handle, its view is dropped here. (`CellPool` maps handles to
/// objects too, but the view needs handles for event identities and its own pooled flags.)
@MainActor
final class ReuseStore {
    /// One created view: the view (`nil` once evicted), its pool kind, and whether it is pooled.
    struct Slot {
        var view: ReusableView?
        var kind: ReuseKind
        var isPooled: Bool
    }

    private let pool: any ReusePool
    /// Views by handle; index 0 is unused.
    // Unchecked for exclusivity like the view's state (see `TableView`): no access spans a call
    // out to a view's own code.
    @exclusivity(unchecked) private(set) var slots: [Slot] = [
        Slot(view: nil, kind: ReuseKind(rawValue: -1), isPooled: false)
    ]
    private var cellKinds: [ReuseIdentifier: ReuseKind] = [:]
    /// The last cell identifier looked up and its kind (most tables have one or two cell classes).
    @exclusivity(unchecked) private var lastCellKind: (identifier: ReuseIdentifier, kind: ReuseKind)?
    private var headerFooterKinds: [ReuseIdentifier: ReuseKind] = [:]

    init(backend: TableViewBackend, capacityPerKind: Int) {
        switch backend {
        case .c: pool = CReusePool(defaultCapacity: capacityPerKind)
        case .swift: pool = SwiftReusePool(defaultCapacity: capacityPerKind)
        }
    }

    /// Pool statistics.
    var statistics: ReusePoolStatistics {
        let counters = pool.counters
        return ReusePoolStatistics(
            hits: Int(counters.hits), misses: Int(counters.misses), evictions: Int(counters.evictions),
            created: slots.count - 1, pooled: slots.lazy.filter(\.isPooled).count)
    }

    /// Whether the view with `handle` waits in the pool.
    func isPooled(_ handle: Int) -> Bool { slots[handle].isPooled }

    /// A cell for `row`: a pooled cell of its class, or a new one.
    func takeCell(for row: AnyRow) -> (handle: Int, cell: TableCell) {
        let kind = cellKind(row.reuseIdentifier)
        if let taken = pool.take(kind: kind) {
            let handle = Int(taken)
            slots[handle].isPooled = false
            if case .cell(let cell)? = slots[handle].view { return (handle, cell) }
        }
        let cell = row.makeCell()
        return (register(.cell(cell), kind: kind), cell)
    }

    /// A view for `headerFooter`: a pooled view of its class, or a new one.
    func takeView(for headerFooter: HeaderFooter) -> (handle: Int, view: HeaderFooterView) {
        let kind = viewKind(headerFooter.reuseIdentifier)
        if let taken = pool.take(kind: kind) {
            let handle = Int(taken)
            slots[handle].isPooled = false
            if case .headerFooter(let view)? = slots[handle].view { return (handle, view) }
        }
        let view = headerFooter.makeView()
        return (register(.headerFooter(view), kind: kind), view)
    }

    /// Prepares the view for reuse and puts it in the pool; a view the pool evicts is dropped.
    func recycle(_ handle: Int) {
        let slot = slots[handle]
        precondition(!slot.isPooled, "view \(handle) recycled twice")
        switch slot.view {
        case .cell(let cell)?:
            cell.prepareForReuse()
            cell.boundRowID = nil
        case .headerFooter(let view)?:
            view.prepareForReuse()
        case nil:
            preconditionFailure("view \(handle) no longer exists")
        }
        slots[handle].isPooled = true
        if let evicted = pool.put(UInt(handle), kind: slot.kind).map({ Int($0) }) {
            slots[evicted].view = nil
            slots[evicted].isPooled = false
        }
    }

    /// The cell with `handle`, if it is a live cell.
    func cell(_ handle: Int) -> TableCell? {
        if case .cell(let cell)? = slots[handle].view { return cell }
        return nil
    }

    /// The header/footer view with `handle`, if it is live.
    func headerFooterView(_ handle: Int) -> HeaderFooterView? {
        if case .headerFooter(let view)? = slots[handle].view { return view }
        return nil
    }

    private func register(_ view: ReusableView, kind: ReuseKind) -> Int {
        slots.append(Slot(view: view, kind: kind, isPooled: false))
        return slots.count - 1
    }

    private func cellKind(_ identifier: ReuseIdentifier) -> ReuseKind {
        if let last = lastCellKind, last.identifier == identifier { return last.kind }
        if let kind = cellKinds[identifier] {
            lastCellKind = (identifier, kind)
            return kind
        }
        let kind = pool.intern("cell:" + identifier.name)
        cellKinds[identifier] = kind
        lastCellKind = (identifier, kind)
        return kind
    }

    private func viewKind(_ identifier: ReuseIdentifier) -> ReuseKind {
        if let kind = headerFooterKinds[identifier] { return kind }
        let kind = pool.intern("headerFooter:" + identifier.name)
        headerFooterKinds[identifier] = kind
        return kind
    }
}

/// Counters of a `TableView`'s reuse pool.
public struct ReusePoolStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Takes the pool answered with an idle view.
    public var hits: Int
    /// Takes the pool could not answer (a new view was created).
    public var misses: Int
    /// Views the pool dropped because their kind was at capacity.
    public var evictions: Int
    /// Views the table view created in all.
    public var created: Int
    /// Views waiting in the pool now.
    public var pooled: Int

    /// Creates statistics.
    public init(hits: Int, misses: Int, evictions: Int, created: Int, pooled: Int) {
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
        self.created = created
        self.pooled = pooled
    }

    /// `hits=3 misses=12 evictions=0 created=12 pooled=2`.
    public var description: String {
        "hits=\(hits) misses=\(misses) evictions=\(evictions) created=\(created) pooled=\(pooled)"
    }
}
