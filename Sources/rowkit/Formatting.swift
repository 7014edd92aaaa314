/// Locale-independent number formatting for summaries, so output is the same on every machine.
enum Formatting {
    /// `count` with thousands separated by commas: "100,000".
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return count < 0 ? "-" + result : result
    }

    /// "1 row", "2 rows": a grouped count and a noun, with an "s" unless the count is 1.
    static func plural(_ count: Int, _ noun: String) -> String {
        "\(grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }

    /// A byte count in the largest unit that keeps it at least 1: "512 B", "12.3 KB", "4.1 MB"
    /// (units of 1,000 bytes).
    static func bytes(_ count: Int) -> String {
        if count < 1_000 { return "\(count) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(count) / 1_000
        var unit = 0
        while value >= 1_000, unit < units.count - 1 {
            value /= 1_000
            unit += 1
        }
        return "\(oneDecimal(value)) \(units[unit])"
    }

    /// A duration in seconds: "0.42 s", "12.3 s", "3 min 5 s".
    static func seconds(_ seconds: Double) -> String {
        if seconds < 10 { return "\(twoDecimals(seconds)) s" }
        if seconds < 60 { return "\(oneDecimal(seconds)) s" }
        let whole = Int(seconds.rounded())
        return "\(whole / 60) min \(whole % 60) s"
    }

    /// `value` rounded to one decimal: "12.3".
    static func oneDecimal(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }

    /// `value` rounded to two decimals: "0.42".
    static func twoDecimals(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let fraction = abs(hundredths % 100)
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
