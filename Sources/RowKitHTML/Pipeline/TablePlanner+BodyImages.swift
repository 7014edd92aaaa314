import Foundation
import RowKitListing

extension TablePlanner {
    /// Copies the local images `body` references into the site, as a row's `image:` is copied
    /// (inside the table's folder, the same checks), and returns where each went; `nil` when the
    /// body has no local image. Only bodies with `![` are parsed.
    ///
    /// An image that cannot be copied is not an error: the body shows its alternative text (the
    /// listing reader warns about it with its place). Remote images and destinations ``SafeURL``
    /// refuses are left to the renderer.
    func copyBodyImages(_ body: String, identity: String) throws -> BodyImages? {
        guard MarkdownImageReference.mayOccur(in: body) else { return nil }
        var images = BodyImages()
        for image in Markdown.images(in: body, maximumSize: pipeline.options.markdown.maximumSize)
        where !image.isRemote && images.sitePaths[image.source] == nil {
            do {
                guard
                    let path = try pipeline.resolveImage(
                        image.source, row: identity, table: index, folder: imageFolder)
                else { continue }
                images.sitePaths[image.source] = .some(path)
            } catch let error as ExportError where error.isImageProblem {
                images.sitePaths[image.source] = .some(nil)
            }
        }
        return images.isEmpty ? nil : images
    }
}
