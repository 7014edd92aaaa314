import Foundation
import HTTPTypes
import Hummingbird
import RowKitHTML
import ServiceLifecycle

/// Serves a ``LiveSite`` in a Hummingbird application: the site's files, with the live script
/// added to every page, the pages' event streams (`/_rowkit/events`) and the script itself
/// (`/_rowkit/live.js`, with `/_rowkit/listing.js`, whose row markup it draws new rows with).
///
/// ```swift
/// let router = Router()
/// router.add(middleware: LiveSiteMiddleware(site))
/// let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// try await app.runService()
/// ```
///
/// Only files inside the site's folder are served, to GET and HEAD: a path with `..`, an encoded
/// `/` or `.`, a NUL byte, a hidden name (`.rowkit-manifest.json`, `.git`) or a symbolic link that
/// leads out of the folder is not found. A request the site does not answer goes on to the
/// application's routes, unless the middleware is `exclusive` (as in `rowkit serve`), where it
/// gets 404 (405 for another method).
public struct LiveSiteMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The site served.
    public let site: LiveSite
    /// Whether every request is answered here (404 or 405 for what the site does not have).
    public let exclusive: Bool
    private let files: SiteFiles

    /// Serves `site`; with `exclusive`, nothing goes on to the application's routes.
    public init(_ site: LiveSite, exclusive: Bool = false) {
        self.site = site
        self.exclusive = exclusive
        files = SiteFiles(folder: site.folder)
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let isRead = request.method == .get || request.method == .head
        if path == LiveRoutes.events || path == LiveRoutes.script || path == LiveRoutes.listingScript {
            guard isRead else { return Self.methodNotAllowed() }
            if path == LiveRoutes.events { return try await events(request) }
            let bytes = path == LiveRoutes.script ? LivePage.script : LivePage.listingScript
            return Self.script(bytes, head: request.method == .head)
        }
        guard isRead else {
            return exclusive ? Self.methodNotAllowed() : try await next(request, context)
        }
        switch files.lookup(path) {
        case .file(let sitePath, let url):
            return try await serve(sitePath, url, head: request.method == .head)
        case .folder(let location):
            return Response(status: .movedPermanently, headers: [.location: location, .contentLength: "0"])
        case .notFound:
            return exclusive ? Self.notFound() : try await next(request, context)
        }
    }

    private func serve(_ sitePath: String, _ url: URL, head: Bool) async throws -> Response {
        guard var bytes = try? Data(contentsOf: url) else { return Self.notFound() }
        if sitePath.hasSuffix(".html") {
            let (table, kind) = await page(sitePath)
            let revision = await site.revision(of: table) ?? 1
            bytes = LivePage.inject(into: bytes, table: table, revision: revision, kind: kind, path: sitePath)
        }
        var headers: HTTPFields = [
            .contentType: SiteFiles.contentType(of: sitePath), .cacheControl: "no-cache",
            .contentLength: String(bytes.count), .init("X-Content-Type-Options")!: "nosniff",
        ]
        if head { headers[.contentLength] = String(bytes.count) }
        let body = head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The table a page belongs to and its kind (docs/live.md).
    private func page(_ sitePath: String) async -> (table: String, kind: String) {
        let keys = await site.tableKeys
        let first = sitePath.split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
        if sitePath.contains("/"), keys.contains(first) {
            let rest = sitePath.dropFirst(first.count + 1)
            return (first, rest.hasPrefix("rows/") ? "detail" : "list")
        }
        if keys.contains("") { return ("", sitePath.hasPrefix("rows/") ? "detail" : "list") }
        return ("", "index")
    }

    private func events(_ request: Request) async throws -> Response {
        let parameters = request.uri.queryParameters
        let table = parameters.get("table") ?? ""
        let since =
            request.headers[HTTPField.Name("Last-Event-ID")!].flatMap { Int($0) }
            ?? parameters.get("since").flatMap { Int($0) }
        guard let stream = await site.subscribe(table: table, since: since) else {
            return Response(
                status: .serviceUnavailable,
                headers: [.retryAfter: "5", .contentType: "text/plain; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "too many open event streams\n")))
        }
        if request.method == .head {
            return Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody())
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                .init("X-Accel-Buffering")!: "no",
            ],
            body: ResponseBody { [site] writer in
                // A graceful shutdown waits for open responses: the streams end when it starts.
                try await withGracefulShutdownHandler {
                    for await wire in stream {
                        try await writer.write(ByteBuffer(string: wire))
                    }
                } onGracefulShutdown: {
                    Task { await site.stop() }
                }
                try await writer.finish(nil)
            })
    }

    private static func script(_ bytes: Data?, head: Bool) -> Response {
        guard let bytes else { return notFound() }
        let headers: HTTPFields = [
            .contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache",
            .contentLength: String(bytes.count),
        ]
        return Response(
            status: .ok, headers: headers,
            body: head ? ResponseBody() : ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    private static func notFound() -> Response {
        Response(
            status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "not found\n")))
    }

    private static func methodNotAllowed() -> Response {
        Response(status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .contentLength: "0"])
    }
}

/// The paths the live server answers besides the site's files.
enum LiveRoutes {
    static let events = "/_rowkit/events"
    static let script = "/_rowkit/live.js"
    static let listingScript = "/_rowkit/listing.js"
}
