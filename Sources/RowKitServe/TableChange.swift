import Foundation

/// One change of a table as the pages get it: the payload, the new outline and the records of
/// the rows it inserts or reloads.
struct TableChange: Sendable {
    var table: String
    var payload: ChangePayload
    var outline: TableOutline
    var pages: Int
    /// New flat index -> record (JSON text).
    var records: [Int: String]

    /// Whether every row the payload inserts or reloads has its record.
    var hasEveryRecord: Bool {
        (payload.insertedRows + payload.reloadedRows).allSatisfy { records[$0] != nil }
    }

    /// The `changeset` event (a reload when a record is missing).
    func changesetEvent(anchors: [String]) -> PendingEvent {
        let change = self
        return PendingEvent("changeset") { revision in
            change.payload.json(
                table: change.table, revision: revision, base: revision - 1, pages: change.pages,
                outline: change.outline, anchors: anchors, record: { change.records[$0].map { Substring($0) } })
                ?? "{\"table\":\(JSONText.string(change.table)),\"revision\":\(revision),\"reason\":\"records\"}"
        }
    }

    /// The `exported` event: the detail pages of reloaded rows are rewritten, the removed ones
    /// are gone.
    func exportedEvent(removedFiles: [String]) -> PendingEvent {
        let prefix = table.isEmpty ? "" : table + "/"
        let changed = payload.reloadedRows.compactMap { row in
            records[row].flatMap { DetailLink.path(inRecord: Substring($0)) }.map { prefix + $0 }
        }
        let deleted = removedFiles.filter { $0.hasPrefix(prefix + "rows/") }
        let key = JSONText.string(table)
        return PendingEvent("exported") {
            "{\"table\":\(key),\"revision\":\($0),\"details\":{\"changed\":\(JSONText.strings(changed)),"
                + "\"deleted\":\(JSONText.strings(deleted))}}"
        }
    }
}
