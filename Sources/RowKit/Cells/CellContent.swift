/// The accessory drawn at the trailing edge of a cell (UIKit's `accessoryType`).
public enum Accessory: String, Sendable, Hashable, CaseIterable {
    /// No accessory.
    case none
    /// A chevron: selecting the row shows more.
    case disclosureIndicator
    /// A checkmark.
    case checkmark
    /// An info button that reports an accessory tap.
    case detailButton
    /// An info button and a chevron.
    case detailDisclosureButton

    /// Whether the accessory promises a detail screen (a chevron is drawn).
    public var discloses: Bool { self == .disclosureIndicator || self == .detailDisclosureButton }
    /// Whether the accessory has a button of its own (accessory taps).
    public var hasButton: Bool { self == .detailButton || self == .detailDisclosureButton }
}

/// How a cell looks while selected.
public enum SelectionStyle: String, Sendable, Hashable, CaseIterable {
    /// Not drawn selected (the row may still be selectable).
    case none
    /// The system grey selection.
    case `default`
}

/// An image shown at the leading edge of a cell.
public struct CellImage: Sendable, Hashable {
    /// Where the image is: a file path (relative paths are relative to the document that named it)
    /// or a symbol name the host resolves.
    public var source: String
    /// The accessible name of the image; `nil` marks it decorative.
    public var accessibilityLabel: String?

    /// Creates an image reference.
    public init(_ source: String, accessibilityLabel: String? = nil) {
        self.source = source
        self.accessibilityLabel = accessibilityLabel
    }
}

/// What the four standard cells show.
public struct CellContent: Sendable, Hashable {
    /// The primary text.
    public var text: String
    /// The secondary text (shown according to the cell's class).
    public var detail: String?
    /// The leading image.
    public var image: CellImage?
    /// The trailing accessory.
    public var accessory: Accessory
    /// How the cell looks while selected.
    public var selectionStyle: SelectionStyle
    /// A Markdown body: shown on a detail page by exporters when the accessory discloses.
    public var body: String?
    /// A link the row leads to (exporters make the row a link).
    public var link: String?

    /// Creates content.
    public init(
        text: String, detail: String? = nil, image: CellImage? = nil, accessory: Accessory = .none,
        selectionStyle: SelectionStyle = .default, body: String? = nil, link: String? = nil
    ) {
        self.text = text
        self.detail = detail
        self.image = image
        self.accessory = accessory
        self.selectionStyle = selectionStyle
        self.body = body
        self.link = link
    }
}
