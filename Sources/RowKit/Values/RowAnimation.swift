/// The animation a host UI should use for an inserted, deleted, reloaded or moved item.
///
/// The same kinds as UIKit's `UITableView.RowAnimation`. A headless view records them in its
/// events; the HTML exporter ignores them.
public enum RowAnimation: String, Sendable, Hashable, CaseIterable {
    case automatic, fade, left, right, top, bottom, middle, none
}
