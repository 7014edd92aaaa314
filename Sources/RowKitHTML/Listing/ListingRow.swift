import Foundation

/// One row of a listing, with its identity resolved and every field's position kept.
public struct ListingRow: Sendable, Hashable {
    /// The fields of a row; raw values are the spellings used in listing files.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The stable identity.
        case id
        /// The cell style.
        case style
        /// The main text.
        case text
        /// The secondary text.
        case detail
        /// The image path.
        case image
        /// The trailing accessory.
        case accessory
        /// The Markdown body of the detail page.
        case body
        /// The URL the row links to.
        case link
    }

    /// The stable identity: the explicit `id`, else one derived from the text (see `docs/listing-format.md`).
    public var id: String
    /// Whether ``id`` was written in the file rather than derived.
    public var hasExplicitID: Bool
    /// The cell style.
    public var style: ListingCellStyle
    /// The main text.
    public var text: String
    /// The secondary text.
    public var detail: String?
    /// The image path exactly as written, relative to the document's folder.
    public var image: String?
    /// The image's resolved file URL: inside the document's folder, symlinks resolved, a regular file.
    public var imageURL: URL?
    /// The trailing accessory.
    public var accessory: ListingAccessory
    /// The Markdown body shown on the row's detail page.
    public var body: String?
    /// The URL the row links to, as written.
    public var link: String?
    /// Where the row starts in its file.
    public var location: SourceLocation
    /// Where each field present in the file was written (its value's position).
    public var fieldLocations: [Field: SourceLocation]

    /// Creates a row.
    public init(
        id: String, hasExplicitID: Bool = true, style: ListingCellStyle = .default, text: String,
        detail: String? = nil, image: String? = nil, imageURL: URL? = nil,
        accessory: ListingAccessory = .none, body: String? = nil, link: String? = nil,
        location: SourceLocation, fieldLocations: [Field: SourceLocation] = [:]
    ) {
        self.id = id
        self.hasExplicitID = hasExplicitID
        self.style = style
        self.text = text
        self.detail = detail
        self.image = image
        self.imageURL = imageURL
        self.accessory = accessory
        self.body = body
        self.link = link
        self.location = location
        self.fieldLocations = fieldLocations
    }

    /// Whether the row leads to a detail page: it has a body and a disclosing accessory.
    public var hasDetailPage: Bool { body != nil && accessory.discloses }
}
