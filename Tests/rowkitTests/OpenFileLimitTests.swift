import Foundation
import Testing

/// `rowkit export` under a low limit on open files (`ulimit -n`): it renders with fewer jobs
/// than asked when the limit cannot hold them, and names the limit when it cannot hold one; it
/// never fails half-way leaving a temporary folder behind.
@Suite struct OpenFileLimitTests {
    static func export(limit: Int, jobs: Int, in scratch: TemporaryDirectory) throws -> RowKitTool.Run {
        let tool = try #require(RowKitTool.executable).path
        let listing = RowKitTool.examples.appendingPathComponent("settings.yaml").path
        return try RowKitTool.runProcess(
            "/bin/sh",
            ["-c", "ulimit -n \(limit) && exec \(tool) export \(listing) -o site --jobs \(jobs)"],
            in: scratch.url)
    }

    @Test func aLowLimitRendersWithFewerJobs() throws {
        let scratch = try TemporaryDirectory()
        let run = try Self.export(limit: 24, jobs: 8, in: scratch)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("rowkit: note: rendering with --jobs "), "\(run.stderr)")
        #expect(run.stderr.contains("the limit on open files (ulimit -n) is 24"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["site"])
    }

    @Test func aLimitTooLowForOneJobIsNamedAndNothingIsWritten() throws {
        let scratch = try TemporaryDirectory()
        for limit in [8, 12] {
            let run = try Self.export(limit: limit, jobs: 8, in: scratch)
            #expect(run.status == 73, "\(run.stderr)")
            #expect(run.stderr.contains("the limit on open files (ulimit -n) is \(limit)"), "\(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == [])
        }
    }
}
