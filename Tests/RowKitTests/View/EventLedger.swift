import RowKit
import Testing

/// What a view displays according to its display events alone: `willDisplay…` adds an item with
/// its view, `didEndDisplaying…` removes it. After every operation it must equal what the view
/// says it displays, or an event was missing, repeated or wrong.
@MainActor
final class EventLedger {
    /// An item by identity: a row, or a section's header or footer.
    struct Key: Hashable, CustomStringConvertible {
        var kind: VisibleItem.Kind
        var id: ItemID
        var description: String { "\(kind) \(id)" }
    }

    private(set) var displayed: [Key: ReusableViewID] = [:]
    /// Events that did not fit: an item displayed twice, or ended while not displayed (or with
    /// another view).
    private(set) var problems: [String] = []
    /// Every event since the last `take()`.
    private(set) var events: [TableEvent] = []

    /// Starts from what `view` displays once laid out, and records its events from then on.
    init(_ view: TableView) {
        view.layoutIfNeeded()
        for item in view.visibleItems { displayed[Key(kind: item.kind, id: item.id)] = item.view }
        view.onEvent = { [weak self] in self?.record($0) }
    }

    func record(_ event: TableEvent) {
        events.append(event)
        switch event {
        case .willDisplayCell(let row, let cell): add(Key(kind: .row, id: row.id), cell, event)
        case .willDisplayHeader(let section, let view): add(Key(kind: .header, id: section.id), view, event)
        case .willDisplayFooter(let section, let view): add(Key(kind: .footer, id: section.id), view, event)
        case .didEndDisplayingCell(let row, let cell): remove(Key(kind: .row, id: row.id), cell, event)
        case .didEndDisplayingHeader(let section, let view): remove(Key(kind: .header, id: section.id), view, event)
        case .didEndDisplayingFooter(let section, let view): remove(Key(kind: .footer, id: section.id), view, event)
        default: break
        }
    }

    /// The events since the last call, and forgets them.
    func take() -> [TableEvent] {
        defer { events = [] }
        return events
    }

    /// A description of how the events disagree with what `view` displays, or `nil`.
    func disagreement(with view: TableView) -> String? {
        var shown: [Key: ReusableViewID] = [:]
        for item in view.visibleItems { shown[Key(kind: item.kind, id: item.id)] = item.view }
        defer { problems = [] }
        if problems.isEmpty && shown == displayed { return nil }
        let missing = shown.filter { displayed[$0.key] != $0.value }.map { "\($0.key) \($0.value)" }.sorted()
        let stale = displayed.filter { shown[$0.key] != $0.value }.map { "\($0.key) \($0.value)" }.sorted()
        return "problems \(problems); displayed without willDisplay \(missing); ended without didEnd \(stale)"
    }

    private func add(_ key: Key, _ view: ReusableViewID, _ event: TableEvent) {
        if let existing = displayed.updateValue(view, forKey: key) {
            problems.append("\(event) while already displayed with \(existing)")
        }
    }

    private func remove(_ key: Key, _ view: ReusableViewID, _ event: TableEvent) {
        guard let existing = displayed.removeValue(forKey: key) else {
            problems.append("\(event) while not displayed")
            return
        }
        if existing != view { problems.append("\(event) while displayed with \(existing)") }
    }
}

extension TableEvent {
    /// Whether the event is a `willDisplay…` or a `didEndDisplaying…`.
    var isDisplayEvent: Bool {
        switch self {
        case .willDisplayCell, .willDisplayHeader, .willDisplayFooter, .didEndDisplayingCell, .didEndDisplayingHeader,
            .didEndDisplayingFooter:
            return true
        default:
            return false
        }
    }
}
