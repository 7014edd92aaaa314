import Foundation
import Testing

/// The built `rowkit` executable, run as a subprocess the way a person or a script runs it.
enum RowKitTool {
    /// What a run printed and how it ended.
    struct Run: Sendable {
        /// The exit status.
        var status: Int32
        /// Everything written to standard output.
        var stdout: String
        /// Everything written to standard error.
        var stderr: String
    }

    /// The package's root folder (where `Package.swift` is).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `Examples/` folder.
    static let examples = packageRoot.appendingPathComponent("Examples")

    /// The fixtures folder of these tests.
    static let fixtures = packageRoot.appendingPathComponent("Tests/rowkitTests/Fixtures")

    /// The executable: next to the test bundle in the products folder (`swift test` builds it,
    /// the test target depends on it), else in `.build/debug`.
    static let executable: URL? = {
        var candidates: [URL] = []
        for bundle in [Bundle.main] + Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("rowkit"))
            candidates.append(bundle.bundleURL.appendingPathComponent("rowkit"))
        }
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("rowkit"))
        }
        candidates.append(packageRoot.appendingPathComponent(".build/debug/rowkit"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs `rowkit arguments` in `directory` (default: the package root) with a fixed 80-column
    /// width, standard input empty, and both outputs captured through files.
    static func run(_ arguments: [String], in directory: URL = packageRoot) throws -> Run {
        let tool = try #require(executable, "the rowkit executable is not built")
        return try runProcess(tool.path, arguments, in: directory)
    }

    /// Runs any program as `run(_:in:)` does.
    static func runProcess(_ program: String, _ arguments: [String], in directory: URL = packageRoot) throws -> Run {
        let scratch = try TemporaryDirectory()
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "80"
        environment["LINES"] = "24"
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(
            status: process.terminationStatus,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }
}

/// A fresh folder under the system's temporary folder, removed when the value is released.
final class TemporaryDirectory: Sendable {
    /// The folder.
    let url: URL

    /// Creates the folder.
    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("rowkit-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Every file and folder under the folder, as sorted relative paths.
    func listing() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        return (enumerator?.allObjects as? [String] ?? []).sorted()
    }
}
