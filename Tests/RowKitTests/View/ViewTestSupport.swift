import RowKit
import Testing

/// Records what test cells and header views measured: the value last measured per identity.
@MainActor
final class MeasureRecorder {
    var rows: [Int: Double] = [:]
    var headers: [String: Double] = [:]
    var measureCalls = 0
}

/// A test row: fixed height, or automatic with an estimate and the height its cell measures.
struct TestRow: Row, Equatable {
    typealias Cell = TestCell
    var id: Int
    var fixed: Double?
    var estimate: Double = 44
    var actual: Double = 44
    var version = 0
    var editing: RowEditing = .none
    var isMovable = false
    var isSelectable = true
    let recorder: MeasureRecorder

    var height: HeightPolicy { fixed.map { .fixed($0) } ?? .automatic(estimate: estimate) }

    static func == (lhs: TestRow, rhs: TestRow) -> Bool {
        lhs.id == rhs.id && lhs.fixed == rhs.fixed && lhs.estimate == rhs.estimate && lhs.actual == rhs.actual
            && lhs.version == rhs.version
    }

    /// The height a correct view lays this row out at.
    @MainActor func expectedHeight() -> Double { fixed ?? recorder.rows[id] ?? estimate }
}

/// The cell of `TestRow`: measures the row's `actual` height and records it.
@MainActor
final class TestCell: TableCell, CellConfiguring {
    private(set) var row: TestRow?
    func configure(with row: TestRow) { self.row = row }
    override func prepareForReuse() {
        super.prepareForReuse()
        row = nil
    }
    override func measureHeight(width: Double) -> Double {
        guard let row else { return 0 }
        row.recorder.rows[row.id] = row.actual
        row.recorder.measureCalls += 1
        return row.actual
    }
}

/// A test header or footer: fixed or automatic, like `TestRow`.
struct TestHeader: HeaderFooterModel {
    typealias View = TestHeaderView
    var key: String
    var fixed: Double?
    var estimate: Double = 30
    var actual: Double = 30
    let recorder: MeasureRecorder
    var height: HeightPolicy { fixed.map { .fixed($0) } ?? .automatic(estimate: estimate) }
    @MainActor func expectedHeight() -> Double { fixed ?? recorder.headers[key] ?? estimate }
}

/// The view of `TestHeader`.
@MainActor
final class TestHeaderView: HeaderFooterView, HeaderFooterConfiguring {
    private(set) var model: TestHeader?
    func configure(with model: TestHeader) { self.model = model }
    override func prepareForReuse() { model = nil }
    override func measureHeight(width: Double) -> Double {
        guard let model else { return 0 }
        model.recorder.headers[model.key] = model.actual
        return model.actual
    }
}

/// A brute-force layout: every item's rectangle computed by summing heights from the top, and
/// the visible items found by testing each one. The reference the view is checked against.
@MainActor
struct NaiveLayout {
    struct Item: Hashable, CustomStringConvertible {
        var kind: VisibleItem.Kind
        var section: Int
        var row: Int?
        var rect: TableRect
        var description: String { "\(kind) \(section) \(row.map(String.init) ?? "-") \(rect)" }
    }

    /// What the layout needs of a table, extracted once (casting every row is slow).
    struct Spec {
        struct Sized {
            var fixed: Double?
            var estimate: Double
            var rowID: Int?
            var headerKey: String?
        }
        var style: TableStyle
        var sections: [(header: Sized?, rows: [Sized], footer: Sized?)]

        init(_ table: Table) {
            style = table.style
            sections = table.sections.map { section in
                (
                    section.header.map(Self.sized),
                    section.rows.map { row in
                        let test = row.as(TestRow.self)!
                        return Sized(fixed: test.fixed, estimate: test.estimate, rowID: test.id)
                    }, section.footer.map(Self.sized)
                )
            }
        }

        static func sized(_ item: HeaderFooter) -> Sized {
            guard case .custom(let model) = item.content, let header = model.base as? TestHeader else {
                Issue.record("test tables use TestHeader")
                return Sized(fixed: 0, estimate: 0)
            }
            return Sized(fixed: header.fixed, estimate: header.estimate, headerKey: header.key)
        }
    }

    var items: [Item] = []
    var sectionSpans: [(start: Double, end: Double, header: TableRect?)] = []
    var contentHeight = 0.0
    let metrics: TableMetrics

    init(table: Table, width: Double, recorder: MeasureRecorder? = nil) {
        self.init(spec: Spec(table), width: width, recorder: recorder ?? MeasureRecorder())
    }

    init(spec: Spec, width: Double, recorder: MeasureRecorder) {
        metrics = TableMetrics(style: spec.style)
        func height(_ sized: Spec.Sized) -> Double {
            if let fixed = sized.fixed { return fixed }
            if let id = sized.rowID { return recorder.rows[id] ?? sized.estimate }
            return sized.headerKey.flatMap { recorder.headers[$0] } ?? sized.estimate
        }
        let x = metrics.horizontalInset
        let w = width - 2 * x
        var y = 0.0
        items.reserveCapacity(spec.sections.reduce(0) { $0 + $1.rows.count + 2 })
        for (s, section) in spec.sections.enumerated() {
            let start = y
            y += metrics.sectionSpacing
            var headerRect: TableRect?
            if let header = section.header {
                let rect = TableRect(x: x, y: y, width: w, height: height(header))
                items.append(Item(kind: .header, section: s, row: nil, rect: rect))
                headerRect = rect
                y += rect.height
            }
            for (r, row) in section.rows.enumerated() {
                let h = height(row)
                items.append(Item(kind: .row, section: s, row: r, rect: TableRect(x: x, y: y, width: w, height: h)))
                y += h
            }
            if let footer = section.footer {
                let rect = TableRect(x: x, y: y, width: w, height: height(footer))
                items.append(Item(kind: .footer, section: s, row: nil, rect: rect))
                y += rect.height
            }
            sectionSpans.append((start, y, headerRect))
        }
        contentHeight = y
    }

    /// The items a viewport at `offset` shows, with a floating header at its pinned place.
    func visible(offset: Double, height: Double) -> [Item] {
        let band = offset..<(offset + height)
        var result: [Item] = []
        var pinnedSection: Int?
        if metrics.floatsHeaders {
            for (s, span) in sectionSpans.enumerated() where span.start <= offset && offset < span.end {
                if let header = span.header, header.height > 0 {
                    var rect = header
                    rect.y = max(header.y, min(offset, span.end - header.height))
                    result.append(Item(kind: .header, section: s, row: nil, rect: rect))
                    pinnedSection = s
                }
            }
        }
        for item in items where item.rect.intersects(band) {
            if item.kind == .header, item.section == pinnedSection { continue }
            result.append(item)
        }
        return result
    }
}

extension VisibleItem {
    var naive: NaiveLayout.Item { NaiveLayout.Item(kind: kind, section: section, row: row, rect: rect) }
}

/// Builds test tables.
@MainActor
enum TestTables {
    /// `sections` sections of `rowsPerSection` rows, alternating fixed and automatic heights
    /// (pseudo-random from `seed`), with headers and footers on most sections.
    static func mixed(
        style: TableStyle, sections: Int, rowsPerSection: Int, seed: UInt64, recorder: MeasureRecorder
    ) -> Table {
        var random = SeededRandom(seed: seed)
        var nextID = 0
        return Table(
            style: style,
            sections: (0..<sections).map { s in
                let rows = (0..<rowsPerSection).map { _ in
                    defer { nextID += 1 }
                    return AnyRow(randomRow(id: nextID, using: &random, recorder: recorder))
                }
                return section(s, rows: rows, using: &random, recorder: recorder)
            })
    }

    static func randomRow(id: Int, using random: inout SeededRandom, recorder: MeasureRecorder) -> TestRow {
        if Bool.random(using: &random) {
            return TestRow(id: id, fixed: [44, 60, 0, 88].randomElement(using: &random)!, recorder: recorder)
        }
        return TestRow(
            id: id, fixed: nil, estimate: 44, actual: Double(Int.random(in: 20...140, using: &random)),
            recorder: recorder)
    }

    static func section(_ key: Int, rows: [AnyRow], using random: inout SeededRandom, recorder: MeasureRecorder)
        -> Section
    {
        let header: HeaderFooter? =
            key % 4 == 3
            ? nil
            : .custom(
                TestHeader(
                    key: "h\(key)", fixed: key % 2 == 0 ? 28 : nil,
                    actual: Double(Int.random(in: 18...60, using: &random)),
                    recorder: recorder))
        let footer: HeaderFooter? =
            key % 3 == 0 ? .custom(TestHeader(key: "f\(key)", fixed: 20, recorder: recorder)) : nil
        return Section(id: ItemID("s\(key)"), header: header, footer: footer, indexTitle: "S\(key)", rows: rows)
    }
}

/// Checks that the view shows exactly what the naive layout says, with the same content height.
@MainActor
func expectMatchesNaiveLayout(
    _ view: TableView, spec: NaiveLayout.Spec? = nil, recorder: MeasureRecorder,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let actual = view.visibleItems.map(\.naive)
    let naive = NaiveLayout(spec: spec ?? NaiveLayout.Spec(view.table), width: view.viewport.width, recorder: recorder)
    let expected = naive.visible(offset: view.contentOffset, height: view.viewport.height)
    #expect(abs(naive.contentHeight - view.contentHeight) < 1e-6, sourceLocation: sourceLocation)
    #expect(actual == expected, "offset \(view.contentOffset)", sourceLocation: sourceLocation)
}
