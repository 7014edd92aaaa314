import Foundation
import RowKitListing

/// The reader's results as readable text, so a golden file pins exactly what a listing reads as:
/// every section and row with every field and position, or every diagnostic.
enum ReaderGolden {
    /// The package's root folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The folder of the golden files.
    static let folder = packageRoot.appendingPathComponent("Tests/RowKitListingTests/Fixtures/golden")

    /// A file read with some options, and the name of its golden file.
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        /// The input, relative to the package root.
        var path: String
        var format: ListingFormat? = nil
        var csv = CSVListingOptions()

        var description: String { name }
    }

    /// Every fixture and example, plus the crafted corpus, with the options each is read with.
    static var cases: [Case] {
        var cases: [Case] = []
        let listing = "Tests/RowKitListingTests/Fixtures"
        for sub in ["valid", "broken", "corpus"] {
            for file in files(in: "\(listing)/\(sub)") {
                cases.append(Case(name: "\(sub)-\(file)", path: "\(listing)/\(sub)/\(file)"))
            }
        }
        for file in files(in: "Tests/rowkitTests/Fixtures/broken") {
            cases.append(Case(name: "cli-\(file)", path: "Tests/rowkitTests/Fixtures/broken/\(file)"))
        }
        for file in files(in: "Examples") where ListingFormat(pathExtension: (file as NSString).pathExtension) != nil {
            cases.append(Case(name: "example-\(file)", path: "Examples/\(file)"))
        }
        let catalogue = CSVListingOptions(
            sectionBy: "category", text: "name", detail: "price", body: "description", id: "sku", style: "layout",
            sort: true, title: "Catalogue")
        var unsorted = catalogue
        unsorted.sort = false
        cases += [
            Case(name: "example-catalogue-readme", path: "Examples/catalogue.csv", csv: catalogue),
            Case(name: "example-catalogue-unsorted", path: "Examples/catalogue.csv", csv: unsorted),
            Case(
                name: "valid-contacts-columns", path: "\(listing)/valid/contacts.csv",
                csv: CSVListingOptions(sectionBy: "group", text: "name", detail: "phone", body: "notes")),
            Case(
                name: "corpus-noncontiguous-grouped", path: "\(listing)/corpus/noncontiguous.csv",
                csv: CSVListingOptions(sectionBy: "group", id: "id")),
            Case(
                name: "corpus-noncontiguous-sorted", path: "\(listing)/corpus/noncontiguous.csv",
                csv: CSVListingOptions(sectionBy: "group", sort: true, title: "Sorted", tableStyle: .plain)),
            Case(
                name: "corpus-sorted-groups-sorted", path: "\(listing)/corpus/sorted-groups.csv",
                csv: CSVListingOptions(sectionBy: "group", sort: true)),
            Case(
                name: "corpus-sorted-groups-grouped", path: "\(listing)/corpus/sorted-groups.csv",
                csv: CSVListingOptions(sectionBy: "group")),
            Case(
                name: "corpus-explicit-columns-mapped", path: "\(listing)/corpus/explicit-columns.csv",
                csv: CSVListingOptions(
                    sectionBy: "section", text: "name", body: "info", image: "pic", id: "sku", style: "kind",
                    accessory: "acc", link: "url")),
            Case(
                name: "corpus-explicit-columns-missing", path: "\(listing)/corpus/explicit-columns.csv",
                csv: CSVListingOptions(sectionBy: "nope", text: "nope2", detail: "gone")),
            Case(
                name: "corpus-derived-conflict-grouped", path: "\(listing)/corpus/derived-conflict.csv",
                csv: CSVListingOptions(sectionBy: "group", id: "id")),
            Case(
                name: "corpus-derived-conflict-sorted", path: "\(listing)/corpus/derived-conflict.csv",
                csv: CSVListingOptions(sectionBy: "group", id: "id", sort: true)),
            Case(
                name: "corpus-duplicate-ids-grouped", path: "\(listing)/corpus/duplicate-ids.csv",
                csv: CSVListingOptions(sectionBy: "group", id: "id")),
            Case(name: "corpus-settings-as-json", path: "\(listing)/valid/settings.yaml", format: .json),
            Case(name: "corpus-settings-json-as-yaml", path: "\(listing)/valid/settings.json", format: .yaml),
            Case(name: "corpus-contacts-as-yaml", path: "\(listing)/valid/contacts.csv", format: .yaml),
        ]
        return cases
    }

    /// The listing files in a folder of the package (golden files and expectations left out).
    static func files(in folder: String) -> [String] {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(folder).path))
            ?? []
        return names.filter { !$0.hasSuffix(".expected") && !$0.hasSuffix(".txt") && !$0.hasSuffix(".md") }
            .filter { name in
                var isFolder: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: packageRoot.appendingPathComponent(folder).appendingPathComponent(name).path,
                    isDirectory: &isFolder)
                return exists && !isFolder.boolValue
            }
            .sorted()
    }

    /// What reading `item` gives, as golden text; paths are shown relative to the package root.
    /// The file is read `bufferSize` bytes at a time.
    static func text(of item: Case, bufferSize: Int = 1 << 20) -> String {
        let path = packageRoot.appendingPathComponent(item.path).path
        var reader = ListingReader(contentsOfFile: path, format: item.format, csv: item.csv)
        reader.bufferSize = bufferSize
        return text(of: reader.document(), root: packageRoot.path + "/")
    }

    /// A document as text (every field and position), or the diagnostics one per line.
    static func text(of result: Result<ListingDocument, ListingError>, root: String) -> String {
        func relative(_ text: String) -> String { text.replacingOccurrences(of: root, with: "") }
        switch result {
        case .failure(let error):
            return "error\n" + error.diagnostics.map { relative($0.description) + "\n" }.joined()
        case .success(let document):
            var out = "document \(relative(document.path))\n"
            out += "title \(document.title.debugDescription)\nversion \(document.version)\nstyle \(document.style)\n"
            let folder =
                URL(fileURLWithPath: document.path).deletingLastPathComponent().resolvingSymlinksInPath().path + "/"
            for section in document.sections {
                out += "section \(position(section.location, document.path))"
                if let header = section.header { out += " header \(header.debugDescription)" }
                if let footer = section.footer { out += " footer \(footer.debugDescription)" }
                if let index = section.indexTitle { out += " index \(index.debugDescription)" }
                out += "\n"
                for row in section.rows {
                    out += "  row \(position(row.location, document.path)) id \(row.id.debugDescription)"
                    out += row.hasExplicitID ? " explicit" : " derived"
                    out += " style \(row.style) accessory \(row.accessory)"
                    out += row.hasDetailPage ? " detail-page\n" : "\n"
                    out += "    text \(row.text.debugDescription)\n"
                    if let detail = row.detail { out += "    detail \(detail.debugDescription)\n" }
                    if let image = row.image {
                        let url =
                            row.imageURL.map { relative($0.path.replacingOccurrences(of: folder, with: "<folder>/")) }
                            ?? "none"
                        out += "    image \(image.debugDescription) -> \(url)\n"
                    }
                    if let body = row.body { out += "    body \(body.debugDescription)\n" }
                    if let link = row.link { out += "    link \(link.debugDescription)\n" }
                    if let isOn = row.switchIsOn { out += "    switch \(isOn)\n" }
                    let fields = ListingRow.Field.allCases.compactMap { field in
                        row.fieldLocations[field].map { "\(field.rawValue)@\(position($0, document.path))" }
                    }
                    out += "    at \(fields.joined(separator: " "))\n"
                }
            }
            return out
        }
    }

    /// `line:column`, marked when the location names another file.
    static func position(_ location: SourceLocation, _ path: String) -> String {
        (location.file == path ? "" : "[\(location.file)]") + "\(location.line):\(location.column)"
    }

    /// One line per result: the diagnostics in full, a valid document as a digest of its text.
    static func summary(of result: Result<ListingDocument, ListingError>) -> String {
        switch result {
        case .failure(let error): return error.diagnostics.map(\.description).joined(separator: " | ")
        case .success(let document):
            let text = Self.text(of: .success(document), root: "/")
            return "ok \(document.sections.count) sections \(document.allRows.count) rows \(fnv1a(text))"
        }
    }
}

/// The FNV-1a 64 hash of `text`'s UTF-8 bytes as 16 hex digits: the digest the golden lines use.
func fnv1a(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
