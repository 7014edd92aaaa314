import Foundation
import Testing

/// Files and folders of the user's that carry the names rowkit uses beside a site while it
/// exports (`.<site>.rowkit-new`, `.<site>.rowkit-old`, `.<site>.rowkit-lock`): rowkit removes,
/// empties or renames only what proves it made it, and stops naming anything else.
@Suite struct NamesBesideTheSiteTests {
    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    static func scratchWithListing() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: "Examples/settings.yaml", toPath: scratch.path("s.yaml"))
        try FileManager.default.copyItem(atPath: "Examples/icons", toPath: scratch.path("icons"))
        return scratch
    }

    @Test func aFolderOfTheUsersNamedLikeTheTemporaryFolderIsKept() throws {
        let scratch = try Self.scratchWithListing()
        try FileManager.default.createDirectory(
            atPath: scratch.path(".c.rowkit-new/deep"), withIntermediateDirectories: true)
        try "x\n".write(toFile: scratch.path(".c.rowkit-new/thesis.txt"), atomically: false, encoding: .utf8)
        let run = try RowKitTool.run(["export", "s.yaml", "-o", "c", "-q"], in: scratch.url)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains(".c.rowkit-new' beside it is not rowkit's"), "\(run.stderr)")
        #expect(Self.read(scratch.path(".c.rowkit-new/thesis.txt")) == "x\n")
        #expect(FileManager.default.fileExists(atPath: scratch.path(".c.rowkit-new/deep")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("c")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path(".c.rowkit-lock")))
    }

    @Test func aFileOfTheUsersNamedLikeTheLockIsNeitherEmptiedNorRemoved() throws {
        let scratch = try Self.scratchWithListing()
        try "mine\n".write(toFile: scratch.path(".f.rowkit-lock"), atomically: false, encoding: .utf8)
        let run = try RowKitTool.run(["export", "s.yaml", "-o", "f", "-q"], in: scratch.url)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains(".f.rowkit-lock' beside it is not rowkit's lock file"), "\(run.stderr)")
        #expect(Self.read(scratch.path(".f.rowkit-lock")) == "mine\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("f")))
    }

    @Test func aFolderOfTheUsersNamedLikeTheBackupIsNotRenamedToTheSite() throws {
        let scratch = try Self.scratchWithListing()
        try FileManager.default.createDirectory(
            atPath: scratch.path(".d.rowkit-old"), withIntermediateDirectories: true)
        try "y\n".write(toFile: scratch.path(".d.rowkit-old/notes.txt"), atomically: false, encoding: .utf8)
        let run = try RowKitTool.run(["export", "s.yaml", "-o", "d", "-q"], in: scratch.url)
        #expect(run.status == 73, "\(run.stderr)")
        #expect(Self.read(scratch.path(".d.rowkit-old/notes.txt")) == "y\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("d")))
    }

    /// A lock file a killed export left (its process ID in it) is rowkit's: the next export takes
    /// it over and removes it.
    @Test func aLockFileAKilledExportLeftIsTakenOver() throws {
        let scratch = try Self.scratchWithListing()
        try "4242 rowkit lock\n".write(toFile: scratch.path(".g.rowkit-lock"), atomically: false, encoding: .utf8)
        let run = try RowKitTool.run(["export", "s.yaml", "-o", "g", "-q"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["g", "icons", "s.yaml"])
    }
}
