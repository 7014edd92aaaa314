import ServiceLifecycle

/// Ends a ``LiveSite``'s event streams when the application shuts down gracefully, which waits
/// for every open response to end: add it to the application's services.
///
/// ```swift
/// let app = Application(router: router, services: [LiveSiteService(site)])
/// ```
public struct LiveSiteService: Service {
    /// The site whose streams end.
    public let site: LiveSite

    /// A service that ends `site`'s streams at shutdown.
    public init(_ site: LiveSite) { self.site = site }

    public func run() async throws {
        try? await gracefulShutdown()
        await site.stop()
    }
}
