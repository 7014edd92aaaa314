import Foundation

/// Resolves rows' image paths against the document's folder, each distinct path once: rows often
/// share an icon, and resolving walks the file system one component at a time. The cache is
/// bounded; a listing with more distinct images than it holds resolves the rest again.
struct ImageResolver {
    let directory: String
    /// The folder with its real path, looked up at the first row with an image.
    private var folder: ListingImagePath.Folder?
    private var resolved: [String: Result<URL, ListingImagePath.ImagePathError>] = [:]
    /// The folder as the export opens it, opened once at the first row with an image.
    private var imageFolder: ImageFile.Folder?
    private static let cacheLimit = 4096

    init(directory: String) {
        self.directory = directory
    }

    /// The image's file, or why the export would refuse it: the path (``ListingImagePath``), then
    /// the file itself as the export opens it (``ImageFile``: a regular file of at most 16 MiB that
    /// starts like a PNG, JPEG, GIF, WebP or AVIF image).
    mutating func resolve(_ path: String) -> Result<URL, ListingImagePath.ImagePathError> {
        if let known = resolved[path] { return known }
        var result = ListingImagePath.resolve(path) {
            if let folder { return folder }
            let made = ListingImagePath.Folder(directory)
            folder = made
            return made
        }
        if case .success = result {
            do throws(ImageFile.Problem) {
                if imageFolder == nil { imageFolder = try ImageFile.Folder(path: directory) }
                if let imageFolder { _ = try ImageFile.check(path, in: imageFolder) }
            } catch {
                result = .failure(.init("image '\(ListingText.shown(path))' \(error.message)"))
            }
        }
        if resolved.count >= Self.cacheLimit { resolved.removeAll(keepingCapacity: true) }
        resolved[path] = result
        return result
    }
}
