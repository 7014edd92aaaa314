// swift-tools-version:6.0
//
// RowKit: a model-driven table engine with a C core, a headless table view and a static HTML
// exporter.
//
// Compile flags (every one the package sets):
// - CCore, `-Wall -Wextra -Werror`: the C core builds clean with all warnings as errors.
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
        .library(name: "RowKitHTML", targets: ["RowKitHTML"]),
        .executable(name: "rowkit", targets: ["rowkit"]),
        .executable(name: "rowkit-bench", targets: ["rowkit-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        .target(
            name: "CCore",
            path: "CCore",
            cSettings: [
                .unsafeFlags(["-Wall", "-Wextra", "-Werror", "-std=c11"]),
                .define("RK_INTERNAL_CHECKS", .when(configuration: .debug)),
            ]
        ),
        .systemLibrary(
            name: "Ccmark",
            path: "Sources/Ccmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"]), .brew(["cmark"])]
        ),
        .target(name: "RowKit", dependencies: ["CCore"]),
        .target(
            name: "RowKitHTML",
            dependencies: [
                "RowKit", "Ccmark",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Yams", package: "Yams"),
            ],
            resources: [.copy("../../Templates")]
        ),
        // Mustache renders the benchmark report page from Templates/bench-report.mustache.
        .target(
            name: "RowKitBench",
            dependencies: ["RowKit", "RowKitHTML", .product(name: "Mustache", package: "swift-mustache")]),
        .executableTarget(name: "rowkit-bench", dependencies: ["RowKitBench"]),
        .executableTarget(
            name: "rowkit",
            dependencies: [
                "RowKit", "RowKitHTML", "RowKitBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RowKitTests", dependencies: ["RowKit", "CCore"]),
        .testTarget(
            name: "RowKitHTMLTests",
            dependencies: ["RowKitHTML", "RowKit"],
            // Fixtures and golden files are read from the source tree through #filePath.
            exclude: ["Fixtures", "Golden"]
        ),
        // Depends on the executable so `swift test` builds it; the tests run it as a subprocess.
        .testTarget(
            name: "rowkitTests", dependencies: ["rowkit", "RowKitHTML", "RowKit", "RowKitBench"],
            exclude: ["Fixtures", "Snapshots"]),
    ],
    swiftLanguageModes: [.v6]
)
