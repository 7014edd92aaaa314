import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An output that cannot be replaced whole is exported in place: a mount point (a container's
/// volume, a tmpfs), or a folder of the user's inside a folder they cannot write
/// (`/var/www/html` in root's `/var/www`). The site is staged inside it and moved in a file at a
/// time; the user's files stay, rowkit's old ones go, nothing of rowkit's is left.
@Suite(.serialized) struct InPlaceExportTests {
    static let isRoot = getuid() == 0
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func copyListing(to folder: String) throws {
        try FileManager.default.copyItem(atPath: "Examples/settings.yaml", toPath: folder + "/s.yaml")
        try FileManager.default.copyItem(atPath: "Examples/icons", toPath: folder + "/icons")
    }

    /// Mounts a tmpfs on `folder`; `false` where mounting is not permitted (not root, a container
    /// without the capability).
    static func mountTmpfs(_ folder: String) -> Bool {
        guard isRoot,
            let run = try? RowKitTool.runProcess("/bin/mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", folder])
        else { return false }
        return run.status == 0
    }

    /// Whether a tmpfs can be mounted here (tried once on a scratch folder, and unmounted).
    static let canMount: Bool = {
        guard let scratch = try? TemporaryDirectory(), mountTmpfs(scratch.url.path) else { return false }
        _ = try? RowKitTool.runProcess("/bin/umount", [scratch.url.path])
        return true
    }()

    @Test(.enabled(if: canMount, "mounting a tmpfs is not permitted here (it needs root and the capability)"))
    func aMountPointIsExportedInPlaceKeepingTheUsersFiles() throws {
        let scratch = try TemporaryDirectory()
        try Self.copyListing(to: scratch.url.path)
        try FileManager.default.createDirectory(atPath: scratch.path("volume"), withIntermediateDirectories: true)
        try #require(Self.mountTmpfs(scratch.path("volume")))
        defer { _ = try? RowKitTool.runProcess("/bin/umount", [scratch.path("volume")]) }
        try "example.org\n".write(toFile: scratch.path("volume/CNAME"), atomically: false, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: scratch.path("volume/.rowkit-manifest.json"), contents: nil)

        let first = try RowKitTool.run(["export", "s.yaml", "-o", "volume", "-q"], in: scratch.url)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("volume/rows/wifi.html")))
        // The listing loses the Wi-Fi row's detail page: the re-export removes it, and only it.
        let listing = try String(contentsOfFile: scratch.path("s.yaml"), encoding: .utf8)
        try listing.replacingOccurrences(
            of: "image: icons/wifi.png\n        accessory: disclosureIndicator",
            with: "image: icons/wifi.png\n        accessory: none"
        ).write(toFile: scratch.path("s.yaml"), atomically: true, encoding: .utf8)
        let second = try RowKitTool.run(["export", "s.yaml", "-o", "volume"], in: scratch.url)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            second.stdout.contains("Removed 1 file this export no longer writes: rows/wifi.html"), "\(second.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("volume/rows/wifi.html")))
        #expect(try String(contentsOfFile: scratch.path("volume/CNAME"), encoding: .utf8) == "example.org\n")
        let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path("volume")).sorted()
        #expect(names == [".rowkit-manifest.json", "CNAME", "assets", "index.html", "rows", "search"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).sorted() == [
                "icons", "s.yaml", "volume",
            ])

        // A file of the user's where the site writes its own stops the export; nothing changes.
        try "mine\n".write(toFile: scratch.path("volume/page-2.html"), atomically: false, encoding: .utf8)
        let blocked = try RowKitTool.run(
            ["export", "s.yaml", "-o", "volume", "-q", "--page-size", "2"], in: scratch.url)
        #expect(blocked.status == 73)
        #expect(try String(contentsOfFile: scratch.path("volume/page-2.html"), encoding: .utf8) == "mine\n")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("volume/.rowkit-new")))
    }

    /// A move cut short by a crash (the staging folder holds a whole manifest) is finished by the
    /// next export; a folder of the user's named like the staging folder is kept, and stops it.
    @Test(.enabled(if: canMount, "mounting a tmpfs is not permitted here (it needs root and the capability)"))
    func aMoveCutShortIsFinishedAndALookAlikeFolderIsKept() throws {
        let scratch = try TemporaryDirectory()
        try Self.copyListing(to: scratch.url.path)
        try FileManager.default.createDirectory(atPath: scratch.path("volume"), withIntermediateDirectories: true)
        try #require(Self.mountTmpfs(scratch.path("volume")))
        defer { _ = try? RowKitTool.runProcess("/bin/umount", [scratch.path("volume")]) }
        #expect(try RowKitTool.run(["export", "s.yaml", "-o", "volume", "-q"], in: scratch.url).status == 0)
        // What a crash after the manifest was written leaves: a whole new site (of 2-row pages) staged.
        #expect(
            try RowKitTool.run(["export", "s.yaml", "-o", "staged", "-q", "--page-size", "2"], in: scratch.url).status
                == 0)
        _ = try RowKitTool.runProcess("/bin/cp", ["-a", scratch.path("staged"), scratch.path("volume/.rowkit-new")])
        let run = try RowKitTool.run(["export", "s.yaml", "-o", "volume", "-q", "--page-size", "2"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.path("volume/page-2.html")))
        #expect(!FileManager.default.fileExists(atPath: scratch.path("volume/.rowkit-new")))

        try FileManager.default.createDirectory(
            atPath: scratch.path("volume/.rowkit-new/deep"), withIntermediateDirectories: true)
        try "x\n".write(toFile: scratch.path("volume/.rowkit-new/thesis.txt"), atomically: false, encoding: .utf8)
        let blocked = try RowKitTool.run(["export", "s.yaml", "-o", "volume", "-q"], in: scratch.url)
        #expect(blocked.status == 73)
        #expect(blocked.stderr.contains(".rowkit-new' in it is not rowkit's"), "\(blocked.stderr)")
        #expect(try String(contentsOfFile: scratch.path("volume/.rowkit-new/thesis.txt"), encoding: .utf8) == "x\n")
    }

    /// Run as the user `nobody` (through setpriv), who owns the output but not its folder.
    @Test(.enabled(if: isRoot && setpriv != nil, "needs root and setpriv(1) to run as another user"))
    func aWritableOutputInAFolderTheUserCannotWriteIsExportedInPlace() throws {
        let scratch = try TemporaryDirectory()
        try Self.copyListing(to: scratch.url.path)
        let www = scratch.path("www")
        try FileManager.default.createDirectory(atPath: www + "/html", withIntermediateDirectories: true)
        #expect(chmod(scratch.url.path, 0o755) == 0 && chmod(www, 0o755) == 0)
        #expect(chown(www + "/html", 65534, 65534) == 0)
        let tool = try #require(RowKitTool.executable).path
        let asNobody = [
            "--reuid=65534", "--regid=65534", "--clear-groups", tool, "export", scratch.path("s.yaml"), "-o",
            www + "/html",
        ]
        let run = try RowKitTool.runProcess(try #require(Self.setpriv), asNobody, in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: www + "/html/index.html"))
        let again = try RowKitTool.runProcess(try #require(Self.setpriv), asNobody, in: scratch.url)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("(0 files written, 20 unchanged)"), "\(again.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: www) == ["html"])
        #expect(!FileManager.default.fileExists(atPath: www + "/html/.rowkit-new"))
        #expect(!FileManager.default.fileExists(atPath: www + "/html/.rowkit-lock"))
    }
}
