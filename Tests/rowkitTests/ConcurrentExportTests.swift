import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two exports to one folder at once, and exports stopped by a signal: the site is always whole,
/// and nothing is left beside it.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ConcurrentExportTests {
    /// Every regular file under `folder` with its bytes; `nil` when `folder` does not exist.
    static func snapshot(of folder: String) -> [String: Data]? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            return nil
        }
        var files: [String: Data] = [:]
        for path in (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String]) ?? [] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else {
                continue
            }
            files[path] = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))) ?? Data()
        }
        return files
    }

    static func start(_ arguments: [String], in folder: URL) throws -> (Process, URL) {
        let tool = try #require(RowKitTool.executable)
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = folder
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = folder.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        return (process, errors)
    }

    /// Two generated listings of different sizes and their sites exported alone.
    static func listings(in scratch: TemporaryDirectory, rows: [Int]) throws -> [[String: Data]] {
        var sites: [[String: Data]] = []
        for (index, count) in rows.enumerated() {
            let generate = try RowKitTool.run([
                "generate-example", "--rows", "\(count)", "--format", "csv", "-o", scratch.path("\(index).csv"),
            ])
            try #require(generate.status == 0, "\(generate.stderr)")
            let reference = try RowKitTool.run(arguments(index, scratch.path("reference-\(index)")), in: scratch.url)
            try #require(reference.status == 0, "\(reference.stderr)")
            sites.append(try #require(snapshot(of: scratch.path("reference-\(index)"))))
        }
        return sites
    }

    static func arguments(_ listing: Int, _ output: String, _ extra: [String] = []) -> [String] {
        ["export", "\(listing).csv", "-o", output, "-q", "--section-by", "section", "--page-size", "100"] + extra
    }

    @Test func tenRoundsOfTwoConcurrentExportsLeaveAWholeSiteEveryTime() throws {
        let scratch = try TemporaryDirectory()
        let sites = try Self.listings(in: scratch, rows: [3_000, 3_600])
        try FileManager.default.createDirectory(atPath: scratch.path("site"), withIntermediateDirectories: true)
        try "user file\n".write(toFile: scratch.path("site/CNAME"), atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: scratch.path("site/.rowkit-manifest.json"), contents: nil)
        for round in 0..<10 {
            // Even rounds wait for each other; odd rounds give --no-wait to the second.
            let (first, _) = try Self.start(Self.arguments(round % 2, "site"), in: scratch.url)
            let (second, errors) = try Self.start(
                Self.arguments(1 - round % 2, "site", round % 2 == 1 ? ["--no-wait"] : []), in: scratch.url)
            first.waitUntilExit()
            second.waitUntilExit()
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            var state = try #require(Self.snapshot(of: scratch.path("site")), "round \(round): the site is missing")
            #expect(state.removeValue(forKey: "CNAME") == Data("user file\n".utf8), "round \(round)")
            #expect(
                state == sites[0] || state == sites[1], "round \(round): the site is not whole (\(state.count) files)")
            #expect(first.terminationStatus == 0, "round \(round)")
            if round % 2 == 0 {
                #expect(second.terminationStatus == 0, "round \(round): \(message)")
            } else {
                #expect(second.terminationStatus == 0 || second.terminationStatus == 75, "round \(round): \(message)")
                if second.terminationStatus == 75 { #expect(message.contains("another export (process")) }
            }
            let beside = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter {
                $0.hasPrefix(".site")
            }
            #expect(beside.isEmpty, "round \(round): left beside the site: \(beside)")
        }
    }

    @Test func anExportWaitingForAnotherSaysSoUnlessQuiet() throws {
        let scratch = try TemporaryDirectory()
        _ = try Self.listings(in: scratch, rows: [50])
        for quiet in [false, true] {
            // The lock another export would hold, held here.
            let lock = open(scratch.path(".site.rowkit-lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            try #require(lock >= 0 && flock(lock, LOCK_EX) == 0)
            var arguments = Self.arguments(0, "site")
            if !quiet { arguments.removeAll { $0 == "-q" } }
            let (process, errors) = try Self.start(arguments, in: scratch.url)
            let deadline = Date().addingTimeInterval(quiet ? 2 : 60)
            while process.isRunning, Date() < deadline,
                !((try? String(contentsOf: errors, encoding: .utf8)) ?? "").contains("waiting")
            {
                usleep(10_000)
            }
            #expect(process.isRunning, "quiet: \(quiet): the export did not wait")
            close(lock)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            if quiet {
                #expect(message.isEmpty)
            } else {
                #expect(message.hasPrefix("rowkit: waiting for the export already writing to 'site'"), "\(message)")
            }
        }
    }

    /// What is beside the site in `scratch` (names starting with "."), once the removers that
    /// stopped exports started have had up to 30 seconds to finish.
    static func besideTheSite(in scratch: TemporaryDirectory) throws -> [String] {
        let deadline = Date().addingTimeInterval(30)
        var beside: [String]
        repeat {
            beside = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix(".") }
            if beside.isEmpty { break }
            usleep(20_000)
        } while Date() < deadline
        return beside
    }

    /// Starts exporting the larger listing over the site of the smaller one, and waits until it
    /// is writing its temporary folder.
    static func startSecondExport(in scratch: TemporaryDirectory) throws -> (Process, URL) {
        let (process, errors) = try start(arguments(1, "site"), in: scratch.url)
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, !FileManager.default.fileExists(atPath: scratch.path(".site.rowkit-new")),
            Date() < deadline
        {
            usleep(1_000)
        }
        usleep(100_000)
        try #require(process.isRunning, "the export ended before the signal")
        return (process, errors)
    }

    /// The message of an export stopped with what it wrote handed to a remover.
    static func isHandOffMessage(_ message: String, in scratch: TemporaryDirectory) -> Bool {
        let prefix =
            "rowkit: interrupted; the site was left as it was, and what the export wrote is being removed in the "
            + "background ('"
        guard message.hasPrefix(prefix), message.hasSuffix("')\n") else { return false }
        let trash = message.dropFirst(prefix.count).dropLast(3)
        let name = (String(trash) as NSString).lastPathComponent
        return name.hasPrefix(".site.rowkit-trash-") && name.count == ".site.rowkit-trash-".count + 8
    }

    @Test(arguments: [(SIGTERM, Int32(143)), (SIGINT, Int32(130)), (SIGHUP, Int32(129))] as [(Int32, Int32)])
    func aSignalDuringAnExportRemovesTheTemporaryFolderAndExitsWithItsStatus(_ signal: Int32, _ status: Int32) throws {
        let scratch = try TemporaryDirectory()
        let sites = try Self.listings(in: scratch, rows: [200, 20_000])
        #expect(try RowKitTool.run(Self.arguments(0, "site"), in: scratch.url).status == 0)
        let (process, errors) = try Self.startSecondExport(in: scratch)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationStatus == status)
        let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        #expect(Self.isHandOffMessage(message, in: scratch), "\(message)")
        #expect(Self.snapshot(of: scratch.path("site")) == sites[0], "the previous site is as it was")
        let beside = try Self.besideTheSite(in: scratch)
        #expect(beside.isEmpty, "left beside the site: \(beside)")
    }

    /// A second signal ends the process without waiting for the export to come back: its
    /// temporary folder still goes to the trash, the lock file is removed, and it says so. The
    /// export stopped has written a thousand detail pages or more, which take a while to remove:
    /// the second signal comes while they would be removed, were they not handed over.
    @Test func aSecondSignalStillHandsTheTemporaryFolderToARemoverAndRemovesTheLockFile() throws {
        let scratch = try TemporaryDirectory()
        let sites = try Self.listings(in: scratch, rows: [200])
        let generate = try RowKitTool.run([
            "generate-example", "--kind", "bodies", "--detail-pages", "--rows", "60000", "--format", "csv", "-o",
            scratch.path("1.csv"),
        ])
        try #require(generate.status == 0, "\(generate.stderr)")
        #expect(try RowKitTool.run(Self.arguments(0, "site"), in: scratch.url).status == 0)
        for _ in 0..<3 {
            let (process, errors) = try Self.startSecondExport(in: scratch)
            // Well into writing pages, long before the swap: once 1,000 detail pages are in the
            // temporary folder (a count of what was written, not a time, so a fast machine that
            // would finish 20,000 rows in a fixed wait cannot end the export first).
            let pages = scratch.path(".site.rowkit-new/rows")
            var waited = 0
            while (try? FileManager.default.contentsOfDirectory(atPath: pages).count) ?? 0 < 1_000, waited < 6_000,
                process.isRunning
            {
                usleep(10_000)
                waited += 1
            }
            try #require(process.isRunning, "the export ended before the signal")
            kill(process.processIdentifier, SIGTERM)
            usleep(30_000)
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            #expect(process.terminationStatus == 143)
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            #expect(Self.isHandOffMessage(message, in: scratch), "\(message)")
            let right = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter {
                $0 == ".site.rowkit-new" || $0 == ".site.rowkit-lock"
            }
            #expect(right.isEmpty, "left beside the site as the process ended: \(right)")
            #expect(Self.snapshot(of: scratch.path("site")) == sites[0], "the previous site is as it was")
            let beside = try Self.besideTheSite(in: scratch)
            #expect(beside.isEmpty, "left beside the site: \(beside)")
        }
    }
}
