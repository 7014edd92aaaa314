import Foundation
import RowKit
import RowKitListing

/// Turns the rows a listing reader hands out into a table of the export.
struct ListingTableVisitor: ListingVisitor {
    let pipeline: ExportPipeline
    let index: Int
    let title: String?
    let style: TableStyle?
    let folder: String
    let siteIndex: (href: String, label: String)?
    /// The folder the listing's image paths are relative to.
    let imageFolder: URL?
    /// Whether rows are rendered (not after a problem in this listing or an earlier one).
    var rendering: Bool
    private(set) var planner: TablePlanner?
    /// The first row whose image cannot be exported, and why.
    private(set) var imageError: (SourceLocation, ExportError)?
    var onProgress: ((ListingProgress) -> Void)?
    private var section = -1
    private var started = false

    init(
        pipeline: ExportPipeline, index: Int, title: String?, style: TableStyle?, folder: String,
        siteIndex: (href: String, label: String)?, imageFolder: URL?, rendering: Bool
    ) {
        self.pipeline = pipeline
        self.index = index
        self.title = title
        self.style = style
        self.folder = folder
        self.siteIndex = siteIndex
        self.imageFolder = imageFolder
        self.rendering = rendering
    }

    mutating func begin(_ header: ListingHeader) throws {
        guard rendering else { return }
        if started { try discard() }
        started = true
        section = -1
        planner = TablePlanner(
            pipeline: pipeline, index: index, title: title ?? header.title, folder: folder,
            style: style ?? header.style,
            siteIndex: siteIndex, imageFolder: imageFolder)
    }

    mutating func row(_ row: ListingRow, section: Int) throws {
        guard rendering, let planner else { return }
        if section != self.section {
            planner.beginSection()
            self.section = section
        }
        do {
            try planner.add(row)
        } catch let error as ExportError {
            switch error {
            case .imageNotFound, .imageOutsideBaseDirectory, .unsupportedImageType, .noBaseDirectory, .imageRefused:
                imageError = (row.location(of: .image) ?? row.location, error)
                rendering = false
                try discard()
            default:
                throw error
            }
        }
    }

    mutating func endSection(_ section: ListingSection, index: Int) throws {
        guard rendering, let planner else { return }
        if index != self.section {
            planner.beginSection()
            self.section = index
        }
        try planner.endSection(
            header: .some(section.header), footer: .some(section.footer), indexTitle: .some(section.indexTitle))
    }

    mutating func abandon() {
        guard planner != nil else { return }
        // A read that goes on after a problem only checks; a read that starts again renders again.
        try? discard()
    }

    mutating func progress(_ progress: ListingProgress) {
        onProgress?(progress)
    }

    /// Forgets what was rendered of this table: its detail pages, its search index and their
    /// manifest entries.
    private mutating func discard() throws {
        planner = nil
        pipeline.searchLane.cancel()
        _ = try pipeline.workers.drain()
        try pipeline.writer.removeFolder(folder + "rows")
        try pipeline.removeSiteFiles(under: folder + "search/")
        pipeline.manifest.removeUnits(ofTable: index)
    }
}
