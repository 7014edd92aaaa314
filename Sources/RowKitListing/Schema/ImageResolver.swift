import Foundation

/// Resolves rows' image paths against the document's folder, each distinct path once: rows often
/// share an icon, and resolving walks the file system one component at a time. The cache is
/// bounded; a listing with more distinct images than it holds resolves the rest again.
struct ImageResolver {
    let directory: String
    /// The folder with its real path, looked up at the first row with an image.
    private var folder: ListingImagePath.Folder?
    private var resolved: [String: Result<URL, ListingImagePath.ImagePathError>] = [:]
    private static let cacheLimit = 4096

    init(directory: String) {
        self.directory = directory
    }

    mutating func resolve(_ path: String) -> Result<URL, ListingImagePath.ImagePathError> {
        if let known = resolved[path] { return known }
        let result = ListingImagePath.resolve(path) {
            if let folder { return folder }
            let made = ListingImagePath.Folder(directory)
            folder = made
            return made
        }
        if resolved.count >= Self.cacheLimit { resolved.removeAll(keepingCapacity: true) }
        resolved[path] = result
        return result
    }
}
