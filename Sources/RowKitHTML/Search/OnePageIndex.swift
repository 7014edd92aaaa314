import RowKit

/// What the one-page list (`assets/listing.js`) needs beyond the rows' display data: the
/// table's sections and a lookup from a detail page's anchor (`#row-<slug>`) to its row.
///
/// Written into the table's `search/` folder beside the row shards, each file one call of
/// `RowKitSearch.load(key, name, data)` like every index file:
/// - `s-.js`: `{"n": rows, "r": rows per shard, "p": rows per list page, "k": [rows of each cell
///   layout (default, value1, value2, subtitle), rows with an inline body], "b": anchor buckets,
///   "s": [[first row, rows, anchor, header, footer, index title], ...]}`, trailing empty strings
///   of a section left out.
/// - `i-<n>.js`: bucket `n` of the anchors, a flat array `[hash, row, hash, row, ...]` sorted by
///   hash, where hash is the 32-bit FNV-1a of the slug's UTF-8 bytes and the bucket is the hash
///   modulo the bucket count. A browser checks a candidate against the row's `href`
///   (`rows/<slug>.html`) in its shard, so a collision never leads to a wrong row.
///
/// Memory: 8 bytes per detail page; the outline goes to a scratch file as it is made when the
/// builder has one (see ``SearchIndexBuilder/largeFiles``).
struct OnePageIndex {
    /// A section of the table as the one page draws it.
    struct Section {
        var firstRow: Int
        var rowCount: Int
        var anchor: String
        var header: String?
        var footer: String?
        var indexTitle: String?
    }

    /// The table's sections, in order: calls its argument with each (a table may have millions,
    /// read back from the export's scratch file, so they are not held in an array).
    typealias Sections = (_ visit: (Section) throws -> Void) throws -> Void

    /// Anchors per bucket file, at most (on average half to all of it).
    static let anchorsPerBucket = 256

    private var anchors: [(hash: UInt32, row: UInt32)] = []
    private var layouts = [0, 0, 0, 0, 0]

    /// The 32-bit FNV-1a hash of `slug`'s UTF-8 bytes (`anchorHash` in `listing.js`).
    static func hash(_ slug: String) -> UInt32 {
        var hash: UInt32 = 0x811c_9dc5
        for byte in slug.utf8 { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }

    /// Counts row `row`'s layout and remembers its detail page's slug, if it has one.
    mutating func add(_ row: SearchRow, number: Int) {
        layouts[CellLayout.allCases.firstIndex(of: row.layout) ?? 0] += 1
        if (row.html != nil || row.hasInlineBody) && !row.isCustom { layouts[4] += 1 }
        if let slug = row.slug { anchors.append((Self.hash(slug), UInt32(number))) }
    }

    /// Hands a file's bytes made so far on (to a scratch file) when there are enough of them, and
    /// empties the buffer then; the rest of the file is appended after them.
    typealias Flush = (_ bytes: inout [UInt8]) throws -> Void

    /// Writes `s-.js` through `stream` and the anchor buckets through `emit` (each a name without
    /// `.js`, and a function that appends the data; `stream`'s may hand its bytes on as it goes,
    /// so that an outline of millions of sections is never whole in memory).
    func write(
        sections: @escaping Sections, rowCount: Int, rowsPerShard: Int, pageSize: Int, pageFirstRows: [Int]? = nil,
        emit: (_ name: String, _ build: (inout [UInt8]) throws -> Void) throws -> Void,
        stream: (_ name: String, _ build: (inout [UInt8], Flush) throws -> Void) throws -> Void
    ) throws {
        let buckets = anchors.isEmpty ? 0 : (anchors.count + Self.anchorsPerBucket - 1) / Self.anchorsPerBucket
        try stream("s-") { outline, flush in
            try self.outline(sections, rowCount, rowsPerShard, pageSize, buckets, &outline, flush)
            // Pages bounded by bytes as well as rows: their first rows (`g`), for listing.js.
            if let pageFirstRows {
                outline.removeLast()
                outline.append(contentsOf: ",\"g\":[\(pageFirstRows.map(String.init).joined(separator: ","))]}".utf8)
            }
        }
        guard buckets > 0 else { return }
        var byBucket = [[(hash: UInt32, row: UInt32)]](repeating: [], count: buckets)
        for anchor in anchors { byBucket[Int(anchor.hash % UInt32(buckets))].append(anchor) }
        for (number, bucket) in byBucket.enumerated() {
            let sorted = bucket.sorted { ($0.hash, $0.row) < ($1.hash, $1.row) }
            let values = sorted.flatMap { ["\($0.hash)", "\($0.row)"] }
            try emit("i-\(number)") { $0.append(contentsOf: ("[" + values.joined(separator: ",") + "]").utf8) }
        }
    }

    /// Appends the data of `s-.js` to `outline`.
    private func outline(
        _ sections: Sections, _ rowCount: Int, _ rowsPerShard: Int, _ pageSize: Int, _ buckets: Int,
        _ outline: inout [UInt8], _ flush: Flush
    ) throws {
        outline.append(contentsOf: "{\"n\":\(rowCount),\"r\":\(rowsPerShard),\"p\":\(pageSize),\"k\":[".utf8)
        outline.append(contentsOf: layouts.map(String.init).joined(separator: ",").utf8)
        outline.append(contentsOf: "],\"b\":\(buckets),\"s\":[".utf8)
        var first = true
        // `sections` may not take a closure that captures the non-escaping `flush`.
        try withoutActuallyEscaping(flush) { flush in
            try sections { section in
                outline.append(contentsOf: (first ? "[" : ",[").utf8)
                first = false
                outline.append(contentsOf: "\(section.firstRow),\(section.rowCount)".utf8)
                var fields = [section.anchor, section.header ?? "", section.footer ?? "", section.indexTitle ?? ""]
                while fields.count > 1 && fields.last!.isEmpty { fields.removeLast() }
                for field in fields {
                    outline.append(UInt8(ascii: ","))
                    SearchScript.string(field, into: &outline)
                }
                outline.append(UInt8(ascii: "]"))
                try flush(&outline)
            }
        }
        outline.append(contentsOf: "]}".utf8)
    }
}
