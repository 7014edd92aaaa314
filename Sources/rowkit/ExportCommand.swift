import ArgumentParser
import Foundation
import RowKit
import RowKitHTML
import RowKitListing
import Synchronization

/// `rowkit export`: reads listings, validates them all, and writes a static site.
///
/// Nothing is written unless every input is valid; the exporter replaces the site atomically, so
/// a failed export leaves the output folder as it was.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a static HTML site that shows listings as iOS tables.",
        usage: "rowkit export <input> ... --output <dir> [<options>] [<csv-columns>]",
        discussion: """
            Reads each input as a stream and renders its pages while reading, on every core \
            (--jobs), into a temporary folder: a listing of any size is exported in bounded \
            memory. If any input has a problem, every problem is printed on standard error as \
            file:line:column: message, nothing is published and the status is 65. One input \
            becomes the site itself; several inputs become one folder each, linked from a shared \
            index.html. Re-exporting renders only the pages whose rows changed and keeps the \
            others; with unchanged inputs the site is kept as it is. A progress bar (input read, \
            rows per second) is shown on standard error when it is a terminal and the export \
            takes more than a moment; a one-line summary goes to standard output.

            Files in the output folder that rowkit did not write (a CNAME, a .git folder, your \
            notes) are kept; only files an earlier export wrote and this one no longer does are \
            removed, and the summary names them. One export writes to a folder at a time: a \
            second one waits for the first to finish (or, with --no-wait, stops with status 75). \
            An interrupted export (Ctrl-C, SIGTERM, SIGHUP) leaves the previous site as it was.

            Exit status: 0 on success, 64 for a usage error, 65 when an input has a problem, 66 \
            when an input or the templates folder cannot be read, 73 when the output cannot be \
            written, 75 when another export is writing to the output and --no-wait was given, \
            128 plus the signal's number when interrupted (130 for SIGINT, 143 for SIGTERM, 129 \
            for SIGHUP).

            EXAMPLES
              Export the Settings example and open it:
                rowkit export Examples/settings.yaml -o /tmp/site
                open /tmp/site/index.html

              Export a CSV catalogue, grouped into sections by its "category" column:
                rowkit export Examples/catalogue.csv -o /tmp/catalogue \\
                  --section-by category --sort --id sku --text name \\
                  --detail price --body description --style layout \\
                  --title Catalogue

              Several listings become several pages with a shared index:
                rowkit export Examples/settings.yaml Examples/contacts.json -o /tmp/site

              Export without the search index and field:
                rowkit export Examples/settings.yaml -o /tmp/site --no-search

              Override the table style and paginate every 5 rows:
                rowkit export Examples/contacts.json -o /tmp/contacts \\
                  --table-style grouped --page-size 5

              Use your own templates (any subset; the rest come from the built-in ones):
                rowkit export Examples/settings.yaml -o /tmp/site --templates my-templates
            """)

    @OptionGroup var input: InputOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The folder to write the site to; created when missing.", valueName: "dir"))
    var output: String

    @Option(help: ArgumentHelp("Override the table style of every input.", valueName: "plain|grouped|insetGrouped"))
    var tableStyle: TableStyle?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Rows per page (1 to 1,000,000); longer tables are split into numbered pages.", valueName: "n"))
    var pageSize = ExportOptions().pageSize

    @Option(
        help: ArgumentHelp(
            "A folder of .mustache templates that replace the built-in ones of the same name.", valueName: "dir"))
    var templates: String?

    @Option(
        help: ArgumentHelp(
            "The site's title (default: the listing's title, or \"Listings\" for several).", valueName: "text"))
    var title: String?

    @Flag(
        help: ArgumentHelp(
            "Allow raw HTML in Markdown bodies.",
            discussion: "By default raw HTML in bodies is replaced by a comment. Use this only for listings you trust.")
    )
    var unsafeHTML = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Pages rendered at once, each on a thread of its own (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Build a search index and put a search field on every list page (on by default).",
            discussion: "With --no-search the site has no index, no search field and no script."))
    var search = true

    @Flag(name: .shortAndLong, help: "Print nothing but problems: no progress bar, no summary.")
    var quiet = false

    @Flag(help: "When another export is writing to the same folder, stop with status 75 instead of waiting for it.")
    var noWait = false

    @Option(parsing: .unconditional, help: .hidden)
    var progressDelay = 0.3

    /// The seconds `--progress-delay` accepts.
    static let progressDelays = 0.0...3600.0
    /// The numbers `--jobs` accepts.
    static let jobCounts = 1...256

    func validate() throws {
        guard !output.isEmpty else {
            throw ValidationError("--output is empty; name the folder to write the site to, for example -o site")
        }
        guard ExportOptions.pageSizes.contains(pageSize) else {
            throw ValidationError(
                "--page-size must be between 1 and \(Formatting.grouped(ExportOptions.pageSizes.upperBound)) (got \(pageSize))"
            )
        }
        guard Self.progressDelays.contains(progressDelay) else {
            throw ValidationError("--progress-delay must be a number of seconds from 0 to 3600 (got \(progressDelay))")
        }
        if let jobs, !Self.jobCounts.contains(jobs) {
            throw ValidationError("--jobs must be between 1 and \(Self.jobCounts.upperBound) (got \(jobs))")
        }
    }

    func run() throws {
        let started = ContinuousClock.now
        let jobCount = try jobsWithinOpenFileLimit(jobs ?? ExportOptions().jobs)
        let loader = ListingLoader(options: input, csvTableStyle: tableStyle)
        try loader.checkInputsExist()
        loader.warnAboutUnusedCSVOptions()
        let templatesURL = try templatesFolder()
        try checkOutput()

        let progress = ProgressBar(enabled: ProgressBar.isWanted(quiet: quiet), delay: progressDelay)
        // A signal the export does not come back from in time (or a second one): its temporary
        // folder goes to the trash for a remover, and the lock file goes, before the process ends.
        let trashBeside = Self.absolute(output)
        Interruption.shared.install {
            progress.finish()
            var trash = SiteTrash.handOffRunningExports()
            if trash.isEmpty {
                // The export may have handed its folder over itself, and not yet said so.
                trash = TrashRemover.start(besideSite: trashBeside)
            } else {
                TrashRemover.start(paths: trash)
            }
            if !trash.isEmpty { Self.reportInterruption(removing: trash) }
        }
        defer { progress.finish() }
        let single = input.inputs.count == 1
        let listings = loader.readers().map { ListingExport($0, title: single ? title : nil, style: tableStyle) }
        var options = ExportOptions(
            pageSize: pageSize, templatesDirectory: templatesURL, title: title ?? "Listings",
            markdown: Markdown.Options(unsafeHTML: unsafeHTML), search: search, waitForOtherExport: false,
            shouldStop: { Interruption.shared.signal != nil })
        options.jobs = jobCount
        options.trashRemovedLater = true
        // Absolute before it becomes a URL: a relative file URL drops `dir/..` as text, and the
        // exporter resolves `..` through the folders as they are (after a symbolic link, say).
        let outputURL = URL(fileURLWithPath: Self.absolute(output), isDirectory: true)
        func export(_ options: ExportOptions) throws -> ExportSummary {
            try SiteExporter(options).export(listings: listings, to: outputURL) { report in
                progress.update(reading: report)
            }
        }

        guard Interruption.shared.beginExport() else { throw Self.interrupted() }
        defer { Interruption.shared.endExport() }
        var summary: ExportSummary
        do {
            defer {
                // What this export or an earlier one left as trash, removed by a process of its own.
                if Interruption.shared.signal == nil { TrashRemover.start(besideSite: outputURL.path) }
            }
            summary = try exportWaitingIfBusy(options, export)
        } catch let error as ListingExportError {
            progress.finish()
            StandardError.line(error.description)
            throw ExitCode.dataError
        } catch let error as ExportError {
            progress.finish()
            if case .interrupted = error {
                throw Self.interrupted(removing: TrashRemover.start(besideSite: outputURL.path))
            }
            throw Self.exitCode(reporting: error, output: output)
        } catch {
            progress.finish()
            StandardError.line("rowkit: cannot write the site to '\(output)': \(error.localizedDescription)")
            throw ExitCode.cannotCreate
        }
        progress.finish()
        ListingLoader.printWarnings(summary.warnings, count: summary.warningCount)
        // The export may have finished its swap after a signal: the status still says it came.
        if Interruption.shared.signal != nil { throw Self.interrupted() }
        guard !quiet else { return }
        let elapsed = ContinuousClock.now - started
        summary.seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        print(StandardError.safe(Self.summaryLine(summary, output: output)))
        if let removed = Self.removedLine(summary.removedFiles) { print(StandardError.safe(removed)) }
        let index = Self.shellQuoted((output as NSString).appendingPathComponent("index.html"))
        print(StandardError.safe("\(Self.openCommand) \(index)"))
    }

    /// The command that opens a file in the desktop's browser, as the summary's last line shows it:
    /// `open` on macOS, `xdg-open` elsewhere (the freedesktop.org opener of Linux desktops).
    static var openCommand: String {
        #if os(macOS)
        "open"
        #else
        "xdg-open"
        #endif
    }

    /// Runs `export` with `options`; when another export is writing to the output, and
    /// `--no-wait` was not given, says so and runs it again, waiting for the other to finish.
    private func exportWaitingIfBusy(
        _ options: ExportOptions, _ export: (ExportOptions) throws -> ExportSummary
    ) throws -> ExportSummary {
        do {
            return try export(options)
        } catch let error as ExportError {
            guard case .outputInUse(_, let process) = error, !noWait else { throw error }
            // Waiting is not a problem, so --quiet says nothing of it (a cron job would mail it).
            if !quiet {
                let holder = process.map { " (process \($0))" } ?? ""
                // On a terminal, the progress line may be drawn: the message replaces it.
                if StandardError.isTerminal { StandardError.write("\r\u{1B}[2K") }
                StandardError.line(
                    "rowkit: waiting for the export already writing to '\(output)'\(holder) to finish…")
            }
            var waiting = options
            waiting.waitForOtherExport = true
            return try export(waiting)
        }
    }

    /// `wanted` jobs, or fewer when the open-file limit (`ulimit -n`) cannot hold them (with a
    /// note, unless `--quiet`); exits 73 naming the limit when it cannot hold one.
    private func jobsWithinOpenFileLimit(_ wanted: Int) throws(ExitCode) -> Int {
        let limit = OpenFileLimit.raised()
        let inputs = input.inputs.count
        let jobs = OpenFileLimit.jobs(wanted, inputs: inputs, limit: limit)
        guard jobs > 0 else {
            StandardError.line(
                "rowkit: cannot export: the limit on open files (ulimit -n) is \(limit), and an export of "
                    + "\(Formatting.plural(inputs, "input")) needs at least \(OpenFileLimit.minimum(inputs: inputs)); "
                    + "raise it (ulimit -n 1024) and export again; nothing was written")
            throw .cannotCreate
        }
        if jobs < wanted, !quiet, self.jobs != nil {
            StandardError.line(
                "rowkit: note: rendering with --jobs \(jobs) instead of \(wanted): the limit on open files "
                    + "(ulimit -n) is \(limit)")
        }
        return jobs
    }

    /// The status for an interrupted export (after saying so on standard error); `trash`: the
    /// folders of what it wrote, being removed in the background.
    private static func interrupted(removing trash: [String] = []) -> ExitCode {
        let signal = Interruption.shared.signal ?? SIGINT
        reportInterruption(removing: trash)
        return ExitCode(Interruption.status(for: signal))
    }

    /// Whether the interruption was reported: the export's thread and the signal's exit may both
    /// come to say it.
    private static let interruptionReported = Mutex(false)

    /// Says once on standard error that the export was interrupted; `trash` as for
    /// ``interrupted(removing:)``.
    private static func reportInterruption(removing trash: [String]) {
        let first = interruptionReported.withLock { reported in
            defer { reported = true }
            return !reported
        }
        guard first else { return }
        let base = "rowkit: interrupted; the site was left as it was"
        guard !trash.isEmpty else { return StandardError.line(base) }
        let folders = trash.map { "'\($0)'" }.joined(separator: ", ")
        StandardError.line(
            StandardError.safe("\(base), and what the export wrote is being removed in the background (\(folders))"))
    }

    /// `path` made absolute by the current folder, as given otherwise (`..` and symbolic links
    /// left for the exporter to resolve).
    static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/"), let current = getcwd(nil, 0) else { return path }
        defer { free(current) }
        let folder = String(cString: current)
        return (folder == "/" ? "" : folder) + "/" + path
    }

    /// The folder of the document at `path` ("." for a bare file name).
    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// The templates folder as a URL, or exit 66 when it is not a readable folder.
    private func templatesFolder() throws(ExitCode) -> URL? {
        guard let templates else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: templates, isDirectory: &isDirectory), isDirectory.boolValue else {
            let problem = FileManager.default.fileExists(atPath: templates) ? "not a folder" : "no such folder"
            StandardError.line("rowkit: cannot read templates folder '\(templates)': \(problem)")
            throw .noInput
        }
        let url = URL(fileURLWithPath: templates, isDirectory: true)
        // Loaded here too, so a template that cannot be used stops the export before anything is
        // written, and a misnamed one is pointed out.
        do {
            let loaded = try TemplateSet(customDirectory: url)
            for name in loaded.unusedCustomNames {
                StandardError.line(
                    "rowkit: warning: template \(ListingText.escaped(name)).mustache in '\(ListingText.escaped(templates))' "
                        + "replaces no built-in template and no template includes it, so it is not used; the built-in "
                        + "ones are \(TemplateSet.requiredNames.joined(separator: ", "))")
            }
        } catch let error as ExportError {
            throw Self.exitCode(reporting: error, output: output)
        } catch {
            StandardError.line("rowkit: cannot read the templates in '\(ListingText.escaped(templates))': \(error)")
            throw .noInput
        }
        return url
    }

    /// Exits 73 when the output path exists and is not a folder, and 64 when it is the current
    /// folder or holds it: the export replaces the output folder as a whole, which would leave the
    /// shell that ran it in a deleted folder.
    private func checkOutput() throws(ExitCode) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            StandardError.line(
                "rowkit: cannot write the site to '\(output)': it is a file, not a folder; choose another output folder (-o)"
            )
            throw .cannotCreate
        }
        guard let folder = realpath(output, nil), let current = getcwd(nil, 0) else { return }
        defer {
            free(folder)
            free(current)
        }
        let target = String(cString: folder)
        let here = String(cString: current)
        if here == target || here.hasPrefix(target == "/" ? "/" : target + "/") {
            let example =
                here == target
                ? " (for example: cd .. && rowkit export ... -o \(Self.shellQuoted((target as NSString).lastPathComponent)))"
                : ""
            StandardError.line(
                "rowkit: cannot export into '\(output)': it \(here == target ? "is" : "holds") the current folder, and the export "
                    + "replaces that folder as a whole, which would leave this shell in a deleted one; run the export from "
                    + "outside it\(example)")
            throw .validationFailure
        }
    }

    /// Prints `error` and returns the status it means: 73 for the output folder, 75 for an output
    /// another export is writing to, 65 for the data and the templates (an image the exporter
    /// cannot use is reported at the row's image field, as a ``ListingExportError``), 1 for
    /// anything else, which the checks before the export should have ruled out.
    static func exitCode(reporting error: ExportError, output: String) -> ExitCode {
        let site = "'\(output)'"
        switch error {
        case .fileSystem(let operation, let path, let message):
            let full =
                message.contains("No space left") || message.contains("quota")
                ? "; free some space and export again" : ""
            StandardError.line(
                "rowkit: cannot write the site to \(site): \(operation) \(path): \(message)\(full); the previous site is as it was"
            )
            return .cannotCreate
        case .outputUnusable(_, let reason):
            // A reason that says what to do stands alone.
            let advice = reason.hasSuffix("export again") ? "" : "; choose another output folder (-o)"
            StandardError.line("rowkit: cannot write the site to \(site): \(reason)\(advice)")
            return .cannotCreate
        case .outputNotASite:
            StandardError.line(
                "rowkit: \(site) already holds files that rowkit did not write, so rowkit will not export into it. "
                    + "Export into a new or empty folder, or, to keep these files and add the site beside them, "
                    + "mark the folder as a site first: touch \(shellQuoted((output as NSString).appendingPathComponent(".rowkit-manifest.json")))"
            )
            return .cannotCreate
        case .manifestInvalid(_, let entry, let reason):
            let manifest = (output as NSString).appendingPathComponent(".rowkit-manifest.json")
            StandardError.line(
                "rowkit: cannot write the site to \(site): its manifest \(manifest) lists \(SitePath.quoted(entry)), "
                    + "which \(reason). rowkit lists only files inside the site, so the manifest was changed after "
                    + "rowkit wrote it; nothing was changed. Remove that entry from the manifest, or export into a new "
                    + "or empty folder")
            return .cannotCreate
        case .manifestDamaged(_, let files):
            let manifest = (output as NSString).appendingPathComponent(".rowkit-manifest.json")
            let shown =
                files.prefix(10).joined(separator: ", ") + (files.count > 10 ? " and \(files.count - 10) more" : "")
            StandardError.line(
                "rowkit: cannot write the site to \(site): its manifest \(manifest), which lists the files rowkit "
                    + "wrote there, is damaged (it cannot be read), so rowkit cannot tell its own files from yours; "
                    + "nothing was changed. \(files.count == 1 ? "This file is" : "These files are") where the export "
                    + "writes its own: \(shown). To recover, remove \(files.count == 1 ? "it" : "them") if "
                    + "\(files.count == 1 ? "it is" : "they are") rowkit's pages and assets (or move yours out), then "
                    + "export again: the export writes a new manifest. Or export into a new folder")
            return .cannotCreate
        case .outputInUse(_, let process):
            StandardError.line(
                "rowkit: another export" + (process.map { " (process \($0))" } ?? "") + " is writing to \(site); "
                    + "try again when it has finished, or leave out --no-wait to wait for it")
            return .temporaryFailure
        case .userFilesInTheWay(_, let files):
            StandardError.line(
                "rowkit: cannot write the site to \(site): " + (files.count == 1 ? "this file" : "these files")
                    + " in it \(files.count == 1 ? "was" : "were") not written by rowkit, and the export would replace "
                    + "\(files.count == 1 ? "it" : "them"): \(files.joined(separator: ", ")). Move or rename "
                    + "\(files.count == 1 ? "it" : "them"), then export again; nothing was changed")
            return .cannotCreate
        case .imageNotFound, .imageOutsideBaseDirectory, .unsupportedImageType, .noBaseDirectory, .imageRefused:
            StandardError.line("rowkit: \(error.description)")
            return .dataError
        case .templateSyntax, .templateInvalid, .templateMissing, .templateCycle:
            StandardError.line("rowkit: \(error.description)")
            return .dataError
        case .templateUnreadable:
            StandardError.line("rowkit: \(error.description)")
            return .noInput
        case .bundledTemplatesMissing, .duplicateTableName, .invalidPageSize, .interrupted:
            StandardError.line("rowkit: cannot export: \(error.description)")
            return .failure
        }
    }

    /// "Wrote site: 24 pages, 17 rows, 98.2 KB in 0.05 s (26 files written, 0 unchanged)".
    static func summaryLine(_ summary: ExportSummary, output: String) -> String {
        var line = "Wrote \(output): \(Formatting.plural(summary.pages, "page")), "
        line += "\(Formatting.plural(summary.rows, "row")), \(Formatting.bytes(summary.bytes)) "
        line += "in \(Formatting.seconds(summary.seconds)) "
        line += "(\(Formatting.plural(summary.filesWritten, "file")) written, "
        line += "\(Formatting.grouped(summary.filesUnchanged)) unchanged"
        if summary.filesRemoved > 0 { line += ", \(Formatting.grouped(summary.filesRemoved)) removed" }
        return line + ")"
    }

    /// "Removed 2 files this export no longer writes: page-3.html, page-4.html", naming at most
    /// ten; `nil` when none was removed.
    static func removedLine(_ removed: [String]) -> String? {
        guard !removed.isEmpty else { return nil }
        let shown = removed.prefix(10).joined(separator: ", ")
        let rest = removed.count > 10 ? " and \(Formatting.grouped(removed.count - 10)) more" : ""
        return "Removed \(Formatting.plural(removed.count, "file")) this export no longer writes: \(shown)\(rest)"
    }

    /// `path` as a shell word: unchanged when it is plain, else in single quotes.
    static func shellQuoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy {
            $0.isASCII
                && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "/._-+,:@%".unicodeScalars.contains($0))
        }
        return plain ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

extension TableStyle: ExpressibleByArgument {}
