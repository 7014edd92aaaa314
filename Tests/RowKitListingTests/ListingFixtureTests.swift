import Foundation
import RowKitListing
import Testing

/// Golden diagnostics: every broken fixture yields exactly the lines in its `.expected` file.
///
/// Set `LISTING_UPDATE_GOLDEN=1` to rewrite the `.expected` files from the current output (then
/// review the diff).
struct ListingFixtureTests {
    @Test func everyBrokenFixtureHasAnExpectedFile() {
        #expect(ListingFixtures.brokenNames.count >= 20)
    }

    @Test(arguments: ListingFixtures.brokenNames)
    func whenABrokenDocumentIsValidated_thenItsDiagnosticsMatchTheGoldenLines(name: String) throws {
        let path = "broken/\(name)"
        let options = CSVListingOptions()
        let actual =
            ListingReader.validate(ListingFixtures.data(path), path: path, csv: options)
            .map(\.description).joined(separator: "\n") + "\n"
        let expectedURL = ListingFixtures.root.appendingPathComponent(path + ".expected")
        if ProcessInfo.processInfo.environment["LISTING_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: expectedURL, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(actual == expected)
    }
}
