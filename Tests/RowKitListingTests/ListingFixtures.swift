import Foundation

/// Locates the listing fixture files next to the tests' sources.
enum ListingFixtures {
    /// `Tests/RowKitListingTests/Fixtures`.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The bytes of `name` under the fixture root, or empty data if it is missing.
    static func data(_ name: String) -> Data {
        (try? Data(contentsOf: root.appendingPathComponent(name))) ?? Data()
    }

    /// The broken documents, each with a sibling `.expected` file of diagnostic lines.
    static var brokenNames: [String] {
        let folder = root.appendingPathComponent("broken")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasSuffix(".expected") }.sorted()
    }
}
