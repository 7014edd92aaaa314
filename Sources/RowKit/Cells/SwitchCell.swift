/// The cell of a `SwitchRow`: the row's text (and detail, by its layout) with an on/off switch at
/// the trailing edge, where an accessory would be (UIKit's `UISwitch` as `accessoryView`).
///
/// `SwitchCell` shows `SwitchRow` and nothing else: the compiler checks the pairing
/// (`SwitchRow.Cell == SwitchCell`, `SwitchCell.Model == SwitchRow`).
@MainActor
public final class SwitchCell: StandardCell, CellConfiguring {
    /// Whether the switch is drawn on; `false` until configured and after `prepareForReuse()`.
    public private(set) var isOn = false
    /// How the text and detail are placed (the row's `layout`).
    public private(set) var rowLayout = CellLayout.default

    /// The width of the switch and the space before it, in points (UIKit's switch is 51 wide).
    public static let switchWidth = 59.0

    /// Shows `row`: its content and the state of its switch.
    public func configure(with row: SwitchRow) {
        apply(row.content)
        isOn = row.isOn
        rowLayout = row.layout
    }

    public override func prepareForReuse() {
        super.prepareForReuse()
        isOn = false
        rowLayout = .default
    }

    /// The text's lines in the width the switch leaves (and, under `.subtitle`, the detail's at 12
    /// points); at least 44 points.
    public override func measureHeight(width: Double) -> Double {
        guard let content else { return 44 }
        let available = max(textWidth(in: width) - Self.switchWidth, 16)
        let textLines = Self.lineCount(of: content.text, width: available, fontSize: 17)
        guard rowLayout == .subtitle, let detail = content.detail else {
            return max(44, 22 + Double(textLines) * 20.5)
        }
        let detailLines = Self.lineCount(of: detail, width: available, fontSize: 12)
        return max(44, 22 + Double(textLines) * 20.5 + Double(detailLines) * 14.5)
    }
}
