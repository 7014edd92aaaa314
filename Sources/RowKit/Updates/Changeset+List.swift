extension Changeset {
    /// Names one of a changeset's lists, for error messages.
    public enum List: String, Sendable, CustomStringConvertible {
        /// ``Changeset/deletedSections``.
        case deletedSections
        /// ``Changeset/insertedSections``.
        case insertedSections
        /// ``Changeset/reloadedSections``.
        case reloadedSections
        /// ``Changeset/movedSections``.
        case movedSections
        /// ``Changeset/deletedRows``.
        case deletedRows
        /// ``Changeset/insertedRows``.
        case insertedRows
        /// ``Changeset/reloadedRows``.
        case reloadedRows
        /// ``Changeset/movedRows``.
        case movedRows

        /// The list's property name.
        public var description: String { rawValue }
    }
}
