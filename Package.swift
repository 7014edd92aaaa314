// swift-tools-version:6.2
//
// RowKit: a model-driven table engine with a C core, a headless table view and a static HTML
// exporter.
//
// The manifest sets no unsafe flags, so the package builds as a dependency fetched by URL.
// Warnings-as-errors (`-Wall -Wextra -Werror` for C, `-warnings-as-errors` for Swift) come from
// scripts/test.sh instead. Tools version 6.2 is the true minimum: `TableView` uses an
// `isolated deinit`, which Swift 6.2 introduced.
//
// Settings (every one the package sets):
// - C targets: C11 (`cLanguageStandard`).
// - CCore, `RK_INTERNAL_CHECKS` (debug builds only): compiles the invariant checkers
//   (`rk_offset_tree_check`, `rk_reuse_pool_check`) into real checks; in release builds they
//   return `RK_OK` without looking. The randomized tests call them after every step.
// - All Swift targets: Swift 6 language mode (strict concurrency), set by `swiftLanguageModes`.
import PackageDescription

let package = Package(
    name: "RowKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RowKit", targets: ["RowKit"]),
        .library(name: "RowKitListing", targets: ["RowKitListing"]),
        .library(name: "RowKitHTML", targets: ["RowKitHTML"]),
        .library(name: "RowKitServe", targets: ["RowKitServe"]),
        .executable(name: "rowkit", targets: ["rowkit"]),
        .executable(name: "rowkit-bench", targets: ["rowkit-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        // The live server of `rowkit serve` and RowKitServe, without its optional traits
        // (swift-configuration support, full Foundation): nothing here uses them.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0", traits: []),
        // HTTP field names the live server sets and reads (Hummingbird's own dependency).
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        // Graceful shutdown of the live server and its log level (Hummingbird's own dependencies).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "CCore",
            path: "CCore",
            cSettings: [.define("RK_INTERNAL_CHECKS", .when(configuration: .debug))]
        ),
        .systemLibrary(
            name: "Ccmark",
            path: "Sources/Ccmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        .systemLibrary(
            name: "Cyaml",
            path: "Sources/Cyaml",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
        ),
        // The exporter's atomic site swap (renameat2 RENAME_EXCHANGE / renamex_np RENAME_SWAP),
        // which Swift cannot call directly; see its header.
        .target(name: "CFileSwap"),
        .target(name: "RowKit", dependencies: ["CCore"]),
        // Listing files (YAML through libyaml's event API, JSON, CSV) read as a stream of rows.
        .target(name: "RowKitListing", dependencies: ["RowKit", "Cyaml"]),
        .target(
            name: "RowKitHTML",
            dependencies: [
                "RowKit", "RowKitListing", "Ccmark", "CFileSwap",
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            resources: [.copy("../../Templates")]
        ),
        // Live listings: serves a site over HTTP (Hummingbird) and pushes each table change to the
        // open pages. RowKit and RowKitHTML stay free of any server dependency.
        .target(
            name: "RowKitServe",
            dependencies: [
                "RowKit", "RowKitListing", "RowKitHTML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // The plain-C structures the offset tree is measured against (a Fenwick tree, a chunked
        // array): benchmark code, linked by RowKitBench only.
        .target(name: "CBenchReference"),
        // Mustache renders the benchmark report page from Templates/bench-report.mustache.
        .target(
            name: "RowKitBench",
            dependencies: [
                "RowKit", "RowKitListing", "RowKitHTML", "CBenchReference",
                .product(name: "Mustache", package: "swift-mustache"),
            ]),
        .executableTarget(name: "rowkit-bench", dependencies: ["RowKitBench"]),
        // Examples/LiveTable: the machine's processes, live in the browser through RowKitServe.
        .executableTarget(
            name: "LiveTable",
            dependencies: [
                "RowKit", "RowKitHTML", "RowKitServe", .product(name: "Hummingbird", package: "hummingbird"),
            ],
            path: "Examples/LiveTable"),
        .executableTarget(
            name: "rowkit",
            dependencies: [
                "RowKit", "RowKitListing", "RowKitHTML", "RowKitBench", "RowKitServe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "RowKitServeTests", dependencies: ["RowKitServe", "RowKit", "RowKitHTML", "RowKitListing"]),
        .testTarget(name: "RowKitTests", dependencies: ["RowKit", "RowKitBench", "CCore"]),
        .testTarget(
            name: "RowKitListingTests",
            dependencies: ["RowKitListing", "RowKit", "RowKitBench"],
            // Fixtures and golden files are read from the source tree through #filePath.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RowKitHTMLTests",
            dependencies: [
                "RowKitHTML", "RowKitListing", "RowKit", .product(name: "Mustache", package: "swift-mustache"),
            ],
            // Golden files are read from the source tree through #filePath.
            exclude: ["Golden"]
        ),
        // Depends on the executable so `swift test` builds it; the tests run it as a subprocess.
        .testTarget(
            name: "rowkitTests", dependencies: ["rowkit", "RowKitListing", "RowKitHTML", "RowKit", "RowKitBench"],
            exclude: ["Fixtures", "Snapshots"]),
    ],
    swiftLanguageModes: [.v6],
    cLanguageStandard: .c11
)
