import Foundation
import RowKit

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
        /// The row's on/off switch and its state.
        case `switch`
    }

    /// The stable identity: the explicit `id`, else one derived from the text (see `docs/listing-format.md`).
    public var id: String
    /// Whether ``id`` was written in the file rather than derived.
    public var hasExplicitID: Bool
    /// The cell style.
    public var style: CellLayout
    /// The main text.
    public var text: String
    /// The secondary text.
    public var detail: String?
    /// The image path exactly as written, relative to the document's folder.
    public var image: String?
    /// The image's resolved file URL: inside the document's folder, symlinks resolved, a regular file.
    public var imageURL: URL?
    /// The trailing accessory.
    public var accessory: Accessory
    /// The Markdown body shown on the row's detail page.
    public var body: String?
    /// The URL the row links to, as written.
    public var link: String?
    /// The state of the row's switch (`switch: true` or `false`), or `nil` when the row has none.
    public var switchIsOn: Bool?
    /// Where the row starts in its file.
    public var location: SourceLocation
    /// Where each field present in the file was written, line and column, in ``Field`` order
    /// (line 0 for a field that is absent): a fixed array, so a row needs no dictionary.
    private var positions = FieldPositions()

    /// Creates a row.
    public init(
        id: String, hasExplicitID: Bool = true, style: CellLayout = .default, text: String,
        detail: String? = nil, image: String? = nil, imageURL: URL? = nil,
        accessory: Accessory = .none, body: String? = nil, link: String? = nil, switchIsOn: Bool? = nil,
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
        self.switchIsOn = switchIsOn
        self.location = location
        self.fieldLocations = fieldLocations
    }

    /// Where each field present in the file was written (its value's position, in the row's file).
    public var fieldLocations: [Field: SourceLocation] {
        get {
            var locations: [Field: SourceLocation] = [:]
            for (index, field) in Field.allCases.enumerated() {
                let (line, column) = positions[index]
                if line > 0 { locations[field] = SourceLocation(file: location.file, line: line, column: column) }
            }
            return locations
        }
        set {
            positions = FieldPositions()
            for (index, field) in Field.allCases.enumerated() {
                if let position = newValue[field] { positions[index] = (position.line, position.column) }
            }
        }
    }

    /// Where `field` was written, or `nil` when the row does not have it.
    public func location(of field: Field) -> SourceLocation? {
        let (line, column) = positions[Self.index(of: field)]
        return line > 0 ? SourceLocation(file: location.file, line: line, column: column) : nil
    }

    /// Records where `field` was written (in the row's own file).
    mutating func setPosition(of field: Field, line: Int, column: Int) {
        positions[Self.index(of: field)] = (line, column)
    }

    private static func index(of field: Field) -> Int {
        switch field {
        case .id: 0
        case .style: 1
        case .text: 2
        case .detail: 3
        case .image: 4
        case .accessory: 5
        case .body: 6
        case .link: 7
        case .switch: 8
        }
    }

    /// Whether the row leads to a detail page: it has a body and a disclosing accessory.
    public var hasDetailPage: Bool { body != nil && accessory.discloses }
}

/// Nine line/column pairs, one per ``ListingRow/Field``, stored inline.
private struct FieldPositions: Sendable, Hashable {
    private var lines: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0, 0, 0, 0)
    private var columns: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (
        0, 0, 0, 0, 0, 0, 0, 0, 0
    )

    subscript(index: Int) -> (line: Int, column: Int) {
        get {
            withUnsafeBytes(of: lines) { l in
                withUnsafeBytes(of: columns) { c in
                    (
                        Int(l.load(fromByteOffset: index * 4, as: Int32.self)),
                        Int(c.load(fromByteOffset: index * 4, as: Int32.self))
                    )
                }
            }
        }
        set {
            withUnsafeMutableBytes(of: &lines) {
                $0.storeBytes(of: Int32(clamping: newValue.line), toByteOffset: index * 4, as: Int32.self)
            }
            withUnsafeMutableBytes(of: &columns) {
                $0.storeBytes(of: Int32(clamping: newValue.column), toByteOffset: index * 4, as: Int32.self)
            }
        }
    }

    static func == (lhs: FieldPositions, rhs: FieldPositions) -> Bool {
        (0..<9).allSatisfy { lhs[$0] == rhs[$0] }
    }

    func hash(into hasher: inout Hasher) {
        for index in 0..<9 {
            let (line, column) = self[index]
            hasher.combine(line)
            hasher.combine(column)
        }
    }
}
