import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rowkit generate-example -o`: the file is written through the path as given, as a shell's `>`
/// writes it; nothing that is not a regular file is replaced.
@Suite struct GenerateExampleTests {
    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    @Test func aSymbolicLinkStaysALinkAndItsTargetGetsTheListing() throws {
        let scratch = try TemporaryDirectory()
        try "old\n".write(toFile: scratch.path("target.yaml"), atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("link.yaml"), withDestinationPath: "target.yaml")
        let run = try RowKitTool.run(["generate-example", "--rows", "1", "-o", "link.yaml"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.path("link.yaml")) == "target.yaml")
        #expect(Self.read(scratch.path("target.yaml"))?.hasPrefix("version: 1") == true)
    }

    @Test func aHardLinkStaysLinkedToItsTwin() throws {
        let scratch = try TemporaryDirectory()
        try "old\n".write(toFile: scratch.path("a.yaml"), atomically: false, encoding: .utf8)
        #expect(link(scratch.path("a.yaml"), scratch.path("b.yaml")) == 0)
        let run = try RowKitTool.run(["generate-example", "--rows", "1", "-o", "b.yaml"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        var info = stat()
        #expect(stat(scratch.path("a.yaml"), &info) == 0 && info.st_nlink == 2)
        #expect(Self.read(scratch.path("a.yaml")) == Self.read(scratch.path("b.yaml")))
        #expect(Self.read(scratch.path("a.yaml"))?.hasPrefix("version: 1") == true)
    }

    /// A pipe, a device node (made only when running as root) and a folder are refused with
    /// status 73, and stay what they were.
    @Test func aPipeADeviceOrAFolderIsRefusedAndKept() throws {
        let scratch = try TemporaryDirectory()
        #expect(mkfifo(scratch.path("fifo"), 0o644) == 0)
        var targets = ["fifo", "."]
        #if os(Linux)
        // The null device's numbers (1, 3), made in the scratch folder only.
        if getuid() == 0, mknod(scratch.path("null"), S_IFCHR | 0o666, dev_t((1 << 8) | 3)) == 0 {
            targets.append("null")
        }
        #endif
        for target in targets {
            var before = stat()
            #expect(lstat(scratch.path(target), &before) == 0)
            let run = try RowKitTool.run(["generate-example", "--rows", "1", "-o", target], in: scratch.url)
            #expect(run.status == 73, "\(target): \(run.stderr)")
            #expect(run.stderr.contains("not a regular file"), "\(run.stderr)")
            var after = stat()
            #expect(lstat(scratch.path(target), &after) == 0)
            #expect(after.st_ino == before.st_ino && after.st_mode == before.st_mode, "\(target) was replaced")
        }
    }
}
