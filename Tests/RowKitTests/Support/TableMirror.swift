import RowKit

/// A row as the randomized tests mirror it: identity and the text it shows.
struct MirrorRow: Hashable, CustomStringConvertible {
    var id: ItemID
    var text: String

    var description: String { "\(id):\(text)" }
}

extension TableModel {
    /// The rows of every section as identities and texts, for comparison with mirrors.
    var mirror: [[MirrorRow]] {
        sections.map { section in
            section.rows.map { MirrorRow(id: $0.id, text: $0.as(DefaultRow.self)?.content.text ?? "?") }
        }
    }

    /// The section identities, in order.
    var sectionIDs: [ItemID] { sections.map(\.id) }
}
