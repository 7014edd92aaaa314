/// The site writer receives the renderer's detail pages.
extension SiteWriter: PageSink {}
