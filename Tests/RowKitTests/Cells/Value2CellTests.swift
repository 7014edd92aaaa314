import RowKit
import Testing

/// Value2 as UIKit draws it: the text is the narrow leading label, the detail the value after it,
/// so a long detail makes the row taller and a short label does not.
@MainActor @Suite struct Value2CellTests {
    func height(_ text: String, _ detail: String?, width: Double = 390) -> Double {
        let cell = Value2Cell()
        cell.configure(with: Value2Row(text, detail: detail))
        return cell.measureHeight(width: width)
    }

    @Test func aShortLabelAndValueTakeOneLine() {
        #expect(height("mobile", "+44 20 7946 0000") == 44)
    }

    @Test func aLongValueWrapsInTheWideColumnAndMakesTheRowTaller() {
        let long = String(repeating: "value ", count: 20)
        #expect(height("home", long) > 44)
        #expect(height("home", long) > height("home", String(repeating: "value ", count: 8)))
    }

    @Test func aLabelWrapsInTheNarrowColumnBeforeTheValueDoes() {
        // Twelve characters fit the value column easily but not the narrow label column.
        #expect(height("work address", "x") > height("x", "work address"))
    }
}
