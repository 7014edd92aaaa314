import RowKit

/// The display data of consecutive rows of a table's search index, as the `r-<n>.js` files hold
/// it: one JSON array per row, `[code, text, detail, href, image, image label, html, body text]`, where code
/// is the layout (0 default, 1 value1, 2 value2, 3 subtitle) plus 4 times the accessory (0 none,
/// 1 disclosure indicator, 2 checkmark, 3 detail button, 4 detail disclosure button) plus 32 for a
/// custom row (drawn by `html` alone); `html` is what the list page draws besides the cell (an
/// inline body's rendered Markdown); `body text` is the start of the text of a body shown on a
/// detail page (``SearchBodyText``), for a result's excerpt; empty strings at the end are left out.
/// `href` is a link, or for a row that leads to its own place on its list page that page's number
/// (``SearchTarget``).
///
/// The page renderers make them beside the rows' markup (an inline body's Markdown is rendered
/// once, for both), and ``SearchIndexBuilder/addDisplay(_:)`` cuts them into files in row order.
///
/// Rows of large inline bodies go to the export's scratch file as they are made (``spill(to:)``),
/// whole rows at a time, so a page's display data is never whole in memory.
struct SearchDisplayRecords: Sendable {
    /// The rows' arrays not yet in the scratch file, one after the other.
    private(set) var bytes: [UInt8] = []
    /// Where each row's array ends, counted from the first row's (in ``spilled``, then ``bytes``).
    private(set) var ends: [Int] = []
    /// The ranges of the scratch file that hold the first rows' arrays, whole rows each.
    private(set) var spilled: [Range<Int>] = []
    /// The bytes in ``spilled``.
    private var spilledBytes = 0

    /// Whether no row was added.
    var isEmpty: Bool { ends.isEmpty }

    /// Moves the rows' arrays made so far to `scratch`.
    mutating func spill(to scratch: ScratchFile) throws {
        guard !bytes.isEmpty else { return }
        spilled.append(try scratch.append(bytes))
        spilledBytes += bytes.count
        // A buffer grown past 2 MiB by a large row is let go: the records of many pages may wait
        // for the index at once.
        bytes.removeAll(keepingCapacity: bytes.capacity <= 2 << 20)
    }

    /// Calls `body` with each row's array in order, reading the spilled ones back from `scratch`
    /// (the file ``spill(to:)`` wrote to) one range at a time.
    func visitRows(in scratch: ScratchFile?, _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        var row = 0
        var start = 0
        var chunk: [UInt8] = []
        for range in spilled {
            guard let scratch else { preconditionFailure("spilled records are read from their scratch file") }
            chunk.removeAll(keepingCapacity: true)
            try scratch.read(range, appendingTo: &chunk)
            let base = start
            while row < ends.count && ends[row] <= base + range.count {
                try body(chunk[(start - base)..<(ends[row] - base)])
                start = ends[row]
                row += 1
            }
        }
        while row < ends.count {
            try body(bytes[(start - spilledBytes)..<(ends[row] - spilledBytes)])
            start = ends[row]
            row += 1
        }
    }

    /// A record's first field: the layout (bits 0-1, `CellLayout.allCases`' order), the accessory
    /// (bits 2-4, `Accessory.allCases`' order), a custom row (32), a switch (64) and its state
    /// (128: on). docs/search.md has the whole record; listing.js and search.js read it.
    static func code(layout: CellLayout, accessory: Accessory, isCustom: Bool, switchIsOn: Bool?) -> Int {
        let layoutCode = CellLayout.allCases.firstIndex(of: layout) ?? 0
        let accessoryCode = Accessory.allCases.firstIndex(of: accessory) ?? 0
        let switchCode = switchIsOn.map { $0 ? 64 + 128 : 64 } ?? 0
        return layoutCode + 4 * accessoryCode + (isCustom ? 32 : 0) + switchCode
    }

    /// Appends the display data of `row`.
    mutating func append(_ row: SearchRow) {
        var html = row.html ?? ""
        html.withUTF8 { html in
            append(
                layout: row.layout, accessory: row.accessory, isCustom: row.isCustom, text: row.text,
                detail: row.detail ?? "", target: row.target, image: row.image ?? "",
                imageLabel: row.imageLabel ?? "", html: html)
        }
    }

    /// Appends one row's display data; `html` is UTF-8 markup (empty for none), `bodyText` the
    /// start of a detail page's body text (empty for none), `switchIsOn` the state of the row's
    /// switch (`nil` for none).
    mutating func append(
        layout: CellLayout, accessory: Accessory, isCustom: Bool, text: String, detail: String,
        target: SearchTarget, image: String, imageLabel: String, html: UnsafeBufferPointer<UInt8>,
        bodyText: String = "", switchIsOn: Bool? = nil
    ) {
        bytes.append(UInt8(ascii: "["))
        let code = Self.code(layout: layout, accessory: accessory, isCustom: isCustom, switchIsOn: switchIsOn)
        bytes.append(contentsOf: String(code).utf8)
        // The last field that is not empty (the text is always written).
        var last = 0
        if !detail.isEmpty { last = 1 }
        if !target.isEmpty { last = 2 }
        if !image.isEmpty { last = 3 }
        if !imageLabel.isEmpty { last = 4 }
        if !html.isEmpty { last = 5 }
        if !bodyText.isEmpty { last = 6 }
        for field in 0...last {
            bytes.append(UInt8(ascii: ","))
            switch field {
            case 0: SearchScript.string(text, into: &bytes)
            case 1: SearchScript.string(detail, into: &bytes)
            case 2:
                switch target {
                case .link(let href): SearchScript.string(href, into: &bytes)
                case .listPage(let page): bytes.append(contentsOf: String(page).utf8)
                }
            case 3: SearchScript.string(image, into: &bytes)
            case 4: SearchScript.string(imageLabel, into: &bytes)
            case 5: SearchScript.string(utf8: html, into: &bytes)
            default: SearchScript.string(bodyText, into: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "]"))
        ends.append(spilledBytes + bytes.count)
    }
}
