import Testing

@testable import RowKitServe

@Suite struct RequestPathTests {
    @Test func whenAPathIsPlain_thenItNamesTheSiteFile() {
        #expect(RequestPath.sitePath("/") == "index.html")
        #expect(RequestPath.sitePath("/contacts/") == "contacts/index.html")
        #expect(RequestPath.sitePath("/contacts/rows/ada.html") == "contacts/rows/ada.html")
        #expect(RequestPath.sitePath("/assets/images/caf%C3%A9.png") == "assets/images/café.png")
    }

    @Test(arguments: [
        "/..", "/../x", "/a/../b", "/%2e%2e/x", "/.%2E/x", "/a%2fb", "/a%2Fb", "/a%5cb", "/a\\b", "/x%00.html",
        "/%zz", "/%e", "//etc/passwd", "/a//b", "relative", "", "/./x", "/%C3", "/a%0ab",
    ])
    func whenAPathCouldLeaveTheSiteOrIsMalformed_thenItIsRefused(_ path: String) {
        #expect(RequestPath.sitePath(Substring(path)) == nil)
    }
}
