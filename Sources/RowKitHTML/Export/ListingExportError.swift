import RowKitListing

/// Why listings could not be exported: their problems, or a row's image.
public enum ListingExportError: Error, Equatable, CustomStringConvertible {
    /// The listings have problems: every one, listing by listing, each in file order.
    case invalidListings([ListingDiagnostic])
    /// A row's image cannot be exported (where the row's `image` is, and why).
    case image(SourceLocation, ExportError)

    public var description: String {
        switch self {
        case .invalidListings(let diagnostics): return diagnostics.map(\.description).joined(separator: "\n")
        case .image(let location, let error): return "\(location): \(error.description)"
        }
    }
}
