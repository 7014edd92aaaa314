// swift-tools-version:6.2
//
// An app that embeds RowKit as any package does: by URL, at a version tag.
//
// Where RowKit comes from:
// - `ROWKIT_URL`, when it is set: RowKit's repository, any URL git can clone (`https://…`,
//   `git@…`, `file:///path/to/RowKit`).
// - Otherwise the clone this folder sits in (`../..`), as a `file://` URL. SwiftPM clones it and
//   checks out the highest version tag in 0.1.0..<1.0.0, so tag the commit you want first
//   (`git tag 0.1.0`); uncommitted changes are not part of a tag.
//
// scripts/test-embedding.sh builds and runs this package against a temporary tagged clone.
import PackageDescription

/// The clone that holds this package: two folders up from the manifest.
func enclosingClone() -> String {
    var components = Context.packageDirectory.split(separator: "/", omittingEmptySubsequences: false)
    components.removeLast(2)
    return components.joined(separator: "/")
}

let rowKitURL = Context.environment["ROWKIT_URL"] ?? "file://" + enclosingClone()

/// How SwiftPM names a package fetched by URL: the URL's last path component without `.git`
/// (`RowKit` for `https://example.org/RowKit.git`), whatever the clone's folder is called.
let urlName = rowKitURL.split(separator: "/").last.map(String.init) ?? ""
let rowKitPackage = urlName.hasSuffix(".git") ? String(urlName.dropLast(4)) : urlName

let package = Package(
    name: "Embedding",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: rowKitURL, from: "0.1.0")
    ],
    targets: [
        .executableTarget(
            name: "embedding",
            dependencies: [
                .product(name: "RowKit", package: rowKitPackage),
                .product(name: "RowKitHTML", package: rowKitPackage),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
