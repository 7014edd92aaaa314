import ArgumentParser
import Foundation
import Hummingbird
import Logging
import RowKit
import RowKitHTML
import RowKitListing
import RowKitServe
import Synchronization

/// `rowkit serve`: exports listings as `export` does, serves the site, and updates open pages in
/// place on every save.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Export listings, serve the site, and update open pages in place when a listing changes.",
        usage: "rowkit serve <input> ... --output <dir> [--host <address>] [--port <n>] [<options>]",
        discussion: """
            Exports the inputs to the output folder exactly as 'rowkit export' does, serves it \
            over HTTP and prints its address. Every input, the images its rows name and the \
            --templates folder are watched: on each save the changed listing is read again, \
            compared with the one before (rows by their id), exported again (only the pages \
            whose rows changed are rendered) and the change is sent to every open page, which \
            applies it in place and keeps the row you were reading where it is. A listing with \
            problems changes nothing: the site stays as it was, and the open pages and this \
            terminal show the problems (as 'rowkit validate' prints them) until it is fixed.

            The server answers only on 127.0.0.1 unless --host says otherwise, serves only the \
            files of the site (GET and HEAD), and stops on Ctrl-C, leaving the site as the last \
            good export wrote it.

            EXAMPLES
              Serve the Settings example, then edit Examples/settings.yaml and watch the page:
                rowkit serve Examples/settings.yaml -o /tmp/site

              Serve a CSV catalogue on another port:
                rowkit serve Examples/catalogue.csv -o /tmp/catalogue --port 8081 \\
                  --section-by category --sort --id sku --text name --detail price --style layout
            """)

    @OptionGroup var input: InputOptions

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The folder to write the site to; created when missing.", valueName: "dir"))
    var output: String

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "n"))
    var port = 8080

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

    @Flag(help: ArgumentHelp("Allow raw HTML in Markdown bodies."))
    var unsafeHTML = false

    @Option(help: ArgumentHelp("Pages rendered at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Flag(
        inversion: .prefixedNo,
        help: ArgumentHelp(
            "Build a search index and put a search field on every list page (on by default).",
            discussion: "Pages update in place from the index's row data; with --no-search they reload instead."))
    var search = true

    @Flag(name: .shortAndLong, help: "Print nothing but the address and problems.")
    var quiet = false

    func validate() throws {
        guard !output.isEmpty else {
            throw ValidationError("--output is empty; name the folder to serve, for example -o site")
        }
        guard ExportOptions.pageSizes.contains(pageSize) else {
            throw ValidationError("--page-size must be between 1 and 1,000,000 (got \(pageSize))")
        }
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be between 0 and 65535 (got \(port))")
        }
        if let jobs, !ExportCommand.jobCounts.contains(jobs) {
            throw ValidationError("--jobs must be between 1 and \(ExportCommand.jobCounts.upperBound) (got \(jobs))")
        }
    }

    func run() async throws {
        let loader = ListingLoader(options: input, csvTableStyle: tableStyle)
        try loader.checkInputsExist()
        loader.warnAboutUnusedCSVOptions()
        var templatesURL: URL?
        if let templates {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: templates, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                StandardError.line("rowkit: cannot read templates folder '\(templates)': no such folder")
                throw ExitCode.noInput
            }
            templatesURL = URL(fileURLWithPath: templates, isDirectory: true)
        }
        if !["127.0.0.1", "localhost", "::1"].contains(host) {
            StandardError.line(
                "rowkit: warning: serving on \(host): other machines that reach this address can read the site")
        }
        let single = input.inputs.count == 1
        let listings = loader.readers().map { ListingExport($0, title: single ? title : nil, style: tableStyle) }
        let stopping = StopFlag()
        var options = ExportOptions(
            pageSize: pageSize, templatesDirectory: templatesURL, title: title ?? "Listings",
            markdown: Markdown.Options(unsafeHTML: unsafeHTML), search: search, waitForOtherExport: true,
            shouldStop: { stopping.isSet })
        if let jobs { options.jobs = jobs }
        let outputURL = URL(fileURLWithPath: output, isDirectory: true)
        let site = LiveSite(folder: outputURL, options: options)
        let live = LiveListings(site: site, listings: listings, options: options)

        // The first export, before the server answers: its problems end the command.
        let first = FirstExport()
        let quiet = self.quiet
        let watching = Task {
            await live.run { report in
                first.done(report)
                Self.print(report, quiet: quiet)
            }
        }
        guard case .exported = await first.report else {
            watching.cancel()
            throw ExitCode.dataError
        }

        var logger = Logger(label: "rowkit serve")
        logger.logLevel = .warning
        let router = Router()
        router.add(middleware: LiveSiteMiddleware<BasicRequestContext>(site, exclusive: true))
        let host = self.host
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "rowkit"),
            services: [LiveSiteService(site)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                say("Serving \(outputURL.path) at http://\(shown):\(port)/ (Ctrl-C to stop)")
            },
            logger: logger)
        do {
            try await app.runService()
        } catch {
            stopping.set()
            watching.cancel()
            StandardError.line("rowkit: cannot serve on \(host):\(port): \(error)")
            throw ExitCode.cannotCreate
        }
        stopping.set()
        watching.cancel()
        await watching.value
        if !quiet { StandardError.line("rowkit: stopped; the site in '\(output)' is the last good export") }
    }

    private static func print(_ report: LiveListings.Report, quiet: Bool) {
        switch report {
        case .exported(let rows, let changed, let seconds, let warnings):
            ListingLoader.printWarnings(warnings, count: warnings.count)
            guard !quiet else { return }
            if changed.isEmpty {
                say("Exported \(Formatting.plural(rows, "row")) in \(Formatting.seconds(seconds))")
            } else {
                say("Updated \(changed.joined(separator: ", ")) in \(Formatting.seconds(seconds))")
            }
        case .problems(let text):
            StandardError.line(text)
            StandardError.line("rowkit: the site is unchanged until the problems above are fixed")
        case .failed(let message):
            StandardError.line("rowkit: cannot write the site to the output folder: \(message)")
        }
    }
}

/// Prints a line on standard output at once (a terminal or a pipe that another program reads
/// while the server runs).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Set once Ctrl-C stops the server: an export under way then stops and leaves the site as it was.
final class StopFlag: Sendable {
    private let flag = Mutex(false)
    var isSet: Bool { flag.withLock { $0 } }
    func set() { flag.withLock { $0 = true } }
}

/// The report of the first export, awaited before the server starts.
final class FirstExport: Sendable {
    private let state = Mutex<
        (report: LiveListings.Report?, waiters: [CheckedContinuation<LiveListings.Report, Never>])
    >(
        (nil, []))

    func done(_ report: LiveListings.Report) {
        let waiters = state.withLock { state -> [CheckedContinuation<LiveListings.Report, Never>] in
            guard state.report == nil else { return [] }
            state.report = report
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: report) }
    }

    var report: LiveListings.Report {
        get async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> LiveListings.Report? in
                    if let report = state.report { return report }
                    state.waiters.append(continuation)
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
