import Foundation
import RowKit
import RowKitListing

extension SiteExporter {
    /// Exports listing files to the folder `output`, reading each as a stream: one listing becomes
    /// the site itself, several become one folder each (named by the slug of the table's title)
    /// with an `index.html` linking them (titled ``ExportOptions/title``).
    ///
    /// Rows are rendered as they are read, on ``ExportOptions/jobs`` threads, into the new site's
    /// temporary folder. Nothing is published unless every listing reads without problems: the
    /// problems of every listing are collected (rendering stops at the first one) and thrown as
    /// ``ListingExportError/invalidListings(_:)``; a row whose image cannot be exported stops the
    /// export with ``ListingExportError/image(_:_:)`` once every listing has been checked. Each
    /// listing's image paths are relative to its own folder (the folder of its path), which is
    /// opened once; an image can never be read from outside it.
    ///
    /// When the previous site was made from the same bytes of the same listings and images, with
    /// the same options, templates and exporter, it is kept as it is.
    ///
    /// - Parameters:
    ///   - listings: The listings to export, each a reader of one document with its title.
    ///   - output: The site's folder; created if missing, replaced whole if it holds an export.
    ///   - progress: Called on the calling thread, every megabyte of input or so.
    @discardableResult
    public func export(
        listings: [ListingExport], to output: URL, progress: ((ExportProgress) -> Void)? = nil
    ) throws -> ExportSummary {
        var titles: [String?] = listings.map { listing in
            listing.title ?? (listings.count > 1 ? listing.reader.peekHeader()?.title : nil)
        }
        // A listing's title is known for certain only once it has been read; with several
        // listings the folders depend on all titles, so a guess proved wrong means another go.
        for _ in 0..<2 {
            switch try export(listings, titles: titles, to: output, progress: progress) {
            case .done(let summary): return summary
            case .retitled(let final): titles = final
            }
        }
        preconditionFailure("the second export uses every listing's final title")
    }

    private enum Attempt {
        case done(ExportSummary)
        case retitled([String?])
    }

    /// What reading the listings of one attempt gave: their problems, and for an export that can
    /// be published, each table's entry in the site index and each input's manifest source.
    private struct ReadListings {
        var diagnostics: [ListingDiagnostic] = []
        var imageProblem: ListingExportError?
        var inputs: [ManifestSource] = []
        var finalTitles: [String?] = []
        var listed: [(name: String, folder: String, rows: Int)] = []
        var warnings: [ListingDiagnostic] = []
        var warningCount = 0

        /// Whether nothing has gone wrong so far (rows are still rendered).
        var isClean: Bool { diagnostics.isEmpty && imageProblem == nil }
    }

    private func export(
        _ listings: [ListingExport], titles: [String?], to output: URL, progress: ((ExportProgress) -> Void)?
    ) throws -> Attempt {
        var current = (path: "", listing: 0, bytesRead: 0, bytesTotal: Int?.none)
        let pipeline = try ExportPipeline(
            options: options, output: output, settings: Self.settings(of: listings),
            progress: progress.map { report in
                { rows in
                    report(
                        ExportProgress(
                            path: current.path, listing: current.listing, listings: listings.count,
                            bytesRead: current.bytesRead,
                            bytesTotal: current.bytesTotal, rows: rows))
                }
            })
        do {
            if let previous = pipeline.writer.previous, previous.settings == pipeline.settingsKey,
                Self.inputsUnchanged(listings, previous.inputs),
                pipeline.imagesUnchanged(previous.images, folders: listings.map { Self.folder(of: $0.reader.path) }),
                try pipeline.writer.previousSiteIsIntact()
            {
                return .done(pipeline.keepPreviousSite(previous))
            }
            try writeStyleSheet(pipeline)
            let names =
                listings.count > 1 ? Self.uniqueNames(titles.enumerated().map { $1 ?? "Listing \($0 + 1)" }) : []
            var folders = SlugAllocator(reserved: ["assets", "rows", "index"])
            var outcome = ReadListings()
            for (index, listing) in listings.enumerated() {
                let folder = listings.count > 1 ? folders.allocate(for: names[index]) + "/" : ""
                current = (listing.reader.path, index, 0, nil)
                var visitor = makeVisitor(
                    listing, index: index, of: listings.count, name: names.isEmpty ? nil : names[index],
                    folder: folder, rendering: outcome.isClean, pipeline: pipeline)
                visitor.onProgress = { [pipeline] read in
                    current.bytesRead = read.bytesRead
                    current.bytesTotal = read.bytesTotal
                    progress?(
                        ExportProgress(
                            path: current.path, listing: index, listings: listings.count, bytesRead: read.bytesRead,
                            bytesTotal: read.bytesTotal, rows: pipeline.rowsPlanned))
                }
                var reader = listing.reader
                // On more than one core, the parser gets a thread of its own.
                reader.readAhead = options.jobs > 1
                // Bodies' images are checked as the rows are read: warnings with their place.
                if reader.bodyImages == nil {
                    let maximumSize = options.markdown.maximumSize
                    reader.bodyImages = { Markdown.images(in: $0, maximumSize: maximumSize) }
                }
                let summary = try reader.read(into: &visitor)
                try Self.record(
                    summary, of: listing, visitor: visitor, name: names.isEmpty ? nil : names[index], folder: folder,
                    into: &outcome)
            }
            return try finish(outcome, names: names, listings: listings, pipeline: pipeline)
        } catch {
            pipeline.abandon()
            throw error
        }
    }

    /// The settings of each listing that change the export's output (see `ExportPipeline`).
    private static func settings(of listings: [ListingExport]) -> [String] {
        listings.map { listing -> String in
            let reader = listing.reader
            return [
                reader.path, reader.format?.rawValue ?? "", "\(reader.csv)", listing.title ?? "",
                listing.style?.rawValue ?? "",
            ]
            .joined(separator: "\u{0}")
        }
    }

    /// The visitor that plans and renders listing `index` of `count` (named `name` when there are
    /// several) into `folder`.
    private func makeVisitor(
        _ listing: ListingExport, index: Int, of count: Int, name: String?, folder: String, rendering: Bool,
        pipeline: ExportPipeline
    ) -> ListingTableVisitor {
        ListingTableVisitor(
            pipeline: pipeline, index: index, title: count > 1 ? name : listing.title,
            style: listing.style, folder: folder,
            siteIndex: count > 1
                ? (href: "../index.html", label: HTMLEscaping.escape(options.title)) : nil,
            imageFolder: Self.folder(of: listing.reader.path),
            rendering: rendering)
    }

    /// Records what reading `listing` gave; finishes its table when everything so far is clean.
    private static func record(
        _ summary: ListingSummary, of listing: ListingExport, visitor: ListingTableVisitor, name: String?,
        folder: String, into read: inout ReadListings
    ) throws {
        read.finalTitles.append(listing.title ?? summary.header.title)
        read.warnings += summary.warnings
        read.warningCount += summary.warningCount
        if !summary.isValid {
            read.diagnostics += summary.diagnostics
            return
        }
        if read.imageProblem == nil, let (location, error) = visitor.imageError {
            read.imageProblem = .image(location, error)
        }
        guard read.isClean, let planner = visitor.planner else { return }
        try planner.finish()
        read.listed.append((name ?? summary.header.title, String(folder.dropLast()), planner.rowCount))
        read.inputs.append(
            ManifestSource(path: listing.reader.path, size: summary.byteCount, hash: summary.contentHash ?? 0))
    }

    /// Throws the listings' problems, or asks for another attempt when a title guessed before
    /// reading proved wrong, or writes the site index (for several listings) and commits the site.
    private func finish(
        _ read: ReadListings, names: [String], listings: [ListingExport], pipeline: ExportPipeline
    ) throws -> Attempt {
        if !read.diagnostics.isEmpty { throw ListingExportError.invalidListings(read.diagnostics) }
        if let imageProblem = read.imageProblem { throw imageProblem }
        if listings.count > 1 {
            let finalNames = Self.uniqueNames(read.finalTitles.enumerated().map { $1 ?? "Listing \($0 + 1)" })
            guard finalNames == names else {
                pipeline.abandon()
                return .retitled(read.finalTitles)
            }
            try writeSiteIndex(read.listed, pipeline)
        }
        var summary = try pipeline.commit(inputs: read.inputs)
        summary.warnings = read.warnings
        summary.warningCount = read.warningCount
        return .done(summary)
    }

    /// The folder of the listing at `path` (the current folder for a bare file name).
    static func folder(of path: String) -> URL {
        let folder = (path as NSString).deletingLastPathComponent
        return URL(fileURLWithPath: folder.isEmpty ? "." : folder, isDirectory: true)
    }

    /// Whether every listing is the same file, with the same bytes, as the previous site's input.
    private static func inputsUnchanged(_ listings: [ListingExport], _ inputs: [ManifestSource]) -> Bool {
        guard listings.count == inputs.count else { return false }
        for (listing, input) in zip(listings, inputs) {
            guard listing.reader.path == input.path,
                let (size, hash) = listing.reader.contentHash(expectedSize: input.size),
                size == input.size, hash == input.hash
            else { return false }
        }
        return true
    }

    /// The titles, with " (2)", " (3)", ... added to repeats so every table has its own name.
    public static func uniqueNames(_ titles: [String]) -> [String] {
        var seen: [String: Int] = [:]
        var taken = Set(titles)
        return titles.map { title in
            let count = seen[title, default: 0] + 1
            seen[title] = count
            guard count > 1 else { return title }
            var number = count
            while taken.contains("\(title) (\(number))") { number += 1 }
            taken.insert("\(title) (\(number))")
            return "\(title) (\(number))"
        }
    }
}
