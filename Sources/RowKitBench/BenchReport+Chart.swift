import Foundation
import RowKitHTML

extension BenchReport.Chart {
    /// How a series is drawn: a colour-blind-safe colour, a marker shape and a dash pattern, so
    /// lines stay apart in grey print too.
    struct SeriesLook {
        var color: String
        var marker: Marker
        var dash: String?

        enum Marker { case circle, square, triangle, diamond }

        static let all: [SeriesLook] = [
            SeriesLook(color: "#0072B2", marker: .circle, dash: nil),
            SeriesLook(color: "#E69F00", marker: .square, dash: nil),
            SeriesLook(color: "#888888", marker: .triangle, dash: "6 4"),
            SeriesLook(color: "#CC79A7", marker: .diamond, dash: "2 3"),
        ]
    }

    /// The chart's size and the plot area inside it, in SVG units.
    private enum Geometry {
        static let width = 760.0
        static let height = 470.0
        static let left = 86.0
        static let right = 730.0
        static let top = 58.0
        static let bottom = 390.0
    }

    /// The chart as inline SVG: nanoseconds per operation (y) against rows (x), both on log
    /// scales with a labelled gridline per decade, one line with markers per series, a legend,
    /// and a tooltip (`<title>`) on every point. Capped measurements are hollow markers.
    ///
    /// - Complexity: O(*p*) in the number of points.
    public func svg() -> String {
        let points = series.flatMap(\.points).filter { $0.rows > 0 && $0.nanosecondsPerOperation > 0 }
        guard !points.isEmpty else {
            return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(Geometry.width)) 80\" role=\"img\" "
                + "aria-label=\"No measurements\"><text x=\"20\" y=\"45\">No measurements</text></svg>"
        }
        let xRange = Self.decades(points.map { Double($0.rows) })
        func x(_ rows: Double) -> Double {
            Geometry.left + (log10(rows) - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound)
                * (Geometry.right - Geometry.left)
        }
        func y(_ nanoseconds: Double, in range: ClosedRange<Double>) -> Double {
            Geometry.bottom - (log10(nanoseconds) - range.lowerBound) / (range.upperBound - range.lowerBound)
                * (Geometry.bottom - Geometry.top)
        }

        // The legend goes on a white card in the first plot corner that no line or marker crosses;
        // when every corner is crossed, the y axis gets one decade more above (or else below) the
        // measurements, which leaves a band free for it.
        let legendHeight = Double(series.count) * 22 + 12
        let legendWidth = 24 + 8 * Double(series.map(\.name.count).max() ?? 0) + 40
        let corners = [
            (Geometry.left + 10, Geometry.top + 10),
            (Geometry.right - 10 - legendWidth, Geometry.bottom - 10 - legendHeight),
            (Geometry.right - 10 - legendWidth, Geometry.top + 10),
            (Geometry.left + 10, Geometry.bottom - 10 - legendHeight),
        ]
        func freeCorner(_ range: ClosedRange<Double>) -> (Double, Double)? {
            var drawn: [(Double, Double)] = []
            for serie in series {
                let sorted = serie.points.filter { $0.rows > 0 && $0.nanosecondsPerOperation > 0 }.sorted {
                    $0.rows < $1.rows
                }
                let screen = sorted.map { (x(Double($0.rows)), y($0.nanosecondsPerOperation, in: range)) }
                drawn += screen
                for (start, end) in zip(screen, screen.dropFirst()) {
                    drawn += (1..<24).map { step in
                        let t = Double(step) / 24
                        return (start.0 + (end.0 - start.0) * t, start.1 + (end.1 - start.1) * t)
                    }
                }
            }
            return corners.first { corner in
                !drawn.contains { px, py in
                    px > corner.0 - 7 && px < corner.0 + legendWidth + 7 && py > corner.1 - 7
                        && py < corner.1 + legendHeight + 7
                }
            }
        }
        let measured = Self.decades(points.map(\.nanosecondsPerOperation))
        let candidates = [
            measured, measured.lowerBound...(measured.upperBound + 1), (measured.lowerBound - 1)...measured.upperBound,
        ]
        let placed = candidates.lazy.compactMap { range in freeCorner(range).map { (range, $0) } }.first
        let yRange = placed?.0 ?? measured
        let (legendX, legendY) = placed?.1 ?? corners[0]
        func y(_ nanoseconds: Double) -> Double { y(nanoseconds, in: yRange) }

        var svg = ""
        let label =
            "\(title): \(measure.lowercased()) against rows, log-log: " + series.map(\.name).joined(separator: ", ")
        svg +=
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 \(Int(Geometry.width)) \(Int(Geometry.height))\" "
        svg +=
            "role=\"img\" aria-label=\"\(HTMLEscaping.escape(label))\" font-family=\"system-ui, -apple-system, sans-serif\">\n"
        svg +=
            "<rect x=\"0\" y=\"0\" width=\"\(Int(Geometry.width))\" height=\"\(Int(Geometry.height))\" fill=\"#ffffff\" rx=\"12\"/>\n"
        svg += "<text x=\"\(Int(Geometry.left))\" y=\"32\" font-size=\"17\" font-weight=\"600\" fill=\"#1c1c1e\">"
        svg += "\(HTMLEscaping.escape(title))<tspan font-size=\"13\" font-weight=\"400\" fill=\"#8e8e93\">"
        svg += "   lower is better</tspan></text>\n"

        // Gridlines: minor at 2…9 × each decade of y, major and labelled at each decade.
        svg += "<g stroke=\"#efeff4\" stroke-width=\"1\">\n"
        for decade in Int(yRange.lowerBound)..<Int(yRange.upperBound) {
            for step in 2...9 {
                let value = Double(step) * pow(10, Double(decade))
                svg +=
                    "<line x1=\"\(f(Geometry.left))\" x2=\"\(f(Geometry.right))\" y1=\"\(f(y(value)))\" y2=\"\(f(y(value)))\"/>\n"
            }
        }
        svg += "</g>\n<g stroke=\"#c7c7cc\" stroke-width=\"1\">\n"
        for decade in Int(yRange.lowerBound)...Int(yRange.upperBound) {
            let position = y(pow(10, Double(decade)))
            svg +=
                "<line x1=\"\(f(Geometry.left))\" x2=\"\(f(Geometry.right))\" y1=\"\(f(position))\" y2=\"\(f(position))\"/>\n"
        }
        for decade in Int(xRange.lowerBound)...Int(xRange.upperBound) {
            let position = x(pow(10, Double(decade)))
            svg +=
                "<line x1=\"\(f(position))\" x2=\"\(f(position))\" y1=\"\(f(Geometry.top))\" y2=\"\(f(Geometry.bottom))\"/>\n"
        }
        svg += "</g>\n"

        // Axes, tick labels and titles.
        svg += "<g font-size=\"13\" fill=\"#3c3c43\">\n"
        for decade in Int(yRange.lowerBound)...Int(yRange.upperBound) {
            let position = y(pow(10, Double(decade)))
            svg += "<text x=\"\(f(Geometry.left - 10))\" y=\"\(f(position + 4.5))\" text-anchor=\"end\">"
            svg += "\(Self.decadeDuration(decade))</text>\n"
        }
        for decade in Int(xRange.lowerBound)...Int(xRange.upperBound) {
            let position = x(pow(10, Double(decade)))
            svg += "<text x=\"\(f(position))\" y=\"\(f(Geometry.bottom + 22))\" text-anchor=\"middle\">"
            svg += "10\(Self.superscript(decade))</text>\n"
            svg +=
                "<text x=\"\(f(position))\" y=\"\(f(Geometry.bottom + 38))\" text-anchor=\"middle\" font-size=\"11\" fill=\"#8e8e93\">"
            svg += "\(BenchReport.Formatting.grouped(Int(pow(10, Double(decade)).rounded())))</text>\n"
        }
        svg +=
            "<text x=\"\(f((Geometry.left + Geometry.right) / 2))\" y=\"\(f(Geometry.height - 16))\" text-anchor=\"middle\" "
        svg += "font-size=\"14\" fill=\"#1c1c1e\">Rows in the table (log scale)</text>\n"
        svg +=
            "<text transform=\"translate(20 \(f((Geometry.top + Geometry.bottom) / 2))) rotate(-90)\" text-anchor=\"middle\" "
        svg += "font-size=\"14\" fill=\"#1c1c1e\">\(HTMLEscaping.escape(measure)) (log scale)</text>\n"
        svg += "</g>\n"
        svg +=
            "<rect x=\"\(f(Geometry.left))\" y=\"\(f(Geometry.top))\" width=\"\(f(Geometry.right - Geometry.left))\" "
        svg += "height=\"\(f(Geometry.bottom - Geometry.top))\" fill=\"none\" stroke=\"#8e8e93\" stroke-width=\"1\"/>\n"

        // The series: a line, then markers with tooltips.
        for (index, serie) in series.enumerated() {
            let look = SeriesLook.all[index % SeriesLook.all.count]
            let sorted = serie.points.filter { $0.rows > 0 && $0.nanosecondsPerOperation > 0 }.sorted {
                $0.rows < $1.rows
            }
            guard !sorted.isEmpty else { continue }
            let path = sorted.map { "\(f(x(Double($0.rows)))),\(f(y($0.nanosecondsPerOperation)))" }.joined(
                separator: " ")
            svg += "<g class=\"series\">\n"
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(look.color)\" stroke-width=\"2.5\" "
            svg += "stroke-linejoin=\"round\"\(look.dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>\n"
            for point in sorted {
                let tooltip =
                    "\(serie.name): \(BenchReport.Formatting.duration(nanoseconds: point.nanosecondsPerOperation)) "
                    + "at \(BenchReport.Formatting.grouped(point.rows)) rows"
                    + (point.isCapped ? " (fewer iterations)" : "")
                svg += Self.marker(
                    look.marker, x: x(Double(point.rows)), y: y(point.nanosecondsPerOperation), color: look.color,
                    hollow: point.isCapped, tooltip: HTMLEscaping.escape(tooltip))
            }
            svg += "</g>\n"
        }

        svg += "<g class=\"legend\" font-size=\"13\" fill=\"#1c1c1e\">\n"
        svg += "<rect x=\"\(f(legendX))\" y=\"\(f(legendY))\" width=\"\(f(legendWidth))\" "
        svg += "height=\"\(f(legendHeight))\" rx=\"8\" fill=\"#ffffff\" fill-opacity=\"0.92\" stroke=\"#d1d1d6\"/>\n"
        for (index, serie) in series.enumerated() {
            let look = SeriesLook.all[index % SeriesLook.all.count]
            let rowY = legendY + 18 + Double(index) * 22
            let lineX = legendX + 12
            svg +=
                "<line x1=\"\(f(lineX))\" x2=\"\(f(lineX + 28))\" y1=\"\(f(rowY))\" y2=\"\(f(rowY))\" stroke=\"\(look.color)\" "
            svg += "stroke-width=\"2.5\"\(look.dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>\n"
            svg += Self.marker(look.marker, x: lineX + 14, y: rowY, color: look.color, hollow: false, tooltip: nil)
            svg += "<text x=\"\(f(lineX + 38))\" y=\"\(f(rowY + 4.5))\">\(HTMLEscaping.escape(serie.name))</text>\n"
        }
        svg += "</g>\n</svg>"
        return svg
    }

    /// The whole decades that hold `values` (log10), at least one decade wide.
    static func decades(_ values: [Double]) -> ClosedRange<Double> {
        let logs = values.map(log10)
        let low = (logs.min() ?? 0).rounded(.down)
        var high = (logs.max() ?? 1).rounded(.up)
        if high <= low { high = low + 1 }
        return low...high
    }

    /// "1 ns", "10 ns", "100 ns", "1 µs", ... for 10^decade nanoseconds.
    static func decadeDuration(_ decade: Int) -> String {
        let units = ["ns", "µs", "ms", "s"]
        guard decade >= 0 else { return "10\(superscript(decade)) ns" }
        let unit = min(decade / 3, units.count - 1)
        let mantissa = Int(pow(10, Double(decade - unit * 3)).rounded())
        return "\(BenchReport.Formatting.grouped(mantissa)) \(units[unit])"
    }

    /// `value` in superscript digits: 3 → "³", -2 → "⁻²".
    static func superscript(_ value: Int) -> String {
        let digits: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
        let text = String(String(value.magnitude).compactMap { $0.wholeNumberValue.map { digits[$0] } })
        return (value < 0 ? "⁻" : "") + text
    }

    private static func marker(
        _ marker: SeriesLook.Marker, x: Double, y: Double, color: String, hollow: Bool, tooltip: String?
    ) -> String {
        let fill = hollow ? "#ffffff" : color
        let style = "fill=\"\(fill)\" stroke=\"\(color)\" stroke-width=\"2\""
        let title = tooltip.map { "<title>\($0)</title>" } ?? ""
        let shape: String
        switch marker {
        case .circle:
            shape = "<circle cx=\"\(f(x))\" cy=\"\(f(y))\" r=\"5\" \(style)>\(title)</circle>"
        case .square:
            shape = "<rect x=\"\(f(x - 4.5))\" y=\"\(f(y - 4.5))\" width=\"9\" height=\"9\" \(style)>\(title)</rect>"
        case .triangle:
            shape =
                "<polygon points=\"\(f(x)),\(f(y - 6)) \(f(x + 5.5)),\(f(y + 4)) \(f(x - 5.5)),\(f(y + 4))\" \(style)>\(title)</polygon>"
        case .diamond:
            shape =
                "<polygon points=\"\(f(x)),\(f(y - 6)) \(f(x + 6)),\(f(y)) \(f(x)),\(f(y + 6)) \(f(x - 6)),\(f(y))\" \(style)>\(title)</polygon>"
        }
        return shape + "\n"
    }
}

/// A coordinate with one decimal, so the SVG is compact and byte-for-byte stable.
private func f(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    let sign = tenths < 0 ? "-" : ""
    let magnitude = tenths.magnitude
    return magnitude % 10 == 0 ? "\(sign)\(magnitude / 10)" : "\(sign)\(magnitude / 10).\(magnitude % 10)"
}
