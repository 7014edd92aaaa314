import Foundation

/// What can go wrong exporting a site; each case names what and where.
public enum ExportError: Error, Equatable, CustomStringConvertible {
    /// A row's image file does not exist (`path` as resolved against the base directory).
    case imageNotFound(source: String, path: String, row: String)
    /// A row's image resolves (after symbolic links) outside the base directory, or is absolute.
    case imageOutsideBaseDirectory(source: String, row: String)
    /// A row's image has an extension the exporter does not copy (only raster formats are copied).
    case unsupportedImageType(source: String, row: String)
    /// A row has an image file but the options give no base directory to resolve it against.
    case noBaseDirectory(source: String, row: String)
    /// A template failed to parse.
    case templateSyntax(name: String, message: String)
    /// A template the exporter needs is missing from both the custom folder and the bundle.
    case templateMissing(name: String)
    /// The bundled templates could not be found (a broken installation).
    case bundledTemplatesMissing
    /// A row template produced markup the exporter cannot compile (a slot used inside an
    /// attribute name or split by the template).
    case templateInvalid(name: String, message: String)
    /// A file-system operation failed.
    case fileSystem(operation: String, path: String, message: String)
    /// Two tables were given the same name in one export.
    case duplicateTableName(String)
    /// The page size is not positive.
    case invalidPageSize(Int)

    public var description: String {
        switch self {
        case .imageNotFound(let source, let path, let row):
            return "row \"\(row)\": image \"\(source)\" not found at \(path)"
        case .imageOutsideBaseDirectory(let source, let row):
            return "row \"\(row)\": image \"\(source)\" is outside the base directory"
        case .unsupportedImageType(let source, let row):
            return "row \"\(row)\": image \"\(source)\" is not a PNG, JPEG, GIF, WebP or AVIF file"
        case .noBaseDirectory(let source, let row):
            return "row \"\(row)\": image \"\(source)\" needs ExportOptions.baseDirectory"
        case .templateSyntax(let name, let message):
            return "template \(name): \(message)"
        case .templateMissing(let name):
            return "template \(name) is missing"
        case .bundledTemplatesMissing:
            return "the bundled templates are missing from the RowKitHTML resource bundle"
        case .templateInvalid(let name, let message):
            return "template \(name): \(message)"
        case .fileSystem(let operation, let path, let message):
            return "\(operation) \(path): \(message)"
        case .duplicateTableName(let name):
            return "two tables are named \"\(name)\""
        case .invalidPageSize(let size):
            return "page size must be at least 1, not \(size)"
        }
    }
}

extension ExportError {
    /// A file-system error from the current `errno`.
    static func posix(_ operation: String, _ path: String) -> ExportError {
        .fileSystem(operation: operation, path: path, message: String(cString: strerror(errno)))
    }
}
