/// The common base of the four standard cells: text, detail, image, accessory and selection style.
///
/// Not used directly: the layout is chosen by subclassing (`DefaultCell`, `Value1Cell`,
/// `Value2Cell`, `SubtitleCell`), never by a style argument. Measurement estimates text with
/// UIKit's default metrics (17-point body text, 11-point vertical margins, 44-point minimum) and a
/// fixed average glyph width, so headless layouts are deterministic.
@MainActor
open class StandardCell: TableCell {
    /// What the cell shows; `nil` until configured and after `prepareForReuse()`.
    public private(set) var content: CellContent?

    /// The layout the class implements, the one enum the model, the listing reader and the
    /// exporter share. Subclasses override it.
    nonisolated open class var layout: CellLayout { .default }

    /// Shows `content`.
    public func apply(_ content: CellContent) {
        self.content = content
    }

    open override func prepareForReuse() {
        super.prepareForReuse()
        content = nil
    }

    /// The lines of body text `text` needs in `width` points at `fontSize`.
    public static func lineCount(of text: String, width: Double, fontSize: Double) -> Int {
        let glyphWidth = fontSize * 0.5
        let perLine = max(1, Int((width / glyphWidth).rounded(.down)))
        return text.split(separator: "\n", omittingEmptySubsequences: false).reduce(0) { total, line in
            total + max(1, (line.count + perLine - 1) / perLine)
        }
    }

    /// The width left for text in a cell `width` points wide, after margins, image and accessory.
    public func textWidth(in width: Double) -> Double {
        var available = width - 32
        if content?.image != nil { available -= 44 }
        if let accessory = content?.accessory, accessory != .none {
            available -= accessory == .detailDisclosureButton ? 52 : 28
        }
        return max(available, 16)
    }

    open override func measureHeight(width: Double) -> Double {
        guard let content else { return 44 }
        let lines = Self.lineCount(of: content.text, width: textWidth(in: width), fontSize: 17)
        return max(44, 22 + Double(lines) * 20.5)
    }
}

/// The default cell: an optional image, then the text (UIKit's `.default` style).
@MainActor
public final class DefaultCell: StandardCell, CellConfiguring {
    nonisolated public override class var layout: CellLayout { .`default` }
    /// Shows `row`.
    public func configure(with row: DefaultRow) { apply(row.content) }
}

/// Text on the left, grey detail text on the right (UIKit's `.value1` style).
@MainActor
public final class Value1Cell: StandardCell, CellConfiguring {
    nonisolated public override class var layout: CellLayout { .value1 }
    /// Shows `row`.
    public func configure(with row: Value1Row) { apply(row.content) }
}

/// The text in a narrow, right-aligned, tinted label, then the detail as the value after it
/// (UIKit's `.value2` style, as in Contacts: text "mobile", detail "+44 20 7946 0000").
@MainActor
public final class Value2Cell: StandardCell, CellConfiguring {
    nonisolated public override class var layout: CellLayout { .value2 }
    /// Shows `row`.
    public func configure(with row: Value2Row) { apply(row.content) }

    /// The taller of the two labels at 15 points: the text in the leading quarter of the text
    /// width (the narrow label), the detail in the rest.
    public override func measureHeight(width: Double) -> Double {
        guard let content else { return 44 }
        let available = textWidth(in: width)
        let labelWidth = available * 0.25
        let textLines = Self.lineCount(of: content.text, width: labelWidth, fontSize: 15)
        let detailLines =
            content.detail.map { Self.lineCount(of: $0, width: available - labelWidth - 8, fontSize: 15) } ?? 1
        return max(44, 22 + Double(max(textLines, detailLines)) * 20)
    }
}

/// The text over smaller grey detail text (UIKit's `.subtitle` style).
@MainActor
public final class SubtitleCell: StandardCell, CellConfiguring {
    nonisolated public override class var layout: CellLayout { .subtitle }
    /// Shows `row`.
    public func configure(with row: SubtitleRow) { apply(row.content) }

    public override func measureHeight(width: Double) -> Double {
        guard let content else { return 44 }
        let available = textWidth(in: width)
        let textLines = Self.lineCount(of: content.text, width: available, fontSize: 17)
        let detailLines = content.detail.map { Self.lineCount(of: $0, width: available, fontSize: 12) } ?? 0
        return max(44, 22 + Double(textLines) * 20.5 + Double(detailLines) * 14.5)
    }
}
