import RowKitListing

/// Reads a table's sections in order (``SectionList``) with their anchors: `section-` and the
/// slug of the section's identity, unique in the table.
///
/// A section's identity is its own; a listing's section is known by its header when no other
/// section has the same one (compared by 64-bit hashes, `repeatedHeaders`), else by its position
/// (as RowKit's `Table` does). Every reader from the first section gives the same anchors.
///
/// Memory: about 8 bytes per section (the slugs handed out, as hashes).
final class SectionAnchors {
    private let reader: SectionList.Reader
    private let repeatedHeaders: HashSet64
    private var slugs = SlugAllocator()

    init(_ sections: SectionList, repeatedHeaders: HashSet64) {
        reader = sections.makeReader()
        self.repeatedHeaders = repeatedHeaders
    }

    /// The next section, its position and its anchor; `nil` after the last.
    func next() throws -> (position: Int, section: SectionList.Record, anchor: String)? {
        let position = reader.position
        guard let section = try reader.next() else { return nil }
        return (position, section, "section-" + slugs.allocate(for: Self.id(of: section, position, repeatedHeaders)))
    }

    /// The identity of `section`, at `position` (see the type's discussion).
    private static func id(of section: SectionList.Record, _ position: Int, _ repeatedHeaders: HashSet64) -> String {
        if let id = section.id { return id }
        if let header = section.header, !repeatedHeaders.contains(StableHash.of(header)) { return header }
        return "#\(position)"
    }
}
