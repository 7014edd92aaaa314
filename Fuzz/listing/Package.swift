// swift-tools-version:6.2
//
// The libFuzzer target for the streaming listing reader and the exporter. A package of its own because a
// fuzz target has no `main` (libFuzzer supplies it), so it only links when built with
// `swift build --sanitize=fuzzer`; the root package's plain `swift build` must not see it.
// Run through scripts/fuzz.sh.
import PackageDescription

let package = Package(
    name: "rowkit-fuzz-listing",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RowKit", path: "../..")],
    targets: [
        .executableTarget(
            name: "rowkit-fuzz-listing",
            dependencies: [
                .product(name: "RowKitListing", package: "RowKit"), .product(name: "RowKitHTML", package: "RowKit"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
