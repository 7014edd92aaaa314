import Foundation
import RowKitBench
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Kills the exporter with SIGKILL at random points while it overwrites a site, and checks that the
/// site is always the previous one or the new one, whole, and never missing.
@Suite(.serialized, .timeLimit(.minutes(10))) struct InterruptedExportTests {
    /// Every regular file under `folder` with its bytes, by relative path; `nil` when `folder` does
    /// not exist.
    private static func snapshot(of folder: URL) -> [String: Data]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            return nil
        }
        var files: [String: Data] = [:]
        let paths = (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
        for path in paths {
            let url = folder.appendingPathComponent(path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue
            else {
                continue
            }
            files[path] = (try? Data(contentsOf: url)) ?? Data()
        }
        return files
    }

    /// A seeded generator, so a failing kill schedule can be replayed.
    private struct KillSchedule {
        var random: SplitMix64
        /// A delay in microseconds in `0..<limit`.
        mutating func delay(below limit: Int) -> useconds_t { useconds_t(random.below(max(limit, 1))) }
    }

    @Test func whenTheExporterIsKilledAtRandomPoints_thenTheSiteIsAlwaysTheOldOrTheNewOneWhole() throws {
        let tool = try #require(RowKitTool.executable, "the rowkit executable is not built")
        let scratch = try TemporaryDirectory()
        // Two listings of different sizes, so their sites differ in content and in file count.
        for (name, rows) in [("a.csv", 3_000), ("b.csv", 3_600)] {
            let run = try RowKitTool.run([
                "generate-example", "--rows", "\(rows)", "--format", "csv", "-o", scratch.path(name),
            ])
            #expect(run.status == 0, "\(run.stderr)")
        }
        func exportArguments(_ listing: String, to output: String) -> [String] {
            ["export", scratch.path(listing), "-o", output, "-q", "--section-by", "section", "--page-size", "100"]
        }
        // The two complete sites, exported without interruption, and how long one export takes.
        var expected: [String: [String: Data]] = [:]
        var exportMicroseconds = 0
        for listing in ["a.csv", "b.csv"] {
            let reference = scratch.path("reference-" + listing)
            let started = DispatchTime.now().uptimeNanoseconds
            let run = try RowKitTool.runProcess(tool.path, exportArguments(listing, to: reference))
            exportMicroseconds = max(exportMicroseconds, Int((DispatchTime.now().uptimeNanoseconds - started) / 1_000))
            try #require(run.status == 0, "\(run.stderr)")
            let snapshot = Self.snapshot(of: URL(fileURLWithPath: reference))
            try #require(snapshot != nil)
            expected[listing] = snapshot
        }
        #expect(expected["a.csv"] != expected["b.csv"])

        let site = URL(fileURLWithPath: scratch.path("site"))
        var current = "a.csv"
        try #require(try RowKitTool.runProcess(tool.path, exportArguments(current, to: site.path)).status == 0)
        #expect(Self.snapshot(of: site) == expected[current])

        var schedule = KillSchedule(random: SplitMix64(seed: 0x5EED_2026))
        let kills = 30
        var killedMidway = 0
        var becameNew = 0
        for _ in 0..<kills {
            let next = current == "a.csv" ? "b.csv" : "a.csv"
            let process = Process()
            process.executableURL = tool
            process.arguments = exportArguments(next, to: site.path)
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Anywhere from start-up to past a whole export.
            usleep(schedule.delay(below: exportMicroseconds * 3 / 2))
            let stillRunning = process.isRunning
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if stillRunning { killedMidway += 1 }

            let state = Self.snapshot(of: site)
            let isOld = state == expected[current]
            let isNew = state == expected[next]
            #expect(
                isOld || isNew,
                "after a kill the site is neither the old one nor the new one (\(state?.count ?? -1) files)")
            if isNew {
                current = next
                becameNew += 1
            }
        }
        // Whatever the kills left behind, the next export completes and cleans up.
        let final = current == "a.csv" ? "b.csv" : "a.csv"
        try #require(try RowKitTool.runProcess(tool.path, exportArguments(final, to: site.path)).status == 0)
        #expect(Self.snapshot(of: site) == expected[final])
        // What the kills left unfinished goes to the trash, which a process of its own removes.
        var leftovers: [String] = []
        let deadline = Date().addingTimeInterval(30)
        repeat {
            leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter {
                $0.hasPrefix(".site")
            }
            if leftovers.isEmpty { break }
            usleep(20_000)
        } while Date() < deadline
        #expect(leftovers.isEmpty, "leftover folders: \(leftovers)")
        #expect(killedMidway > 0, "no kill landed while the exporter ran")
        print(
            "interrupted-export: \(kills) SIGKILLs (\(killedMidway) mid-export, export ≈ \(exportMicroseconds / 1_000) ms),"
                + " site whole after every one (\(becameNew) times the new site)")
    }
}
