import Foundation
import Testing

@testable import RowKitHTML
@testable import RowKitListing

/// `ImageFile`: one open inside the document's folder, never out of it, size-limited, and an image
/// by its first bytes.
@Suite struct ImageFileTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)

    /// A document folder `doc/` with `pics/a.png`, and `secret.png` beside it (outside).
    static func folder() throws -> (TemporaryFolder, ImageFile.Folder) {
        let scratch = try TemporaryFolder()
        let doc = scratch.url.appendingPathComponent("doc")
        try FileManager.default.createDirectory(
            at: doc.appendingPathComponent("pics"), withIntermediateDirectories: true)
        try Data(png).write(to: doc.appendingPathComponent("pics/a.png"))
        try Data(png + Array("secret".utf8)).write(to: scratch.url.appendingPathComponent("secret.png"))
        return (scratch, try ImageFile.Folder(path: doc.path))
    }

    @Test func eachFormatIsKnownByItsSignature() {
        #expect(ImageFile.signature(of: Self.png) == .png)
        #expect(ImageFile.signature(of: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFile.signature(of: Array("GIF89a..".utf8)) == .gif)
        #expect(ImageFile.signature(of: Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == .webp)
        #expect(
            ImageFile.signature(of: [0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0] + Array("avifmif1".utf8))
                == .avif)
        #expect(
            ImageFile.signature(of: [0, 0, 0, 0x18] + Array("ftypmif1".utf8) + [0, 0, 0, 0] + Array("avif".utf8))
                == .avif)
        #expect(
            ImageFile.signature(of: [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 0, 0] + Array("mp41".utf8)) == nil
        )
        #expect(ImageFile.signature(of: Array("hello".utf8)) == nil)
        #expect(ImageFile.signature(of: []) == nil)
    }

    @Test func anImageInsideTheFolderIsReadWithItsFormat() throws {
        let (scratch, folder) = try Self.folder()
        defer { scratch.remove() }
        let image = try ImageFile.read("pics/a.png", in: folder)
        #expect(image.format == .png && image.bytes == Self.png)
        #expect(try ImageFile.check("./pics/../pics/a.png", in: folder) == .png)
    }

    @Test func aSymbolicLinkThatStaysInsideTheFolderIsFollowed() throws {
        let (scratch, folder) = try Self.folder()
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/current.png", withDestinationPath: "pics/a.png")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/images", withDestinationPath: "./pics")
        #expect(try ImageFile.read("current.png", in: folder).bytes == Self.png)
        #expect(try ImageFile.read("images/a.png", in: folder).bytes == Self.png)
    }

    @Test func pathsAndLinksLeadingOutOfTheFolderAreRefused() throws {
        let (scratch, folder) = try Self.folder()
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/up.png", withDestinationPath: "../secret.png")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/abs.png", withDestinationPath: scratch.url.path + "/secret.png")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/outside", withDestinationPath: "..")
        for path in ["../secret.png", "up.png", "abs.png", "outside/secret.png", "pics/../../secret.png"] {
            #expect(throws: ImageFile.Problem.outsideFolder, "\(path)") { try ImageFile.read(path, in: folder) }
        }
        for path in ["/etc/passwd.png", "~/x.png", "file:///x.png", "a\\b.png", "", "  "] {
            #expect(throws: ImageFile.Problem.notRelative, "\(path)") { try ImageFile.read(path, in: folder) }
        }
    }

    @Test func aTextFileNamedPNGAndAnSVGAreRefusedByTheirContent() throws {
        let (scratch, folder) = try Self.folder()
        defer { scratch.remove() }
        try "just some words\n".write(toFile: folder.path + "/note.png", atomically: true, encoding: .utf8)
        try "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"
            .write(toFile: folder.path + "/icon.png", atomically: true, encoding: .utf8)
        #expect(throws: ImageFile.Problem.notAnImage(found: "text")) { try ImageFile.read("note.png", in: folder) }
        #expect(throws: ImageFile.Problem.notAnImage(found: "an SVG file")) {
            try ImageFile.check("icon.png", in: folder)
        }
        #expect(ImageFile.Problem.notAnImage(found: "an SVG file").message.contains("convert it to PNG"))
    }

    @Test func aFileOverTheLimitIsRefusedBeforeItIsRead() throws {
        let (scratch, folder) = try Self.folder()
        defer { scratch.remove() }
        #expect(throws: ImageFile.Problem.tooLarge(size: Self.png.count, limit: 8)) {
            try ImageFile.read("pics/a.png", in: folder, sizeLimit: 8)
        }
        #expect(
            ImageFile.Problem.tooLarge(size: 3 * 1_048_576, limit: ImageFile.maximumSize).message
                == "is 3.0 MiB; images may be at most 16.0 MiB")
    }

    @Test func foldersPipesMissingFilesAndOtherExtensionsAreRefused() throws {
        let (scratch, folder) = try Self.folder()
        defer { scratch.remove() }
        try FileManager.default.createDirectory(atPath: folder.path + "/dir.png", withIntermediateDirectories: true)
        #expect(mkfifo(folder.path + "/pipe.png", 0o644) == 0)
        #expect(throws: ImageFile.Problem.notAFile) { try ImageFile.read("dir.png", in: folder) }
        #expect(throws: ImageFile.Problem.notAFile) { try ImageFile.read("pipe.png", in: folder) }
        #expect(throws: ImageFile.Problem.notFound) { try ImageFile.read("pics/missing.png", in: folder) }
        #expect(throws: ImageFile.Problem.notFound) { try ImageFile.read("nowhere/a.png", in: folder) }
        #expect(throws: ImageFile.Problem.unsupportedExtension) { try ImageFile.read("pics/a.txt", in: folder) }
    }

    @Test func aLoopOfLinksIsRefused() throws {
        let (scratch, folder) = try Self.folder()
        defer { scratch.remove() }
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/a", withDestinationPath: "b")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/b", withDestinationPath: "a")
        #expect(throws: ImageFile.Problem.tooManyLinks) { try ImageFile.read("a/x.png", in: folder) }
    }
}
