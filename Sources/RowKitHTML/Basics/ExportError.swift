import Foundation
import RowKitListing

/// What can go wrong exporting a site; each case names what and where.
public enum ExportError: Error, Equatable, CustomStringConvertible {
    /// A row's image file does not exist (`path` as resolved against the base directory).
    case imageNotFound(source: String, path: String, row: String)
    /// A row's image is absolute, or leads (by `..` or a symbolic link) outside the base directory.
    case imageOutsideBaseDirectory(source: String, row: String)
    /// A row's image has an extension the exporter does not copy (only raster formats are copied).
    case unsupportedImageType(source: String, row: String)
    /// A row has an image file but the options give no base directory to resolve it against.
    case noBaseDirectory(source: String, row: String)
    /// A row's image file is not one the exporter copies: not a regular file, larger than the
    /// limit, or not a PNG, JPEG, GIF, WebP or AVIF image by its first bytes; `reason` says which.
    case imageRefused(source: String, row: String, reason: String)
    /// A template failed to parse.
    case templateSyntax(name: String, message: String)
    /// Templates include each other in a cycle (`names`: the cycle, its first name again at the
    /// end; `["row", "row"]` for a template that includes itself), which would never end.
    case templateCycle(names: [String])
    /// A template file cannot be read: it is not a regular file, reading it failed, or it is not
    /// UTF-8 text; `reason` says which.
    case templateUnreadable(path: String, reason: String)
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
    /// The page size is outside ``ExportOptions/pageSizes``.
    case invalidPageSize(Int)
    /// The output cannot hold a site: its path is empty or the root folder, a folder on the way is
    /// a file, its name is too long, or nothing can be created beside it; `reason` says which.
    case outputUnusable(path: String, reason: String)
    /// The output is a folder that is not empty and that RowKit did not write (it has no
    /// `.rowkit-manifest.json`); RowKit never writes a site into such a folder.
    case outputNotASite(path: String)
    /// The output's `.rowkit-manifest.json` lists `entry`, which is not the path of a file inside
    /// the site (`reason` says why: absolute, an empty, `.` or `..` component, a control
    /// character). RowKit never writes such an entry, so the folder is not as RowKit left it; the
    /// export acts on none of the manifest's entries, and nothing was changed.
    case manifestInvalid(path: String, entry: String, reason: String)
    /// The output's `.rowkit-manifest.json` cannot be read (it is damaged, cut short, or from
    /// another version of RowKit), so the files RowKit wrote there cannot be told from the
    /// user's, and `files` (relative to the site) are where the export writes its own. Nothing was
    /// changed.
    case manifestDamaged(path: String, files: [String])
    /// Another export is writing to the output (`process`, when known) and the options say not
    /// to wait for it.
    case outputInUse(path: String, process: Int32?)
    /// Files in the output that RowKit did not write are where this export would write its own
    /// files (paths relative to the site; a folder ends in `/`). Nothing was changed.
    case userFilesInTheWay(path: String, files: [String])
    /// ``ExportOptions/shouldStop`` asked the export to stop; the previous site is as it was.
    case interrupted

    public var description: String {
        switch self {
        case .imageNotFound(let source, let path, let row):
            return "\(Self.quoted(row: row, image: source)) not found at \(ListingText.escaped(path))"
        case .imageOutsideBaseDirectory(let source, let row):
            return "\(Self.quoted(row: row, image: source)) is outside the document's folder"
        case .unsupportedImageType(let source, let row):
            return "\(Self.quoted(row: row, image: source)) is not a PNG, JPEG, GIF, WebP or AVIF file"
        case .noBaseDirectory(let source, let row):
            return "\(Self.quoted(row: row, image: source)) needs ExportOptions.baseDirectory"
        case .imageRefused(let source, let row, let reason):
            return "\(Self.quoted(row: row, image: source)) \(reason)"
        case .templateSyntax(let name, let message):
            return "template \(ListingText.escaped(name)): \(message)"
        case .templateCycle(let names):
            let shown = names.map { "\($0).mustache" }
            if names.count == 2 {
                return "template \(shown[0]) includes itself ({{>\(names[0])}}); a template cannot include itself"
            }
            return "templates \(shown.joined(separator: " -> ")) include each other in a cycle; a template "
                + "cannot include itself, even through others"
        case .templateUnreadable(let path, let reason):
            return "cannot read template \(ListingText.escaped(path)): \(reason)"
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
            return "the page size must be between 1 and \(ExportOptions.pageSizes.upperBound), not \(size)"
        case .outputUnusable(let path, let reason):
            return "cannot write a site to \(path): \(reason)"
        case .outputNotASite(let path):
            return
                "\(path) holds files that RowKit did not write (it has no \(Manifest.fileName)); refusing to write a site into it"
        case .manifestInvalid(let path, let entry, let reason):
            return "the manifest \(path)/\(Manifest.fileName) lists \(SitePath.quoted(entry)), which \(reason): RowKit "
                + "lists only files inside the site, so the folder is not as RowKit left it; nothing was changed"
        case .manifestDamaged(let path, let files):
            return "the manifest \(path)/\(Manifest.fileName) cannot be read, so the files RowKit wrote in the site "
                + "cannot be told from yours; these are where the export writes its own: "
                + files.joined(separator: ", ")
        case .outputInUse(let path, let process):
            return "another export" + (process.map { " (process \($0))" } ?? "") + " is writing to \(path)"
        case .userFilesInTheWay(let path, let files):
            return "files in \(path) that RowKit did not write are where the export writes its own: "
                + files.joined(separator: ", ")
        case .interrupted:
            return "the export was interrupted; the previous site is as it was"
        }
    }
}

extension ExportError {
    /// `row "id": image "path"`, both from the listing, escaped so they print safely on a terminal.
    /// Whether the error is about one image (not found, outside the folder, not an image, ...),
    /// not about the export as a whole.
    var isImageProblem: Bool {
        switch self {
        case .imageNotFound, .imageOutsideBaseDirectory, .unsupportedImageType, .noBaseDirectory, .imageRefused:
            return true
        default:
            return false
        }
    }

    private static func quoted(row: String, image: String) -> String {
        "row \"\(ListingText.escaped(row))\": image \"\(ListingText.escaped(image))\""
    }

    /// A file-system error from the current `errno`.
    static func posix(_ operation: String, _ path: String) -> ExportError {
        .fileSystem(operation: operation, path: path, message: String(cString: strerror(errno)))
    }
}
