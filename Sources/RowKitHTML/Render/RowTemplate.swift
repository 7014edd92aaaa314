import RowKit

/// The row template, compiled once per row shape into literal byte runs and value slots.
///
/// Rendering Mustache for every row of a large listing would dominate an export, so the row
/// template is rendered once for each *shape* (layout, accessory or switch, and which values are present)
/// with placeholder values, and the result is cut at the placeholders. A row is then written by
/// copying the literal runs and its escaped values. The output is exactly what Mustache would
/// produce for the row: templates are logic-less, so only presence (the shape) can change the
/// markup, never the text of a value.
struct RowTemplate {
    /// Which parts a row has; rows of one shape share compiled markup.
    struct Shape: Hashable {
        var layout: CellLayout
        var accessory: Accessory
        var hasDetail = false
        var hasImage = false
        var hasAlt = false
        var hasHref = false
        var hasAnchor = false
        var hasBody = false
        var isCustom = false
        /// The switch's state; `nil` for a row without one.
        var switchIsOn: Bool?
    }

    /// The values of one row, each already escaped (or trusted) UTF-8.
    struct Values {
        var text: [UInt8] = []
        var detail: [UInt8] = []
        var imageSource: [UInt8] = []
        var imageAlt: [UInt8] = []
        var href: [UInt8] = []
        var anchor: [UInt8] = []
        var body: [UInt8] = []
        var fragment: [UInt8] = []

        mutating func removeAll() {
            text.removeAll(keepingCapacity: true)
            detail.removeAll(keepingCapacity: true)
            imageSource.removeAll(keepingCapacity: true)
            imageAlt.removeAll(keepingCapacity: true)
            href.removeAll(keepingCapacity: true)
            anchor.removeAll(keepingCapacity: true)
            body.removeAll(keepingCapacity: true)
            fragment.removeAll(keepingCapacity: true)
        }

        /// Appends the value of slot `slot` (0 text, 1 detail, 2 image source, 3 image label,
        /// 4 link, 5 anchor, 6 body, 7 fragment) to `output`.
        func append(slot: Int, to output: inout [UInt8]) {
            switch slot {
            case 0: output.append(contentsOf: text)
            case 1: output.append(contentsOf: detail)
            case 2: output.append(contentsOf: imageSource)
            case 3: output.append(contentsOf: imageAlt)
            case 4: output.append(contentsOf: href)
            case 5: output.append(contentsOf: anchor)
            case 6: output.append(contentsOf: body)
            default: output.append(contentsOf: fragment)
            }
        }
    }

    enum Segment {
        case literal([UInt8])
        case slot(Int)
    }

    private let templates: TemplateSet
    private var compiled: [Shape: [Segment]] = [:]

    init(templates: TemplateSet) {
        self.templates = templates
    }

    /// Appends the markup of a row of `shape` showing `values` to `output`.
    mutating func render(_ shape: Shape, _ values: Values, appendingTo output: inout [UInt8]) throws {
        let segments: [Segment]
        if let known = compiled[shape] {
            segments = known
        } else {
            segments = try compile(shape)
            compiled[shape] = segments
        }
        // Through a buffer pointer, whose subscript lends each segment (a loop copies it).
        segments.withUnsafeBufferPointer { segments in
            for index in segments.indices {
                switch segments[index] {
                case .literal(let bytes): output.append(contentsOf: bytes)
                case .slot(let slot): values.append(slot: slot, to: &output)
                }
            }
        }
    }

    /// Appends `segments` with slot `i` filled by `values[i]`.
    static func write(_ segments: [Segment], _ values: [[UInt8]], appendingTo output: inout [UInt8]) {
        for segment in segments {
            switch segment {
            case .literal(let bytes): output.append(contentsOf: bytes)
            case .slot(let index): output.append(contentsOf: values[index])
            }
        }
    }

    /// The placeholder of slot `index`: private-use characters no escaped value can contain
    /// around the slot number.
    static func placeholder(_ index: Int) -> String { "\u{E000}\(index)\u{E001}" }

    private func compile(_ shape: Shape) throws -> [Segment] {
        var context: [String: Any] = [
            "layout": shape.layout.rawValue,
            "isDefault": shape.layout == .default, "isValue1": shape.layout == .value1,
            "isValue2": shape.layout == .value2, "isSubtitle": shape.layout == .subtitle,
            "chevron": shape.accessory.discloses, "checkmark": shape.accessory == .checkmark,
            "info": shape.accessory.hasButton, "custom": shape.isCustom,
            "text": Self.placeholder(0), "fragment": Self.placeholder(7),
        ]
        if shape.hasDetail { context["detail"] = Self.placeholder(1) }
        if shape.hasImage {
            var image: [String: Any] = ["src": Self.placeholder(2)]
            if shape.hasAlt { image["alt"] = Self.placeholder(3) }
            context["image"] = image
        }
        if shape.hasHref { context["href"] = Self.placeholder(4) }
        if shape.hasAnchor { context["anchor"] = Self.placeholder(5) }
        if shape.hasBody { context["body"] = Self.placeholder(6) }
        if let isOn = shape.switchIsOn { context["switch"] = ["checked": isOn ? "true" : "false"] }
        let rendered = Array(templates.render("row", context).utf8)
        return try Self.split(rendered)
    }

    /// Cuts `bytes` at the placeholders (U+E000 digits U+E001, EE 80 80 ... EE 80 81 in UTF-8).
    static func split(_ bytes: [UInt8], template: String = "row", slots: Int = 8) throws -> [Segment] {
        var segments: [Segment] = []
        var literal: [UInt8] = []
        var index = 0
        func isMarker(_ at: Int, _ last: UInt8) -> Bool {
            at + 2 < bytes.count && bytes[at] == 0xEE && bytes[at + 1] == 0x80 && bytes[at + 2] == last
        }
        while index < bytes.count {
            if isMarker(index, 0x80) {
                var cursor = index + 3
                var number = 0
                while cursor < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[cursor]) {
                    number = number * 10 + Int(bytes[cursor] - UInt8(ascii: "0"))
                    cursor += 1
                }
                guard isMarker(cursor, 0x81), number < slots else {
                    throw ExportError.templateInvalid(name: template, message: "a value was changed by the template")
                }
                if !literal.isEmpty { segments.append(.literal(literal)) }
                literal = []
                segments.append(.slot(number))
                index = cursor + 3
            } else {
                literal.append(bytes[index])
                index += 1
            }
        }
        if !literal.isEmpty { segments.append(.literal(literal)) }
        return segments
    }
}
