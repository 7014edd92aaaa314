import Foundation
import RowKitListing
import Testing

/// Image paths resolve inside the document's folder or are rejected at the `image` value.
struct ListingImagePathTests {
    /// A fresh folder: `doc/listing.json`, `doc/icons/wifi.png`, `doc/icons/dir/`,
    /// `doc/escape.png -> ../secret.png`, `doc/inner.png -> icons/wifi.png`, and `secret.png` outside.
    private func makeFolder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("listing-images-\(UUID().uuidString)")
        let doc = root.appendingPathComponent("doc")
        try FileManager.default.createDirectory(
            at: doc.appendingPathComponent("icons/dir"), withIntermediateDirectories: true)
        // The first bytes of a PNG image: the reader checks them, as the export does.
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8))
            .write(to: doc.appendingPathComponent("icons/wifi.png"))
        try Data("secret".utf8).write(to: root.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(
            atPath: doc.appendingPathComponent("escape.png").path, withDestinationPath: "../secret.png")
        try FileManager.default.createSymbolicLink(
            atPath: doc.appendingPathComponent("inner.png").path, withDestinationPath: "icons/wifi.png")
        return doc
    }

    private func diagnostics(image: String, in doc: URL) -> [String] {
        let json = #"{"sections": [{"rows": [{"text": "A", "image": "# + image + "}]}]}"
        let path = doc.appendingPathComponent("listing.json").path
        return ListingReader.validate(Data(json.utf8), path: path).map {
            "\($0.location.line):\($0.location.column): \($0.message)"
        }
    }

    @Test func whenAnImageIsInsideTheFolder_thenItResolvesToARealFileURL() throws {
        let doc = try makeFolder()
        defer { try? FileManager.default.removeItem(at: doc.deletingLastPathComponent()) }
        for image in ["icons/wifi.png", "./icons/../icons/wifi.png", "inner.png"] {
            let json = #"{"sections": [{"rows": [{"text": "A", "image": ""# + image + #""}]}]}"#
            let document = try ListingReader.read(Data(json.utf8), path: doc.appendingPathComponent("l.json").path)
            let url = try #require(document.allRows.first?.imageURL)
            #expect(url.lastPathComponent == "wifi.png")
            #expect(document.allRows.first?.image == image)
        }
    }

    @Test(arguments: [
        (#""../../etc/passwd""#, "image '../../etc/passwd' is outside the document's folder"),
        (#""icons/../../secret.png""#, "image 'icons/../../secret.png' is outside the document's folder"),
        (#""/etc/passwd""#, "image '/etc/passwd' must be relative to the document's folder, not absolute"),
        (#""file:///etc/passwd""#, "image 'file:///etc/passwd' must be a relative file path, not a 'file:' URL"),
        (
            #""http://example.org/a.png""#,
            "image 'http://example.org/a.png' must be a relative file path, not a 'http:' URL"
        ),
        (#""escape.png""#, "image 'escape.png' resolves outside the document's folder (through a symlink)"),
        (#""icons/missing.png""#, "image 'icons/missing.png' does not exist"),
        (#""icons/dir""#, "image 'icons/dir' is not a regular file"),
        (#""icons/wifi.png\u0000.txt""#, "'image' contains a NUL character"),
        (#""""#, "'image' is empty"),
    ])
    func whenAnImagePathEscapesOrIsNotAFile_thenItIsRejectedAtTheValue(image: String, message: String) throws {
        let doc = try makeFolder()
        defer { try? FileManager.default.removeItem(at: doc.deletingLastPathComponent()) }
        #expect(diagnostics(image: image, in: doc) == ["1:48: \(message)"])
    }
}
