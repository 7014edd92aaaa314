extension TableView {
    /// A text dump of the visible state, for tests and debugging: a first line with style,
    /// viewport, offset and content height, then one line per displayed item in layout order with
    /// its rectangle and view, marked `selected`, `editing` or `pinned`.
    ///
    /// ```
    /// TableView plain 320x200 offset=0 content=1000
    ///   header 0 id=Fruit (0, 0, 320x28) #1
    ///   row [0, 0] id=apple (0, 28, 320x44) #2 selected
    /// ```
    public var dump: String {
        layoutIfNeeded()
        var lines = [
            "TableView \(table.style.rawValue) \(viewport) offset=\(TableRect.format(contentOffset)) "
                + "content=\(TableRect.format(contentHeight))"
        ]
        for item in visibleItems {
            var line = "  \(item)"
            if item.kind == .row {
                if selected[item.id] != nil { line += " selected" }
                if swipeEditing?.id == item.id || isEditing { line += " editing" }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
