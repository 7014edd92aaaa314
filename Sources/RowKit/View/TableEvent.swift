/// The identity and current position of a row, as events report it.
public struct RowReference: Sendable, Hashable, CustomStringConvertible {
    /// The row's identity.
    public var id: ItemID
    /// The row's path when the event happened (the old path for a row an update deleted).
    public var path: RowPath

    /// Creates a reference.
    public init(id: ItemID, path: RowPath) {
        self.id = id
        self.path = path
    }

    /// `a3@[0, 3]`.
    public var description: String { "\(id)@\(path)" }
}

/// The identity and position of a section header or footer, as events report it.
public struct SectionReference: Sendable, Hashable, CustomStringConvertible {
    /// The section's identity.
    public var id: ItemID
    /// The section's index when the event happened.
    public var section: Int

    /// Creates a reference.
    public init(id: ItemID, section: Int) {
        self.id = id
        self.section = section
    }

    /// `Fruit@0`.
    public var description: String { "\(id)@\(section)" }
}

/// The instance number of a cell or header/footer view a `TableView` created; unique per view and
/// never reused, so event logs can follow one instance through the reuse pool.
public struct ReusableViewID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number, from 1 in creation order.
    public var value: Int

    /// Creates an identifier.
    public init(_ value: Int) { self.value = value }

    public static func < (lhs: ReusableViewID, rhs: ReusableViewID) -> Bool { lhs.value < rhs.value }

    /// `#3`.
    public var description: String { "#\(value)" }
}

/// Something that happened in a `TableView`, as a value.
///
/// Delivered in a documented, deterministic order (see `docs/headless-view.md`):
///
/// - Each operation (scroll, tap, update, …) collects its events and delivers them when the view is
///   consistent again, first to `TableView.onEvent`, then to `TableView.events`, then calls the
///   row's action (`onSelect`, `onAccessoryTap`, `onCommitEdit`, `onToggle`) of an event that has one.
/// - Layout (scrolling, resizing, updates): `didEndDisplaying…` of items that left, then
///   `willDisplay…` of items that came, each group in ascending layout order (header, rows,
///   footer, next section), each item once however many measurement passes the layout took;
///   then `cancelPrefetch`, then `prefetch`.
/// - Tap: `highlight`, `unhighlight`, then `deselect` of the row losing the selection, then
///   `select` (multiple selection: `deselect` alone when the row was selected).
/// - Switch (`TableView.toggleSwitch(at:)`): `switchToggled`, then the events of the row's reload
///   (`didEndDisplayingCell`, `willDisplayCell` when it is on screen), then `onToggle`.
public enum TableEvent: Sendable, Hashable, CustomStringConvertible {
    /// A cell is about to show a row.
    case willDisplayCell(RowReference, cell: ReusableViewID)
    /// A cell stopped showing a row and went back to the reuse pool.
    case didEndDisplayingCell(RowReference, cell: ReusableViewID)
    /// A header view is about to show a section's header.
    case willDisplayHeader(SectionReference, view: ReusableViewID)
    /// A header view stopped showing a section's header.
    case didEndDisplayingHeader(SectionReference, view: ReusableViewID)
    /// A footer view is about to show a section's footer.
    case willDisplayFooter(SectionReference, view: ReusableViewID)
    /// A footer view stopped showing a section's footer.
    case didEndDisplayingFooter(SectionReference, view: ReusableViewID)
    /// Rows came within the prefetch distance ahead of the viewport, nearest first.
    case prefetch([RowReference])
    /// Prefetched rows left the prefetch distance without being displayed, in layout order.
    case cancelPrefetch([RowReference])
    /// A touch went down on a row.
    case highlight(RowReference)
    /// The touch on a row ended.
    case unhighlight(RowReference)
    /// A row was selected by the user.
    case select(RowReference)
    /// A row was deselected by the user (or by selecting another row in single selection).
    case deselect(RowReference)
    /// The row's accessory button was tapped.
    case accessoryTapped(RowReference)
    /// A row began swipe editing.
    case willBeginEditing(RowReference)
    /// A row ended swipe editing.
    case didEndEditing(RowReference)
    /// The user committed a delete or an insert of a row (the owner changes the model).
    case commitEdit(RowReference, style: RowEditing.Style)
    /// The user moved a row (the owner changes the model).
    case move(id: ItemID, from: RowPath, to: RowPath)
    /// The user flipped the switch of a `SwitchRow` (`TableView.toggleSwitch(at:)`); `isOn` is its
    /// new state, which the view's model already has.
    case switchToggled(RowReference, isOn: Bool)

    /// One line for logs and golden files: `willDisplay cell #3 a3@[0, 3]`.
    public var description: String {
        switch self {
        case .willDisplayCell(let row, let cell): return "willDisplay cell \(cell) \(row)"
        case .didEndDisplayingCell(let row, let cell): return "didEndDisplaying cell \(cell) \(row)"
        case .willDisplayHeader(let section, let view): return "willDisplay header \(view) \(section)"
        case .didEndDisplayingHeader(let section, let view): return "didEndDisplaying header \(view) \(section)"
        case .willDisplayFooter(let section, let view): return "willDisplay footer \(view) \(section)"
        case .didEndDisplayingFooter(let section, let view): return "didEndDisplaying footer \(view) \(section)"
        case .prefetch(let rows): return "prefetch " + rows.map(\.description).joined(separator: " ")
        case .cancelPrefetch(let rows): return "cancelPrefetch " + rows.map(\.description).joined(separator: " ")
        case .highlight(let row): return "highlight \(row)"
        case .unhighlight(let row): return "unhighlight \(row)"
        case .select(let row): return "select \(row)"
        case .deselect(let row): return "deselect \(row)"
        case .accessoryTapped(let row): return "accessoryTapped \(row)"
        case .willBeginEditing(let row): return "willBeginEditing \(row)"
        case .didEndEditing(let row): return "didEndEditing \(row)"
        case .commitEdit(let row, let style): return "commitEdit \(style.rawValue) \(row)"
        case .move(let id, let from, let to): return "move \(id) \(from) -> \(to)"
        case .switchToggled(let row, let isOn): return "switchToggled \(row) \(isOn ? "on" : "off")"
        }
    }
}
