extension Changeset {
    /// Names one of a changeset's lists, for error messages.
    public enum List: String, Sendable, CustomStringConvertible {
        case deletedSections, insertedSections, reloadedSections, movedSections
        case deletedRows, insertedRows, reloadedRows, movedRows

        public var description: String { rawValue }
    }
}
