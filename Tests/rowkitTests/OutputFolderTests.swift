import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `rowkit export` and the output folder, run as a user runs it: the user's files survive, odd
/// `-o` values get plain messages that say what to do, and a failed export leaves nothing behind.
@Suite struct OutputFolderTests {
    let manager = FileManager.default
    static var manager: FileManager { .default }

    static func write(_ text: String, _ path: String) throws {
        try manager.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    static func read(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    /// No raw error dumps, no internal folder names, no stack traces.
    static func expectPlain(_ run: RowKitTool.Run, sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in ["Error Domain", "NSCocoaErrorDomain", "rowkit-new", "rowkit-old", "Fatal error", "Stack dump"] {
            #expect(!run.stderr.contains(leak), "\(run.stderr)", sourceLocation: sourceLocation)
        }
        #expect(run.status < 128, "exit \(run.status)", sourceLocation: sourceLocation)
    }

    /// `..` in `-o` is resolved through the folders as they are, as every other tool resolves it:
    /// `link/..` is the folder that holds the link's target; a `..` after a folder that does not
    /// exist is refused.
    @Test func dotDotInTheOutputFollowsSymbolicLinks() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: scratch.path("real/sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch.path("work"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: scratch.path("work/link"), withDestinationPath: "../real/sub")
        let listing = RowKitTool.examples.appendingPathComponent("settings.yaml").path
        let run = try RowKitTool.run(
            ["export", listing, "-o", "link/../out", "-q"], in: scratch.url.appendingPathComponent("work"))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.manager.fileExists(atPath: scratch.path("real/out/index.html")))
        #expect(!Self.manager.fileExists(atPath: scratch.path("work/out")))

        let missing = try RowKitTool.run(
            ["export", listing, "-o", "nope/../out2", "-q"], in: scratch.url.appendingPathComponent("work"))
        #expect(missing.status == 73)
        #expect(
            missing.stderr.contains("nope' does not exist, so the '..' after it leads nowhere"), "\(missing.stderr)")
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.path("work")) == ["link"])
    }

    /// A manifest that cannot be read is named, with how to recover; it is not called a folder of
    /// files rowkit did not write.
    @Test func aDamagedManifestIsNamedWithHowToRecover() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: "Examples/settings.yaml", toPath: scratch.path("settings.yaml"))
        try FileManager.default.copyItem(atPath: "Examples/icons", toPath: scratch.path("icons"))
        #expect(try RowKitTool.run(["export", "settings.yaml", "-o", "s", "-q"], in: scratch.url).status == 0)
        try Self.write("{\"garbage\n", scratch.path("s/.rowkit-manifest.json"))
        let before = try Self.manager.contentsOfDirectory(atPath: scratch.path("s")).sorted()
        let run = try RowKitTool.run(["export", "settings.yaml", "-o", "s", "-q"], in: scratch.url)
        #expect(run.status == 73)
        #expect(
            run.stderr.contains(
                "its manifest s/.rowkit-manifest.json, which lists the files rowkit wrote there, is damaged"),
            "\(run.stderr)")
        #expect(run.stderr.contains("To recover, remove them"), "\(run.stderr)")
        #expect(!run.stderr.contains("were not written by rowkit"), "\(run.stderr)")
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.path("s")).sorted() == before)
        #expect(Self.read(scratch.path("s/.rowkit-manifest.json")) == "{\"garbage\n")
    }

    @Test func filesTheUserPutInTheSiteSurviveAndTheSummaryNamesWhatWasRemoved() throws {
        let scratch = try TemporaryDirectory()
        try FileManager.default.copyItem(atPath: "Examples/settings.yaml", toPath: scratch.path("settings.yaml"))
        try FileManager.default.copyItem(atPath: "Examples/icons", toPath: scratch.path("icons"))
        #expect(try RowKitTool.run(["export", "settings.yaml", "-o", "s", "-q"], in: scratch.url).status == 0)
        try Self.write("example.org\n", scratch.path("s/CNAME"))
        try Self.write("ref: refs/heads/gh-pages\n", scratch.path("s/.git/HEAD"))
        try FileManager.default.copyItem(atPath: scratch.path("settings.yaml"), toPath: scratch.path("s/settings.yaml"))

        // The listing loses the Wi-Fi row's body: its detail page is no longer written.
        let listing = try #require(Self.read(scratch.path("settings.yaml")))
        let withoutWiFiPage = listing.replacingOccurrences(
            of: "image: icons/wifi.png\n        accessory: disclosureIndicator",
            with: "image: icons/wifi.png\n        accessory: none")
        #expect(withoutWiFiPage != listing)
        try withoutWiFiPage.write(toFile: scratch.path("settings.yaml"), atomically: true, encoding: .utf8)
        let run = try RowKitTool.run(["export", "settings.yaml", "-o", "s"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.read(scratch.path("s/CNAME")) == "example.org\n")
        #expect(Self.read(scratch.path("s/.git/HEAD")) == "ref: refs/heads/gh-pages\n")
        #expect(Self.read(scratch.path("s/settings.yaml")) == listing)
        #expect(!Self.manager.fileExists(atPath: scratch.path("s/rows/wifi.html")))
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasSuffix(", 1 removed)"))
        #expect(lines[1] == "Removed 1 file this export no longer writes: rows/wifi.html")
        #expect(
            try Self.manager.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["icons", "s", "settings.yaml"])
    }

    @Test func aFileOfTheUsersWhereTheExportWritesStopsItNamingTheFile() throws {
        let scratch = try TemporaryDirectory()
        #expect(
            try RowKitTool.run(["export", "Examples/contacts.json", "-o", scratch.path("s"), "-q", "--page-size", "20"])
                .status == 0)
        try Self.write("my page", scratch.path("s/page-2.html"))
        let run = try RowKitTool.run(["export", "Examples/contacts.json", "-o", scratch.path("s"), "--page-size", "5"])
        #expect(run.status == 73)
        #expect(run.stderr.contains("page-2.html"))
        #expect(run.stderr.contains("Move or rename it, then export again"))
        Self.expectPlain(run)
        #expect(Self.read(scratch.path("s/page-2.html")) == "my page")

        // The name the manifest is written under before it is renamed into place is one too.
        try Self.manager.moveItem(atPath: scratch.path("s/page-2.html"), toPath: scratch.path("s/mine.html"))
        try Self.write("my notes", scratch.path("s/.rowkit-manifest.json.partial"))
        let partial = try RowKitTool.run([
            "export", "Examples/contacts.json", "-o", scratch.path("s"), "--page-size", "5",
        ])
        #expect(partial.status == 73)
        #expect(partial.stderr.contains("would replace it: .rowkit-manifest.json.partial. Move"), "\(partial.stderr)")
        #expect(Self.read(scratch.path("s/.rowkit-manifest.json.partial")) == "my notes")
    }

    @Test func aFolderRowKitNeverWroteIsRefusedWithWhatToDoInstead() throws {
        let scratch = try TemporaryDirectory()
        try Self.write("notes", scratch.path("docs/notes.txt"))
        let run = try RowKitTool.run(
            ["export", RowKitTool.packageRoot.path + "/Examples/settings.yaml", "-o", "docs"], in: scratch.url)
        #expect(run.status == 73)
        #expect(run.stderr.contains("Export into a new or empty folder"))
        #expect(run.stderr.contains("touch docs/.rowkit-manifest.json"))
        Self.expectPlain(run)
        // Doing what it says works, and keeps the folder's files.
        _ = Self.manager.createFile(atPath: scratch.path("docs/.rowkit-manifest.json"), contents: nil)
        let adopted = try RowKitTool.run(
            ["export", RowKitTool.packageRoot.path + "/Examples/settings.yaml", "-o", "docs", "-q"], in: scratch.url)
        #expect(adopted.status == 0, "\(adopted.stderr)")
        #expect(Self.read(scratch.path("docs/notes.txt")) == "notes")
    }

    /// A manifest entry that leads out of the site stops the export: the message names the
    /// manifest and the entry, nothing is removed, and no removal is reported.
    @Test func whenTheManifestListsAFileOutsideTheSite_thenTheExportStopsWithStatus73AndRemovesNothing() throws {
        let scratch = try TemporaryDirectory()
        let examples = RowKitTool.packageRoot.path + "/Examples/"
        try Self.write("precious\n", scratch.path("out2/keep.txt"))
        #expect(
            try RowKitTool.run(["export", examples + "settings.yaml", "-o", "site", "-q"], in: scratch.url).status == 0)
        let manifest = scratch.path("site/.rowkit-manifest.json")
        let listed = try #require(Self.read(manifest))
        try listed.replacingOccurrences(
            of: "\"files\":[\n", with: "\"files\":[\n[\"../out2/keep.txt\",\"0000000000000000\",9],\n"
        ).write(toFile: manifest, atomically: false, encoding: .utf8)
        let before = try Self.manager.subpathsOfDirectory(atPath: scratch.path("site")).sorted()

        // Another listing (the site changes) and the same one (the site would be kept whole).
        for listing in ["contacts.json", "settings.yaml"] {
            let run = try RowKitTool.run(["export", examples + listing, "-o", "site"], in: scratch.url)
            #expect(run.status == 73, "\(listing): \(run.stderr)")
            #expect(
                run.stderr.contains(
                    "its manifest site/.rowkit-manifest.json lists \"../out2/keep.txt\", which has a '..' component"),
                "\(run.stderr)")
            #expect(run.stderr.contains("nothing was changed"))
            #expect(!run.stdout.contains("Removed"))
            Self.expectPlain(run)
            #expect(Self.read(scratch.path("out2/keep.txt")) == "precious\n")
            #expect(try Self.manager.subpathsOfDirectory(atPath: scratch.path("site")).sorted() == before)
            #expect(try Self.manager.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["out2", "site"])
        }
    }

    @Test func anOutputThatIsASymbolicLinkKeepsTheLink() throws {
        let scratch = try TemporaryDirectory()
        try Self.manager.createDirectory(atPath: scratch.path("www"), withIntermediateDirectories: true)
        try Self.manager.createSymbolicLink(atPath: scratch.path("link"), withDestinationPath: "www")
        for _ in 0..<2 {
            let run = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", scratch.path("link"), "-q"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try Self.manager.destinationOfSymbolicLink(atPath: scratch.path("link")) == "www")
        #expect(Self.manager.fileExists(atPath: scratch.path("www/index.html")))
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["link", "www"])
    }

    @Test func oddOutputsGetPlainMessagesThatSayWhatToDo() throws {
        let scratch = try TemporaryDirectory()
        try Self.write("x", scratch.path("file"))
        let empty = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", ""])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("--output is empty; name the folder to write the site to, for example -o site"))

        try Self.manager.createDirectory(atPath: scratch.path("here"), withIntermediateDirectories: true)
        let dot = try RowKitTool.run(
            ["export", RowKitTool.packageRoot.path + "/Examples/settings.yaml", "-o", "."],
            in: URL(fileURLWithPath: scratch.path("here")))
        #expect(dot.status == 64)
        #expect(dot.stderr.contains("it is the current folder") && dot.stderr.contains("cd .. && rowkit export"))
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.path("here")).isEmpty)

        let inFile = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", scratch.path("file/site")])
        #expect(inFile.status == 73)
        #expect(
            inFile.stderr
                == "rowkit: cannot write the site to '\(scratch.path("file/site"))': '\(scratch.path("file"))' is a file, not a folder; choose another output folder (-o)\n"
        )

        let proc = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", "/proc/site"])
        #expect(proc.status == 73)
        #expect(proc.stderr.hasPrefix("rowkit: cannot write the site to '/proc/site': cannot create files in '/proc'"))

        let tooLong = try RowKitTool.run([
            "export", "Examples/settings.yaml", "-o", scratch.path(String(repeating: "n", count: 300)),
        ])
        #expect(tooLong.status == 73)
        #expect(tooLong.stderr.contains("is 300 bytes long; names may be at most 255 bytes"))

        let longest = String(repeating: "l", count: 255)
        let long = try RowKitTool.run(["export", "Examples/settings.yaml", "-o", scratch.path(longest), "-q"])
        #expect(long.status == 0, "\(long.stderr)")
        for run in [empty, dot, inFile, proc, tooLong, long] { Self.expectPlain(run) }
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.url.path).sorted() == ["file", "here", longest])
    }

    @Test func aFailedExportCreatesNoMissingParentFolders() throws {
        let scratch = try TemporaryDirectory()
        try Self.write("not an image\n", scratch.path("doc/icon.png"))
        try Self.write(
            "version: 1\nsections:\n  - rows:\n      - text: A\n        image: icon.png\n",
            scratch.path("doc/listing.yaml"))
        let run = try RowKitTool.run(["export", "doc/listing.yaml", "-o", "new/deeper/site"], in: scratch.url)
        #expect(run.status == 65)
        #expect(
            run.stderr == "doc/listing.yaml:5:16: image 'icon.png' is text, not a PNG, JPEG, GIF, WebP or AVIF image\n")
        #expect(!Self.manager.fileExists(atPath: scratch.path("new")))
    }

    @Test func imagesAreResolvedInTheirOwnDocumentsFolder() throws {
        let scratch = try TemporaryDirectory()
        try Self.manager.createDirectory(atPath: scratch.path("a/icons"), withIntermediateDirectories: true)
        try Self.manager.createDirectory(atPath: scratch.path("b"), withIntermediateDirectories: true)
        try Self.manager.copyItem(atPath: "Examples/icons/wifi.png", toPath: scratch.path("a/icons/wifi.png"))
        try Self.write(
            "version: 1\ntitle: A\nsections:\n  - rows:\n      - text: A\n        image: icons/wifi.png\n",
            scratch.path("a/a.yaml"))
        try Self.write("version: 1\ntitle: B\nsections:\n  - rows:\n      - text: B\n", scratch.path("b/b.yaml"))
        let run = try RowKitTool.run(["export", "a/a.yaml", "b/b.yaml", "-o", "site", "-q"], in: scratch.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.path("site/assets/images")).count == 1)
    }

    @Test func aSymbolicLinkSwappedInDuringALongExportDoesNotLeakItsTarget() throws {
        let scratch = try TemporaryDirectory()
        let png = try Data(contentsOf: RowKitTool.examples.appendingPathComponent("icons/wifi.png"))
        let marker = Data("SECRET-OUTSIDE-THE-DOCUMENT".utf8)
        try Self.manager.createDirectory(atPath: scratch.path("doc/pics"), withIntermediateDirectories: true)
        try Self.manager.createDirectory(atPath: scratch.path("secret"), withIntermediateDirectories: true)
        try png.write(to: URL(fileURLWithPath: scratch.path("doc/pics/a.png")))
        try (png + marker).write(to: URL(fileURLWithPath: scratch.path("secret/a.png")))
        // Many rows first, the image on the last one; a second input in a sibling folder makes
        // their common folder the one that holds the secret.
        var yaml = "version: 1\nsections:\n  - rows:\n"
        for number in 0..<40_000 { yaml += "      - { id: r\(number), text: Row \(number) }\n" }
        yaml += "      - { id: last, text: Last, image: pics/a.png }\n"
        try Self.write(yaml, scratch.path("doc/listing.yaml"))
        try Self.write(
            "version: 1\ntitle: Other\nsections:\n  - rows:\n      - text: Other\n", scratch.path("other/other.yaml"))

        let tool = try #require(RowKitTool.executable)
        let process = Process()
        process.executableURL = tool
        process.arguments = ["export", "doc/listing.yaml", "other/other.yaml", "-o", "site", "-q", "--page-size", "50"]
        process.currentDirectoryURL = scratch.url
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Once the export is writing, the image's folder becomes a link to the secret folder.
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning, !Self.manager.fileExists(atPath: scratch.path(".site.rowkit-new")), Date() < deadline {
            usleep(2_000)
        }
        let swapped = process.isRunning
        try Self.manager.moveItem(atPath: scratch.path("doc/pics"), toPath: scratch.path("doc/pics-old"))
        try Self.manager.createSymbolicLink(atPath: scratch.path("doc/pics"), withDestinationPath: "../secret")
        process.waitUntilExit()
        #expect(swapped, "the export ended before the link was swapped in")
        #expect(process.terminationStatus == 65, "the image behind the link is refused")
        for path in (Self.manager.enumerator(atPath: scratch.path("site"))?.allObjects as? [String]) ?? [] {
            let data = (try? Data(contentsOf: URL(fileURLWithPath: scratch.path("site/" + path)))) ?? Data()
            #expect(data.range(of: marker) == nil, "\(path) holds the secret")
        }
        #expect(!Self.manager.fileExists(atPath: scratch.path("site")))
    }

    /// An image replaced by a symbolic link that leads out of the listing's folder, to a file of
    /// the same bytes, is refused by a re-export as by a first export: the unchanged site is not
    /// kept on the strength of a file read through the link.
    @Test func anImageLinkedOutOfItsFolderIsRefusedByAReexportOfAnUnchangedSite() throws {
        let scratch = try TemporaryDirectory()
        try Self.manager.createDirectory(atPath: scratch.path("doc/icons"), withIntermediateDirectories: true)
        try Self.manager.createDirectory(atPath: scratch.path("outside"), withIntermediateDirectories: true)
        try Self.manager.copyItem(atPath: "Examples/icons/wifi.png", toPath: scratch.path("outside/wifi.png"))
        try Self.manager.copyItem(atPath: "Examples/icons/wifi.png", toPath: scratch.path("doc/icons/wifi.png"))
        try Self.write(
            "version: 1\nsections:\n  - rows:\n      - text: A\n        image: icons/wifi.png\n",
            scratch.path("doc/listing.yaml"))
        #expect(try RowKitTool.run(["export", "doc/listing.yaml", "-o", "site", "-q"], in: scratch.url).status == 0)
        let before = try Self.manager.subpathsOfDirectory(atPath: scratch.path("site")).sorted()
        try Self.manager.removeItem(atPath: scratch.path("doc/icons/wifi.png"))
        try Self.manager.createSymbolicLink(
            atPath: scratch.path("doc/icons/wifi.png"), withDestinationPath: "../../outside/wifi.png")

        let fresh = try RowKitTool.run(["export", "doc/listing.yaml", "-o", "fresh"], in: scratch.url)
        #expect(fresh.status == 65)
        let again = try RowKitTool.run(["export", "doc/listing.yaml", "-o", "site"], in: scratch.url)
        #expect(again.status == 65, "\(again.stdout)")
        #expect(again.stderr == fresh.stderr)
        #expect(again.stderr.contains("doc/listing.yaml:5:16: image 'icons/wifi.png'"), "\(again.stderr)")
        #expect(try Self.manager.subpathsOfDirectory(atPath: scratch.path("site")).sorted() == before)
    }

    /// A folder of the user's named like the manifest stops the export as any file of the user's
    /// in the way does, and stays in the site.
    @Test func aFolderOfTheUsersWhereTheManifestGoesStopsTheExport() throws {
        let scratch = try TemporaryDirectory()
        try Self.write("mine\n", scratch.path("s/.rowkit-manifest.json/notes.txt"))
        try Self.write("example.org\n", scratch.path("s/CNAME"))
        let run = try RowKitTool.run(["export", "Examples/contacts.json", "-o", scratch.path("s")])
        #expect(run.status == 73)
        #expect(run.stderr.contains("would replace it: .rowkit-manifest.json/. Move or rename it"), "\(run.stderr)")
        Self.expectPlain(run)
        #expect(Self.read(scratch.path("s/.rowkit-manifest.json/notes.txt")) == "mine\n")
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.url.path) == ["s"])
        #expect(
            try Self.manager.contentsOfDirectory(atPath: scratch.path("s")).sorted() == [
                ".rowkit-manifest.json", "CNAME",
            ])
    }

    @Test func aTextFileNamedPNGIsRefusedByExportAndValidate() throws {
        let scratch = try TemporaryDirectory()
        try Self.write("hello, I am text\n", scratch.path("icon.png"))
        try Self.write(
            "version: 1\nsections:\n  - rows:\n      - text: A\n        image: icon.png\n", scratch.path("listing.yaml")
        )
        let run = try RowKitTool.run(["export", "listing.yaml", "-o", "site"], in: scratch.url)
        #expect(run.status == 65)
        #expect(run.stderr == "listing.yaml:5:16: image 'icon.png' is text, not a PNG, JPEG, GIF, WebP or AVIF image\n")
        // validate refuses it the same way, at the same place.
        let validate = try RowKitTool.run(["validate", "listing.yaml"], in: scratch.url)
        #expect(validate.status == 65 && validate.stderr == run.stderr)
        #expect(!Self.manager.fileExists(atPath: scratch.path("site")))
    }

    /// How to run the tool so that folder permissions apply to it: as it is when the tests do not
    /// run as root, else as `nobody` through setpriv(1) (root ignores permissions); `nil` when
    /// neither works here.
    static let unprivileged: (program: String, prefix: [String])? = {
        guard let tool = RowKitTool.executable?.path else { return nil }
        guard geteuid() == 0 else { return (tool, []) }
        let setpriv = "/usr/bin/setpriv"
        let prefix = ["--reuid=65534", "--regid=65534", "--clear-groups", tool]
        guard FileManager.default.isExecutableFile(atPath: setpriv),
            (try? RowKitTool.runProcess(setpriv, prefix + ["--version"]))?.status == 0
        else { return nil }
        return (setpriv, prefix)
    }()

    /// A read-only folder of the user's in the site is kept by every export, and neither a
    /// re-export nor one stopped by a file in the way leaves anything beside the site that would
    /// stop the next export.
    @Test(.enabled(if: unprivileged != nil, "needs a user whom folder permissions apply to"))
    func aReadOnlyFolderOfTheUsersIsKeptAndLeavesNothingBehind() throws {
        let (program, prefix) = try #require(Self.unprivileged)
        let scratch = try TemporaryDirectory()
        _ = chmod(scratch.url.path, 0o777)
        func export(_ arguments: [String]) throws -> RowKitTool.Run {
            try RowKitTool.runProcess(
                program, prefix + ["export", RowKitTool.examples.path + "/settings.yaml", "-o", "s"] + arguments,
                in: scratch.url)
        }
        #expect(try export(["-q"]).status == 0)
        try Self.write("mine\n", scratch.path("s/docs/a.txt"))
        // The user's, as the folder of a user's own site is.
        if geteuid() == 0 {
            for path in ["s/docs", "s/docs/a.txt"] { _ = chown(scratch.path(path), 65534, 65534) }
        }
        _ = chmod(scratch.path("s/docs"), 0o555)
        defer { _ = chmod(scratch.path("s/docs"), 0o755) }

        let reexport = try export(["-q", "--page-size", "3"])
        #expect(reexport.status == 0, "\(reexport.stderr)")
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.url.path) == ["s"])

        try Self.write("my page\n", scratch.path("s/page-7.html"))
        let inTheWay = try export(["-q", "--page-size", "2"])
        #expect(inTheWay.status == 73)
        #expect(inTheWay.stderr.contains("page-7.html"))
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.url.path) == ["s"])

        try Self.manager.moveItem(atPath: scratch.path("s/page-7.html"), toPath: scratch.path("s/mine.html"))
        let after = try export(["-q", "--page-size", "2"])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(try Self.manager.contentsOfDirectory(atPath: scratch.url.path) == ["s"])
        #expect(Self.read(scratch.path("s/docs/a.txt")) == "mine\n")
        #expect(try Self.manager.attributesOfItem(atPath: scratch.path("s/docs"))[.posixPermissions] as? Int == 0o555)
    }
}
