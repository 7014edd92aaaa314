/// How many rows a `TableView` lets the user select.
public enum SelectionMode: String, Sendable, Hashable, CaseIterable {
    /// Taps neither highlight nor select.
    case none
    /// Tapping a row selects it and deselects the previously selected row.
    case single
    /// Tapping a row toggles its selection; any number of rows can be selected.
    case multiple
}
